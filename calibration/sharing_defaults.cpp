// Calibration profile -> sharing defaults.
#include "calibration/sharing_defaults.hpp"

#include <algorithm>

#include "models/gpu_catalog.hpp"

namespace slicewise::calibration {

models::SharingDefaults sharing_defaults(const CalibrationProfile& profile) {
  models::SharingDefaults d;
  if (const auto* c = profile.find("time_slicing_efficiency")) {
    d.switch_cost_ms = d.quantum_ms * std::max(0.0, 1.0 / c->value - 1.0);
  }
  // The time-slice model's three constants, when the profile fitted them, replace the flat η.
  const auto* slice = profile.find("timeslice_ms");
  const auto* yield = profile.find("yield_switch_ms");
  const auto* preempt = profile.find("preempt_switch_ms");
  if (slice && yield && preempt) {
    d.time_slices = true;
    d.quantum_ms = slice->value;
    d.yield_switch_ms = yield->value;
    d.preempt_switch_ms = preempt->value;
    d.switch_cost_ms = preempt->value;  // exact quanta and the sharing variance: a slice and its cut
  }
  if (const auto* c = profile.find("mps_efficiency")) d.mps_efficiency = std::min(1.0, c->value);
  if (const auto* c = profile.find("mps_interference")) d.mps_interference = std::max(0.0, c->value);
  if (const auto* c = profile.find("hami_launch_overhead_frac")) d.hami_launch_overhead_frac = c->value;
  // The roofline sharpness is a property of an architecture's SMs and memory system, fitted on one
  // GPU of it (the MISO A100-40GB slices): it applies to every GPU of that architecture in the
  // catalog, so that one workload scales the same on A100-40GB and A100-80GB slices. A value fitted
  // for a GPU itself takes precedence; among several fitted GPUs of one architecture, the first in
  // the profile speaks for the others.
  const auto& catalog = models::GpuCatalog::shipped();
  for (const auto& c : profile.constants) {
    if (c.name == "roofline_sharpness" && c.gpu != "*") d.roofline_sharpness[c.gpu] = c.value;
  }
  for (const auto& c : profile.constants) {
    if (c.name != "roofline_sharpness" || c.gpu == "*") continue;
    const auto* fitted = catalog.find(c.gpu);
    if (!fitted || fitted->arch.empty()) continue;
    for (const auto& gpu : catalog.gpus()) {
      if (gpu.arch == fitted->arch) d.roofline_sharpness.emplace(gpu.id, c.value);  // keeps a value already set
    }
  }
  return d;
}

}  // namespace slicewise::calibration
