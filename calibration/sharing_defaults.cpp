// Calibration profile -> sharing defaults.
#include "calibration/sharing_defaults.hpp"

#include <algorithm>

namespace slicewise::calibration {

models::SharingDefaults sharing_defaults(const CalibrationProfile& profile) {
  models::SharingDefaults d;
  if (const auto* c = profile.find("time_slicing_efficiency")) {
    d.switch_cost_ms = d.quantum_ms * std::max(0.0, 1.0 / c->value - 1.0);
  }
  if (const auto* c = profile.find("mps_efficiency")) d.mps_efficiency = std::min(1.0, c->value);
  if (const auto* c = profile.find("hami_launch_overhead_frac")) d.hami_launch_overhead_frac = c->value;
  for (const auto& c : profile.constants) {
    if (c.name == "roofline_sharpness" && c.gpu != "*") d.roofline_sharpness[c.gpu] = c.value;
  }
  return d;
}

}  // namespace slicewise::calibration
