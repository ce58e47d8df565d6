// Mean-field rate model of one shared device.
#include "models/rate_model.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace slicewise::models {

namespace {
constexpr int kMaxIterations = 200;
constexpr double kTolerance = 1e-12;
/// Above this many active contexts the time-slicing share uses the expected number of busy
/// others instead of their exact (Poisson-binomial) distribution: O(n) instead of O(n³).
constexpr std::size_t kExactDistributionLimit = 24;
/// Up to this many active contexts each one's view of the others is built on its own (O(n²) per
/// context, as cheap as the class-wide route below this size, and the model's reference form);
/// above, from totals per class (time_sliced_shares_by_class).
constexpr std::size_t kDirectLimit = 4;
static_assert(kDirectLimit <= kExactDistributionLimit, "the direct route builds every class's exact distribution");
constexpr std::size_t kPriorityClasses = 3;
/// MPS: a client keeps SMs of its own when its reach exceeds its overlap with the others by more.
constexpr double kOwnSms = 1e-12;

/// The active contexts as the share helpers read them: active context a is contexts[index[a]],
/// in a GPU phase with probability phase[index[a]].
struct ActiveContexts {
  std::span<const ContextDemand> contexts;
  std::span<const int> index;
  std::span<const double> phase;
};

/// Π (1 − x_j) over a set less one member in a GPU phase with probability x, from the set's
/// product over its members below 1 (`idle`) and its count of members at 1 (`always_busy`): O(1),
/// and exact where a member at 1 makes the product 0.
double idle_without(double idle, int always_busy, double x) {
  const int others_always_busy = always_busy - (x >= 1.0 ? 1 : 0);
  return others_always_busy > 0 ? 0.0 : (x >= 1.0 ? idle : idle / (1.0 - x));
}

/// Speed of a context on a fraction `sms` of the device's SMs, on the hard roofline: its SM need
/// scales with the SMs it has, its bandwidth need does not (docs/model.md §2, "MPS: thread blocks").
double speed_on(const ContextDemand& c, double sms, double bandwidth_sm_frac = 0.0) {
  if (sms <= 0.0) return 0.0;
  double rate = 1.0;
  if (c.demand_sm > sms) rate = sms / c.demand_sm;
  // On fewer SMs than saturate the memory system it pulls at most sms / bandwidth_sm_frac of it.
  const double reachable = bandwidth_sm_frac > sms ? sms / bandwidth_sm_frac : 1.0;
  if (c.demand_bw > reachable) rate = std::min(rate, reachable / c.demand_bw);
  return rate;
}
}  // namespace

double RateModel::roofline_slowdown(double x, double y, double sharpness) {
  const double top = std::max({1.0, x, y});
  if (std::isinf(sharpness)) return top;
  // top · ((1/top)^p + (x/top)^p + (y/top)^p)^(1/p): every base is <= 1, so nothing overflows.
  const double sum = std::pow(1.0 / top, sharpness) + std::pow(x / top, sharpness) + std::pow(y / top, sharpness);
  return top * std::pow(sum, 1.0 / sharpness);
}

double RateModel::solo_gpu_rate(const ContextDemand& c, double sharpness) {
  if (std::isinf(sharpness)) return speed_on(c, 1.0);
  // On its reference device (an LLM engine's step, priced where it runs; a workload on the GPU it
  // was measured on) the two are the same: 1 without the eight pow().
  if (c.ref_sm == c.demand_sm && c.ref_bw == c.demand_bw) return 1.0;
  return roofline_slowdown(c.ref_sm, c.ref_bw, sharpness) / roofline_slowdown(c.demand_sm, c.demand_bw, sharpness);
}

double RateModel::progress_rate(double duty, double gpu_rate) {
  if (gpu_rate <= 0.0) return 0.0;
  return 1.0 / ((1.0 - duty) + duty / gpu_rate);
}

namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

/// The key of a solve's input, never 0 (an empty slot's key): what changes from event to event,
/// each context's demands and starting phase (0 when idle). recall() compares every field.
std::uint64_t input_key(std::span<const ContextDemand> contexts, std::span<const double> start) {
  std::uint64_t h = contexts.size();
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    h = (h ^ bits(contexts[i].demand_sm)) * 0x9e3779b97f4a7c15ULL;
    h = (h ^ bits(contexts[i].demand_bw)) * 0xff51afd7ed558ccdULL;
    h = (h ^ bits(start[i])) * 0xc4ceb9fe1a85ec53ULL;
  }
  h ^= h >> 29;
  return h == 0 ? 1 : h;
}

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

