// The price table a scenario names (resolve_price_table) and the pricing checks of
// validate_scenario: the region is in the table, and every instance type used is offered there
// with a price for the purchase option.
#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "core/error.hpp"
#include "core/spell.hpp"
#include "scenario/scenario_checker.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario {

namespace {

/// A table name that names a file rather than a shipped table.
bool looks_like_path(const std::string& table) {
  return table.find('/') != std::string::npos || table.find('\\') != std::string::npos ||
         (table.size() > 5 && table.ends_with(".json"));
}

}  // namespace

pricing::PriceTable resolve_price_table(const Scenario& scenario, const Catalogs& catalogs) {
  const std::string& name = scenario.pricing.table;
  std::vector<std::string> names;
  for (const auto& table : *catalogs.prices) {
    if (table.name == name) return table;
    names.push_back(table.name);
  }
  const std::string file = scenario.source_file.string();
  const auto path = resolve_relative_path(scenario, name);
  // Something at that path (a file, a link, a link loop) is a table file, whatever its name.
  std::error_code entry_ec;
  const bool entry = std::filesystem::symlink_status(path, entry_ec).type() != std::filesystem::file_type::not_found;
  if (looks_like_path(name) || (entry && !entry_ec)) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) {
      throw ConfigError(file, "/pricing/table", "price table file not found: " + path.string());
    }
    if (ec) throw ConfigError(file, "/pricing/table", "price table file " + path.string() + ": " + ec.message());
    if (status.type() != std::filesystem::file_type::regular) {
      throw ConfigError(file, "/pricing/table", "price table file " + path.string() + ": not a regular file");
    }
    return pricing::PriceTable::load(path, catalogs.gpus->ids());
  }
  throw ConfigError(file, "/pricing/table",
                    "unknown price table " + quoted_excerpt(name) + "; expected " + join(names, "|") +
                        " or a path to a table file" + did_you_mean_suffix(name, names));
}

namespace detail {

/// The region must be in the table; then each instance type used is checked in it.
void ScenarioChecker::pricing() {
  if (!table_) return;
  const auto& region = s_.pricing.region;
  const auto regions = table_->regions();
  if (!region.empty() && std::find(regions.begin(), regions.end(), region) == regions.end()) {
    add("/pricing/region", "unknown region " + quoted_excerpt(region) + " in price table \"" + table_->name +
                               "\"; expected " + join(regions, "|") + did_you_mean_suffix(region, regions));
    return;
  }
  instance_prices(region);
}

/// Each instance type used (reported once, at its first use) is offered in `region` and has a
/// price for the purchase option.
void ScenarioChecker::instance_prices(const std::string& region) {
  std::set<std::string> seen;
  for (const auto& [type, pointer] : instances_used_) {
    if (!seen.insert(type).second) continue;
    const auto* row = table_->find(type, region);
    if (!row) {
      std::vector<std::string> offered;
      for (const auto& r : table_->instances) {
        if (r.instance_type == type) offered.push_back(r.region);
      }
      std::string message = type + ", used at ";
      message += pointer;
      message += ", is not offered in ";
      message += region;
      message += " (offered in " + join(offered, ", ") + ")";
      add("/pricing/region", std::move(message));
    } else if (!row->usd_per_hour(s_.pricing.option)) {
      add("/pricing/option", "no " + pricing::to_string(s_.pricing.option) + " price for " + type + " in " +
                                 row->region + " (price table \"" + table_->name + "\")");
    }
  }
}

}  // namespace detail

}  // namespace slicewise::scenario
