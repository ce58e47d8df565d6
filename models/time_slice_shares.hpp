// Time slicing's shares in the rate model (rate_model.cpp): strict priority between the classes
// (high, normal, low), shares by weight within one, over the exact (Poisson-binomial)
// distribution of the number of the others in a GPU phase. Two routes give the same shares: the
// direct one builds each context's view of the others on its own (O(n²) per context, the model's
// reference form, used up to kDirectLimit active contexts); the by-class one builds each class's
// totals and distribution once and takes each member's own part out of them (O(n) per context),
// past kExactDistributionLimit members from the expected number of busy class mates instead.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "models/rate_types.hpp"

namespace slicewise::models {

/// Above this many active contexts the time-slicing share uses the expected number of busy
/// others instead of their exact (Poisson-binomial) distribution: O(n) instead of O(n³).
inline constexpr std::size_t kExactDistributionLimit = 24;
/// Up to this many active contexts each one's view of the others is built on its own (O(n²) per
/// context, as cheap as the class-wide route below this size, and the model's reference form);
/// above, from totals per class (time_shares_by_class).
inline constexpr std::size_t kDirectLimit = 4;
static_assert(kDirectLimit <= kExactDistributionLimit, "the direct route builds every class's exact distribution");
inline constexpr std::size_t kPriorityClasses = 3;

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
double idle_without(double idle, int always_busy, double x);

/// The direct route: active context `a`'s share of the GPU (its efficiency `eta`): the chance that
/// no context of a higher class is in a GPU phase, times its share within its class by weight.
/// `distribution` is working memory.
double direct_time_share(const ActiveContexts& set, std::size_t a, double eta, std::vector<double>& distribution);

/// The by-class route: every active context's share, into `share` (indexed as the contexts), each
/// with its efficiency `eta` (indexed as the contexts). `distributions` is working memory.
void time_shares_by_class(const ActiveContexts& set, std::span<const double> eta, std::span<double> share,
                          std::vector<double>& distributions);

}  // namespace slicewise::models
