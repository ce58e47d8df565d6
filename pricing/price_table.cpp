// Price tables: purchase options and lookup (reading a table is price_files.cpp's, its strict
// JSON json_io.cpp's).
#include "pricing/price_table.hpp"

#include <algorithm>

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

}  // namespace slicewise::pricing
