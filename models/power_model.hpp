// Board power of a GPU from its utilisation (docs/energy.md): a straight line from its idle power
// to its TDP, both from the GPU catalog. Pure functions; scenario/energy.hpp integrates them over a
// run.
#pragma once

#include <optional>

#include "models/gpu_catalog.hpp"

namespace slicewise::models {

/// P(u) = idle_w + (max_w − idle_w) × u for a utilisation u in [0, 1].
struct PowerCurve {
  double idle_w = 0.0;          ///< at rest (driver loaded, no work)
  double max_w = 0.0;           ///< at full utilisation: the board power limit (TDP)
  bool idle_estimated = false;  ///< idle_w is measured_idle_frac × max_w, not a measurement of this GPU
  bool operator==(const PowerCurve&) const = default;

  /// Watts at utilisation `utilization_frac`, clamped to [0, 1] (a MIG GPU's instances can add up
  /// to a hair over 1 in floating point).
  double watts(double utilization_frac) const;
};

/// The median of idle_w / tdp_w over the catalog's GPUs that have both (the shipped catalog: 85 W /
/// 700 W of the H100 SXM, the middle of nine measured GPUs); nullopt when none has both. A GPU
/// without a measured idle power is estimated at this share of its TDP.
std::optional<double> measured_idle_frac(const GpuCatalog& catalog);

/// `gpu`'s curve from `catalog`: idle_w to tdp_w; without idle_w, measured_idle_frac × tdp_w,
/// marked estimated. nullopt when the GPU has no tdp_w (H100 NVL, GH200, B200 in the shipped
/// catalog) or the estimate has nothing to go on.
std::optional<PowerCurve> power_curve(const GpuSpec& gpu, const GpuCatalog& catalog);

/// The same GPU at another board power limit `max_w` (an on-prem server's own gpu_tdp_w): the
/// catalog's idle power when it is below `max_w`, else measured_idle_frac × max_w (estimated);
/// nullopt when `gpu` is null and the catalog has no measured idle power.
std::optional<PowerCurve> power_curve_at(const GpuSpec* gpu, double max_w, const GpuCatalog& catalog);

}  // namespace slicewise::models