void RateModel::compute(std::span<const ContextDemand> contexts, std::vector<ContextRate>& out) {
  const std::size_t n = contexts.size();
  if (!keep_answers_ || n == 0 || n > kMemoMaxContexts) {
    solve(contexts, out);
    return;
  }
  if (++memo_calls_ == kMemoWindow) {
    // A device whose inputs seldom recur (many contexts, each in a state of its own) gains
    // nothing from kept answers and would only hold their memory: stop keeping them.
    if (memo_hits_ < kMemoWindow / 4) {
      keep_answers_ = false;
      memo_size_ = 0;
      std::vector<std::uint64_t>().swap(memo_key_);
      std::vector<std::uint8_t>().swap(memo_count_);
      std::vector<ContextDemand>().swap(memo_demands_);
      std::vector<double>().swap(memo_start_);
      std::vector<ContextRate>().swap(memo_rates_);
      std::vector<double>().swap(memo_end_);
      solve(contexts, out);
      return;
    }
    memo_calls_ = memo_hits_ = 0;
  }
  starting_phases(contexts, start_);
  const std::uint64_t key = input_key(contexts, start_);
  if (const std::size_t slot = recall(key, contexts); slot != kNoSlot) {
    ++memo_hits_;
    ++replays_;
    out.resize(n);
    phase_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {  // n is a handful: loops, not memmove calls
      out[i] = memo_rates_[slot * kMemoMaxContexts + i];
      phase_[i] = memo_end_[slot * kMemoMaxContexts + i];
    }
    return;
  }
  solve(contexts, out);
  keep(key, contexts, out);
}

void RateModel::compute(std::span<const ContextDemand> active, std::span<const double> from,
                        std::vector<ContextRate>& out) {
  // With phase_ the size of the input the solve starts warm, from clamp(from[i], duty, 1): what
  // the solve over every context starts an active one at, its last phase being 0 while idle and
  // duty at the first solve.
  phase_.assign(from.begin(), from.end());
  compute(active, out);
}

std::size_t RateModel::recall(std::uint64_t key, std::span<const ContextDemand> contexts) const {
  const std::size_t n = contexts.size();
  constexpr std::size_t w = kMemoMaxContexts;
  if (memo_key_.empty()) return kNoSlot;
  const std::size_t mask = memo_key_.size() - 1;
  for (std::size_t slot = key & mask;; slot = (slot + 1) & mask) {  // linear probing; never full
    if (memo_key_[slot] == 0) return kNoSlot;
    if (memo_key_[slot] != key || memo_count_[slot] != n) continue;
    bool same = true;
    for (std::size_t i = 0; i < n && same; ++i) {
      same =
          same_demand(memo_demands_[slot * w + i], contexts[i]) && bits(memo_start_[slot * w + i]) == bits(start_[i]);
    }
    if (same) return slot;
  }
}

void RateModel::keep(std::uint64_t key, std::span<const ContextDemand> contexts,
                     const std::vector<ContextRate>& rates) {
  if (2 * (memo_size_ + 1) > memo_key_.size()) {  // keep the table at most half full
    if (2 * memo_key_.size() * kMemoMaxContexts > kMemoContextSlots) {
      memo_size_ = 0;  // as large as allowed: start over
      std::fill(memo_key_.begin(), memo_key_.end(), 0);
    } else {
      grow_memo(std::max<std::size_t>(8, 2 * memo_key_.size()));
    }
  }
  insert_kept(key, contexts, start_, rates, phase_);
}

void RateModel::insert_kept(std::uint64_t key, std::span<const ContextDemand> demands, std::span<const double> start,
                            std::span<const ContextRate> rates, std::span<const double> end) {
  const std::size_t n = demands.size();
  constexpr std::size_t w = kMemoMaxContexts;
  const std::size_t mask = memo_key_.size() - 1;
  std::size_t slot = key & mask;
  while (memo_key_[slot] != 0) slot = (slot + 1) & mask;
  memo_key_[slot] = key;
  memo_count_[slot] = static_cast<std::uint8_t>(n);
  ++memo_size_;
  for (std::size_t i = 0; i < n; ++i) {
    memo_demands_[slot * w + i] = demands[i];
    memo_start_[slot * w + i] = start[i];
    memo_rates_[slot * w + i] = rates[i];
    memo_end_[slot * w + i] = end[i];
  }
}

