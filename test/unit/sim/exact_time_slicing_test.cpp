// Exact time slicing and HAMi's core caps, directly: who holds the GPU, for how long, and what a
// capped context's bucket holds, each against values worked out by hand.
#include "sim/exact_time_slicing.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace slicewise::sim {
namespace {

std::vector<models::ContextDemand> contexts(std::vector<bool> active, std::vector<int> priority = {},
                                            std::vector<double> cap = {}) {
  std::vector<models::ContextDemand> out(active.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].active = active[i];
    if (!priority.empty()) out[i].priority = priority[i];
    if (!cap.empty()) out[i].cap = cap[i];
  }
  return out;
}

TEST(CoreCapBuckets, EarnAtTheCapSpendWhileRunningHoldAWindow) {
  CoreCapBuckets buckets({0.5, 1.0});
  EXPECT_DOUBLE_EQ(buckets.tokens_s(0), 0.06);  // 0.5 × the 120 ms window: full
  buckets.advance(0.1, 0);                      // 0.06 + 0.05 - 0.1
  EXPECT_NEAR(buckets.tokens_s(0), 0.01, 1e-15);
  EXPECT_FALSE(buckets.throttled(0));
  buckets.advance(0.02, 0);  // 0.01 + 0.01 - 0.02
  EXPECT_TRUE(buckets.throttled(0));
  buckets.advance(0.04, std::nullopt);  // idle: earns 0.02
  EXPECT_NEAR(buckets.tokens_s(0), 0.02, 1e-15);
  buckets.advance(10.0, 1);  // never more than the window
  EXPECT_DOUBLE_EQ(buckets.tokens_s(0), 0.06);
  EXPECT_FALSE(buckets.throttled(1));  // no cap, no bucket
  // A capped holder's turn is what it has left while others wait; a full quantum alone.
  EXPECT_DOUBLE_EQ(buckets.turn_s(0, 0.1, true), 0.06);
  EXPECT_DOUBLE_EQ(buckets.turn_s(0, 0.1, false), 0.1);
  EXPECT_DOUBLE_EQ(buckets.turn_s(0, 0.002, true), 0.002);
  EXPECT_DOUBLE_EQ(buckets.turn_s(1, 0.1, true), 0.1);
}

TEST(ExactTimeSlicer, TakesTurnsOfAQuantumPayingEachSwitch) {
  const auto two = contexts({true, true});
  ExactTimeSlicer slicer(0.002, 0.0005, two);
  EXPECT_EQ(slicer.holder(), std::nullopt);
  EXPECT_EQ(slicer.slice_end_s(), kNever);
  slicer.rotate(0.0, two);  // the first turn: no switch to pay
  EXPECT_EQ(slicer.running(), 0U);
  EXPECT_DOUBLE_EQ(slicer.slice_end_s(), 0.002);
  slicer.rotate(0.001, two);  // mid-quantum: nothing changes
  EXPECT_EQ(slicer.running(), 0U);
  slicer.rotate(0.002, two);  // the quantum is over: context 1 pays the switch
  EXPECT_EQ(slicer.holder(), 1U);
  EXPECT_EQ(slicer.running(), std::nullopt);
  EXPECT_DOUBLE_EQ(slicer.slice_end_s(), 0.0025);
  slicer.rotate(0.0025, two);  // then runs its quantum
  EXPECT_EQ(slicer.running(), 1U);
  EXPECT_DOUBLE_EQ(slicer.slice_end_s(), 0.0045);
}

TEST(ExactTimeSlicer, AloneKeepsTheGpuAndIdleGivesItUp) {
  auto demands = contexts({true, false});
  ExactTimeSlicer slicer(0.002, 0.0005, demands);
  slicer.rotate(0.0, demands);
  slicer.rotate(0.002, demands);  // nobody else has work: a new quantum, no switch
  EXPECT_EQ(slicer.running(), 0U);
  EXPECT_DOUBLE_EQ(slicer.slice_end_s(), 0.004);
  demands[0].active = false;
  slicer.rotate(0.003, demands);  // the holder went idle mid-quantum: nothing to run
  EXPECT_EQ(slicer.holder(), std::nullopt);
  EXPECT_EQ(slicer.slice_end_s(), kNever);
}

TEST(ExactTimeSlicer, AHigherPriorityClassRunsFirstAndKeepsTheGpu) {
  const auto demands = contexts({true, true, true}, {1, 0, 1});
  ExactTimeSlicer slicer(0.002, 0.0, demands);
  slicer.rotate(0.0, demands);
  EXPECT_EQ(slicer.running(), 1U);
  slicer.rotate(0.002, demands);
  EXPECT_EQ(slicer.running(), 1U);  // still the only high-priority context with work
  EXPECT_DOUBLE_EQ(slicer.slice_end_s(), 0.004);
}

TEST(ExactTimeSlicer, ACappedContextsTurnIsWhatItHolds) {
  // Context 0 at 25 % holds 0.03 s of GPU time; with context 1 waiting its turn is 0.03 s, not the
  // 50 ms quantum; context 1 runs next while context 0 earns its cap back.
  auto demands = contexts({true, true}, {}, {0.25, 1.0});
  ExactTimeSlicer slicer(0.05, 0.0, demands);
  slicer.rotate(0.0, demands);
  EXPECT_EQ(slicer.running(), 0U);
  EXPECT_DOUBLE_EQ(slicer.slice_end_s(), 0.03);
  slicer.advance(0.03);  // 0.03 + 0.0075 - 0.03 left
  EXPECT_NEAR(slicer.buckets().tokens_s(0), 0.0075, 1e-15);
  slicer.rotate(0.03, demands);
  EXPECT_EQ(slicer.running(), 1U);
  slicer.advance(0.05);  // context 0 earns 0.0125, up to its 0.03 window
  EXPECT_NEAR(slicer.buckets().tokens_s(0), 0.02, 1e-15);
}

}  // namespace
}  // namespace slicewise::sim
