// A form over one object of the scenario document (see pointer_form.hpp).
#include "gui/pointer_form.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QVBoxLayout>

namespace slicewise::gui {

namespace {

QString editor_name(const std::string& pointer) {
  QString name = QString::fromStdString(pointer.size() > 1 ? pointer.substr(1) : pointer);
  return name.replace(QLatin1Char('/'), QLatin1Char('_'));
}

/// Tints a widget with a problem through its dynamic property (style sheet below).
void set_problem(QWidget* widget, bool problem) {
  if (widget->property("problem").toBool() == problem) return;
  widget->setProperty("problem", problem);
  widget->style()->unpolish(widget);
  widget->style()->polish(widget);
}

}  // namespace

PointerForm::PointerForm(ScenarioDocument* document, const std::vector<FieldSpec>& fields, QWidget* parent)
    : QWidget(parent), document_(document) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  layout_ = new QFormLayout;
  layout_->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
  outer->addLayout(layout_);
  problems_ = new QLabel(this);
  problems_->setObjectName(QStringLiteral("formProblems"));
  problems_->setWordWrap(true);
  problems_->setStyleSheet(QStringLiteral("color: #b00020;"));
  problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problems_->hide();
  outer->addWidget(problems_);
  outer->addStretch(1);
  setStyleSheet(QStringLiteral("*[problem=\"true\"] { background: #ffd6d6; }"));
  for (const FieldSpec& field : fields) build_row(field);
  connect(document_, &ScenarioDocument::validated, this, &PointerForm::refresh);
  clear_base();
}

void PointerForm::build_row(const FieldSpec& field) {
  Row row;
  row.field = field;
  if (field.type == FieldType::choice || field.type == FieldType::boolean) {
    auto* combo = new QComboBox(this);
    combo->addItem(field.placeholder.isEmpty() ? QString() : tr("(default: %1)").arg(field.placeholder), QString());
    const QStringList choices = field.type == FieldType::boolean ? QStringList{"true", "false"} : field.choices;
    for (const QString& choice : choices) combo->addItem(choice, choice);
    connect(combo, &QComboBox::activated, this, [this, combo] {
      for (const Row& r : rows_) {
        if (r.editor == combo) commit(r, combo->currentData().toString());
      }
    });
    row.editor = combo;
  } else {
    auto* edit = new QLineEdit(this);
    edit->setPlaceholderText(field.placeholder);
    connect(edit, &QLineEdit::editingFinished, this, [this, edit] {
      for (const Row& r : rows_) {
        if (r.editor == edit) commit(r, edit->text());
      }
    });
    row.editor = edit;
  }
  row.editor->setObjectName(editor_name(field.pointer));
  row.editor->setToolTip(field.tooltip);
  row.line = new QWidget(this);
  auto* line_layout = new QHBoxLayout(row.line);
  line_layout->setContentsMargins(0, 0, 0, 0);
  line_layout->addWidget(row.editor, 1);
  row.label = new QLabel(field.label, this);
  row.label->setToolTip(field.tooltip);
  layout_->addRow(row.label, row.line);
  rows_.push_back(row);
}

void PointerForm::add_beside(const std::string& relative_pointer, QWidget* widget) {
  for (Row& row : rows_) {
    if (row.field.pointer == relative_pointer) row.line->layout()->addWidget(widget);
  }
}

QWidget* PointerForm::editor(const std::string& relative_pointer) const {
  for (const Row& row : rows_) {
    if (row.field.pointer == relative_pointer) return row.editor;
  }
  return nullptr;
}

void PointerForm::set_base(const std::string& base) {
  base_ = base;
  const Json* object = document_->value_at(base);
  enabled_base_ = base.empty() || (object && object->is_object());
  refresh();
}

void PointerForm::clear_base() {
  base_.clear();
  enabled_base_ = false;
  refresh();
}

void PointerForm::commit(const Row& row, const QString& text) {
  if (refreshing_ || !enabled_base_) return;
  document_->set_value(base_ + row.field.pointer, field_value(text, row.field.type),
                       tr("Edit %1").arg(row.field.label));
}

void PointerForm::refresh() {
  refreshing_ = true;
  if (enabled_base_ && !base_.empty()) {
    const Json* object = document_->value_at(base_);
    enabled_base_ = object && object->is_object();
  }
  setEnabled(enabled_base_);
  QStringList problems;
  for (Row& row : rows_) {
    const std::string pointer = base_ + row.field.pointer;
    const Json* value = enabled_base_ ? document_->value_at(pointer) : nullptr;
    const QString text = field_text(value);
    if (auto* combo = qobject_cast<QComboBox*>(row.editor)) {
      int at = combo->findData(text);
      if (at < 0) {  // a value outside the choices: show it as it is; the check says why it is wrong
        combo->addItem(text, text);
        at = combo->count() - 1;
      }
      combo->setCurrentIndex(at);
    } else if (auto* edit = qobject_cast<QLineEdit*>(row.editor);
               edit && (!edit->hasFocus() || (edit->text() != text && !edit->isModified()))) {
      edit->setText(text);  // a focused field only while the user has not typed in it
    }
    const bool applies = enabled_base_ && field_applies(row.field, *document_, base_);
    row.label->setVisible(applies || !enabled_base_);
    row.line->setVisible(applies || !enabled_base_);
    const Diagnostics diagnostics = enabled_base_ ? document_->diagnostics_at(pointer) : Diagnostics{};
    set_problem(row.editor, !diagnostics.empty());
    row.editor->setToolTip(diagnostics.empty() ? row.field.tooltip : diagnostics_text(diagnostics));
    for (const Diagnostic& d : diagnostics)
      problems << QStringLiteral("%1: %2").arg(row.field.label, QString::fromStdString(d.message));
  }
  problems_->setText(problems.join(QLatin1Char('\n')));
  problems_->setVisible(!problems.isEmpty());
  refreshing_ = false;
}

}  // namespace slicewise::gui
