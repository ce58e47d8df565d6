// Field readers shared by the scenario loader's files (json_io.cpp and the json_read_*.cpp section
// readers): non-empty strings and arrays, bounded counts, element pointers, and the rejection of
// keys that belong to another kind. Internal to sw_scenario.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"

namespace slicewise::scenario::detail {

/// Reports the present keys of `table` that `kind` does not use. With `kind_known` false (the kind
/// itself was invalid) they are accepted silently, so that one typo gives one message. `what`
/// names the kind in the message ("strategy kind").
template <class K>
void reject_foreign_keys(JsonReader& r, const nlohmann::json& object, const KeyKinds<K>& table, K kind, bool kind_known,
                         const EnumTable<K>& names, const char* what) {
  if (!object.is_object()) return;
  for (const auto& entry : table) {
    const std::string& key = entry.first;
    if (!object.contains(key) || (kind_known && uses(table, key, kind))) continue;
    r.allow(key);
    if (!kind_known) continue;
    r.error(key, std::string("unknown key for ") + what + " \"" + name_of(names, kind) + "\" (applies to " +
                     kinds_using(table, key, names) + ")");
  }
}

/// A required or optional string that must not be empty when given; "" when absent.
std::string nonempty_string(JsonReader& r, std::string_view key, bool required);

/// The elements of a required array that must not be empty; nullptr (after a diagnostic) when it is
/// missing, not an array or empty. `what` names one element ("tenant").
const nlohmann::json* nonempty_array(JsonReader& r, std::string_view key, const char* what);

/// A count: integer >= `min` and at most a million, so that it fits an int. Required when
/// `fallback` is empty; 0 (or the fallback) after a diagnostic.
int read_count(JsonReader& r, std::string_view key, std::optional<int> fallback, double min = 1);

/// The JSON pointer of element `index` of the array at `pointer` ("/tenants" -> "/tenants/2").
std::string element_pointer(const std::string& pointer, std::size_t index);

}  // namespace slicewise::scenario::detail