void RateModel::grow_memo(std::size_t slots) {
  constexpr std::size_t w = kMemoMaxContexts;
  const std::vector<std::uint64_t> keys = std::exchange(memo_key_, std::vector<std::uint64_t>(slots, 0));
  const std::vector<std::uint8_t> counts = std::exchange(memo_count_, std::vector<std::uint8_t>(slots, 0));
  const std::vector<ContextDemand> demands = std::exchange(memo_demands_, std::vector<ContextDemand>(slots * w));
  const std::vector<double> start = std::exchange(memo_start_, std::vector<double>(slots * w));
  const std::vector<ContextRate> rates = std::exchange(memo_rates_, std::vector<ContextRate>(slots * w));
  const std::vector<double> end = std::exchange(memo_end_, std::vector<double>(slots * w));
  memo_size_ = 0;
  for (std::size_t old = 0; old < keys.size(); ++old) {
    if (keys[old] == 0) continue;
    const auto of = [&](const auto& kept) { return std::span(kept).subspan(old * w, counts[old]); };
    insert_kept(keys[old], of(demands), of(start), of(rates), of(end));
  }
}

void RateModel::solve(std::span<const ContextDemand> contexts, std::vector<ContextRate>& out) {
  out.assign(contexts.size(), ContextRate{});
  start_phases(contexts);
  if (active_.empty()) return;

  const double overhead = 1.0 / (1.0 + params_.launch_overhead_frac);
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    switch (params_.discipline) {
      case SharingDiscipline::exclusive:
        if (active_.size() == 1) {
          share_[static_cast<std::size_t>(active_[0])] = 1.0;
        } else {
          time_sliced_shares(contexts);
        }
        break;
      case SharingDiscipline::time_sliced: time_sliced_shares(contexts); break;
      case SharingDiscipline::concurrent: concurrent_shares(contexts); break;
      case SharingDiscipline::fixed_share: fixed_shares(contexts); break;
    }
    const double change = update_phases(contexts, overhead);
    // From the lower bound the phases only grow (more contention, more time in GPU phases), so
    // the iteration is monotone and bounded by 1; from a warm start it contracts to the same fixed
    // point. A single active context converges at once.
    if (change < kTolerance || active_.size() == 1) break;
  }
  fill_rates(contexts, overhead, out);
}

void RateModel::starting_phases(std::span<const ContextDemand> contexts, std::vector<double>& start) const {
  // Warm start: events change one context at a time, so the last solution is usually close.
  // A phase is never below its duty (g <= 1 means x >= duty); an idle context's is 0.
  const std::size_t n = contexts.size();
  const bool warm = phase_.size() == n;
  start.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double duty = contexts[i].duty;
    start[i] = !contexts[i].active ? 0.0 : warm ? std::clamp(phase_[i], duty, 1.0) : duty;
  }
}

void RateModel::start_phases(std::span<const ContextDemand> contexts) {
  const std::size_t n = contexts.size();
  starting_phases(contexts, phase_);
  share_.assign(n, 0.0);
  solo_.resize(n);
  turns_ready_ = false;
  active_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (!contexts[i].active) continue;
    active_.push_back(static_cast<int>(i));
    solo_[i] = solo_gpu_rate(contexts[i], params_.roofline_sharpness);
  }
}

double RateModel::update_phases(std::span<const ContextDemand> contexts, double overhead) {
  double change = 0.0;
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    const double g = solo_[i] * share_[i] * overhead;
    const double rho = progress_rate(contexts[i].duty, g);
    const double x = g > 0.0 ? std::min(1.0, contexts[i].duty / g * rho) : 1.0;
    change = std::max(change, std::abs(x - phase_[i]));
    phase_[i] = x;
  }
  return change;
}

void RateModel::fill_rates(std::span<const ContextDemand> contexts, double overhead,
                           std::vector<ContextRate>& out) const {
  // Π (1 − x_j) and Σ x_j over every active context, to take each one's own term out in O(1).
  double idle_product = 1.0;
  double busy_sum = 0.0;
  int always_busy = 0;
  for (int index : active_) {
    const double x = phase_[static_cast<std::size_t>(index)];
    busy_sum += x;
    if (x >= 1.0) ++always_busy;
    else idle_product *= 1.0 - x;
  }
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    const auto& c = contexts[i];
    ContextRate& r = out[i];
    r.gpu_rate = solo_[i] * share_[i] * overhead;
    r.progress_rate = progress_rate(c.duty, r.gpu_rate);
    r.gpu_phase_frac = phase_[i];
    r.sm_usage_frac = std::min(1.0, r.gpu_phase_frac * r.gpu_rate * c.demand_sm);
    r.alone_gpu_rate = solo_[i] * overhead;
    const double x = phase_[i];
    r.alone_frac = std::clamp(idle_without(idle_product, always_busy, x), 0.0, 1.0);
    r.others_busy = std::max(0.0, busy_sum - x);
  }
}

