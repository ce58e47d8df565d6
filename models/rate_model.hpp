// The per-device rate model (docs/design.md §2, §4): given the contexts active on one device and their
// demands, how fast does each progress? Pure C++, no SimGrid, unit-tested in closed form.
//
// Units. Every demand is a fraction of THIS device's capacity (the caller converts a workload's
// reference-GPU demand with the device's compute and bandwidth ratios), so a demand above 1 means
// the context cannot run at full speed even alone. Rates are relative to solo speed on the
// workload's reference device: 1 = as fast as measured alone.
//
// Duty. A request is GPU-busy a fraction `duty` of its solo time; the rest (CPU, I/O, Python) is
// never slowed by sharing. A context progresses at
//     progress_rate = 1 / ((1 - duty) + duty / gpu_rate)
// and is in its GPU phase a fraction gpu_phase_frac = (duty / gpu_rate) * progress_rate of the
// time. Contention is a mean field over the other contexts' GPU phases, solved by fixed-point
// iteration (see docs/model.md).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace slicewise::models {

/// How the contexts of one device share it; each strategy maps to one discipline.
enum class SharingDiscipline {
  exclusive,    ///< one context owns the device (dedicated, mig); several are time-sliced
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

/// Rates of every context (inactive ones get zeros). `out` is resized to `contexts.size()`.
/// Allocation-free after the first call with a given size, so it can run on every event.
///
/// Each solve starts from the last one's phases (a warm start), so its answer is a function of
/// the demands and of those starting phases. A device with a few contexts meets the same pairs
/// again and again (demands come from counts of requests in service, and the phases a solve ends
/// at are those a few earlier ones ended at), so the answers for a few hundred of them are
/// kept, with the phases they end at, and replayed bit for bit without a solve. On B1 (2 contexts a
/// GPU) about 280 pairs per device recur, and 99.9 % of the calls are replays (docs/benchmarks.md).
class RateModel {
 public:
  /// `keep_answers` false solves every time (the tests compare the two).
  explicit RateModel(SharingParams params = {}, bool keep_answers = true)
      : params_(params), keep_answers_(keep_answers) {}
  const SharingParams& params() const { return params_; }

  void compute(std::span<const ContextDemand> contexts, std::vector<ContextRate>& out);
  /// The same answers for a caller that leaves the idle contexts out (sim::DeviceState): every one
  /// of `active` is active, and each solve starts from `from[i]`, the GPU-phase fraction
  /// (ContextRate::gpu_phase_frac) context i ended the last solve it took part in at, 0 if none,
  /// rather than from this model's last solve. An idle context changes nothing in a solve (its
  /// share, phase and rates are 0 and every sum and product skips it), so the rates are bit for
  /// bit those of compute() over every context, at the cost of the active ones only. fixed_share
  /// counts every placed weight: give it in SharingParams::total_placed_weight.
  void compute(std::span<const ContextDemand> active, std::span<const double> from, std::vector<ContextRate>& out);
  /// How many answers are kept now, how many calls replayed one, and whether the model still
  /// keeps them (for the tests).
  std::size_t kept_answers() const { return memo_size_; }
  std::size_t replays() const { return replays_; }
  bool keeps_answers() const { return keep_answers_; }

  /// Answers kept per model: an open-addressing table on a hash of the solve's input, at most half
  /// full, grown from 8 slots as needed up to kMemoContextSlots / kMemoMaxContexts slots (each of
  /// room for kMemoMaxContexts contexts; 147 KB per device at most) and emptied when full. A model that replays fewer
  /// than a quarter of its answers over kMemoWindow calls stops keeping them and frees the table.
  static constexpr std::size_t kMemoContextSlots = 1024;
  static constexpr std::size_t kMemoWindow = 1024;
  /// Only devices of this many contexts or fewer keep answers: with more, the warm start leaves the
  /// phases of contexts that did not change different in their last bits from visit to visit, and
  /// pairs seldom recur (RateModel.KeptAnswersReplayTheSolveBitForBit).
  static constexpr std::size_t kMemoMaxContexts = 2;

