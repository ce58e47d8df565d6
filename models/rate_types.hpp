// What the per-device rate model (rate_model.hpp) reads and answers: the device's sharing
// constants (SharingParams), each context's demand (ContextDemand) and its rates (ContextRate).
// Units and duty: see rate_model.hpp.
#pragma once

#include <limits>

namespace slicewise::models {

/// How the contexts of one device share it; each strategy maps to one discipline.
enum class SharingDiscipline {
  exclusive,    ///< one context owns the device (dedicated, mig, a reserved GPU); never two
  time_sliced,  ///< contexts with GPU work take turns (time_slicing, mig_time_slicing, hami, vgpu best_effort)
  concurrent,   ///< contexts run at once; kernels that want the same SMs take turns, bandwidth is split (mps)
  fixed_share,  ///< each placed context owns a fixed share, used or not (vgpu equal_share / fixed_share)
};

/// MPS: the duration of one kernel of a context that gives none (ContextDemand::kernel_s 0), the
/// default of docs/model.md §2 ("MPS: thread blocks"). Only ratios of kernel durations matter.
inline constexpr double kDefaultKernelS = 1e-4;

/// Constants of the discipline (defaults are the uncalibrated values of docs/model.md).
struct SharingParams {
  SharingDiscipline discipline = SharingDiscipline::exclusive;
  /// Time-slicing efficiency η = q / (q + c) applied while two or more contexts want the GPU
  /// (when timeslice_s is 0; otherwise each context's own, from its bursts).
  double efficiency = 1.0;
  /// Time slices as the driver runs them (docs/model.md §2, "Time slices and bursts"): 0 leaves the
  /// flat η above. Otherwise a context holding the GPU runs until its burst of queued work ends
  /// (then the switch costs yield_switch_s) or its slice of timeslice_s does (the burst is
  /// preempted and the switch costs preempt_switch_s), and the contexts take turns.
  double timeslice_s = 0.0;
  double yield_switch_s = 0.0;
  double preempt_switch_s = 0.0;
  /// Time slices of `slice_ms`, a yield costing `yield_ms` and a cut `preempt_ms`: the units a
  /// calibration profile and a scenario give them in.
  void set_time_slices(double slice_ms, double yield_ms, double preempt_ms) {
    timeslice_s = slice_ms * 1e-3;
    yield_switch_s = yield_ms * 1e-3;
    preempt_switch_s = preempt_ms * 1e-3;
  }
  /// MPS efficiency while two or more clients run at once on different SMs (interference beyond
  /// the split), (0, 1].
  double concurrent_efficiency = 1.0;
  /// MPS interference κ >= 0 from the co-runners' memory traffic, felt before any resource runs out
  /// (shared L2 and DRAM): each client's share is divided by 1 + κ Σ_j x_j bw_j over the others j
  /// (x_j its GPU-phase probability, bw_j its bandwidth demand). 0 (the default) leaves the split alone.
  double concurrent_interference = 0.0;
  /// Extra GPU time per kernel launch from an interposer (HAMi), as a fraction: rate / (1 + x).
  double launch_overhead_frac = 0.0;
  /// Enforce caps even when a context is alone on the device (HAMi "force" policy).
  bool cap_when_alone = false;
  /// fixed_share: the slots of the device (vGPUs per GPU of the profile; equal_share: the vGPUs
  /// placed). Shares are w / max(slots, Σ placed weights), so they never add up to more than 1.
  double total_placed_weight = 0.0;
  /// Sharpness p of the roofline (docs/model.md §2): a context demanding x = sm and y = bw of the
  /// device runs at 1 / S_p(x, y), S_p = (1 + x^p + y^p)^(1/p), relative to S_p at its reference
  /// demand. Infinity (the default) is the hard roofline min(1, 1/x, 1/y); a finite p, fitted on MIG
  /// slice measurements, rounds the knee where a workload starts to fill the device.
  double roofline_sharpness = std::numeric_limits<double>::infinity();
  /// The fraction of the device's SMs whose memory requests saturate its bandwidth (docs/model.md,
  /// "Bandwidth needs SMs"): a client running on fewer SMs s pulls at most s / this of the
  /// bandwidth, so a memory-bound MPS client under a thread cap slows although it needs little
  /// compute. 0 (the default, and any GPU without a measurement): SMs never limit bandwidth.
  double bandwidth_sm_frac = 0.0;
  bool operator==(const SharingParams&) const = default;
};

/// One context placed on the device, at this instant.
struct ContextDemand {
  bool active = false;     ///< has requests in service
  double demand_sm = 0.0;  ///< SM fraction of this device its in-service requests use at full speed
  double demand_bw = 0.0;  ///< bandwidth fraction of this device, likewise
  double duty = 1.0;       ///< GPU-busy fraction of its requests' solo time, (0, 1]
  double weight = 1.0;     ///< share weight (time_sliced, fixed_share), > 0
  double cap = 1.0;  ///< concurrent: max SM fraction (MPS active thread %); time_sliced: max time share (HAMi gpucores)
  /// concurrent: fraction of the device's SMs its kernels' thread blocks take while they run (an
  /// LLM step's GEMMs launch a wave of blocks or more: 1); 0 = demand_sm (a workload's measured
  /// SM occupancy). Capped by `cap`.
  double occupancy = 0.0;
  /// concurrent: GPU seconds of one of its kernels at full speed on this device; 0 = the
  /// default kDefaultKernelS. Clients whose kernels want the same SMs take turns kernel by kernel.
  double kernel_s = 0.0;
  int priority = 1;     ///< time_sliced: scheduling class, 0 high, 1 normal, 2 low (a lower number runs first)
  double ref_sm = 0.0;  ///< the same demand as a fraction of the workload's reference GPU (finite sharpness only)
  double ref_bw = 0.0;
  /// time_sliced with time slices: GPU seconds of work it queues before it waits on the host (a
  /// kernel its loop synchronises after, a CUDA graph, an LLM step), on this device; 0 = unknown
  /// (then a stream of long kernels: whole slices, each preempted).
  double burst_s = 0.0;
};

/// The model's answer for one context.
struct ContextRate {
  double gpu_rate = 0.0;        ///< speed of its GPU work relative to solo on the reference device
  double progress_rate = 0.0;   ///< speed of its requests (CPU + GPU) relative to solo
  double gpu_phase_frac = 0.0;  ///< fraction of time it has GPU work pending
  double sm_usage_frac = 0.0;   ///< mean fraction of the device's SMs it keeps busy
  /// Probability that no other context is in a GPU phase (mean field): while so, it runs at
  /// `alone_gpu_rate`; otherwise slower. What the sharing variance of docs/model.md §4 is made of.
  double alone_frac = 1.0;
  double alone_gpu_rate = 0.0;  ///< its GPU rate with the device to itself
  double others_busy = 0.0;     ///< expected number of other contexts in a GPU phase, Σ x_j
};

}  // namespace slicewise::models