namespace {

/// What active context `a` sees of the others under time slicing.
struct ClassLoad {
  double busy_weight = 0.0;  // Σ x_j w_j over the others of its class
  double busy_mass = 0.0;    // Σ x_j over the others of its class
  double higher_idle = 1.0;  // Π (1 − x_j) over the contexts of higher classes
};

ClassLoad class_load(const ActiveContexts& set, std::size_t a) {
  const std::size_t m = set.index.size();
  const int priority = set.contexts[static_cast<std::size_t>(set.index[a])].priority;
  ClassLoad load;
  for (std::size_t b = 0; b < m; ++b) {
    if (b == a) continue;
    const auto j = static_cast<std::size_t>(set.index[b]);
    if (set.contexts[j].priority < priority) load.higher_idle *= 1.0 - set.phase[j];
    if (set.contexts[j].priority != priority) continue;
    load.busy_weight += set.phase[j] * set.contexts[j].weight;
    load.busy_mass += set.phase[j];
  }
  return load;
}

/// Time share of active context `a` within its class (efficiency `eta`), over the exact
/// (Poisson-binomial) distribution of K, the number of other contexts of its class in a GPU phase.
double exact_time_share(const ActiveContexts& set, std::size_t a, double eta, double mean_weight,
                        std::vector<double>& scratch) {
  const std::size_t m = set.index.size();
  const auto i = static_cast<std::size_t>(set.index[a]);
  const double w = set.contexts[i].weight;
  const int priority = set.contexts[i].priority;
  scratch.assign(m, 0.0);
  scratch[0] = 1.0;
  std::size_t size = 1;
  for (std::size_t b = 0; b < m; ++b) {
    const auto j = static_cast<std::size_t>(set.index[b]);
    if (b == a || set.contexts[j].priority != priority) continue;
    const double x = set.phase[j];
    for (std::size_t k = size; k > 0; --k) scratch[k] = scratch[k] * (1.0 - x) + scratch[k - 1] * x;
    scratch[0] *= (1.0 - x);
    ++size;
  }
  double share = scratch[0];
  for (std::size_t k = 1; k < size; ++k) {
    share += scratch[k] * eta * w / (w + static_cast<double>(k) * mean_weight);
  }
  return share;
}

/// A class's totals over its active contexts: what each member's view of the others is made of.
struct ClassTotals {
  double busy_weight = 0.0;  // Σ x w
  double busy_mass = 0.0;    // Σ x
  double idle = 1.0;         // Π (1 − x) over the members with x < 1
  int always_busy = 0;       // members with x >= 1
  std::size_t size = 0;
};

std::size_t priority_class(const ContextDemand& context) {
  // The scheduling classes are 0, 1 and 2 (high, normal, low: scenario::Priority).
  return static_cast<std::size_t>(std::clamp(context.priority, 0, static_cast<int>(kPriorityClasses) - 1));
}

/// The members of one class whose shares come from its whole distribution, side by side: member
/// a is in a GPU phase with probability x[a] and gets η[a] w / (w + K w̄) when K others are, where
/// ratio[a] = w̄ / w.
struct ExactMembers {
  std::array<double, kExactDistributionLimit> x, ratio, eta, share;  // the first `size` are set
  std::array<std::size_t, kExactDistributionLimit> context;          ///< index into the device's contexts
  std::size_t size = 0;
};

/// The division forward from Q[0] for members with x <= 1/2; `f(k, a)` is member a's f(k), k >= 1.
template <typename F>
void forward_shares(std::span<const double> whole, ExactMembers& members, F f) {
  const std::size_t n = whole.size() - 1;                // entries of each member's Q: 0 .. n-1 others busy
  std::array<double, kExactDistributionLimit> q, scale;  // per member: Q[k] so far, and 1 / (1 − x)
  for (std::size_t a = 0; a < members.size; ++a) {
    scale[a] = 1.0 / (1.0 - members.x[a]);
    q[a] = whole[0] * scale[a];
    members.share[a] = std::max(0.0, q[a]);
  }
  for (std::size_t k = 1; k < n; ++k) {
    for (std::size_t a = 0; a < members.size; ++a) {
      q[a] = (whole[k] - members.x[a] * q[a]) * scale[a];
      members.share[a] += std::max(0.0, q[a]) * f(k, a);
    }
  }
}

/// The division backward from Q[n − 1] for members with x > 1/2.
template <typename F>
void backward_shares(std::span<const double> whole, ExactMembers& members, F f) {
  const std::size_t n = whole.size() - 1;
  std::array<double, kExactDistributionLimit> q, scale;  // per member: Q[k] so far, and 1 / x
  for (std::size_t a = 0; a < members.size; ++a) {
    scale[a] = 1.0 / members.x[a];
    q[a] = whole[n] * scale[a];
    members.share[a] = std::max(0.0, q[a]) * (n > 1 ? f(n - 1, a) : 1.0);
  }
  for (std::size_t k = n - 1; k > 1; --k) {  // Q[k − 1] from Q[k]
    for (std::size_t a = 0; a < members.size; ++a) {
      q[a] = (whole[k] - (1.0 - members.x[a]) * q[a]) * scale[a];
      members.share[a] += std::max(0.0, q[a]) * f(k - 1, a);
    }
  }
  if (n < 2) return;
  for (std::size_t a = 0; a < members.size; ++a) {  // Q[0], with f(0) = 1
    members.share[a] += std::max(0.0, (whole[1] - (1.0 - members.x[a]) * q[a]) * scale[a]);
  }
}

/// Each member's time share over the distribution of the others of its class in a GPU phase: the
/// class's `whole` distribution (size + 1 entries) divided by the member's own factor
/// (1 − x + x z), with the others' distribution Q summed into Σ_k Q[k] f(k) on the way, f(0) = 1,
/// f(k) = η[a] / (1 + k ratio[a]). The division runs from the end where it is stable (each step scales
/// the error by at most 1): forward from Q[0] when x <= 1/2, backward from Q[n−1] otherwise.
/// The members' recurrences are independent, so they run side by side, k by k.
void exact_shares(std::span<const double> whole, ExactMembers& forward, ExactMembers& backward) {
  const std::size_t n = whole.size() - 1;
  // With equal weights and efficiencies (the usual case) every member has the same f(k): one table.
  const double ratio = forward.size > 0 ? forward.ratio[0] : backward.ratio[0];
  const double eta = forward.size > 0 ? forward.eta[0] : backward.eta[0];
  bool uniform = true;
  for (const auto* members : {&forward, &backward}) {
    for (std::size_t a = 0; a < members->size; ++a) {
      uniform = uniform && members->ratio[a] == ratio && members->eta[a] == eta;
    }
  }
  if (uniform) {
    std::array<double, kExactDistributionLimit> table;
    for (std::size_t k = 1; k < n; ++k) table[k] = eta / (1.0 + static_cast<double>(k) * ratio);
    auto f = [&table](std::size_t k, std::size_t) { return table[k]; };
    forward_shares(whole, forward, f);
    backward_shares(whole, backward, f);
    return;
  }
  auto f_of = [](const ExactMembers& members) {
    return [&members](std::size_t k, std::size_t a) {
      return members.eta[a] / (1.0 + static_cast<double>(k) * members.ratio[a]);
    };
  };
  forward_shares(whole, forward, f_of(forward));
  backward_shares(whole, backward, f_of(backward));
}

/// Every class's totals over the active contexts, and per class the probability that no context
/// of a higher class is in a GPU phase.
struct Classes {
  std::array<ClassTotals, kPriorityClasses> totals{};
  std::array<double, kPriorityClasses> higher_idle{};
};

Classes class_totals(const ActiveContexts& set) {
  Classes classes;
  for (int index : set.index) {
    const auto i = static_cast<std::size_t>(index);
    auto& t = classes.totals[priority_class(set.contexts[i])];
    const double x = set.phase[i];
    t.busy_weight += x * set.contexts[i].weight;
    t.busy_mass += x;
    if (x >= 1.0) ++t.always_busy;
    else t.idle *= 1.0 - x;
    ++t.size;
  }
  double idle_above = 1.0;
  for (std::size_t c = 0; c < kPriorityClasses; ++c) {
    classes.higher_idle[c] = idle_above;
    idle_above = classes.totals[c].always_busy > 0 ? 0.0 : idle_above * classes.totals[c].idle;
  }
  return classes;
}

/// The distribution of the number of members in a GPU phase of each class of at most
/// kExactDistributionLimit members (size + 1 entries), one after the other in `out`; returns
/// where each class's starts.
std::array<std::size_t, kPriorityClasses> class_distributions(const ActiveContexts& set, const Classes& classes,
                                                              std::vector<double>& out) {
  std::array<std::size_t, kPriorityClasses> offset{};
  std::size_t length = 0;
  for (std::size_t c = 0; c < kPriorityClasses; ++c) {
    offset[c] = length;
    if (classes.totals[c].size <= kExactDistributionLimit) length += classes.totals[c].size + 1;
  }
  out.assign(length, 0.0);
  for (std::size_t c = 0; c < kPriorityClasses; ++c) out[offset[c]] = 1.0;
  std::array<std::size_t, kPriorityClasses> built{};  // members folded in so far
  for (int index : set.index) {
    const auto i = static_cast<std::size_t>(index);
    const std::size_t c = priority_class(set.contexts[i]);
    if (classes.totals[c].size > kExactDistributionLimit) continue;
    double* p = out.data() + offset[c];
    const double x = set.phase[i];
    for (std::size_t k = ++built[c]; k > 0; --k) p[k] = p[k] * (1.0 - x) + p[k - 1] * x;
    p[0] *= 1.0 - x;
  }
  return offset;
}

/// The time share of a member of a class past kExactDistributionLimit, in O(1) from the class's
/// totals: alone with probability Π (1 − x_j) over its class mates, else sharing with the
/// expected number of busy ones (at least one). Member x of weight w, its others' busy mass and
/// mean weight.
double expected_share(const ClassTotals& t, double x, double eta, double w, double busy_mass, double mean_weight) {
  const double p_alone = idle_without(t.idle, t.always_busy, x);
  return p_alone + (1.0 - p_alone) * eta * w / (w + std::max(1.0, busy_mass) * mean_weight);
}

}  // namespace

