// The answers a RateModel keeps (rate_memo.hpp).
#include "models/rate_memo.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace slicewise::models {

namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

bool same_demand(const ContextDemand& a, const ContextDemand& b) {
  if (a.active != b.active) return false;
  if (!a.active) return true;
  return bits(a.demand_sm) == bits(b.demand_sm) && bits(a.demand_bw) == bits(b.demand_bw) &&
         bits(a.duty) == bits(b.duty) && bits(a.weight) == bits(b.weight) && bits(a.cap) == bits(b.cap) &&
         bits(a.ref_sm) == bits(b.ref_sm) && bits(a.ref_bw) == bits(b.ref_bw) && a.priority == b.priority &&
         bits(a.burst_s) == bits(b.burst_s) && bits(a.occupancy) == bits(b.occupancy) &&
         bits(a.kernel_s) == bits(b.kernel_s);
}

}  // namespace

std::uint64_t RateMemo::key_of(std::span<const ContextDemand> contexts, std::span<const double> start) {
  std::uint64_t h = contexts.size();
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    h = (h ^ bits(contexts[i].demand_sm)) * 0x9e3779b97f4a7c15ULL;
    h = (h ^ bits(contexts[i].demand_bw)) * 0xff51afd7ed558ccdULL;
    h = (h ^ bits(start[i])) * 0xc4ceb9fe1a85ec53ULL;
  }
  h ^= h >> 29;
  return h == 0 ? 1 : h;
}

bool RateMemo::count_call() {
  if (++calls_ != kWindow) return true;
  if (hits_ < kWindow / 4) {
    size_ = 0;
    std::vector<std::uint64_t>().swap(key_);
    std::vector<std::uint8_t>().swap(count_);
    std::vector<ContextDemand>().swap(demands_);
    std::vector<double>().swap(start_);
    std::vector<ContextRate>().swap(rates_);
    std::vector<double>().swap(end_);
    return false;
  }
  calls_ = hits_ = 0;
  return true;
}

std::size_t RateMemo::recall(std::uint64_t key, std::span<const ContextDemand> contexts,
                             std::span<const double> start) const {
  const std::size_t n = contexts.size();
  constexpr std::size_t w = kMaxContexts;
  if (key_.empty()) return kNoSlot;
  const std::size_t mask = key_.size() - 1;
  for (std::size_t slot = key & mask;; slot = (slot + 1) & mask) {  // linear probing; never full
    if (key_[slot] == 0) return kNoSlot;
    if (key_[slot] != key || count_[slot] != n) continue;
    bool same = true;
    for (std::size_t i = 0; i < n && same; ++i) {
      same = same_demand(demands_[slot * w + i], contexts[i]) && bits(start_[slot * w + i]) == bits(start[i]);
    }
    if (same) return slot;
  }
}

void RateMemo::replay(std::size_t slot, std::size_t n, std::vector<ContextRate>& rates, std::vector<double>& end) {
  ++hits_;
  ++replays_;
  rates.resize(n);
  end.resize(n);
  for (std::size_t i = 0; i < n; ++i) {  // n is a handful: loops, not memmove calls
    rates[i] = rates_[slot * kMaxContexts + i];
    end[i] = end_[slot * kMaxContexts + i];
  }
}

void RateMemo::keep(std::uint64_t key, std::span<const ContextDemand> contexts, std::span<const double> start,
                    std::span<const ContextRate> rates, std::span<const double> end) {
  if (2 * (size_ + 1) > key_.size()) {  // keep the table at most half full
    if (2 * key_.size() * kMaxContexts > kContextSlots) {
      size_ = 0;  // as large as allowed: start over
      std::fill(key_.begin(), key_.end(), 0);
    } else {
      grow(std::max<std::size_t>(8, 2 * key_.size()));
    }
  }
  insert(key, contexts, start, rates, end);
}

void RateMemo::insert(std::uint64_t key, std::span<const ContextDemand> demands, std::span<const double> start,
                      std::span<const ContextRate> rates, std::span<const double> end) {
  const std::size_t n = demands.size();
  constexpr std::size_t w = kMaxContexts;
  const std::size_t mask = key_.size() - 1;
  std::size_t slot = key & mask;
  while (key_[slot] != 0) slot = (slot + 1) & mask;
  key_[slot] = key;
  count_[slot] = static_cast<std::uint8_t>(n);
  ++size_;
  for (std::size_t i = 0; i < n; ++i) {
    demands_[slot * w + i] = demands[i];
    start_[slot * w + i] = start[i];
    rates_[slot * w + i] = rates[i];
    end_[slot * w + i] = end[i];
  }
}

void RateMemo::grow(std::size_t slots) {
  constexpr std::size_t w = kMaxContexts;
  const std::vector<std::uint64_t> keys = std::exchange(key_, std::vector<std::uint64_t>(slots, 0));
  const std::vector<std::uint8_t> counts = std::exchange(count_, std::vector<std::uint8_t>(slots, 0));
  const std::vector<ContextDemand> demands = std::exchange(demands_, std::vector<ContextDemand>(slots * w));
  const std::vector<double> start = std::exchange(start_, std::vector<double>(slots * w));
  const std::vector<ContextRate> rates = std::exchange(rates_, std::vector<ContextRate>(slots * w));
  const std::vector<double> end = std::exchange(end_, std::vector<double>(slots * w));
  size_ = 0;
  for (std::size_t old = 0; old < keys.size(); ++old) {
    if (keys[old] == 0) continue;
    const auto of = [&](const auto& kept) { return std::span(kept).subspan(old * w, counts[old]); };
    insert(keys[old], of(demands), of(start), of(rates), of(end));
  }
}

}  // namespace slicewise::models
