// Device -> GPU -> fleet utilisation (see utilisation.hpp).
#include "scenario/utilisation.hpp"

#include <algorithm>

#include "scenario/catalogs.hpp"

namespace slicewise::scenario {

double gpu_share(const DeviceResult& device) {
  if (device.mig_profile.empty()) return 1.0;
  const auto catalogs = Catalogs::shipped();
  const auto* gpu = catalogs.gpus->find(device.gpu);
  const auto* geometry = catalogs.mig->find(device.gpu);
  const auto* profile = geometry ? geometry->find(device.mig_profile) : nullptr;
  if (!gpu || !profile || gpu->num_sms <= 0) return 1.0;
  return static_cast<double>(profile->num_sms) / gpu->num_sms;
}

double fleet_mean(const StrategyResult& strategy, const std::function<double(std::size_t)>& value) {
  int num_gpus = 0;
  for (const auto& device : strategy.devices) num_gpus = std::max(num_gpus, device.gpu_index + device.gpu_count);
  std::vector<double> per_gpu(static_cast<std::size_t>(num_gpus), 0.0);
  std::vector<bool> used(per_gpu.size(), false);
  for (std::size_t d = 0; d < strategy.devices.size(); ++d) {
    // Each GPU of a tensor-parallel group is as busy as the group.
    for (int k = 0; k < strategy.devices[d].gpu_count; ++k) {
      const auto g = static_cast<std::size_t>(strategy.devices[d].gpu_index) + static_cast<std::size_t>(k);
      per_gpu[g] += gpu_share(strategy.devices[d]) * value(d);
      used[g] = true;
    }
  }
  const auto num_used = static_cast<double>(std::count(used.begin(), used.end(), true));
  double mean = 0.0;
  for (std::size_t g = 0; g < per_gpu.size(); ++g) {
    if (used[g]) mean += per_gpu[g] / num_used;
  }
  return mean;
}

std::vector<double> fleet_busy_series(const StrategyResult& strategy) {
  const auto& busy = strategy.series.device_busy_frac;
  std::size_t intervals = 0;
  for (const auto& row : busy) intervals = std::max(intervals, row.size());
  std::vector<double> series(intervals, 0.0);
  if (busy.size() != strategy.devices.size()) return series;  // a result without per-device series
  for (std::size_t i = 0; i < intervals; ++i) {
    series[i] = fleet_mean(strategy, [&](std::size_t d) { return i < busy[d].size() ? busy[d][i] : 0.0; });
  }
  return series;
}

}  // namespace slicewise::scenario
