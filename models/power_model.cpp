// GPU board power from utilisation (see power_model.hpp).
#include "models/power_model.hpp"

#include <algorithm>
#include <vector>

namespace slicewise::models {

double PowerCurve::watts(double utilization_frac) const {
  return idle_w + (max_w - idle_w) * std::clamp(utilization_frac, 0.0, 1.0);
}

std::optional<double> measured_idle_frac(const GpuCatalog& catalog) {
  std::vector<double> fracs;
  for (const auto& gpu : catalog.gpus()) {
    if (gpu.idle_w && gpu.tdp_w) fracs.push_back(*gpu.idle_w / *gpu.tdp_w);
  }
  if (fracs.empty()) return std::nullopt;
  std::sort(fracs.begin(), fracs.end());
  const std::size_t mid = fracs.size() / 2;
  return fracs.size() % 2 == 1 ? fracs[mid] : (fracs[mid - 1] + fracs[mid]) / 2.0;
}

std::optional<PowerCurve> power_curve(const GpuSpec& gpu, const GpuCatalog& catalog) {
  if (!gpu.tdp_w) return std::nullopt;
  return power_curve_at(&gpu, *gpu.tdp_w, catalog);
}

std::optional<PowerCurve> power_curve_at(const GpuSpec* gpu, double max_w, const GpuCatalog& catalog) {
  if (gpu && gpu->idle_w && *gpu->idle_w < max_w) return PowerCurve{*gpu->idle_w, max_w, false};
  const auto frac = measured_idle_frac(catalog);
  if (!frac) return std::nullopt;
  return PowerCurve{*frac * max_w, max_w, true};
}

}  // namespace slicewise::models