std::span<const ContextDemand> RateModel::turns(std::span<const ContextDemand> contexts) {
  // The weights do not depend on the phases: set once per solve.
  const double slice = params_.timeslice_s;
  if (turns_ready_) return slice > 0.0 ? std::span<const ContextDemand>(turns_) : contexts;
  turns_ready_ = true;
  eta_.assign(contexts.size(), params_.efficiency);
  if (!(slice > 0.0)) return contexts;
  // A burst of b seconds runs in m = ceil(b / T) turns: m − 1 whole slices, each ended by a
  // preemption, and the rest, ended by the context yielding. Per turn it uses b / m and costs
  // ((m − 1) c_p + c_y) / m of switching. Unknown bursts take whole slices, each preempted.
  turns_.assign(contexts.begin(), contexts.end());
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    double useful = slice;
    double cost = params_.preempt_switch_s;
    if (contexts[i].burst_s > 0.0) {
      const double m = std::max(1.0, std::ceil(contexts[i].burst_s / slice - 1e-9));
      useful = contexts[i].burst_s / m;
      cost = ((m - 1.0) * params_.preempt_switch_s + params_.yield_switch_s) / m;
    }
    turns_[i].weight *= useful + cost;
    eta_[i] = useful / (useful + cost);
  }
  return turns_;
}

