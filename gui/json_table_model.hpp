// An editable table over one array of the scenario document (/fleet, /tenants, /strategies): one
// row per element, one column per FieldSpec or derived text. Edits become undoable document
// edits; cells with a problem are tinted and carry the CLI's message as their tooltip.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <QAbstractTableModel>

#include "gui/json_field.hpp"
#include "gui/scenario_document.hpp"

namespace slicewise::gui {

class JsonTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role : int {
    kChoicesRole = Qt::UserRole + 1,  ///< QStringList of allowed values (choice columns), for the delegate
    kPointerRole,                     ///< the cell's JSON pointer (QString)
    kProblemRole,                     ///< true when a diagnostic is at the cell's pointer or below
  };

  /// A column: a field of each element, or (when `derived` is set) read-only text computed from
  /// the row; `fallback` gives the text of an absent field (shown grey, e.g. a default).
  struct Column {
    FieldSpec field;
    std::function<QString(int row)> derived;
    std::function<QString(int row)> fallback;
    std::function<QString(int row)> derived_tooltip;
    bool numeric = false;
  };

  JsonTableModel(ScenarioDocument* document, std::string array_pointer, QObject* parent = nullptr);

  void add_column(Column column);
  /// An editable column over `field`; `fallback` gives the grey text of an absent value.
  void add_field(FieldSpec field, std::function<QString(int row)> fallback = {}, bool numeric = false);
  /// A read-only column of text computed from the row.
  void add_derived(QString label, std::function<QString(int row)> text, std::function<QString(int row)> tooltip = {});
  const std::string& array_pointer() const { return array_pointer_; }
  /// "/tenants/2"; a subclass may address its rows otherwise (by tenant name, say).
  virtual std::string row_pointer(int row) const;
  ScenarioDocument* document() const { return document_; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 protected:
  /// The number of rows the document has now (the array's size by default).
  virtual int array_size() const;
  /// Called first by refresh_rows(): a subclass recomputes what it derives from the document once
  /// per check here, not once per cell paint.
  virtual void document_checked() {}
  /// Replaces the allowed values of choice column `column` (they may follow the document, as the
  /// fleet's instance types follow its price table). The cells refresh after document_checked().
  void set_choices(int column, QStringList choices);
  /// Re-reads the row count (a reset when it changed) and refreshes every cell. Runs after every
  /// document check (the document checks after every change, so one slot serves both).
  void refresh_rows();

 private:
  ScenarioDocument* document_;
  std::string array_pointer_;
  std::vector<Column> columns_;
  int rows_ = 0;
};

}  // namespace slicewise::gui
