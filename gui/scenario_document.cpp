// The scenario being edited (see scenario_document.hpp).
#include "gui/scenario_document.hpp"

#include <exception>

#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "scenario/json_io.hpp"
#include "scenario/validate.hpp"

namespace slicewise::gui {

namespace {

namespace fs = std::filesystem;
using Pointer = Json::json_pointer;

/// One edit: the value at a pointer before and after (nullopt = absent).
class SetValueCommand : public QUndoCommand {
 public:
  SetValueCommand(ScenarioDocument* document, std::string pointer, std::optional<Json> before,
                  std::optional<Json> after, const QString& label)
      : QUndoCommand(label),
        document_(document),
        pointer_(std::move(pointer)),
        before_(std::move(before)),
        after_(std::move(after)) {}

  void redo() override { document_->apply(pointer_, after_); }
  void undo() override { document_->apply(pointer_, before_); }

 private:
  ScenarioDocument* document_;
  std::string pointer_;
  std::optional<Json> before_;
  std::optional<Json> after_;
};

/// `path` as it should be written in a scenario in `to_dir` (absolute when `to_dir` is empty).
std::string rebased(const std::string& path, const fs::path& from_dir, const fs::path& to_dir) {
  const fs::path given(path);
  if (path.empty() || given.is_absolute()) return path;
  const fs::path absolute = fs::absolute(from_dir / given).lexically_normal();
  if (to_dir.empty()) return absolute.string();
  return absolute.lexically_relative(fs::absolute(to_dir).lexically_normal()).string();
}

}  // namespace

void rebase_scenario_paths(Json& document, const fs::path& from_dir, const fs::path& to_dir) {
  if (!document.is_object()) return;
  if (auto tenants = document.find("tenants"); tenants != document.end() && tenants->is_array()) {
    for (auto& tenant : *tenants) {
      if (!tenant.is_object() || !tenant.contains("load") || !tenant["load"].is_object()) continue;
      auto& load = tenant["load"];
      if (auto file = load.find("trace_file"); file != load.end() && file->is_string()) {
        *file = rebased(file->get<std::string>(), from_dir, to_dir);
      }
    }
  }
  if (auto pricing = document.find("pricing"); pricing != document.end() && pricing->is_object()) {
    // A shipped table is named ("aws"); a table file is a path ("prices/mine.json").
    if (auto table = pricing->find("table"); table != pricing->end() && table->is_string()) {
      const std::string name = table->get<std::string>();
      if (name.find('/') != std::string::npos || fs::path(name).extension() == ".json") {
        *table = rebased(name, from_dir, to_dir);
      }
    }
  }
}

void restore_parents(Json& document) {
  if (!document.is_structured()) return;
  for (auto& child : document) restore_parents(child);
  // The move constructor points the members at their new owner, and assignment at `document`.
  document = Json(std::move(document));
}

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent), undo_stack_(new QUndoStack(this)) {
  connect(undo_stack_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
  check();
}

ScenarioDocument::~ScenarioDocument() = default;

bool ScenarioDocument::open(const QString& path, QString* error) {
  Json document;
  try {
    const std::string text = read_text_file(path.toStdString());
    parse_json_text(text, path.toStdString());  // the CLI's checks and messages (line:col, duplicate keys)
    document = Json::parse(text);               // ... then kept in its key order
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  set_document(std::move(document), path);
  return true;
}

void ScenarioDocument::set_document(Json document, const QString& path) {
  document_ = std::move(document);
  undo_stack_->clear();
  undo_stack_->setClean();
  if (path != path_) {
    path_ = path;
    emit pathChanged(path_);
  }
  check();
  emit changed(QString());
  emit validated();
}

bool ScenarioDocument::save(QString* error) {
  if (path_.isEmpty()) {
    if (error) *error = tr("the scenario has no file name yet; use Save As");
    return false;
  }
  try {
    write_file_atomically(path_.toStdString(), document_.dump(2) + "\n");
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  undo_stack_->setClean();
  return true;
}

bool ScenarioDocument::save_as(const QString& path, QString* error) {
  const fs::path to_dir = fs::path(path.toStdString()).parent_path();
  Json rebased_document = document_;
  rebase_scenario_paths(rebased_document, base_dir(), to_dir.empty() ? fs::path(".") : to_dir);
  try {
    write_file_atomically(path.toStdString(), rebased_document.dump(2) + "\n");
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  const bool paths_moved = rebased_document != document_;
  document_ = std::move(rebased_document);
  if (paths_moved) undo_stack_->clear();  // the old steps hold the old relative paths
  path_ = path;
  emit pathChanged(path_);
  undo_stack_->setClean();
  check();
  emit changed(QString());
  emit validated();
  return true;
}

QString ScenarioDocument::display_name() const {
  return path_.isEmpty() ? QStringLiteral("untitled.json") : QFileInfo(path_).fileName();
}

fs::path ScenarioDocument::base_dir() const {
  if (path_.isEmpty()) return fs::current_path();
  const fs::path parent = fs::path(path_.toStdString()).parent_path();
  return parent.empty() ? fs::current_path() : parent;
}

bool ScenarioDocument::is_modified() const { return !undo_stack_->isClean(); }

const Json* ScenarioDocument::value_at(const std::string& pointer) const {
  try {
    const Pointer p(pointer);
    return document_.contains(p) ? &document_.at(p) : nullptr;
  } catch (const std::exception&) {
    return nullptr;
  }
}

void ScenarioDocument::set_value(const std::string& pointer, std::optional<Json> value, const QString& label) {
  std::optional<Json> before;
  if (const Json* current = value_at(pointer)) before = *current;
  if (before == value) return;
  undo_stack_->push(new SetValueCommand(this, pointer, std::move(before), std::move(value),
                                        label.isEmpty() ? tr("Edit %1").arg(QString::fromStdString(pointer)) : label));
}

void ScenarioDocument::begin_macro(const QString& label) { undo_stack_->beginMacro(label); }
void ScenarioDocument::end_macro() { undo_stack_->endMacro(); }

void ScenarioDocument::apply(const std::string& pointer, const std::optional<Json>& value) {
  const Pointer p(pointer);
  if (value) {
    if (!document_.is_object()) document_ = Json::object();
    document_[p] = *value;
  } else if (document_.contains(p)) {
    Json& parent = document_.at(p.parent_pointer());
    if (parent.is_object()) {
      parent.erase(p.back());
    } else if (parent.is_array()) {
      parent.erase(parent.begin() + std::stol(p.back()));
    }
  }
  restore_parents(document_);
  check();
  emit changed(QString::fromStdString(pointer));
  emit validated();
}

Diagnostics ScenarioDocument::diagnostics_at(const std::string& pointer) const {
  Diagnostics found;
  for (const Diagnostic& d : diagnostics_) {
    if (d.pointer == pointer ||
        (d.pointer.size() > pointer.size() && d.pointer.compare(0, pointer.size(), pointer) == 0 &&
         d.pointer[pointer.size()] == '/')) {
      found.push_back(d);
    }
  }
  return found;
}

std::string ScenarioDocument::file_label() const { return path_.isEmpty() ? "untitled.json" : path_.toStdString(); }

void ScenarioDocument::check() {
  diagnostics_.clear();
  scenario_.reset();
  try {
    scenario::Scenario parsed = scenario::parse_scenario(nlohmann::json(document_), file_label());
    // Relative paths resolve against the document's folder, as when the CLI loads the file.
    parsed.source_file = path_.isEmpty() ? fs::path() : fs::path(path_.toStdString());
    diagnostics_ = scenario::validate_scenario(parsed, scenario::Catalogs::shipped());
    scenario_ = std::move(parsed);
  } catch (const ConfigError& e) {
    diagnostics_ = e.diagnostics();
    if (diagnostics_.empty()) diagnostics_.push_back(Diagnostic{file_label(), 0, 0, "", e.what()});
  } catch (const std::exception& e) {
    diagnostics_.push_back(Diagnostic{file_label(), 0, 0, "", e.what()});
  }
}

}  // namespace slicewise::gui