void RateModel::time_sliced_shares(std::span<const ContextDemand> given) {
  // Strict priority between classes, fair shares within one: context i gets the GPU only while no
  // context of a higher class is in a GPU phase (probability Π (1 − x_j) over those), and then
  // shares it by weight (times its turn, with time slices) with the busy contexts of its own
  // class. With one class (the default) this is the plain time-sliced share.
  const std::span<const ContextDemand> contexts = turns(given);
  const std::size_t m = active_.size();
  if (m > kDirectLimit) {
    time_sliced_shares_by_class(contexts);
  } else {
    const ActiveContexts set{contexts, active_, phase_};
    for (std::size_t a = 0; a < m; ++a) {
      const auto i = static_cast<std::size_t>(active_[a]);
      const double w = contexts[i].weight;
      const ClassLoad load = class_load(set, a);
      const double mean_weight = load.busy_mass > 0.0 ? load.busy_weight / load.busy_mass : w;
      share_[i] = load.higher_idle * exact_time_share(set, a, eta_[i], mean_weight, scratch_);
    }
  }
  if (m > 1 || params_.cap_when_alone) cap_time_shares(contexts);
}

void RateModel::time_sliced_shares_by_class(std::span<const ContextDemand> contexts) {
  // The same shares in O(n) per context: each class's totals and (up to kExactDistributionLimit
  // members) its whole Poisson-binomial distribution are built once, and each member's view of
  // the others is the class's less its own part.
  const ActiveContexts set{contexts, active_, phase_};
  const Classes classes = class_totals(set);
  const auto offset = class_distributions(set, classes, scratch_);
  std::array<ExactMembers, kPriorityClasses> forward, backward;
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    const std::size_t c = priority_class(contexts[i]);
    const auto& t = classes.totals[c];
    const double x = phase_[i];
    const double w = contexts[i].weight;
    const double busy_mass = t.size > 1 ? std::max(0.0, t.busy_mass - x) : 0.0;
    const double mean_weight = busy_mass > 0.0 ? std::max(0.0, t.busy_weight - x * w) / busy_mass : w;
    if (t.size > kExactDistributionLimit) {
      share_[i] = classes.higher_idle[c] * expected_share(t, x, eta_[i], w, busy_mass, mean_weight);
      continue;
    }
    auto& members = x <= 0.5 ? forward[c] : backward[c];
    members.x[members.size] = x;
    members.ratio[members.size] = mean_weight / w;
    members.eta[members.size] = eta_[i];
    members.context[members.size++] = i;
  }
  for (std::size_t c = 0; c < kPriorityClasses; ++c) {
    const std::size_t size = classes.totals[c].size;
    if (size == 0 || size > kExactDistributionLimit) continue;
    exact_shares({scratch_.data() + offset[c], size + 1}, forward[c], backward[c]);
    for (const auto* members : {&forward[c], &backward[c]}) {
      for (std::size_t a = 0; a < members->size; ++a) {
        share_[members->context[a]] = classes.higher_idle[c] * members->share[a];
      }
    }
  }
}

