// Price table ↔ JSON. Reading is strict (CONTRIBUTING.md, "House rules"): unknown keys rejected with a did-you-mean
// hint, numbers range-checked, GPU ids checked against the catalog, every problem reported at once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/json_reader.hpp"
#include "pricing/price_table.hpp"

namespace slicewise::pricing {

/// Reads a parsed table document (named `file` in messages). When `known_gpu_ids` is not empty,
/// every `gpu` must be one of them. Throws ConfigError listing every problem found.
PriceTable parse_price_table(const nlohmann::json& document, const std::string& file,
                             const std::vector<std::string>& known_gpu_ids = {});

/// True for a real month or day written YYYY-MM or YYYY-MM-DD (a table's `as_of`).
bool is_price_date(std::string_view text);

/// Reads the required date `key` (YYYY-MM or YYYY-MM-DD) of `reader`'s object; a string that is no
/// such date is reported at `key`. Used by every pricing data file (tables, on-prem, licences).
std::string read_price_date(JsonReader& reader, std::string_view key);

/// Output (nlohmann::ordered_json, keys in declaration order; absent optionals left out), with
/// "schema_version": 1 on the table: parse_price_table(to_json(t)) == t.
void to_json(nlohmann::ordered_json& out, const InstancePrice& row);
void to_json(nlohmann::ordered_json& out, const PriceTable& table);

}  // namespace slicewise::pricing
