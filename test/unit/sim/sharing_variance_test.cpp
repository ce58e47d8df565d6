// Sharing variance, directly: the spread of a phase's GPU time over its scheduling rounds against
// its closed form, the uniform start within the others' turns, and the floor on a phase's shift.
#include "sim/sharing_variance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace slicewise::sim {
namespace {

/// A context that runs alone half the time at rate 1 and at 0.5 on average: t_mean 2, t_alone 1,
/// t_shared 3 per unit of work, so the time per round has cv = √(½·½) × |3 − 1| / 2 = 0.5.
models::ContextRate half_alone() {
  models::ContextRate r;
  r.gpu_rate = 0.5;
  r.alone_gpu_rate = 1.0;
  r.alone_frac = 0.5;
  r.gpu_phase_frac = 1.0;
  return r;
}

TEST(SharingVariance, SpreadIsCvOverTheSquareRootOfTheRounds) {
  // 0.1 s of solo work at rate 0.5: 0.2 s of GPU time, 100 rounds of 2 ms: σ = 0.5 / 10 = 0.05.
  SharingVariance variance(7, 0.002, false);
  const int n = 20000;
  double sum = 0.0;
  double sum2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double d = variance.relative_deviation(half_alone(), 1.0, 0.1);
    sum += d;
    sum2 += d * d;
  }
  const double mean = sum / n;
  const double sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(mean, 0.0, 3 * 0.05 / std::sqrt(n));
  EXPECT_NEAR(sd, 0.05, 0.05 * 0.03);
}

TEST(SharingVariance, NothingToDrawAloneOrAlwaysShared) {
  SharingVariance variance(7, 0.002, false);
  auto r = half_alone();
  r.alone_frac = 1.0;
  EXPECT_EQ(variance.relative_deviation(r, 1.0, 0.1), 0.0);
  r.alone_frac = 0.0;
  EXPECT_EQ(variance.relative_deviation(r, 1.0, 0.1), 0.0);
  r.gpu_rate = 0.0;
  EXPECT_EQ(variance.relative_deviation(r, 1.0, 0.1), 0.0);
}

TEST(SharingVariance, TurnsAddAUniformStartWithinTheOthersTurns) {
  // Never alone (cv 0) beside one busy context: the start is uniform in ±½ × 1 × round_s / gpu_s
  // = ±0.005 for 0.2 s of GPU time in 2 ms rounds.
  SharingVariance variance(11, 0.002, true);
  auto r = half_alone();
  r.alone_frac = 0.0;
  r.others_busy = 1.0;
  double lo = 1.0;
  double hi = -1.0;
  for (int i = 0; i < 5000; ++i) {
    const double d = variance.relative_deviation(r, 1.0, 0.1);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  EXPECT_GE(lo, -0.005);
  EXPECT_LE(hi, 0.005);
  EXPECT_LT(lo, -0.0049);
  EXPECT_GT(hi, 0.0049);
}

TEST(SharingVariance, DrawsPendingPhasesOnceAndNeverShortensBelowATenth) {
  // One round per phase (rounds of 1,000 s) and cv 0.99: a draw under −0.9 / 0.99 standard
  // deviations is clamped at −0.9 of the phase's work.
  models::ContextRate r;
  r.gpu_rate = 0.01;
  r.alone_gpu_rate = 1.0;
  r.alone_frac = 0.5;
  r.gpu_phase_frac = 1.0;
  const std::vector<models::ContextRate> rates{r, r};
  std::vector<models::ContextDemand> demands(2);
  demands[0].duty = demands[1].duty = 1.0;
  SharingVariance variance(3, 1000.0, false);
  for (std::size_t i = 0; i < 200; ++i) variance.started(0, i, 0.5);
  variance.started(1, 999, 0.5);
  variance.started(1, 1000, 0.0);  // no work: nothing to draw
  variance.forget(1);              // its context stopped
  ASSERT_TRUE(variance.has_pending());
  const auto shifts = variance.draw(rates, demands);
  EXPECT_FALSE(variance.has_pending());
  ASSERT_EQ(shifts.size(), 200U);
  double least = 0.0;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    EXPECT_EQ(shifts[i].slot, 0U);
    EXPECT_EQ(shifts[i].request, i);  // in the order they started
    EXPECT_GE(shifts[i].delta_s, -0.45);
    least = std::min(least, shifts[i].delta_s);
  }
  EXPECT_EQ(least, -0.45);
  EXPECT_TRUE(variance.draw(rates, demands).empty());
  // The same seed draws the same shifts.
  SharingVariance again(3, 1000.0, false);
  for (std::size_t i = 0; i < 200; ++i) again.started(0, i, 0.5);
  EXPECT_EQ(again.draw(rates, demands)[17].delta_s, shifts[17].delta_s);
}

TEST(SharingVariance, NoRoundsNoDraws) {
  SharingVariance variance(3, 0.0, true);  // exact time slicing simulates the quanta instead
  variance.started(0, 1, 0.5);
  EXPECT_FALSE(variance.has_pending());
}

}  // namespace
}  // namespace slicewise::sim
