// Price tables: loading (the strict reading lives in json_io.cpp), lookup, the shipped tables.
#include "pricing/price_table.hpp"

#include <algorithm>
#include <cstddef>
#include <system_error>
#include <utility>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "pricing/json_io.hpp"

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
  PriceTable table = parse_price_table(read_json_file(file), file.string(), known_gpu_ids);
  if (table.extends.empty()) return table;
  const PriceTable* base = find_shipped_price_table(table.extends);
  if (!base) {
    std::vector<std::string> names;
    for (const auto& shipped : shipped_price_tables()) names.push_back(shipped.name);
    throw ConfigError(file.string(), "/extends", unknown_choice(table.extends, names));
  }
  if (base->currency != table.currency) {
    throw ConfigError(file.string(), "/currency",
                      "must match the extended table \"" + base->name + "\" (got " + table.currency + "; expected " +
                          base->currency + ")");
  }
  for (const auto& row : base->instances) {
    if (!table.find(row.instance_type, row.region)) table.instances.push_back(row);
  }
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
    const auto folder = data_dir() / "prices";
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) {
      throw ConfigError(folder.string(), "",
                        "price table folder not found (set SLICEWISE_DATA_DIR to the data/ folder)");
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<PriceTable> loaded;
    std::vector<std::filesystem::path> loaded_from;
    for (const auto& file : files) {
      PriceTable table = PriceTable::load(file);
      for (std::size_t i = 0; i < loaded.size(); ++i) {
        if (loaded[i].name == table.name) {
          throw ConfigError(file.string(), "/name",
                            "table name \"" + table.name + "\" is already used by " + loaded_from[i].string());
        }
      }
      loaded.push_back(std::move(table));
      loaded_from.push_back(file);
    }
    // Name order (the file names usually give it already); find_shipped_price_table() relies on
    // names being unique, checked above.
    std::stable_sort(loaded.begin(), loaded.end(),
                     [](const PriceTable& a, const PriceTable& b) { return a.name < b.name; });
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
