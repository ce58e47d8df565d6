// Exact time slicing on one device (docs/model.md §4, `"exact": true`): the driver hands the GPU to
// one context at a time for a quantum, a higher priority class first, and a context that follows
// another pays the switch before it runs. Under HAMi a capped context also spends a token bucket of
// GPU time (CoreCapBuckets) and, once it has used its cap, waits while another has work.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "models/rate_types.hpp"
#include "sim/sim_time.hpp"

namespace slicewise::sim {

/// HAMi's core caps under exact time slicing: each capped context's token bucket, in seconds of GPU
/// time, refilled at its cap and holding at most cap × kWindowS (HAMi-core samples utilisation about
/// every 120 ms). A context without a cap (1) has no bucket.
class CoreCapBuckets {
 public:
  static constexpr double kWindowS = 0.12;
  /// Below this a capped context has used its cap.
  static constexpr double kMinSliceS = 1e-6;

  /// One bucket per cap (a fraction of the GPU's time; 1 = none), each full.
  explicit CoreCapBuckets(std::vector<double> caps);
  /// `dt` seconds pass with context `running` on the GPU (none: no context runs).
  void advance(double dt, std::optional<std::size_t> running);
  /// True when context `c` is capped and has used its cap.
  bool throttled(std::size_t c) const { return caps_[c] < 1.0 && tokens_[c] <= kMinSliceS; }
  /// GPU seconds context `c` holds (its cap × kWindowS at most).
  double tokens_s(std::size_t c) const { return tokens_[c]; }
  /// How long context `c` keeps the GPU once it has it: a quantum, or, while others have work,
  /// what a capped context has left of its cap.
  double turn_s(std::size_t c, double quantum_s, bool others_have_work) const;

 private:
  std::vector<double> caps_;
  std::vector<double> tokens_;
};

/// Which context holds a time-sliced GPU, and until when.
class ExactTimeSlicer {
 public:
  /// The device's quantum and switch cost; `demands` its contexts (their caps and priorities).
  ExactTimeSlicer(double quantum_s, double switch_cost_s, std::span<const models::ContextDemand> demands);

  /// Called at every event, with each context's `active` current: hands the GPU on when the
  /// quantum or switch is over, or when the holder has nothing left to run. A higher priority
  /// class takes the GPU at the next quantum boundary and keeps it while it has work. A context
  /// that used up its core cap waits while another has work; alone, or when every context with
  /// work is capped out, it runs (the cap is not enforced alone).
  void rotate(double now, std::span<const models::ContextDemand> demands);
  /// `dt` seconds pass: the running context spends its core cap, the others earn theirs.
  void advance(double dt) { buckets_.advance(dt, running()); }

  /// The context the GPU is handed to (running, or paying the switch to run); none before the
  /// first turn and when no context has work.
  std::optional<std::size_t> holder() const { return holder_; }
  /// The context that runs now: the holder, unless it is paying the switch.
  std::optional<std::size_t> running() const { return switching_ ? std::nullopt : holder_; }
  /// When the current quantum or switch ends; kNever when no context has work.
  double slice_end_s() const { return slice_end_s_; }
  const CoreCapBuckets& buckets() const { return buckets_; }

 private:
  /// The context that gets the GPU next: round robin after the holder within the highest priority
  /// class that has work; a context that used up its cap counts only when every context with work
  /// has. None when no context has work.
  std::optional<std::size_t> next_holder(std::span<const models::ContextDemand> demands) const;
  /// How long `holder` keeps the GPU from now.
  double turn_length(std::size_t holder, std::span<const models::ContextDemand> demands) const;

  double quantum_s_;
  double switch_cost_s_;
  CoreCapBuckets buckets_;
  std::optional<std::size_t> holder_;
  bool switching_ = false;
  double slice_end_s_ = kNever;
};

}  // namespace slicewise::sim
