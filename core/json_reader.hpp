// Strict reading of user-facing JSON objects: required keys, typed values, ranges, enums from an
// explicit table, and unknown keys rejected with a did-you-mean hint. Problems are collected as
// Diagnostics (every problem at once), never thrown one by one.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/diagnostic.hpp"

namespace slicewise {

/// An allowed numeric interval, e.g. NumberRange::positive() is (0, +inf).
struct NumberRange {
  std::optional<double> min;
  bool min_exclusive = false;
  std::optional<double> max;
  bool max_exclusive = false;

  static NumberRange any() { return {}; }
  static NumberRange positive() { return {0.0, true, std::nullopt, false}; }
  static NumberRange non_negative() { return {0.0, false, std::nullopt, false}; }
  static NumberRange fraction() { return {0.0, false, 1.0, false}; }          ///< [0, 1]
  static NumberRange positive_fraction() { return {0.0, true, 1.0, false}; }  ///< (0, 1]
  static NumberRange at_least(double lo) { return {lo, false, std::nullopt, false}; }
  static NumberRange between(double lo, double hi) { return {lo, false, hi, false}; }

  /// "" when `value` is inside; otherwise "must be > 0" style text.
  std::string violation(double value) const;
};

/// Name ↔ value table for reading an enum; the error lists every name in table order.
template <class E>
using EnumTable = std::vector<std::pair<std::string, E>>;

/// Shortest decimal text that reads back as `value` (1, 0.25, 2.24208, 1e-06).
std::string format_number(double value);

/// RFC 6901 escaping of one reference token ("a/b" -> "a~1b").
std::string json_pointer_token(std::string_view key);

/// Reads one JSON object. Every accessor records the key as allowed; finish() then reports every
/// key that no accessor asked for. Wrong types, out-of-range numbers and unknown enum names add a
/// Diagnostic and return a default, so a loader can go on and report all problems in one pass.
class JsonReader {
 public:
  /// `value` must outlive the reader. A non-object `value` adds one diagnostic; then every
  /// accessor returns its default and finish() adds nothing.
  JsonReader(const nlohmann::json& value, std::string pointer, Diagnostics& out, std::string file);

  bool valid() const { return object_ != nullptr; }
  const std::string& pointer() const { return pointer_; }
  const std::string& file() const { return file_; }
  Diagnostics& diagnostics() { return *out_; }
  /// Pointer of a member: pointer() + "/" + escaped key.
  std::string pointer(std::string_view key) const;
  /// True when the key is present; marks it allowed.
  bool has(std::string_view key);
  /// Marks a key as allowed without reading it.
  void allow(std::string_view key);

  std::string required_string(std::string_view key);
  std::string optional_string(std::string_view key, std::string fallback);
  std::optional<std::string> maybe_string(std::string_view key);

  double required_number(std::string_view key, const NumberRange& range = {});
  double optional_number(std::string_view key, double fallback, const NumberRange& range = {});
  std::optional<double> maybe_number(std::string_view key, const NumberRange& range = {});

  /// Integers are refused beyond +-2^53, where a double no longer holds each one exactly.
  std::int64_t required_integer(std::string_view key, const NumberRange& range = {});
  std::int64_t optional_integer(std::string_view key, std::int64_t fallback, const NumberRange& range = {});
  std::optional<std::int64_t> maybe_integer(std::string_view key, const NumberRange& range = {});

  bool optional_bool(std::string_view key, bool fallback);

  /// The document's required "schema_version", which this build reads as `supported`. A missing
  /// key, a value that is not a number and another version each add a diagnostic ("unsupported
  /// schema version (got 2; supported: 1)"). False only for another version: the caller should
  /// then report nothing else, since other keys may mean other things there.
  bool schema_version(std::int64_t supported);

  /// Member that must be an object / array; nullptr (plus a diagnostic if present but of the wrong
  /// type, or missing when required).
  const nlohmann::json* required_object(std::string_view key);
  const nlohmann::json* optional_object(std::string_view key);
  const nlohmann::json* required_array(std::string_view key);
  const nlohmann::json* optional_array(std::string_view key);
  /// Member of any type, or nullptr when absent (a diagnostic when required).
  const nlohmann::json* required_value(std::string_view key);
  const nlohmann::json* optional_value(std::string_view key);

  template <class E>
  E required_enum(std::string_view key, const EnumTable<E>& table) {
    return table[static_cast<std::size_t>(choose(key, names_of(table), -1))].second;
  }
  template <class E>
  E optional_enum(std::string_view key, E fallback, const EnumTable<E>& table) {
    const int index = choose(key, names_of(table), -2);
    return index < 0 ? fallback : table[static_cast<std::size_t>(index)].second;
  }

  /// Adds a diagnostic at pointer(key).
  void error(std::string_view key, std::string message);
  /// Adds a diagnostic at pointer().
  void error_here(std::string message);
  /// Reports unknown keys. Call after every accessor.
  void finish();

 private:
  template <class E>
  static std::vector<std::string> names_of(const EnumTable<E>& table) {
    std::vector<std::string> names;
    for (const auto& entry : table) names.push_back(entry.first);
    return names;
  }
  /// Index of the chosen name; -1 required (0 returned on error), -2 optional absent/invalid.
  int choose(std::string_view key, const std::vector<std::string>& names, int mode);
  const nlohmann::json* find(std::string_view key);
  const nlohmann::json* typed(std::string_view key, bool required, bool (*is_type)(const nlohmann::json&),
                              const char* type_name);
  std::optional<double> number(std::string_view key, bool required, const NumberRange& range, bool integer);

  const nlohmann::json* object_ = nullptr;
  std::string pointer_;
  Diagnostics* out_;
  std::string file_;
  std::vector<std::string> allowed_;
  std::set<std::string, std::less<>> allowed_set_;
};

/// Short text of a JSON value for "(got X)": strings quoted, long values cut at 40 characters.
std::string describe_json(const nlohmann::json& value);

/// A nlohmann exception met while reading the value at `prefix` of `file`, as a located problem:
/// "[json.exception.type_error.302] (/a/0) type must be number, but is null" becomes pointer
/// `prefix` + "/a/0" and message `context` + "type must be number, but is null".
Diagnostic json_exception_diagnostic(const std::exception& e, const std::string& file, const std::string& prefix,
                                     const std::string& context);

/// A name (of a scenario, tenant, strategy, sweep, axis): a non-empty string without control
/// characters, which would break the table rows, CSV lines and JUnit names it ends up in. Adds a
/// diagnostic when it is empty, has one, or is missing while `required`; "" when absent.
std::string read_name(JsonReader& r, std::string_view key, bool required);

}  // namespace slicewise