  /// Speed of a context alone on the device with its whole capacity: min(1, 1/demand_sm, 1/demand_bw)
  /// for the hard roofline, S_p(ref_sm, ref_bw) / S_p(demand_sm, demand_bw) for a finite sharpness.
  static double solo_gpu_rate(const ContextDemand& context, double sharpness = std::numeric_limits<double>::infinity());
  /// S_p(x, y) = (1 + x^p + y^p)^(1/p), computed without overflow; max(1, x, y) for p = infinity.
  static double roofline_slowdown(double x, double y, double sharpness);
  /// 1 / ((1 - duty) + duty / gpu_rate); 0 when gpu_rate is 0.
  static double progress_rate(double duty, double gpu_rate);

 private:
  /// The phases a solve starts from: the last solve's (warm) when the number of contexts is
  /// unchanged, never below the duty; the duty otherwise; 0 for an idle context.
  void starting_phases(std::span<const ContextDemand> contexts, std::vector<double>& start) const;
  /// Lists the active contexts and sets their starting phases.
  void start_phases(std::span<const ContextDemand> contexts);
  void solve(std::span<const ContextDemand> contexts, std::vector<ContextRate>& out);
  static constexpr std::size_t kNoSlot = std::numeric_limits<std::size_t>::max();
  /// The slot of the kept answer for `contexts` starting from start_ (hash `key`), or kNoSlot.
  std::size_t recall(std::uint64_t key, std::span<const ContextDemand> contexts) const;
  void keep(std::uint64_t key, std::span<const ContextDemand> contexts, const std::vector<ContextRate>& rates);
  /// Puts one answer in the first free slot from its key's (the table has room).
  void insert_kept(std::uint64_t key, std::span<const ContextDemand> demands, std::span<const double> start,
                   std::span<const ContextRate> rates, std::span<const double> end);
  void grow_memo(std::size_t slots);
  /// One fixed-point step: each active context's phase from its share; returns the largest change.
  double update_phases(std::span<const ContextDemand> contexts, double overhead);
  /// The answer for each active context, from the converged phases and shares.
  void fill_rates(std::span<const ContextDemand> contexts, double overhead, std::vector<ContextRate>& out) const;

  void time_sliced_shares(std::span<const ContextDemand> contexts);
  void time_sliced_shares_by_class(std::span<const ContextDemand> contexts);
  /// The contexts as time slicing weighs them, and each one's efficiency in eta_: with time slices,
  /// each weight times its turn on the GPU (useful time plus switch) and η its useful part of the
  /// turn; without, the contexts themselves and the flat η.
  std::span<const ContextDemand> turns(std::span<const ContextDemand> contexts);
  void concurrent_shares(std::span<const ContextDemand> contexts);
  /// concurrent: scales the speeds `speed` (per active context) down to the device's bandwidth.
  void split_bandwidth(std::span<const ContextDemand> contexts, std::span<double> speed) const;
  void fixed_shares(std::span<const ContextDemand> contexts);
  void cap_time_shares(std::span<const ContextDemand> contexts);

  SharingParams params_;
  bool keep_answers_ = true;
  std::vector<double> phase_;  // GPU-phase probability per context (fixed-point state)
  std::vector<double> start_;  // compute(): the phases the next solve starts from
  std::vector<double> share_;  // fraction of solo GPU speed granted by the discipline
  /// Per active context, solo_gpu_rate at the model's sharpness, set once per solve rather than at
  /// every fixed-point step (a finite sharpness costs 8 pow()).
  std::vector<double> solo_;
  std::vector<double> scratch_;
  std::vector<ContextDemand> turns_;  // time_sliced_shares with time slices: weights times turns
  std::vector<double> eta_;           // time_sliced_shares: each context's efficiency
  bool turns_ready_ = false;          // turns_ and eta_ are set for this solve
  std::vector<int> active_;
  // The kept answers: slot s holds, at [s·W, s·W + n), W = kMemoMaxContexts, the n demands and
  // starting phases of a solve of n contexts, its n rates and the n phases it ended at; its key
  // is 0 when empty. Solves of 1 and of 2 contexts share the table.
  std::size_t memo_size_ = 0;   // slots in use
  std::size_t memo_calls_ = 0;  // calls and replays in the current window of kMemoWindow calls
  std::size_t memo_hits_ = 0;
  std::size_t replays_ = 0;
  std::vector<std::uint64_t> memo_key_;
  std::vector<std::uint8_t> memo_count_;  // n of each slot's answer
  std::vector<ContextDemand> memo_demands_;
  std::vector<double> memo_start_;
  std::vector<ContextRate> memo_rates_;
  std::vector<double> memo_end_;
};

}  // namespace slicewise::models
