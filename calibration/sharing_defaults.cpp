// Calibration profile -> sharing defaults.
#include "calibration/sharing_defaults.hpp"

#include <algorithm>

#include "models/gpu_catalog.hpp"

namespace slicewise::calibration {

namespace {

/// Fills `per_gpu` with the profile's per-GPU values of constant `name`: each GPU's own first, then
/// every catalog GPU of a fitted GPU's architecture (the first fitted GPU of an architecture speaks
/// for the others; a value already set is kept).
void spread_by_architecture(const CalibrationProfile& profile, const std::string& name,
                            std::map<std::string, double>& per_gpu) {
  const auto& catalog = models::GpuCatalog::shipped();
  for (const auto& c : profile.constants) {
    if (c.name == name && c.gpu != "*") per_gpu[c.gpu] = c.value;
  }
  for (const auto& c : profile.constants) {
    if (c.name != name || c.gpu == "*") continue;
    const auto* fitted = catalog.find(c.gpu);
    if (!fitted || fitted->arch.empty()) continue;
    for (const auto& gpu : catalog.gpus()) {
      if (gpu.arch == fitted->arch) per_gpu.emplace(gpu.id, c.value);
    }
  }
}

}  // namespace

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
  // The SMs that saturate bandwidth likewise belong to the architecture's SMs and memory system.
  spread_by_architecture(profile, "roofline_sharpness", d.roofline_sharpness);
  spread_by_architecture(profile, "bandwidth_sm_frac", d.bandwidth_sm_frac);
  return d;
}

}  // namespace slicewise::calibration
