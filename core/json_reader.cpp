// Strict JSON object reader.
#include "core/json_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/spell.hpp"

namespace slicewise {

using nlohmann::json;

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string json_pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

namespace {
/// "must be in [lo, hi)": the message for a value outside a range with both bounds.
std::string interval_text(const NumberRange& range) {
  return "must be in " + std::string(range.min_exclusive ? "(" : "[") + format_number(*range.min) + ", " +
         format_number(*range.max) + (range.max_exclusive ? ")" : "]");
}
}  // namespace

std::string NumberRange::violation(double value) const {
  if (!std::isfinite(value)) return "must be a finite number";
  if (min && (min_exclusive ? !(value > *min) : !(value >= *min))) {
    if (max) return interval_text(*this);
    return std::string("must be ") + (min_exclusive ? "> " : ">= ") + format_number(*min);
  }
  if (max && (max_exclusive ? !(value < *max) : !(value <= *max))) {
    if (min) return interval_text(*this);
    return std::string("must be ") + (max_exclusive ? "< " : "<= ") + format_number(*max);
  }
  return {};
}

std::string describe_json(const json& value) {
  // A noncharacter (U+FFFE), a C1 control or a line separator shown as its escape, which every
  // output can hold and no terminal obeys; dump() escapes the C0 controls but not DEL.
  std::string text = value.dump();
  if (has_noncharacter(text) || has_line_break(text)) {
    text.clear();
    for (const char c : value.dump(-1, ' ', true)) text += c == '\x7f' ? std::string("\\u007f") : std::string(1, c);
  }
  // Cut at a character's start: the message goes on into JSON outputs, which hold UTF-8 only.
  if (text.size() > 40) text = text.substr(0, utf8_cut(text, 37)) + "...";
  return text;
}

Diagnostic json_exception_diagnostic(const std::exception& e, const std::string& file, const std::string& prefix,
                                     const std::string& context) {
  std::string rest = e.what();
  if (const auto bracket = rest.find("] "); rest.starts_with("[json.exception.") && bracket != std::string::npos) {
    rest = rest.substr(bracket + 2);
  }
  std::string pointer;
  if (const auto close = rest.find(") "); rest.starts_with("(") && close != std::string::npos) {
    pointer = rest.substr(1, close - 1);
    rest = rest.substr(close + 2);
  }
  return Diagnostic{file, 0, 0, prefix + pointer, context + rest};
}

std::string read_name(JsonReader& r, std::string_view key, bool required) {
  const std::size_t before = r.diagnostics().size();
  const bool present = r.has(key);
  std::string value = required ? r.required_string(key) : r.optional_string(key, "");
  if (!present || r.diagnostics().size() != before || !r.valid()) return value;
  if (value.empty()) {
    r.error(key, "must not be empty");
  } else if (has_line_break(value)) {
    r.error(key, "must not contain control characters such as line breaks or tabs, nor U+0085, U+2028 or U+2029 (got " +
                     describe_json(value) + ")");
    value.clear();
  } else if (has_noncharacter(value)) {
    r.error(key,
            "must not contain a Unicode noncharacter (U+FFFE, U+FFFF, U+FDD0..U+FDEF): the JUnit, SVG and "
            "XLSX outputs are XML, which cannot hold them (got " +
                describe_json(value) + ")");
    value.clear();
  }
  return value;
}

namespace {
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

/// True when an integral JSON number lies outside [-2^53, 2^53], judged on its exact value.
bool beyond_exact_integers(const json& v) {
  constexpr std::uint64_t limit = std::uint64_t{1} << 53;
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() > limit;
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    return i > static_cast<std::int64_t>(limit) || i < -static_cast<std::int64_t>(limit);
  }
  return std::abs(v.get<double>()) > kMaxExactInteger;
}

bool is_object(const json& v) { return v.is_object(); }
bool is_array(const json& v) { return v.is_array(); }
bool is_string(const json& v) { return v.is_string(); }
bool is_any(const json&) { return true; }
}  // namespace

JsonReader::JsonReader(const json& value, std::string pointer, Diagnostics& out, std::string file)
    : pointer_(std::move(pointer)), out_(&out), file_(std::move(file)) {
  if (value.is_object()) {
    object_ = &value;
  } else {
    error_here(std::string("expected object (got ") + describe_json(value) + ")");
  }
}

std::string JsonReader::pointer(std::string_view key) const { return pointer_ + "/" + json_pointer_token(key); }

void JsonReader::allow(std::string_view key) {
  if (allowed_set_.insert(std::string(key)).second) allowed_.emplace_back(key);
}

bool JsonReader::has(std::string_view key) { return find(key) != nullptr; }

