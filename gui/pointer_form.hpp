// A form over one object of the scenario document (the scenario itself, a tenant, a strategy):
// one row per FieldSpec, each editor committing an undoable edit when the user finishes with it,
// rows hidden when their field does not apply (a poisson load has no think time), and the CLI's
// message shown at a field the document check finds wrong.
#pragma once

#include <string>
#include <vector>

#include <QWidget>

#include "gui/json_field.hpp"
#include "gui/scenario_document.hpp"

class QFormLayout;
class QLabel;

namespace slicewise::gui {

/// Editors are QLineEdit (text, number, list) or QComboBox (choice; an empty first entry means
/// "absent: the default", shown with the placeholder). Each editor's object name is the field's
/// relative pointer with '/' turned into '_' minus the first ("workload_memory_gib"), so tests and
/// style sheets can find it; a field with a problem gets the dynamic property "problem" = true.
class PointerForm : public QWidget {
  Q_OBJECT

 public:
  PointerForm(ScenarioDocument* document, const std::vector<FieldSpec>& fields, QWidget* parent = nullptr);

  /// The object the form edits ("/tenants/1"; "" = the document root). A base that does not exist
  /// disables the form; so does clear_base().
  void set_base(const std::string& base);
  void clear_base();
  const std::string& base() const { return base_; }

  /// Adds `widget` (e.g. a Browse button) to the right of the field at `relative_pointer`.
  void add_beside(const std::string& relative_pointer, QWidget* widget);
  /// The editor of a field (QLineEdit or QComboBox); nullptr when unknown.
  QWidget* editor(const std::string& relative_pointer) const;

  /// Re-reads every editor from the document (also done after every document change).
  void refresh();

 private:
  struct Row {
    FieldSpec field;
    QWidget* editor = nullptr;
    QWidget* line = nullptr;  ///< editor plus any widgets beside it
    QLabel* label = nullptr;
  };
  void commit(const Row& row, const QString& text);
  void build_row(const FieldSpec& field);

  ScenarioDocument* document_;
  std::vector<Row> rows_;
  QFormLayout* layout_;
  QLabel* problems_;
  std::string base_;
  bool enabled_base_ = false;
  bool refreshing_ = false;
};

}  // namespace slicewise::gui
