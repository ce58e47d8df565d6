// Field readers shared by the scenario loader's files (see json_read_fields.hpp).
#include "scenario/json_read_fields.hpp"

#include <cstdint>

namespace slicewise::scenario::detail {

using nlohmann::json;

std::string nonempty_string(JsonReader& r, std::string_view key, bool required) {
  const bool present = r.has(key);
  std::string value = required ? r.required_string(key) : r.optional_string(key, "");
  if (present && value.empty() && r.valid()) {
    const json* raw = r.optional_value(key);
    if (raw && raw->is_string()) r.error(key, "must not be empty");
  }
  return value;
}

const json* nonempty_array(JsonReader& r, std::string_view key, const char* what) {
  const json* array = r.required_array(key);
  if (array && array->empty()) {
    r.error(key, std::string("must list at least one ") + what + " (got [])");
    return nullptr;
  }
  return array;
}

int read_count(JsonReader& r, std::string_view key, std::optional<int> fallback, double min) {
  constexpr std::int64_t kMaxCount = 1000000;
  // Checked before the integer read, so that a huge value never reaches an integer conversion.
  if (const json* raw = r.optional_value(key); raw && raw->is_number() && raw->get<double>() > kMaxCount) {
    r.error(key, "must be <= " + std::to_string(kMaxCount) + " (got " + describe_json(*raw) + ")");
    return fallback.value_or(0);
  }
  const std::int64_t value = fallback ? r.optional_integer(key, *fallback, NumberRange::at_least(min))
                                      : r.required_integer(key, NumberRange::at_least(min));
  return static_cast<int>(value);
}

std::string element_pointer(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

}  // namespace slicewise::scenario::detail