void RateModel::cap_time_shares(std::span<const ContextDemand> contexts) {
  // A capped context (HAMi gpucores) holds back its kernels once it has used its share; the driver
  // then runs the others' kernels in that time. So the time a cap takes away goes to the uncapped
  // contexts: while j is in a GPU phase, a capped i is there with probability x_i and leaves
  // s_i − cap_i of the GPU, which j shares by weight with the other uncapped contexts in a GPU
  // phase (their expected weight). Two saturated contexts, one capped at 25 %: 0.25 and η − 0.25.
  const std::size_t m = active_.size();
  double freed = 0.0;            // Σ over capped i of x_i (s_i − cap_i): GPU time handed on
  double uncapped_weight = 0.0;  // Σ over uncapped l of x_l w_l
  scratch_.assign(m, 0.0);       // 1 for a capped context
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    if (share_[i] > contexts[i].cap) {
      scratch_[a] = 1.0;
      freed += phase_[i] * (share_[i] - contexts[i].cap);
      share_[i] = contexts[i].cap;
    } else {
      uncapped_weight += phase_[i] * contexts[i].weight;
    }
  }
  if (freed <= 0.0 || m < 2) return;
  for (std::size_t a = 0; a < m; ++a) {
    if (scratch_[a] != 0.0) continue;
    const auto j = static_cast<std::size_t>(active_[a]);
    const double w = contexts[j].weight;
    const double others = uncapped_weight - phase_[j] * w;
    const double extra = freed * w / (w + std::max(0.0, others));
    share_[j] = std::min({1.0, contexts[j].cap, share_[j] + extra});
  }
}

