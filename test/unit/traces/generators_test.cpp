// Generators: seeded, and their counts match the rates in closed form.
#include <algorithm>
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "traces/generators.hpp"
#include "traces/poisson_source.hpp"

namespace slicewise::traces {
namespace {

template <class Source>
std::vector<double> arrivals(Source& source) {
  std::vector<double> out;
  RequestRecord r;
  while (source.next(r)) out.push_back(r.arrived_at_s);
  return out;
}

TEST(Diurnal, RateFollowsTheHourOfDay) {
  std::array<double, 24> profile{};
  profile.fill(1.0);
  for (int h = 9; h < 17; ++h) profile[h] = 4.0;  // office hours at 4 × the night rate
  // mean(profile) = (16 + 32) / 24 = 2, so the night rate is 0.5 × mean and the day rate 2 × mean.
  DiurnalSource source(10.0, profile, 0.0, 86400.0, 42);
  EXPECT_DOUBLE_EQ(source.rate_at(3600.0 * 3), 5.0);
  EXPECT_DOUBLE_EQ(source.rate_at(3600.0 * 12.5), 20.0);
  const auto a = arrivals(source);
  // Expected arrivals = 10/s × 86400 s = 864000 (sd ≈ 930).
  EXPECT_NEAR(static_cast<double>(a.size()), 864000.0, 4000.0);
  const auto in_hour = [&](int h) {
    return std::count_if(a.begin(), a.end(), [&](double t) { return t >= 3600.0 * h && t < 3600.0 * (h + 1); });
  };
  EXPECT_NEAR(static_cast<double>(in_hour(12)), 72000.0, 1500.0);
  EXPECT_NEAR(static_cast<double>(in_hour(2)), 18000.0, 700.0);
}

TEST(Diurnal, ProfilesAtTheEdgesOfADoubleKeepTheirShape) {
  std::array<double, 24> huge{};
  huge.fill(1e308);  // their sum overflows
  EXPECT_DOUBLE_EQ(DiurnalSource(3.0, huge, 0.0, 10.0, 1).rate_at(3600.0 * 7), 3.0);
  std::array<double, 24> tiny{};
  tiny[0] = 5e-324;  // a lone denormal: its mean underflows to 0
  const DiurnalSource lone(3.0, tiny, 0.0, 10.0, 1);
  EXPECT_DOUBLE_EQ(lone.rate_at(1800.0), 72.0);  // the whole day's 3/s × 24 h in hour 0
  EXPECT_DOUBLE_EQ(lone.rate_at(3600.0 * 5), 0.0);
}

TEST(Diurnal, StartHourShiftsTheProfileAndSeedRepeats) {
  std::array<double, 24> profile{};
  profile.fill(1.0);
  profile[23] = 25.0;
  DiurnalSource a(1.0, profile, 23.0, 100.0, 5);
  DiurnalSource b(1.0, profile, 23.0, 100.0, 5);
  EXPECT_DOUBLE_EQ(a.rate_at(0.0), 12.5);    // 25 / mean 2
  EXPECT_DOUBLE_EQ(a.rate_at(3600.0), 0.5);  // midnight
  EXPECT_EQ(arrivals(a), arrivals(b));
}

TEST(ExponentialWork, DrawsUnitMeanSoloTimesAroundTheSameArrivals) {
  // Under diurnal and MMPP loads `service_dist: exponential` was ignored (every request the
  // typical one): the draws now wrap any source. Its arrivals stay the source's; the work scales
  // are unit exponentials: mean 1, P(> 3) = e^-3 = 4.98 %, median ln 2.
  std::array<double, 24> profile{};
  profile.fill(1.0);
  const auto plain = std::make_shared<DiurnalSource>(5.0, profile, 0.0, 20000.0, 9);
  auto inner = std::make_shared<DiurnalSource>(5.0, profile, 0.0, 20000.0, 9);
  ExponentialWork drawn(inner, 11);
  RequestRecord a, b;
  std::vector<double> work;
  while (drawn.next(a)) {
    ASSERT_TRUE(plain->next(b));
    EXPECT_EQ(a.arrived_at_s, b.arrived_at_s);
    EXPECT_EQ(b.work_scale, 1.0);
    work.push_back(a.work_scale);
  }
  ASSERT_GT(work.size(), 90000u);  // 100,000 expected
  double sum = 0.0;
  for (double w : work) sum += w;
  EXPECT_NEAR(sum / static_cast<double>(work.size()), 1.0, 0.01);
  const auto over = static_cast<double>(std::count_if(work.begin(), work.end(), [](double w) { return w > 3.0; }));
  EXPECT_NEAR(over / static_cast<double>(work.size()), std::exp(-3.0), 0.003);
  std::nth_element(work.begin(), work.begin() + static_cast<std::ptrdiff_t>(work.size() / 2), work.end());
  EXPECT_NEAR(work[work.size() / 2], std::log(2.0), 0.01);
}

TEST(Mmpp, LongRunRateIsTheTimeWeightedMean) {
  // Calm 1/s for 90 s on average, bursts of 21/s for 10 s: long-run rate (90 + 210) / 100 = 3/s.
  MmppSource source({{1.0, 90.0}, {21.0, 10.0}}, 2e5, 11);
  const auto a = arrivals(source);
  EXPECT_NEAR(static_cast<double>(a.size()) / 2e5, 3.0, 0.15);
  for (std::size_t i = 1; i < a.size(); ++i) ASSERT_LE(a[i - 1], a[i]);
}

TEST(Mmpp, BurstierThanPoissonAtTheSameRate) {
  // Index of dispersion of counts in 10 s windows: 1 for Poisson, well above 1 for the MMPP.
  auto dispersion = [](const std::vector<double>& a, double horizon) {
    std::vector<double> counts(static_cast<std::size_t>(horizon / 10.0), 0.0);
    for (double t : a) counts[static_cast<std::size_t>(t / 10.0)] += 1.0;
    double mean = 0.0, var = 0.0;
    for (double c : counts) mean += c;
    mean /= static_cast<double>(counts.size());
    for (double c : counts) var += (c - mean) * (c - mean);
    return var / static_cast<double>(counts.size()) / mean;
  };
  MmppSource mmpp({{1.0, 90.0}, {21.0, 10.0}}, 1e5, 3);
  PoissonSource poisson(3.0, 1e5, 3);
  EXPECT_NEAR(dispersion(arrivals(poisson), 1e5), 1.0, 0.15);
  EXPECT_GT(dispersion(arrivals(mmpp), 1e5), 5.0);
}

}  // namespace
}  // namespace slicewise::traces
