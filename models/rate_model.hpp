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

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "models/rate_memo.hpp"
#include "models/rate_types.hpp"

namespace slicewise::models {

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
  std::size_t kept_answers() const { return memo_.size(); }
  std::size_t replays() const { return memo_.replays(); }
  bool keeps_answers() const { return keep_answers_; }
  /// Only devices of this many contexts or fewer keep answers (RateMemo).
  static constexpr std::size_t kMemoMaxContexts = RateMemo::kMaxContexts;

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
  /// One fixed-point step: each active context's phase from its share; returns the largest change.
  double update_phases(std::span<const ContextDemand> contexts, double overhead);
  /// The answer for each active context, from the converged phases and shares.
  void fill_rates(std::span<const ContextDemand> contexts, double overhead, std::vector<ContextRate>& out) const;

  void time_sliced_shares(std::span<const ContextDemand> contexts);
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
  std::vector<ContextDemand> turns_;  // time_sliced_shares with time slices: weights times turns
  std::vector<double> eta_;           // time_sliced_shares: each context's efficiency
  bool turns_ready_ = false;          // turns_ and eta_ are set for this solve
  std::vector<int> active_;
  // Working memory, one buffer per use, kept between solves so that a solve allocates nothing.
  std::vector<double> distribution_;         // time slicing: the others' busy count (direct route)
  std::vector<double> class_distributions_;  // time slicing: each class's busy count (by-class route)
  std::vector<std::uint8_t> capped_;         // cap_time_shares: per active context, 1 when capped
  std::vector<double> mps_terms_;            // concurrent_shares: five terms per active context
  RateMemo memo_;
};

}  // namespace slicewise::models
