// A run's energy from its utilisation (see energy.hpp).
#include "scenario/energy.hpp"

#include <algorithm>
#include <map>

#include "core/units.hpp"
#include "models/power_model.hpp"
#include "scenario/utilisation.hpp"

namespace slicewise::scenario {

std::vector<GpuUtilisation> gpu_utilisation(const StrategyResult& strategy) {
  std::map<int, GpuUtilisation> by_index;
  for (const auto& device : strategy.devices) {
    // A tensor-parallel group keeps each of its GPUs as busy as the group.
    for (int k = 0; k < device.gpu_count; ++k) {
      auto& gpu = by_index[device.gpu_index + k];
      gpu.gpu_index = device.gpu_index + k;
      gpu.gpu = device.gpu;
      gpu.util_frac += gpu_share(device) * device.sm_util_frac;
    }
  }
  std::vector<GpuUtilisation> out;
  out.reserve(by_index.size());
  for (auto& [index, gpu] : by_index) {
    gpu.util_frac = std::clamp(gpu.util_frac, 0.0, 1.0);
    out.push_back(std::move(gpu));
  }
  return out;
}

std::optional<EnergyRecord> strategy_energy(const StrategyResult& strategy,
                                            const std::vector<std::string>& fleet_gpu_ids, double horizon_s,
                                            const models::GpuCatalog& catalog) {
  const auto curve_of = [&](const std::string& id) -> std::optional<models::PowerCurve> {
    const auto* spec = catalog.find(id);
    return spec ? models::power_curve(*spec, catalog) : std::nullopt;
  };
  EnergyRecord energy;
  energy.hours = horizon_s / 3600.0;
  std::vector<bool> used(fleet_gpu_ids.size(), false);
  for (const auto& gpu : gpu_utilisation(strategy)) {
    const auto curve = curve_of(gpu.gpu);
    if (!curve) return std::nullopt;
    GpuEnergy e;
    e.gpu_index = gpu.gpu_index;
    e.gpu = gpu.gpu;
    e.util_frac = gpu.util_frac;
    e.idle_w = curve->idle_w;
    e.max_w = curve->max_w;
    e.idle_estimated = curve->idle_estimated;
    e.mean_power_w = curve->watts(gpu.util_frac);
    e.kwh = e.mean_power_w * energy.hours / 1000.0;
    energy.gpu_kwh += e.kwh;
    energy.mean_power_w += e.mean_power_w;
    if (const auto g = static_cast<std::size_t>(gpu.gpu_index); gpu.gpu_index >= 0 && g < used.size()) used[g] = true;
    energy.per_gpu.push_back(std::move(e));
  }
  for (std::size_t g = 0; g < fleet_gpu_ids.size(); ++g) {
    if (used[g]) continue;
    const auto curve = curve_of(fleet_gpu_ids[g]);
    if (!curve) return std::nullopt;
    ++energy.unused_gpus;
    energy.unused_idle_w += curve->idle_w;
  }
  energy.monthly_kwh = energy.mean_power_w * kHoursPerMonth / 1000.0;
  return energy;
}

std::optional<EnergyRecord> energy_of(const SimResult& result, std::size_t index) {
  if (index >= result.strategies.size()) return std::nullopt;
  const auto& strategy = result.strategies[index];
  if (strategy.energy) return strategy.energy;
  return strategy_energy(strategy, {}, result.horizon_s, models::GpuCatalog::shipped());
}

std::vector<std::string> gpus_without_power(const StrategyResult& strategy, const models::GpuCatalog& catalog) {
  std::vector<std::string> out;
  for (const auto& device : strategy.devices) {
    const auto* spec = catalog.find(device.gpu);
    if (spec && models::power_curve(*spec, catalog)) continue;
    if (std::find(out.begin(), out.end(), device.gpu) == out.end()) out.push_back(device.gpu);
  }
  return out;
}

}  // namespace slicewise::scenario
