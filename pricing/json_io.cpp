// Price table format v1: strict reading and writing.
#include "pricing/json_io.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"

namespace slicewise::pricing {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr int kSchemaVersion = 1;
constexpr int kMaxCount = 1000000;  // keeps counts inside an int

/// A required string that must not be empty.
std::string nonempty_string(JsonReader& r, std::string_view key) {
  const std::size_t before = r.diagnostics().size();
  std::string value = r.required_string(key);
  if (r.diagnostics().size() == before && r.valid() && value.empty()) r.error(key, "must not be empty");
  return value;
}

/// An optional string that must not be empty when given; "" when absent.
std::string optional_nonempty_string(JsonReader& r, std::string_view key) {
  if (!r.has(key)) return "";
  return nonempty_string(r, key);
}

/// An integer count in [min, a million]; nullopt when absent or invalid (a diagnostic for the
/// latter, and for the former when `required`).
std::optional<int> read_count(JsonReader& r, std::string_view key, double min, bool required) {
  // Checked before the integer read, so that a huge value never reaches an integer conversion.
  if (const json* raw = r.optional_value(key); raw && raw->is_number() && raw->get<double>() > kMaxCount) {
    r.error(key, "must be <= " + std::to_string(kMaxCount) + " (got " + describe_json(*raw) + ")");
    return std::nullopt;
  }
  const NumberRange range = NumberRange::at_least(min);
  if (required && !r.has(key)) {
    r.required_integer(key, range);  // reports the missing key
    return std::nullopt;
  }
  const auto value = r.maybe_integer(key, range);
  return value ? std::optional(static_cast<int>(*value)) : std::nullopt;
}

bool is_digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Three upper-case letters, as ISO 4217 codes are.
void read_currency(JsonReader& r, PriceTable& table) {
  const std::size_t before = r.diagnostics().size();
  table.currency = r.required_string("currency");
  if (r.diagnostics().size() != before || !r.valid()) return;
  const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  const bool ok = table.currency.size() == 3 && std::all_of(table.currency.begin(), table.currency.end(), upper);
  if (!ok) r.error("currency", "expected a 3-letter ISO 4217 code such as \"USD\" (got \"" + table.currency + "\")");
}

void read_header(JsonReader& r, PriceTable& table) {
  r.schema_version(kSchemaVersion);
  table.name = nonempty_string(r, "name");
  read_currency(r, table);
  table.source = nonempty_string(r, "source");
  const std::size_t before = r.diagnostics().size();
  table.as_of = r.required_string("as_of");
  if (r.diagnostics().size() == before && r.valid() && !is_price_date(table.as_of)) {
    r.error("as_of", "expected a date YYYY-MM or YYYY-MM-DD (got \"" + table.as_of + "\")");
  }
  r.optional_string("note", "");  // free text for readers of the file (what was left out and why)
  table.extends = r.optional_string("extends", "");
}

/// The GPU of a row: required when the row has GPUs, forbidden when it has none (both only when
/// num_gpus itself was read), and one of `known` when that list is not empty.
void check_gpu(JsonReader& r, const InstancePrice& row, bool num_gpus_read, const std::vector<std::string>& known) {
  if (!r.valid()) return;
  if (num_gpus_read && row.num_gpus > 0 && !row.gpu && !r.has("gpu")) {
    r.error_here("missing required key \"gpu\" (num_gpus is " + std::to_string(row.num_gpus) + ")");
  }
  if (!row.gpu) return;
  if (num_gpus_read && row.num_gpus == 0) {
    r.error("gpu", "given for an instance with num_gpus 0 (leave it out for CPU-only instances)");
  } else if (!known.empty() && std::find(known.begin(), known.end(), *row.gpu) == known.end()) {
    const std::string hint = did_you_mean_suffix(*row.gpu, known);
    r.error("gpu", "unknown GPU " + quoted_excerpt(*row.gpu) +
                       (hint.empty() ? "; run \"slicewise gpus\" to list the known ones" : hint));
  }
}

/// The provenance of one purchase option's price, `<prefix>_source` and `<prefix>_as_of` (a date),
/// both optional, into `source` and `as_of`; given only when the row has that price (`priced`).
void read_option_provenance(JsonReader& r, std::string_view prefix, bool priced, std::string_view price_keys,
                            std::string& source, std::string& as_of) {
  const std::string source_key = std::string(prefix) + "_source";
  const std::string as_of_key = std::string(prefix) + "_as_of";
  source = optional_nonempty_string(r, source_key);
  as_of = r.has(as_of_key) ? read_price_date(r, as_of_key) : "";
  if (!r.valid() || priced) return;
  for (const std::string& key : {source_key, as_of_key}) {
    if (r.has(key)) r.error(key, "given without " + std::string(price_keys) + " (leave it out, or add the price)");
  }
}

InstancePrice read_row(JsonReader& r, const std::vector<std::string>& known_gpu_ids) {
  InstancePrice row;
  row.instance_type = nonempty_string(r, "instance_type");
  row.region = nonempty_string(r, "region");
  row.gpu = r.maybe_string("gpu");
  const std::optional<int> num_gpus = read_count(r, "num_gpus", 0, true);
  row.num_gpus = num_gpus.value_or(0);
  row.num_vcpus = read_count(r, "num_vcpus", 1, false);
  row.memory_gib = r.maybe_number("memory_gib", NumberRange::positive());
  row.on_demand_usd_per_hour = r.required_number("on_demand_usd_per_hour", NumberRange::positive());
  // A price of 0 would make the strategies free; leave an option out when there is no price for it.
  row.spot_usd_per_hour = r.maybe_number("spot_usd_per_hour", NumberRange::positive());
  row.reserved_1y_usd_per_hour = r.maybe_number("reserved_1y_usd_per_hour", NumberRange::positive());
  row.reserved_3y_usd_per_hour = r.maybe_number("reserved_3y_usd_per_hour", NumberRange::positive());
  row.source = r.optional_string("source", "");
  row.as_of = r.optional_string("as_of", "");
  if (r.has("effective_from")) row.effective_from = read_price_date(r, "effective_from");
  // Spot and reserved prices may come from another source, or be of another date, than on-demand.
  read_option_provenance(r, "spot", r.has("spot_usd_per_hour"), "spot_usd_per_hour", row.spot_source, row.spot_as_of);
  read_option_provenance(r, "reserved", r.has("reserved_1y_usd_per_hour") || r.has("reserved_3y_usd_per_hour"),
                         "reserved_1y_usd_per_hour or reserved_3y_usd_per_hour", row.reserved_source,
                         row.reserved_as_of);
  row.note = r.optional_string("note", "");
  check_gpu(r, row, num_gpus.has_value(), known_gpu_ids);
  r.finish();
  return row;
}

template <class T>
void put_optional(ordered_json& out, const char* key, const std::optional<T>& value) {
  if (value) out[key] = *value;
}

}  // namespace

