// What the sizing search (sizing.hpp) starts from and names: the most MIG instances a layout puts
// on a GPU, a recorded sizing as the run it stands for, the diurnal tenants' busiest hours and the
// tenants whose peaks coincide, and a count of GPUs in words.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "models/mig_layout.hpp"
#include "scenario/layout_schedule.hpp"
#include "scenario/sizing.hpp"

namespace slicewise::scenario {

std::pair<int, double> most_mig_per_gpu(const models::MigGpu& geometry, const StrategySpec& spec) {
  int instances = 0;
  double memory = 0.0;
  for (const auto& each : gpu_layouts(spec)) {
    const auto layout = models::place_mig_layout(geometry, each);
    SW_CHECK(layout.valid, "sizing: invalid layout (validate first)");
    instances = std::max(instances, static_cast<int>(layout.instances.size()));
    double held = 0.0;
    for (const auto& instance : layout.instances) held += instance.memory_gib;
    memory = std::max(memory, held);
  }
  return {instances, memory};
}

std::string gpus_text(int num_gpus) { return std::to_string(num_gpus) + (num_gpus == 1 ? " GPU" : " GPUs"); }

SizedRun sized_run_of(const SizingRecord& record) {
  int shared = record.num_gpus;
  for (const auto& pool : record.pools) shared -= pool.count;
  SizedRun run{shared,          !record.context_load.empty(),
               record.contexts, record.context_load,
               record.pools,    std::nullopt,
               std::nullopt,    {}};
  if (!record.peak_hours.empty()) run.start_hour = record.result_hour;
  for (const auto& w : record.trace_windows) run.window_start_s[w.tenant] = w.window_start_s;
  if (record.placement == "spread" || record.placement == "pack") {
    run.balance = false;
    run.placement = record.placement == "spread" ? PlacementPolicy::spread : PlacementPolicy::pack;
  }
  return run;
}

std::vector<double> peak_hours(const Scenario& scenario) {
  std::vector<double> hours;
  for (const auto& t : scenario.tenants) {
    const auto& profile = t.load.hourly_profile;
    if (t.load.kind != LoadKind::diurnal || profile.empty()) continue;
    const auto peak = static_cast<double>(std::max_element(profile.begin(), profile.end()) - profile.begin());
    if (std::find(hours.begin(), hours.end(), peak) == hours.end()) hours.push_back(peak);
  }
  std::sort(hours.begin(), hours.end());
  return hours;
}

std::vector<std::vector<int>> hour_groups(const Scenario& scenario) {
  std::vector<std::vector<double>> levels;  // per group: each diurnal tenant's profile value
  std::vector<std::vector<int>> groups;
  for (int h = 0; h < 24; ++h) {
    std::vector<double> level;
    for (const auto& t : scenario.tenants) {
      if (t.load.kind == LoadKind::diurnal && t.load.hourly_profile.size() == 24) {
        level.push_back(t.load.hourly_profile[static_cast<std::size_t>(h)]);
      }
    }
    if (level.empty()) return {};
    const auto same = std::find(levels.begin(), levels.end(), level);
    if (same == levels.end()) {
      levels.push_back(std::move(level));
      groups.push_back({h});
    } else {
      groups[static_cast<std::size_t>(same - levels.begin())].push_back(h);
    }
  }
  return groups;
}

}  // namespace slicewise::scenario
