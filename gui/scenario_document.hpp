// The scenario being edited: its JSON document (the source of truth, saved as written), an undo
// stack of pointer-addressed edits, and the result of checking it with the same parser and
// validator as the CLI after every edit, so the editor shows the CLI's messages at their fields.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <QObject>
#include <QString>
#include <nlohmann/json.hpp>

#include "core/diagnostic.hpp"
#include "scenario/scenario.hpp"

class QUndoStack;

namespace slicewise::gui {

using Json = nlohmann::ordered_json;

/// Rewrites the paths a scenario names relative to its own folder (each tenant's
/// load/trace_file, and pricing/table when it names a file) from `from_dir` to `to_dir`: relative
/// to `to_dir`, or absolute when `to_dir` is empty. Absolute paths and shipped table names stay.
void rebase_scenario_paths(Json& document, const std::filesystem::path& from_dir, const std::filesystem::path& to_dir);

/// Sets every parent pointer in `document` again. nlohmann 3.11.2 (Debian 12) built with
/// JSON_DIAGNOSTICS keeps an ordered_json object's members in a vector, and inserting or erasing a
/// key moves them without their parent pointers (the move constructor leaves them null): the
/// library's invariant breaks, so a debug build asserts on the next copy, and its error messages
/// lose their JSON paths. Call it after changing an ordered_json object's keys in place.
void restore_parents(Json& document);

/// One scenario document. Every edit goes through set_value/replace (undoable); after each change
/// (edit, undo, redo, load) the document is checked again and changed() then validated() fire.
class ScenarioDocument : public QObject {
  Q_OBJECT

 public:
  explicit ScenarioDocument(QObject* parent = nullptr);
  ~ScenarioDocument() override;

  /// Reads `path`. A file that is not JSON gives false and `error` set to the CLI's message
  /// (`file:line:col: ...`), leaving the current document as it was. Clears the undo history.
  bool open(const QString& path, QString* error);
  /// Replaces the document (a new scenario, or tests); `path` may be empty (untitled).
  void set_document(Json document, const QString& path = {});
  /// Writes the document to path() (pretty-printed, atomically); false and `error` on failure.
  bool save(QString* error);
  /// Writes to `path` and makes it the document's path; relative trace and price-table paths are
  /// rewritten for the new folder so they still name the same files.
  bool save_as(const QString& path, QString* error);

  const Json& json() const { return document_; }
  QString path() const { return path_; }
  /// The file name, or "untitled.json" before the first save.
  QString display_name() const;
  /// The folder relative paths resolve against (the file's; the working directory when untitled).
  std::filesystem::path base_dir() const;
  bool is_modified() const;
  QUndoStack* undo_stack() const { return undo_stack_; }

  /// The value at `pointer` (RFC 6901), or nullptr when absent.
  const Json* value_at(const std::string& pointer) const;
  /// Sets (or, with nullopt, removes) the value at `pointer` as one undoable step named `label`;
  /// missing parent objects are created. No-op when the value is already that.
  void set_value(const std::string& pointer, std::optional<Json> value, const QString& label = {});
  /// Several edits as one undo step.
  void begin_macro(const QString& label);
  void end_macro();

  /// Every problem of the current document, phase 1 (types, keys, ranges) then, when that passes,
  /// phase 2 (catalogs, MIG layouts, files): exactly what `slicewise validate` prints.
  const Diagnostics& diagnostics() const { return diagnostics_; }
  /// The diagnostics at `pointer` or below it.
  Diagnostics diagnostics_at(const std::string& pointer) const;
  /// The parsed scenario (Scenario::source_file set) when phase 1 passes, else nullopt.
  const std::optional<scenario::Scenario>& scenario() const { return scenario_; }
  /// True when there is no diagnostic: the scenario can be simulated.
  bool is_valid() const { return scenario_.has_value() && diagnostics_.empty(); }

  /// Applies a value without recording an undo step (used by the undo commands).
  void apply(const std::string& pointer, const std::optional<Json>& value);

 signals:
  /// After the value at `pointer` changed ("" when the whole document was replaced).
  void changed(const QString& pointer);
  /// After diagnostics() and scenario() were recomputed.
  void validated();
  void pathChanged(const QString& path);
  void modifiedChanged(bool modified);

 private:
  void check();
  std::string file_label() const;

  Json document_ = Json::object();
  QString path_;
  QUndoStack* undo_stack_;
  Diagnostics diagnostics_;
  std::optional<scenario::Scenario> scenario_;
};

}  // namespace slicewise::gui
