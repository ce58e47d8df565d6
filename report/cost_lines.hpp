// A strategy's fleet as priced lines: the instances carrying its GPUs (the fleet's own instance
// type where the table sells it), the licence its strategy needs, its sidecars. Shared by costing
// and the autoscaled fleet's price.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "pricing/price_table.hpp"
#include "pricing/roi.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// The GPUs a strategy used of one GPU model, shared or in reserved pools: they are bought apart,
/// on instances that hold the widest tensor-parallel group among them.
struct FleetPart {
  std::map<int, bool> gpus;  ///< by index; a tensor-parallel group's device stands for each of its GPUs
  int widest = 1;            ///< GPUs of its widest device
};
/// The strategy's GPUs in use by (reserved, GPU model).
std::map<std::pair<bool, std::string>, FleetPart> fleet_parts(const scenario::StrategyResult& strategy);

/// The instance type the scenario's fleet names for a GPU, if any. A scenario read back from a
/// result has not been through validation, so its entries' GPUs may still be unresolved: the
/// table says which GPU the instance carries. `pool`: of the entries reserved for named tenants (a
/// pool's GPUs), else of the shared ones.
std::string fleet_instance_for(const scenario::Scenario& scenario, const pricing::PriceTable& table,
                               const std::string& gpu_id, bool pool);

/// `num_gpus` GPUs of `gpu_id` under `option`: on the fleet's own instance type when the table
/// sells it and it holds `node_gpus` (the widest tensor-parallel group), else on the cheapest
/// carrier that does. Throws ConfigError when none has a price.
pricing::CostLine gpu_line(const scenario::Scenario& scenario, const pricing::PriceTable& table,
                           pricing::PurchaseOption option, const std::string& gpu_id, int num_gpus, int node_gpus,
                           bool pool);

/// "1 x g6e.2xlarge", "2 x a2-highgpu-1g + 1 x t3.large": a strategy's instances, licences left out.
std::string instances_text(const pricing::StrategyCost& cost);

/// The licence the strategy's policy needs for each GPU it runs on, as a cost line (count = GPUs
/// licensed, price per GPU-hour of the 730-hour month); nullopt when it needs none.
std::optional<pricing::CostLine> licence_line(const scenario::StrategySpec& spec, int gpus);

/// A sidecar's cost line: its instances at their price under `option`.
pricing::CostLine sidecar_line(const scenario::Scenario& scenario, const pricing::PriceTable& table,
                               pricing::PurchaseOption option, const scenario::Sidecar& sidecar);

}  // namespace slicewise::report
