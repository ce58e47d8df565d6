// Price table loading and lookup.
#include "pricing/price_table.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"

namespace slicewise::pricing {

const std::vector<std::pair<std::string, PurchaseOption>>& purchase_option_table() {
  static const std::vector<std::pair<std::string, PurchaseOption>> table = {
      {"on_demand", PurchaseOption::on_demand},
      {"spot", PurchaseOption::spot},
      {"reserved_1y", PurchaseOption::reserved_1y},
      {"reserved_3y", PurchaseOption::reserved_3y}};
  return table;
}

std::string to_string(PurchaseOption option) {
  for (const auto& [name, value] : purchase_option_table()) {
    if (value == option) return name;
  }
  return "unknown";
}

std::optional<double> InstancePrice::usd_per_hour(PurchaseOption option) const {
  switch (option) {
    case PurchaseOption::on_demand: return on_demand_usd_per_hour;
    case PurchaseOption::spot: return spot_usd_per_hour;
    case PurchaseOption::reserved_1y: return reserved_1y_usd_per_hour;
    case PurchaseOption::reserved_3y: return reserved_3y_usd_per_hour;
  }
  return std::nullopt;
}

PriceTable PriceTable::load(const std::filesystem::path& file, const std::vector<std::string>& known_gpu_ids) {
  const auto document = read_json_file(file);
  const std::string name = file.string();
  Diagnostics problems;
  PriceTable table;
  JsonReader top(document, "", problems, name);
  const auto version = top.required_integer("schema_version");
  if (top.valid() && top.has("schema_version") && version != 1) {
    top.error("schema_version", "unsupported version " + std::to_string(version) + "; this build reads 1");
  }
  table.name = top.required_string("name");
  table.currency = top.required_string("currency");
  if (top.has("currency") && !(table.currency.size() == 3 && std::all_of(table.currency.begin(), table.currency.end(),
                                                                          [](char c) { return std::isupper(static_cast<unsigned char>(c)); }))) {
    top.error("currency", "expected a 3-letter ISO 4217 code such as \"USD\" (got \"" + table.currency + "\")");
  }
  table.source = top.required_string("source");
  table.as_of = top.required_string("as_of");
  top.optional_string("note", "");
  std::set<std::pair<std::string, std::string>> seen;
  if (const auto* rows = top.required_array("instances")) {
    for (std::size_t i = 0; i < rows->size(); ++i) {
      JsonReader r((*rows)[i], "/instances/" + std::to_string(i), problems, name);
      InstancePrice row;
      row.instance_type = r.required_string("instance_type");
      row.region = r.required_string("region");
      row.num_gpus = static_cast<int>(r.required_integer("num_gpus", NumberRange::non_negative()));
      row.gpu = r.maybe_string("gpu");
      row.num_vcpus = r.maybe_integer("num_vcpus", NumberRange::at_least(1));
      row.memory_gib = r.maybe_number("memory_gib", NumberRange::positive());
      row.on_demand_usd_per_hour = r.required_number("on_demand_usd_per_hour", NumberRange::positive());
      row.spot_usd_per_hour = r.maybe_number("spot_usd_per_hour", NumberRange::positive());
      row.reserved_1y_usd_per_hour = r.maybe_number("reserved_1y_usd_per_hour", NumberRange::positive());
      row.reserved_3y_usd_per_hour = r.maybe_number("reserved_3y_usd_per_hour", NumberRange::positive());
      row.source = r.optional_string("source", "");
      row.as_of = r.optional_string("as_of", "");
      row.note = r.optional_string("note", "");
      r.finish();
      if (r.valid() && r.has("instance_type") && row.instance_type.empty()) r.error("instance_type", "must not be empty");
      if (r.valid() && r.has("region") && row.region.empty()) r.error("region", "must not be empty");
      if (row.num_gpus > 0 && !row.gpu && r.valid()) {
        r.error_here("missing required key \"gpu\" (num_gpus is " + std::to_string(row.num_gpus) + ")");
      }
      if (row.num_gpus == 0 && row.gpu) r.error("gpu", "given for an instance with num_gpus 0");
      if (row.gpu && !known_gpu_ids.empty() &&
          std::find(known_gpu_ids.begin(), known_gpu_ids.end(), *row.gpu) == known_gpu_ids.end()) {
        r.error("gpu", "unknown GPU \"" + *row.gpu + "\"" + did_you_mean_suffix(*row.gpu, known_gpu_ids) +
                           "; see `slicewise gpus`");
      }
      if (!row.instance_type.empty() && !seen.insert({row.instance_type, row.region}).second) {
        r.error_here("duplicate row for " + row.instance_type + " in " + row.region);
      }
      table.instances.push_back(std::move(row));
    }
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return table;
}

const InstancePrice* PriceTable::find(std::string_view instance_type, std::string_view region) const {
  for (const auto& row : instances) {
    if (row.instance_type == instance_type && (region.empty() || row.region == region)) return &row;
  }
  return nullptr;
}

std::vector<std::string> PriceTable::instance_types() const {
  std::vector<std::string> out;
  for (const auto& row : instances) {
    if (std::find(out.begin(), out.end(), row.instance_type) == out.end()) out.push_back(row.instance_type);
  }
  return out;
}

std::vector<std::string> PriceTable::regions() const {
  std::vector<std::string> out;
  for (const auto& row : instances) {
    if (std::find(out.begin(), out.end(), row.region) == out.end()) out.push_back(row.region);
  }
  return out;
}

const std::vector<PriceTable>& shipped_price_tables() {
  static const std::vector<PriceTable> tables = [] {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(data_dir() / "prices")) {
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<PriceTable> loaded;
    for (const auto& file : files) loaded.push_back(PriceTable::load(file));
    return loaded;
  }();
  return tables;
}

const PriceTable* find_shipped_price_table(std::string_view name) {
  for (const auto& table : shipped_price_tables()) {
    if (table.name == name) return &table;
  }
  return nullptr;
}

}  // namespace slicewise::pricing
