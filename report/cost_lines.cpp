// Priced lines of a fleet.
#include "report/cost_lines.hpp"

#include <algorithm>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "pricing/licences.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

std::map<std::pair<bool, std::string>, FleetPart> fleet_parts(const scenario::StrategyResult& strategy) {
  std::map<std::pair<bool, std::string>, FleetPart> parts;
  for (const auto& device : strategy.devices) {
    auto& part = parts[{device.reserved, device.gpu}];
    part.widest = std::max(part.widest, device.gpu_count);
    for (int g = device.gpu_index; g < device.gpu_index + device.gpu_count; ++g) part.gpus[g] = true;
  }
  return parts;
}

/// The instance type the scenario's fleet names for a GPU, if any. A scenario read back from a
/// result has not been through validation, so its entries' GPUs may still be unresolved: the
/// table says which GPU the instance carries. `pool`: of the entries reserved for named tenants (a
/// pool's GPUs), else of the shared ones.
std::string fleet_instance_for(const scenario::Scenario& scenario, const pricing::PriceTable& table,
                               const std::string& gpu_id, bool pool) {
  for (const auto& entry : scenario.fleet) {
    if (entry.instance_type.empty() || scenario::reserved(entry) != pool) continue;
    std::string gpu = entry.gpu;
    if (gpu.empty()) {
      if (const auto* row = table.find(entry.instance_type, scenario.pricing.region); row && row->gpu) gpu = *row->gpu;
    }
    if (gpu == gpu_id) return entry.instance_type;
  }
  return {};
}

pricing::CostLine gpu_line(const scenario::Scenario& scenario, const pricing::PriceTable& table,
                           pricing::PurchaseOption option, const std::string& gpu_id, int num_gpus, int node_gpus,
                           bool pool) {
  // The fleet's own instance type when this table sells it (and it holds the largest
  // tensor-parallel group); otherwise the cheapest carrier that does.
  std::string preferred = fleet_instance_for(scenario, table, gpu_id, pool);
  if (const auto* row = preferred.empty() ? nullptr : table.find(preferred, scenario.pricing.region);
      !row || row->num_gpus < node_gpus) {
    preferred.clear();
  }
  const auto line =
      pricing::cheapest_gpu_instances(table, gpu_id, num_gpus, option, scenario.pricing.region, preferred, node_gpus);
  if (!line) {
    throw ConfigError(
        scenario.source_file.string(), "/pricing",
        "table \"" + table.name + "\" has no " + pricing::to_string(option) + " price for " +
            (preferred.empty()
                 ? "any instance with " + (node_gpus > 1 ? std::to_string(node_gpus) + " or more " : "") + gpu_id
                 : preferred) +
            (scenario.pricing.region.empty() ? "" : " in " + scenario.pricing.region));
  }
  return *line;
}

/// The licence the strategy's policy needs for each GPU it runs on, as a cost line (count = GPUs
/// licensed, price per GPU-hour of the 730-hour month); nullopt when it needs none. GPUs of its
/// instances that carry no context need no licence.
std::optional<pricing::CostLine> licence_line(const scenario::StrategySpec& spec, int gpus) {
  const std::string id = scenario::policy_of(spec.kind).licence_id();
  if (id.empty()) return std::nullopt;
  const auto* licence = pricing::shipped_licences().find(id);
  if (!licence)
    throw ConfigError((data_dir() / "licences.json").string(), "/licences",
                      "no licence \"" + id + "\", which " + spec.name + " needs");
  const double rate = licence->usd_per_gpu_hour();
  return pricing::CostLine{"licence", licence->name, "", gpus, 0, rate, gpus * rate * kHoursPerMonth};
}

/// A sidecar's cost line: its instances at their price under `option`.
pricing::CostLine sidecar_line(const scenario::Scenario& scenario, const pricing::PriceTable& table,
                               pricing::PurchaseOption option, const scenario::Sidecar& sidecar) {
  const auto* row = table.find(sidecar.instance_type, scenario.pricing.region);
  const auto price = row ? row->usd_per_hour(option) : std::nullopt;
  if (!price) {
    throw ConfigError(scenario.source_file.string(), "/pricing",
                      "table \"" + table.name + "\" has no " + pricing::to_string(option) + " price for sidecar " +
                          sidecar.instance_type);
  }
  return {
      "sidecar", sidecar.instance_type, row->region, sidecar.count, 0, *price, sidecar.count * *price * kHoursPerMonth};
}

std::string instances_text(const pricing::StrategyCost& cost) {
  std::string text;
  for (const auto& line : cost.lines) {
    if (line.role == "licence" || line.count == 0) continue;
    text += (text.empty() ? "" : " + ") + std::to_string(line.count) + " x " + line.instance_type;
  }
  return text;
}

}  // namespace slicewise::report