void RateModel::concurrent_shares(std::span<const ContextDemand> contexts) {
  // MPS as the block scheduler runs it (docs/model.md §2, "MPS: thread blocks"). Each client's
  // kernels reach o_i of the SMs (its occupancy, at most its cap). Where the others' reach
  // (mean field: Σ_j x_j o_j) and its own add up to more than the device, the overlap ov_i is
  // contended: the scheduler hands SMs to kernels in the order they were launched, so clients that
  // want the same SMs take turns kernel by kernel, and client i holds the overlap for
  // τ_i = k_i / (k_i + Σ_j x_j k_j) of the time (k: a kernel's duration on its reach). Off its
  // turn it keeps the SMs nobody else reaches, o_i − ov_i. When the clients then want more
  // bandwidth than the device has, it is split max-min fair (water filling).
  const std::size_t m = active_.size();
  scratch_.resize(5 * m);
  const std::span<double> scratch(scratch_);
  const std::span<double> reach = scratch.first(m);
  const std::span<double> kernel = scratch.subspan(m, m);
  const std::span<double> hard = scratch.subspan(2 * m, m);     // speed on its reach, hard roofline
  const std::span<double> overlap = scratch.subspan(3 * m, m);  // ov_i
  const std::span<double> speed = scratch.subspan(4 * m, m);    // g_i
  double busy_reach = 0.0;                                      // Σ_j x_j o_j
  double busy_kernel = 0.0;                                     // Σ_j x_j k_j
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    const auto& c = contexts[i];
    const double occupancy = c.occupancy > 0.0 ? c.occupancy : (c.demand_sm > 0.0 ? c.demand_sm : 1.0);
    reach[a] = std::min({1.0, c.cap, occupancy});
    hard[a] = speed_on(c, reach[a], params_.bandwidth_sm_frac);
    const double k = c.kernel_s > 0.0 ? c.kernel_s : kDefaultKernelS;
    kernel[a] = k / hard[a];
    busy_reach += phase_[i] * reach[a];
    busy_kernel += phase_[i] * kernel[a];
  }
  for (std::size_t a = 0; a < m; ++a) {
    const double x = phase_[static_cast<std::size_t>(active_[a])];
    overlap[a] = std::clamp(reach[a] + std::max(0.0, busy_reach - x * reach[a]) - 1.0, 0.0, reach[a]);
  }
  const double eta = m > 1 ? params_.concurrent_efficiency : 1.0;
  const double kappa = m > 1 ? params_.concurrent_interference : 0.0;
  double pressure = 0.0;  // Σ_j x_j bw_j: the memory traffic of everyone in a GPU phase
  for (std::size_t a = 0; a < m; ++a) {
    const auto j = static_cast<std::size_t>(active_[a]);
    pressure += phase_[j] * contexts[j].demand_bw;
  }
  double bandwidth = 0.0;  // Σ x_j g_j bw_j: the bandwidth wanted at these speeds
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    const auto& c = contexts[i];
    const double x = phase_[i];
    // During its turn the others that keep SMs of their own run beside it: it runs at η while
    // any does, and their memory traffic slows it by 1 + κ Σ x_j bw_j (shared L2 and DRAM).
    double beside_idle = 1.0;
    double beside_traffic = 0.0;
    for (std::size_t b = 0; b < m; ++b) {
      if (b == a || reach[b] - overlap[b] <= kOwnSms) continue;
      const auto j = static_cast<std::size_t>(active_[b]);
      beside_idle *= 1.0 - phase_[j];
      beside_traffic += phase_[j] * contexts[j].demand_bw;
    }
    double g = hard[a] * (beside_idle + (1.0 - beside_idle) * eta) / (1.0 + kappa * beside_traffic);
    if (overlap[a] > kOwnSms) {
      // Off its turn another client holds the overlap and runs beside what it keeps.
      const double turn = kernel[a] / (kernel[a] + std::max(0.0, busy_kernel - x * kernel[a]));
      const double others_traffic = std::max(0.0, pressure - x * c.demand_bw);
      g = turn * g + (1.0 - turn) * speed_on(c, reach[a] - overlap[a], params_.bandwidth_sm_frac) * eta /
                         (1.0 + kappa * others_traffic);
    }
    speed[a] = g;
    bandwidth += x * g * c.demand_bw;
  }
  if (bandwidth > 1.0) split_bandwidth(contexts, speed);
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    // The split is of the hard roofline; a finite sharpness scales the granted share in solve().
    share_[i] = speed[a] / solo_gpu_rate(contexts[i]);
  }
}

void RateModel::split_bandwidth(std::span<const ContextDemand> contexts, std::span<double> speed) const {
  // Water filling: the level L with Σ_j x_j min(w_j, L) = 1 over the wants w_j = g_j bw_j (called
  // only when Σ_j x_j w_j > 1, so L exists); a client that wants more than L gets L. Start with
  // every want open; each round holds those at or below the level and raises it.
  const std::size_t m = active_.size();
  double level = 0.0;
  for (std::size_t round = 0; round <= m; ++round) {
    double held = 0.0;       // Σ x_j w_j over the wants at or below the level
    double open_mass = 0.0;  // Σ x_j over the others
    for (std::size_t a = 0; a < m; ++a) {
      const auto i = static_cast<std::size_t>(active_[a]);
      const double want = speed[a] * contexts[i].demand_bw;
      if (want <= level) {
        held += phase_[i] * want;
      } else {
        open_mass += phase_[i];
      }
    }
    const double next = open_mass > 0.0 ? (1.0 - held) / open_mass : level;
    if (next <= level) break;
    level = next;
  }
  for (std::size_t a = 0; a < m; ++a) {
    const double want = speed[a] * contexts[static_cast<std::size_t>(active_[a])].demand_bw;
    if (want > level) speed[a] *= level / want;
  }
}

void RateModel::fixed_shares(std::span<const ContextDemand> contexts) {
  // Every placed vGPU owns its slot whether it runs or not. The slots are the profile's vGPUs per
  // GPU (total_placed_weight) or, when the placed weights add up to more, those weights: shares are
  // normalised so that they never add up to more than the GPU.
  double placed = 0.0;
  for (const auto& context : contexts) placed += context.weight;
  const double total = std::max(params_.total_placed_weight, placed);
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    const double w = contexts[i].weight;
    // Switching costs only arise when the scheduler has other vGPUs to serve.
    share_[i] = std::min(1.0, (total > w ? params_.efficiency : 1.0) * w / total);
  }
}

}  // namespace slicewise::models
