// The sharing constants a strategy uses where its scenario leaves them unset: the uncalibrated
// defaults of docs/model.md §3, or a calibration profile's fitted values
// (calibration/sharing_defaults.hpp converts a profile).
#pragma once

#include <limits>
#include <map>
#include <string>

namespace slicewise::models {

struct SharingDefaults {
  double quantum_ms = 2.0;  ///< time slice; NVIDIA documents 2 ms for vGPU best_effort (<= 8 vGPUs)
  /// Context-switch cost per slice. A profile's fitted time-slicing efficiency η is carried as the
  /// switch cost at the default quantum, c = q (1/η − 1): the physical constant behind η.
  double switch_cost_ms = 0.1;
  /// Time slices with bursts (docs/model.md §2) when a profile fitted them: the driver's slice is
  /// then quantum_ms, a context that yields costs yield_switch_ms to switch, one cut at its slice's
  /// end preempt_switch_ms. Off: the flat η from switch_cost_ms.
  bool time_slices = false;
  double yield_switch_ms = 0.0;
  double preempt_switch_ms = 0.0;
  double mps_efficiency = 1.0;  ///< MPS interference beyond the resource split
  /// κ of the MPS memory-pressure term (docs/model.md §2): a client's share is divided by
  /// 1 + κ Σ_j x_j bw_j over its co-runners. 0: no public co-run data support a positive value.
  double mps_interference = 0.0;
  double hami_launch_overhead_frac = 0.02;
  /// Roofline sharpness per GPU id (a calibration profile fills it); GPUs not listed use the hard
  /// roofline (infinity).
  std::map<std::string, double> roofline_sharpness;
  double roofline_sharpness_for(const std::string& gpu_id) const {
    const auto it = roofline_sharpness.find(gpu_id);
    return it == roofline_sharpness.end() ? std::numeric_limits<double>::infinity() : it->second;
  }
  /// The fraction of SMs that saturate memory bandwidth per GPU id (SharingParams::
  /// bandwidth_sm_frac; a profile fills it); GPUs not listed: 0, SMs never limit bandwidth.
  std::map<std::string, double> bandwidth_sm_frac;
  double bandwidth_sm_frac_for(const std::string& gpu_id) const {
    const auto it = bandwidth_sm_frac.find(gpu_id);
    return it == bandwidth_sm_frac.end() ? 0.0 : it->second;
  }
  /// η = q / (q + c) for a quantum and switch cost in the same unit.
  static double efficiency(double quantum, double switch_cost) { return quantum / (quantum + switch_cost); }
};

}  // namespace slicewise::models
