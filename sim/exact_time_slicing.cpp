// Exact time slicing and HAMi's core caps (exact_time_slicing.hpp).
#include "sim/exact_time_slicing.hpp"

#include <algorithm>
#include <utility>

namespace slicewise::sim {

CoreCapBuckets::CoreCapBuckets(std::vector<double> caps) : caps_(std::move(caps)), tokens_(caps_.size()) {
  for (std::size_t i = 0; i < tokens_.size(); ++i) tokens_[i] = std::min(1.0, caps_[i]) * kWindowS;
}

void CoreCapBuckets::advance(double dt, std::optional<std::size_t> running) {
  // A capped context earns cap seconds of GPU per second and spends what it holds, up to cap × the
  // sampling window.
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    const double cap = caps_[i];
    if (cap >= 1.0) continue;
    const bool holds = running == i;
    tokens_[i] = std::min(cap * kWindowS, tokens_[i] + cap * dt - (holds ? dt : 0.0));
  }
}

double CoreCapBuckets::turn_s(std::size_t c, double quantum_s, bool others_have_work) const {
  if (caps_[c] >= 1.0 || tokens_[c] <= kMinSliceS || !others_have_work) return quantum_s;
  return std::min(quantum_s, tokens_[c]);
}

namespace {

std::vector<double> caps_of(std::span<const models::ContextDemand> demands) {
  std::vector<double> caps;
  caps.reserve(demands.size());
  for (const auto& d : demands) caps.push_back(d.cap);
  return caps;
}

}  // namespace

ExactTimeSlicer::ExactTimeSlicer(double quantum_s, double switch_cost_s, std::span<const models::ContextDemand> demands)
    : quantum_s_(quantum_s), switch_cost_s_(switch_cost_s), buckets_(caps_of(demands)) {}

std::optional<std::size_t> ExactTimeSlicer::next_holder(std::span<const models::ContextDemand> demands) const {
  const std::size_t n = demands.size();
  const std::size_t from = holder_.value_or(n - 1);
  std::optional<std::size_t> best;
  bool best_throttled = true;
  for (std::size_t step = 1; step <= n; ++step) {
    const std::size_t c = (from + step) % n;
    if (!demands[c].active) continue;
    const bool throttled = buckets_.throttled(c);
    const bool better = !best || (best_throttled && !throttled) ||
                        (best_throttled == throttled && demands[c].priority < demands[*best].priority);
    if (better) {
      best = c;
      best_throttled = throttled;
    }
  }
  return best;
}

double ExactTimeSlicer::turn_length(std::size_t holder, std::span<const models::ContextDemand> demands) const {
  bool others = false;
  for (std::size_t c = 0; c < demands.size() && !others; ++c) others = c != holder && demands[c].active;
  return buckets_.turn_s(holder, quantum_s_, others);
}

void ExactTimeSlicer::rotate(double now, std::span<const models::ContextDemand> demands) {
  const bool holder_busy = holder_ && demands[*holder_].active;
  if (switching_) {
    if (now < slice_end_s_) return;
    switching_ = false;  // the switch was paid for holder_; it runs now unless it has gone idle
    if (!holder_busy) holder_ = next_holder(demands);
    slice_end_s_ = holder_ ? now + turn_length(*holder_, demands) : kNever;
    return;
  }
  if (holder_busy && now < slice_end_s_) return;
  const auto next = next_holder(demands);
  if (!next) {  // nothing to run
    holder_.reset();
    slice_end_s_ = kNever;
  } else if (next == holder_) {  // alone (or the only one within its cap): keep the GPU
    slice_end_s_ = now + turn_length(*next, demands);
  } else if (holder_ && switch_cost_s_ > 0.0) {  // the next holder pays the switch first
    holder_ = next;
    switching_ = true;
    slice_end_s_ = now + switch_cost_s_;
  } else {
    holder_ = next;
    slice_end_s_ = now + turn_length(*next, demands);
  }
}

}  // namespace slicewise::sim
