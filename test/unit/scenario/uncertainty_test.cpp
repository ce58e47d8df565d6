#include "scenario/uncertainty.hpp"

#include <gtest/gtest.h>

namespace slicewise::scenario {
namespace {

StrategyResult run_with(int gpus, std::int64_t violations, std::int64_t arrived) {
  StrategyResult run;
  run.num_gpus_used = gpus;
  TenantResult a, b;
  a.sla_violations = violations;
  a.num_arrived = arrived / 2;
  b.num_arrived = arrived - arrived / 2;
  run.tenants = {a, b};
  return run;
}

TEST(Uncertainty, QuantileInterpolatesBetweenOrderStatistics) {
  std::vector<double> values = {50, 10, 40, 20, 30};
  EXPECT_DOUBLE_EQ(quantile(values, 0.05), 12.0);  // at 0.2 between 10 and 20
  EXPECT_DOUBLE_EQ(quantile(values, 0.5), 30.0);
  EXPECT_DOUBLE_EQ(quantile(values, 0.95), 48.0);  // at 3.8 between 40 and 50
  std::vector<double> one = {7};
  EXPECT_DOUBLE_EQ(quantile(one, 0.95), 7.0);
}

TEST(Uncertainty, BandsSummariseEachStrategysSamples) {
  UncertaintySamples samples({"mps", "mig"});
  for (int s = 1; s <= 5; ++s) {
    samples.add(0, 100.0 * s, run_with(s, s, 100), s <= 4);  // met SLA in 4 of 5
    samples.add(1, -5.0, run_with(2, 0, 0), true);           // no arrivals: 0 violations
  }
  const auto bands = samples.bands();
  ASSERT_EQ(bands.size(), 2u);
  EXPECT_EQ(bands[0].strategy, "mps");
  EXPECT_EQ(bands[0].num_samples, 5);
  EXPECT_DOUBLE_EQ(bands[0].monthly_savings_p05_usd, 120.0);
  EXPECT_DOUBLE_EQ(bands[0].monthly_savings_p50_usd, 300.0);
  EXPECT_DOUBLE_EQ(bands[0].monthly_savings_p95_usd, 480.0);
  EXPECT_DOUBLE_EQ(bands[0].sla_violation_p50_frac, 0.03);  // 3 of 100 arrivals over both tenants
  EXPECT_DOUBLE_EQ(bands[0].num_gpus_p95, 4.8);
  EXPECT_DOUBLE_EQ(bands[0].fleet_meets_sla_frac, 0.8);
  EXPECT_DOUBLE_EQ(bands[1].monthly_savings_p50_usd, -5.0);
  EXPECT_DOUBLE_EQ(bands[1].sla_violation_p95_frac, 0.0);
  EXPECT_DOUBLE_EQ(bands[1].fleet_meets_sla_frac, 1.0);
}

}  // namespace
}  // namespace slicewise::scenario
