// Combo-box editing of choice cells (see choice_delegate.hpp).
#include "gui/choice_delegate.hpp"

#include <QComboBox>

#include "gui/json_table_model.hpp"

namespace slicewise::gui {

QWidget* ChoiceDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                      const QModelIndex& index) const {
  const QStringList choices = index.data(JsonTableModel::kChoicesRole).toStringList();
  if (choices.isEmpty()) return QStyledItemDelegate::createEditor(parent, option, index);
  auto* combo = new QComboBox(parent);
  combo->addItem(QString());  // empty: remove the key, the default applies
  combo->addItems(choices);
  return combo;
}

void ChoiceDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
  if (auto* combo = qobject_cast<QComboBox*>(editor)) {
    const QString current = index.data(Qt::EditRole).toString();
    int at = combo->findText(current);
    if (at < 0) {
      combo->addItem(current);
      at = combo->count() - 1;
    }
    combo->setCurrentIndex(at);
    return;
  }
  QStyledItemDelegate::setEditorData(editor, index);
}

void ChoiceDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
  if (auto* combo = qobject_cast<QComboBox*>(editor)) {
    model->setData(index, combo->currentText(), Qt::EditRole);
    return;
  }
  QStyledItemDelegate::setModelData(editor, model, index);
}

}  // namespace slicewise::gui
