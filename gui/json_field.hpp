// A field of the scenario document as the editor shows it: where it is (a JSON pointer relative to
// a tenant, a strategy, ...), how its text reads and parses, and when it applies. The table models
// and the detail forms share these, so a cell and a form field edit a value the same way.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <QString>
#include <QStringList>

#include "core/json_reader.hpp"
#include "gui/scenario_document.hpp"
#include "scenario/kind_keys.hpp"

namespace slicewise::gui {

enum class FieldType {
  text,     ///< a JSON string
  number,   ///< a JSON number
  integer,  ///< a JSON integer
  choice,   ///< a JSON string out of FieldSpec::choices
  boolean,  ///< true | false
  list,     ///< JSON array of numbers, edited as "1, 2, 3"
  words,    ///< JSON array of strings, edited as "a, b, c"
  json,     ///< any JSON value, edited as compact JSON text (arrays of objects: MMPP states, sidecars)
};

/// Built as FieldSpec(label, pointer, type).choices(...).tooltip(...): aggregate initialisation
/// would trip -Wmissing-field-initializers on every optional member.
struct FieldSpec {
  FieldSpec() = default;
  FieldSpec(QString label_text, std::string relative_pointer, FieldType field_type = FieldType::text)
      : label(std::move(label_text)), pointer(std::move(relative_pointer)), type(field_type) {}
  FieldSpec& with_choices(QStringList names) {
    choices = std::move(names);
    return *this;
  }
  FieldSpec& with_placeholder(QString text) {
    placeholder = std::move(text);
    return *this;
  }
  FieldSpec& with_tooltip(QString text) {
    tooltip = std::move(text);
    return *this;
  }
  FieldSpec& when(std::string relative_pointer, QStringList values, QString absent_reads_as = {}) {
    when_pointer = std::move(relative_pointer);
    when_values = std::move(values);
    when_default = std::move(absent_reads_as);
    return *this;
  }

  QString label;        ///< header or form label, with its unit: "Solo latency (s)"
  std::string pointer;  ///< relative to the row or form base: "/workload/solo_latency_s"
  FieldType type = FieldType::text;
  QStringList choices;  ///< choice: the allowed names
  QString placeholder;  ///< shown (grey) when the value is absent: the default, or a hint
  QString tooltip;      ///< what the field means (docs/scenario-format.md)
  /// The field applies only when the value at `when_pointer` (relative) is one of `when_values`
  /// (an absent value reads as `when_default`); empty `when_pointer` = always.
  std::string when_pointer;
  QStringList when_values;
  QString when_default;
};

/// Display text of a JSON value: numbers as the shortest decimal that reads back ("19.2"), strings
/// as they are, arrays of numbers as "1, 2, 3", other values as compact JSON; "" for nullptr.
QString field_text(const Json* value);

/// The JSON value a field's text stands for: nullopt for "" (the key is removed, so the default
/// applies); a number or integer when the text reads as one; true/false for booleans; a list for
/// list fields. Text that does not read as the type is kept as a string, so the document check
/// reports it with the CLI's message ("expected a number").
std::optional<Json> field_value(const QString& text, FieldType type);

/// Whether `field` applies to the object at `base` in `document`.
bool field_applies(const FieldSpec& field, const ScenarioDocument& document, const std::string& base);

/// The names of an enum table, in table order.
template <typename E>
QStringList choice_names(const EnumTable<E>& table) {
  QStringList names;
  for (const auto& [name, value] : table) names << QString::fromStdString(name);
  return names;
}

/// The GPU catalog's ids (models::GpuCatalog::shipped()), for GPU choice fields.
QStringList gpu_choices();

/// The names of the kinds that use `key` according to `table` (scenario/kind_keys.hpp), for
/// FieldSpec::when: every kind when the table does not list the key.
template <typename K>
QStringList kinds_using_key(const scenario::KeyKinds<K>& table, std::string_view key, const EnumTable<K>& names) {
  QStringList using_key;
  for (const auto& [name, kind] : names) {
    if (scenario::uses(table, key, kind)) using_key << QString::fromStdString(name);
  }
  return using_key;
}

/// The diagnostics' messages, one per line, for a tooltip ("" when none).
QString diagnostics_text(const Diagnostics& diagnostics);

}  // namespace slicewise::gui
