// The rate model's parts, directly: the kept answers (RateMemo) and time slicing's two routes to
// the same shares (time_slice_shares.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "models/rate_memo.hpp"
#include "models/time_slice_shares.hpp"

namespace slicewise::models {
namespace {

ContextDemand busy(double sm, double weight = 1.0, int priority = 1) {
  ContextDemand d;
  d.active = true;
  d.duty = 0.5;
  d.demand_sm = d.ref_sm = sm;
  d.weight = weight;
  d.priority = priority;
  return d;
}

TEST(RateMemo, ReplaysWhatItKeptForTheSameBitsOnly) {
  RateMemo memo;
  const std::vector<ContextDemand> two{busy(0.5), busy(0.25)};
  const std::vector<double> start{0.5, 0.75};
  std::vector<ContextRate> rates(2);
  rates[0].gpu_rate = 0.6;
  rates[1].gpu_rate = 0.9;
  const std::vector<double> end{0.7, 0.8};
  const auto key = RateMemo::key_of(two, start);
  EXPECT_NE(key, 0U);
  EXPECT_EQ(memo.recall(key, two, start), RateMemo::kNoSlot);
  memo.keep(key, two, start, rates, end);
  EXPECT_EQ(memo.size(), 1U);
  const auto slot = memo.recall(key, two, start);
  ASSERT_NE(slot, RateMemo::kNoSlot);
  std::vector<ContextRate> replayed;
  std::vector<double> ended;
  memo.replay(slot, 2, replayed, ended);
  EXPECT_EQ(replayed[1].gpu_rate, 0.9);
  EXPECT_EQ(ended, end);
  EXPECT_EQ(memo.replays(), 1U);
  // One bit off in a starting phase, or another demand: not the same input.
  const std::vector<double> nudged{0.5, std::nextafter(0.75, 1.0)};
  EXPECT_EQ(memo.recall(RateMemo::key_of(two, nudged), two, nudged), RateMemo::kNoSlot);
  auto other = two;
  other[1].cap = 0.5;
  EXPECT_EQ(memo.recall(key, other, start), RateMemo::kNoSlot);
  // Many answers: the table grows and keeps them all (up to its size, then starts over).
  for (int i = 0; i < 100; ++i) {
    const std::vector<ContextDemand> one{busy(0.01 * (i + 1))};
    const std::vector<double> s{0.5};
    memo.keep(RateMemo::key_of(one, s), one, s, std::vector<ContextRate>(1), s);
  }
  EXPECT_EQ(memo.size(), 101U);
}

TEST(RateMemo, AWindowOfFewReplaysFreesIt) {
  RateMemo memo;
  for (std::size_t call = 1; call < RateMemo::kWindow; ++call) EXPECT_TRUE(memo.count_call());
  EXPECT_FALSE(memo.count_call());  // no replay in the window
  EXPECT_EQ(memo.size(), 0U);
}

TEST(TimeSliceShares, TheDirectAndTheByClassRoutesAgree) {
  // Eight contexts in two classes with unequal weights and phases: the by-class route takes each
  // member's part out of its class's distribution, the direct one builds each view on its own.
  std::vector<ContextDemand> contexts;
  std::vector<double> phase;
  std::vector<int> index;
  for (int i = 0; i < 8; ++i) {
    contexts.push_back(busy(0.3, 1.0 + i % 3, i < 3 ? 0 : 1));
    phase.push_back(0.1 + 0.11 * i);
    index.push_back(i);
  }
  const ActiveContexts set{contexts, index, phase};
  const std::vector<double> eta(8, 0.9);
  std::vector<double> by_class(8, 0.0);
  std::vector<double> distributions;
  time_shares_by_class(set, eta, by_class, distributions);
  std::vector<double> distribution;
  for (std::size_t a = 0; a < 8; ++a) {
    EXPECT_NEAR(by_class[a], direct_time_share(set, a, 0.9, distribution), 1e-12) << a;
  }
  // The high class never waits for the normal one; a normal context waits while any high one is busy.
  EXPECT_GT(by_class[0], by_class[3]);
}

TEST(TimeSliceShares, AloneInItsClassATimeShareIsTheChanceTheOthersAreIdle) {
  // Two contexts of one class, the other in a GPU phase with probability 0.4 and of equal weight:
  // 0.6 × 1 + 0.4 × η / 2.
  const std::vector<ContextDemand> contexts{busy(0.5), busy(0.5)};
  const std::vector<double> phase{0.5, 0.4};
  const std::vector<int> index{0, 1};
  std::vector<double> distribution;
  EXPECT_DOUBLE_EQ(direct_time_share({contexts, index, phase}, 0, 0.8, distribution), 0.6 + 0.4 * 0.8 / 2);
  EXPECT_DOUBLE_EQ(idle_without(0.6 * 0.5, 0, 0.5), 0.6);
  EXPECT_EQ(idle_without(0.6, 1, 0.5), 0.0);  // another member is always busy
}

}  // namespace
}  // namespace slicewise::models
