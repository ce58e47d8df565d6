// What a run places (see placed_run.hpp).
#include "sim/placed_run.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "scenario/validate.hpp"
#include "sim/fault_plan.hpp"
#include "sim/placement.hpp"

namespace slicewise::sim {

using scenario::Scenario;

PlacedRun place_run(const Scenario& scenario, const scenario::StrategySpec& strategy,
                    const std::vector<FleetGpu>& fleet, const scenario::Catalogs& catalogs, const RunOptions& options,
                    const std::vector<double>& balance_loads) {
  PlacedRun run;
  if (!strategy.layout_schedule) {
    run.placement = place_contexts(scenario, strategy, fleet, *catalogs.gpus, *catalogs.mig, options.defaults,
                                   balance_loads.empty() ? nullptr : &balance_loads);
    run.phase_of_device.assign(run.placement.devices.size(), -1);
    return run;
  }
  if (options.sized) {
    throw ConfigError(scenario.source_file.string(),
                      "/strategies/" + std::to_string(options.strategy_index) + "/sizing",
                      "sla with a layout_schedule is not supported (the search sizes one layout); give as_given");
  }
  const auto& schedule = *strategy.layout_schedule;
  run.day_fracs = phase_day_fracs(schedule);
  run.placement.num_unplaced.assign(scenario.tenants.size(), 0);
  std::vector<bool> gpu_used(fleet.size(), false);
  for (std::size_t p = 0; p < schedule.phases.size(); ++p) {
    const auto& phase = schedule.phases[p];
    const PhaseScenario ps = phase_scenario(scenario, strategy, phase);
    run.phases.push_back(
        place_contexts(ps.scenario, ps.strategy, fleet, *catalogs.gpus, *catalogs.mig, options.defaults));
    const Placement& placed = run.phases.back();
    run.phase_names.push_back(phase.name);
    for (PlacedDevice device : placed.devices) {
      device.name += ":" + phase.name;
      for (std::size_t g = device.gpu_index; g < gpu_end(device); ++g) gpu_used[g] = true;
      run.placement.devices.push_back(std::move(device));
      run.phase_of_device.push_back(static_cast<int>(p));
    }
    for (const auto& issue : placed.issues) run.placement.issues.push_back("phase " + phase.name + ": " + issue);
    for (std::size_t t = 0; t < scenario.tenants.size(); ++t) run.placement.num_unplaced[t] += placed.num_unplaced[t];
  }
  run.placement.num_gpus_used = static_cast<int>(std::count(gpu_used.begin(), gpu_used.end(), true));
  return run;
}

void count_phase_contexts(const PlacedRun& placed, scenario::StrategyResult& out) {
  for (std::size_t t = 0; t < out.tenants.size(); ++t) {
    int most = 0;
    for (const auto& phase : placed.phases) {
      int n = 0;
      for (const auto& device : phase.devices) {
        n += static_cast<int>(std::count_if(device.contexts.begin(), device.contexts.end(),
                                            [&](const PlacedContext& c) { return c.tenant == t; }));
      }
      most = std::max(most, n);
    }
    out.tenants[t].num_contexts = most;
  }
}

std::optional<Scenario> sized_run_scenario(const Scenario& scenario, const RunOptions& options,
                                           const scenario::Catalogs& catalogs, std::vector<double>& balance_loads) {
  if (!options.sized) return std::nullopt;
  const auto& sized = *options.sized;
  SW_CHECK(sized.num_gpus >= (sized.pools.empty() ? 1 : 0) && sized.contexts.size() == scenario.tenants.size(),
           "malformed sized run");
  Scenario out = scenario;
  const auto shared = std::find_if(scenario.fleet.begin(), scenario.fleet.end(),
                                   [](const scenario::FleetEntry& e) { return !scenario::reserved(e); });
  out.fleet.clear();
  if (shared != scenario.fleet.end() && sized.num_gpus > 0) {
    out.fleet.push_back({scenario::fleet_gpu_id(*shared, scenario, catalogs), "", sized.num_gpus, {}});
  }
  for (const auto& pool : sized.pools) {
    if (pool.count > 0) out.fleet.push_back({pool.gpu, "", pool.count, pool.tenants});
  }
  for (std::size_t t = 0; t < scenario.tenants.size(); ++t) {
    out.tenants[t].num_contexts = sized.contexts[t];
    if (sized.start_hour && out.tenants[t].load.kind == scenario::LoadKind::diurnal) {
      out.tenants[t].load.start_hour = *sized.start_hour;
    }
    if (const auto w = sized.window_start_s.find(out.tenants[t].name);
        w != sized.window_start_s.end() && out.tenants[t].load.kind == scenario::LoadKind::trace) {
      out.tenants[t].load.window_start_s = w->second;
    }
  }
  if (!sized.balance && sized.placement) {
    out.strategies[static_cast<std::size_t>(options.strategy_index)].placement = *sized.placement;
  }
  if (sized.balance) {
    balance_loads = sized.context_load.empty() ? std::vector<double>(scenario.tenants.size(), 1.0) : sized.context_load;
  }
  return out;
}

}  // namespace slicewise::sim
