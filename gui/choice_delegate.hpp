// Item delegate of the scenario tables: a combo box for cells whose model offers choices
// (JsonTableModel::kChoicesRole), the default line edit otherwise.
#pragma once

#include <QStyledItemDelegate>

namespace slicewise::gui {

class ChoiceDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  void setEditorData(QWidget* editor, const QModelIndex& index) const override;
  void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace slicewise::gui
