// An editable table over one array of the scenario document (see json_table_model.hpp).
#include "gui/json_table_model.hpp"

#include <QBrush>
#include <QColor>
#include <QPalette>

#include "gui/model_text.hpp"

namespace slicewise::gui {

namespace {

/// Light red behind a cell the check found a problem in.
const QColor kProblemBackground(255, 214, 214);

using Column = JsonTableModel::Column;

/// A cell's text: derived, the fallback of an absent value, or the value's own.
QVariant display_text(const Column& column, int row, const Json* value) {
  if (column.derived) return column.derived(row);
  if (!value && column.fallback) return column.fallback(row);
  return field_text(value);
}

/// A cell's tooltip: a derived column's own; else the problems at `pointer`, or the field's help.
QVariant cell_tooltip(const Column& column, int row, const ScenarioDocument& document, const std::string& pointer) {
  if (column.derived) return column.derived_tooltip ? QVariant(column.derived_tooltip(row)) : QVariant();
  const QString problems = diagnostics_text(document.diagnostics_at(pointer));
  if (!problems.isEmpty()) return problems;
  return column.field.tooltip.isEmpty() ? QVariant() : QVariant(column.field.tooltip);
}

}  // namespace

JsonTableModel::JsonTableModel(ScenarioDocument* document, std::string array_pointer, QObject* parent)
    : QAbstractTableModel(parent), document_(document), array_pointer_(std::move(array_pointer)) {
  connect(document_, &ScenarioDocument::validated, this, &JsonTableModel::refresh_rows);
}

void JsonTableModel::add_column(Column column) {
  beginResetModel();
  columns_.push_back(std::move(column));
  rows_ = array_size();  // here, not in the constructor: a subclass's array_size() applies
  endResetModel();
}

void JsonTableModel::add_field(FieldSpec field, std::function<QString(int)> fallback, bool numeric) {
  Column column;
  column.field = std::move(field);
  column.fallback = std::move(fallback);
  column.numeric = numeric;
  add_column(std::move(column));
}

void JsonTableModel::set_choices(int column, QStringList choices) {
  columns_.at(static_cast<std::size_t>(column)).field.choices = std::move(choices);
}

void JsonTableModel::add_derived(QString label, std::function<QString(int)> text, std::function<QString(int)> tooltip) {
  Column column;
  column.field.label = std::move(label);
  column.derived = std::move(text);
  column.derived_tooltip = std::move(tooltip);
  add_column(std::move(column));
}

std::string JsonTableModel::row_pointer(int row) const { return array_pointer_ + "/" + std::to_string(row); }

int JsonTableModel::array_size() const {
  const Json* array = document_->value_at(array_pointer_);
  return array && array->is_array() ? static_cast<int>(array->size()) : 0;
}

int JsonTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows_; }

int JsonTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant JsonTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Column& column = columns_[static_cast<std::size_t>(index.column())];
  const std::string pointer = row_pointer(index.row()) + column.field.pointer;
  const Json* value = column.derived ? nullptr : document_->value_at(pointer);
  switch (role) {
    case Qt::DisplayRole: return display_text(column, index.row(), value);
    case Qt::EditRole: return column.derived ? QVariant() : QVariant(field_text(value));
    case Qt::TextAlignmentRole: return column.numeric ? QVariant(kNumberAlignment) : QVariant();
    case Qt::ForegroundRole:
      if (!column.derived && !value && column.fallback)
        return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
      return {};
    case Qt::BackgroundRole:
      if (column.derived || document_->diagnostics_at(pointer).empty()) return {};
      return QBrush(kProblemBackground);
    case Qt::ToolTipRole: return cell_tooltip(column, index.row(), *document_, pointer);
    case kChoicesRole: return column.field.type == FieldType::choice ? QVariant(column.field.choices) : QVariant();
    case kPointerRole: return QString::fromStdString(pointer);
    case kProblemRole: return !column.derived && !document_->diagnostics_at(pointer).empty();
    default: return {};
  }
}

bool JsonTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return false;
  }
  const Column& column = columns_[static_cast<std::size_t>(index.column())];
  if (column.derived) return false;
  document_->set_value(row_pointer(index.row()) + column.field.pointer,
                       field_value(value.toString(), column.field.type), tr("Edit %1").arg(column.field.label));
  return true;
}

Qt::ItemFlags JsonTableModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags flags = QAbstractTableModel::flags(index);
  if (index.isValid() && !columns_[static_cast<std::size_t>(index.column())].derived) flags |= Qt::ItemIsEditable;
  return flags;
}

QVariant JsonTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && section >= 0 && section < static_cast<int>(columns_.size())) {
    const FieldSpec& field = columns_[static_cast<std::size_t>(section)].field;
    if (role == Qt::DisplayRole) return field.label;
    if (role == Qt::ToolTipRole && !field.tooltip.isEmpty()) return field.tooltip;
  }
  return QAbstractTableModel::headerData(section, orientation, role);
}

void JsonTableModel::refresh_rows() {
  document_checked();
  const int size = array_size();
  if (size != rows_) {  // an element added or removed, or the document replaced
    beginResetModel();
    rows_ = size;
    endResetModel();
  }
  // Every edit can change derived cells of any row (a renamed GPU, a new price option) and which
  // cells have problems; the tables are a few rows long.
  if (rows_ > 0 && !columns_.empty()) emit dataChanged(index(0, 0), index(rows_ - 1, columnCount() - 1));
}

}  // namespace slicewise::gui