bool is_price_date(std::string_view text) {
  if (text.size() != 7 && text.size() != 10) return false;
  if (!is_digits(text.substr(0, 4)) || text[4] != '-' || !is_digits(text.substr(5, 2))) return false;
  const auto number = [&](std::size_t at, std::size_t n) {
    int value = 0;
    for (std::size_t i = at; i < at + n; ++i) value = value * 10 + (text[i] - '0');
    return value;
  };
  const std::chrono::year year{number(0, 4)};
  const std::chrono::month month{static_cast<unsigned>(number(5, 2))};
  if (!month.ok()) return false;
  if (text.size() == 7) return true;
  if (text[7] != '-' || !is_digits(text.substr(8, 2))) return false;
  return std::chrono::year_month_day{year, month, std::chrono::day{static_cast<unsigned>(number(8, 2))}}.ok();
}

std::string read_price_date(JsonReader& r, std::string_view key) {
  const std::size_t before = r.diagnostics().size();
  std::string text = r.required_string(key);
  if (r.diagnostics().size() == before && r.valid() && !is_price_date(text)) {
    r.error(key, "expected a date YYYY-MM or YYYY-MM-DD (got \"" + text + "\")");
  }
  return text;
}

PriceTable parse_price_table(const json& document, const std::string& file,
                             const std::vector<std::string>& known_gpu_ids) {
  Diagnostics problems;
  PriceTable table;
  JsonReader top(document, "", problems, file);
  read_header(top, table);
  std::map<std::pair<std::string, std::string>, std::size_t> first_row;
  if (const json* rows = top.required_array("instances")) {
    for (std::size_t i = 0; i < rows->size(); ++i) {
      JsonReader r((*rows)[i], "/instances/" + std::to_string(i), problems, file);
      InstancePrice row = read_row(r, known_gpu_ids);
      if (r.valid() && !row.instance_type.empty() && !row.region.empty()) {
        const auto [it, inserted] = first_row.try_emplace({row.instance_type, row.region}, i);
        if (!inserted) {
          r.error_here("duplicate row for " + row.instance_type + " in " + row.region + " (first at /instances/" +
                       std::to_string(it->second) + ")");
        }
      }
      table.instances.push_back(std::move(row));
    }
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return table;
}

void to_json(ordered_json& out, const InstancePrice& row) {
  out = ordered_json::object();
  out["instance_type"] = row.instance_type;
  out["region"] = row.region;
  put_optional(out, "gpu", row.gpu);
  out["num_gpus"] = row.num_gpus;
  put_optional(out, "num_vcpus", row.num_vcpus);
  put_optional(out, "memory_gib", row.memory_gib);
  out["on_demand_usd_per_hour"] = row.on_demand_usd_per_hour;
  put_optional(out, "spot_usd_per_hour", row.spot_usd_per_hour);
  put_optional(out, "reserved_1y_usd_per_hour", row.reserved_1y_usd_per_hour);
  put_optional(out, "reserved_3y_usd_per_hour", row.reserved_3y_usd_per_hour);
  if (!row.source.empty()) out["source"] = row.source;
  if (!row.as_of.empty()) out["as_of"] = row.as_of;
  if (!row.effective_from.empty()) out["effective_from"] = row.effective_from;
  if (!row.spot_source.empty()) out["spot_source"] = row.spot_source;
  if (!row.spot_as_of.empty()) out["spot_as_of"] = row.spot_as_of;
  if (!row.reserved_source.empty()) out["reserved_source"] = row.reserved_source;
  if (!row.reserved_as_of.empty()) out["reserved_as_of"] = row.reserved_as_of;
  if (!row.note.empty()) out["note"] = row.note;
}

void to_json(ordered_json& out, const PriceTable& table) {
  out = ordered_json::object();
  out["schema_version"] = kSchemaVersion;
  out["name"] = table.name;
  if (!table.extends.empty()) out["extends"] = table.extends;
  out["currency"] = table.currency;
  out["source"] = table.source;
  out["as_of"] = table.as_of;
  ordered_json rows = ordered_json::array();
  for (const auto& row : table.instances) rows.push_back(row);
  out["instances"] = std::move(rows);
}

}  // namespace slicewise::pricing
