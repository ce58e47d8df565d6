// Time slicing's shares (time_slice_shares.hpp).
#include "models/time_slice_shares.hpp"

#include <algorithm>
#include <array>

namespace slicewise::models {

double idle_without(double idle, int always_busy, double x) {
  const int others_always_busy = always_busy - (x >= 1.0 ? 1 : 0);
  return others_always_busy > 0 ? 0.0 : (x >= 1.0 ? idle : idle / (1.0 - x));
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
                        std::vector<double>& distribution) {
  const std::size_t m = set.index.size();
  const auto i = static_cast<std::size_t>(set.index[a]);
  const double w = set.contexts[i].weight;
  const int priority = set.contexts[i].priority;
  distribution.assign(m, 0.0);
  distribution[0] = 1.0;
  std::size_t size = 1;
  for (std::size_t b = 0; b < m; ++b) {
    const auto j = static_cast<std::size_t>(set.index[b]);
    if (b == a || set.contexts[j].priority != priority) continue;
    const double x = set.phase[j];
    for (std::size_t k = size; k > 0; --k) distribution[k] = distribution[k] * (1.0 - x) + distribution[k - 1] * x;
    distribution[0] *= (1.0 - x);
    ++size;
  }
  double share = distribution[0];
  for (std::size_t k = 1; k < size; ++k) {
    share += distribution[k] * eta * w / (w + static_cast<double>(k) * mean_weight);
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

double direct_time_share(const ActiveContexts& set, std::size_t a, double eta, std::vector<double>& distribution) {
  const double w = set.contexts[static_cast<std::size_t>(set.index[a])].weight;
  const ClassLoad load = class_load(set, a);
  const double mean_weight = load.busy_mass > 0.0 ? load.busy_weight / load.busy_mass : w;
  return load.higher_idle * exact_time_share(set, a, eta, mean_weight, distribution);
}

void time_shares_by_class(const ActiveContexts& set, std::span<const double> eta, std::span<double> share,
                          std::vector<double>& distributions) {
  // The same shares in O(n) per context: each class's totals and (up to kExactDistributionLimit
  // members) its whole Poisson-binomial distribution are built once, and each member's view of
  // the others is the class's less its own part.
  const auto contexts = set.contexts;
  const Classes classes = class_totals(set);
  const auto offset = class_distributions(set, classes, distributions);
  std::array<ExactMembers, kPriorityClasses> forward, backward;
  for (int index : set.index) {
    const auto i = static_cast<std::size_t>(index);
    const std::size_t c = priority_class(contexts[i]);
    const auto& t = classes.totals[c];
    const double x = set.phase[i];
    const double w = contexts[i].weight;
    const double busy_mass = t.size > 1 ? std::max(0.0, t.busy_mass - x) : 0.0;
    const double mean_weight = busy_mass > 0.0 ? std::max(0.0, t.busy_weight - x * w) / busy_mass : w;
    if (t.size > kExactDistributionLimit) {
      share[i] = classes.higher_idle[c] * expected_share(t, x, eta[i], w, busy_mass, mean_weight);
      continue;
    }
    auto& members = x <= 0.5 ? forward[c] : backward[c];
    members.x[members.size] = x;
    members.ratio[members.size] = mean_weight / w;
    members.eta[members.size] = eta[i];
    members.context[members.size++] = i;
  }
  for (std::size_t c = 0; c < kPriorityClasses; ++c) {
    const std::size_t size = classes.totals[c].size;
    if (size == 0 || size > kExactDistributionLimit) continue;
    exact_shares({distributions.data() + offset[c], size + 1}, forward[c], backward[c]);
    for (const auto* members : {&forward[c], &backward[c]}) {
      for (std::size_t a = 0; a < members->size; ++a) {
        share[members->context[a]] = classes.higher_idle[c] * members->share[a];
      }
    }
  }
}

}  // namespace slicewise::models