const json* JsonReader::find(std::string_view key) {
  allow(key);
  if (!object_) return nullptr;
  auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

void JsonReader::error(std::string_view key, std::string message) {
  out_->push_back(Diagnostic{file_, 0, 0, pointer(key), std::move(message)});
}

bool JsonReader::schema_version(std::int64_t supported) {
  if (!valid()) return true;
  if (!has("schema_version")) {
    error_here("missing required key \"schema_version\" (this slicewise reads version " + std::to_string(supported) +
               ")");
    return true;
  }
  // Read as a number, so that a huge value never reaches an integer conversion.
  const std::size_t before = out_->size();
  const double version = required_number("schema_version");
  if (out_->size() != before || version == static_cast<double>(supported)) return true;
  error("schema_version", "unsupported schema version (got " + format_number(version) +
                              "; supported: " + std::to_string(supported) + ")");
  return false;
}

void JsonReader::error_here(std::string message) {
  out_->push_back(Diagnostic{file_, 0, 0, pointer_.empty() ? std::string("/") : pointer_, std::move(message)});
}

const json* JsonReader::typed(std::string_view key, bool required, bool (*is_type)(const json&),
                              const char* type_name) {
  const json* value = find(key);
  if (!value) {
    if (required && object_) error_here("missing required key \"" + std::string(key) + "\"");
    return nullptr;
  }
  if (!is_type(*value)) {
    error(key, std::string("expected ") + type_name + " (got " + describe_json(*value) + ")");
    return nullptr;
  }
  return value;
}

std::string JsonReader::required_string(std::string_view key) {
  const json* v = typed(key, true, is_string, "string");
  return v ? v->get<std::string>() : std::string();
}

std::string JsonReader::optional_string(std::string_view key, std::string fallback) {
  const json* v = typed(key, false, is_string, "string");
  return v ? v->get<std::string>() : std::move(fallback);
}

std::optional<std::string> JsonReader::maybe_string(std::string_view key) {
  const json* v = typed(key, false, is_string, "string");
  return v ? std::optional<std::string>(v->get<std::string>()) : std::nullopt;
}

std::optional<double> JsonReader::number(std::string_view key, bool required, const NumberRange& range, bool integer) {
  const json* value = find(key);
  if (!value) {
    if (required && object_) error_here("missing required key \"" + std::string(key) + "\"");
    return std::nullopt;
  }
  if (!value->is_number()) {
    error(key, std::string("expected ") + (integer ? "integer" : "number") + " (got " + describe_json(*value) + ")");
    return std::nullopt;
  }
  const double x = value->get<double>();
  if (integer && (!std::isfinite(x) || std::floor(x) != x)) {
    error(key, "expected integer (got " + describe_json(*value) + ")");
    return std::nullopt;
  }
  if (integer && beyond_exact_integers(*value)) {
    // Past 2^53 a double no longer holds every integer, and past 2^63 no int64 holds it at all:
    // report the range (or the exact-integer limit) with the value as written.
    auto problem = range.violation(x > 0 ? std::numeric_limits<double>::max() : std::numeric_limits<double>::lowest());
    if (problem.empty())
      problem = "must be between -" + format_number(kMaxExactInteger) + " and " + format_number(kMaxExactInteger);
    error(key, problem + " (got " + describe_json(*value) + ")");
    return std::nullopt;
  }
  if (auto problem = range.violation(x); !problem.empty()) {
    error(key, problem + " (got " + describe_json(*value) + ")");
    return std::nullopt;
  }
  return x;
}

double JsonReader::required_number(std::string_view key, const NumberRange& range) {
  return number(key, true, range, false).value_or(0.0);
}
double JsonReader::optional_number(std::string_view key, double fallback, const NumberRange& range) {
  return number(key, false, range, false).value_or(fallback);
}
std::optional<double> JsonReader::maybe_number(std::string_view key, const NumberRange& range) {
  return number(key, false, range, false);
}
std::int64_t JsonReader::required_integer(std::string_view key, const NumberRange& range) {
  return static_cast<std::int64_t>(number(key, true, range, true).value_or(0.0));
}
std::int64_t JsonReader::optional_integer(std::string_view key, std::int64_t fallback, const NumberRange& range) {
  auto x = number(key, false, range, true);
  return x ? static_cast<std::int64_t>(*x) : fallback;
}
std::optional<std::int64_t> JsonReader::maybe_integer(std::string_view key, const NumberRange& range) {
  auto x = number(key, false, range, true);
  return x ? std::optional<std::int64_t>(static_cast<std::int64_t>(*x)) : std::nullopt;
}

bool JsonReader::optional_bool(std::string_view key, bool fallback) {
  const json* v = typed(
      key, false, [](const json& j) { return j.is_boolean(); }, "boolean");
  return v ? v->get<bool>() : fallback;
}

const json* JsonReader::required_object(std::string_view key) { return typed(key, true, is_object, "object"); }
const json* JsonReader::optional_object(std::string_view key) { return typed(key, false, is_object, "object"); }
const json* JsonReader::required_array(std::string_view key) { return typed(key, true, is_array, "array"); }
const json* JsonReader::optional_array(std::string_view key) { return typed(key, false, is_array, "array"); }
const json* JsonReader::required_value(std::string_view key) { return typed(key, true, is_any, "value"); }
const json* JsonReader::optional_value(std::string_view key) { return typed(key, false, is_any, "value"); }

int JsonReader::choose(std::string_view key, const std::vector<std::string>& names, int mode) {
  const bool required = mode == -1;
  const json* v = typed(key, required, is_string, "string");
  if (!v) return required ? 0 : -2;
  const auto& text = v->get_ref<const std::string&>();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<int>(i);
  }
  error(key, unknown_choice(text, names));
  return required ? 0 : -2;
}

void JsonReader::finish() {
  if (!object_) return;
  for (const auto& [key, value] : object_->items()) {
    if (allowed_set_.count(key)) continue;
    const std::string hint = did_you_mean_suffix(key, allowed_);
    error(key, "unknown key" + (hint.empty() ? "; allowed here: " + join(allowed_, ", ") : hint));
  }
}

}  // namespace slicewise
