// The autoscaled fleet's money by hand: each hour's GPUs at the instance price, the scale-up lead.
#include "report/autoscale_cost.hpp"

#include <gtest/gtest.h>

#include "scenario/validate.hpp"

namespace slicewise::report {
namespace {

/// Dedicated on g6e.xlarge (one L40S, $1.861 an hour on demand): 1 GPU from 00:00, 3 from 08:00,
/// 2 from 20:00.
struct AutoscaleFixture : ::testing::Test {
  scenario::Scenario scenario;
  scenario::StrategyResult strategy;
  pricing::PriceTable table;

  AutoscaleFixture() {
    scenario.pricing.table = "aws";
    scenario.pricing.region = "us-east-1";
    scenario.fleet.push_back({"", "g6e.xlarge", 4, {}});
    scenario::StrategySpec spec;
    spec.name = "dedicated";
    scenario.strategies.push_back(spec);
    table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
    strategy.name = "dedicated";
    scenario::DeviceResult device;
    device.gpu = "L40S";
    strategy.devices.push_back(device);
    scenario::SizingRecord record;
    for (int h = 0; h < 24; ++h) {
      const int gpus = h < 8 ? 1 : h < 20 ? 3 : 2;
      record.hourly.push_back({h, gpus, {gpus}, {}, true});
    }
    strategy.sizing = record;
  }
};

TEST_F(AutoscaleFixture, EachHourPaysItsGpusAndAScaleUpPaysItsLead) {
  const double price = 1.861;
  const auto cost = autoscaled_cost(strategy, scenario, table, pricing::PurchaseOption::on_demand, 3 * price * 730);
  ASSERT_TRUE(cost.has_value());
  EXPECT_EQ(cost->min_gpus, 1);
  EXPECT_EQ(cost->max_gpus, 3);
  EXPECT_DOUBLE_EQ(cost->scale_up_s, 300.0 + 30.0);  // a new instance (the shipped assumption) and the model's load
  EXPECT_NEAR(cost->usd_per_hour_by_hour[8], 3 * price, 1e-9);
  // 8 h of 1 GPU, 12 of 3, 4 of 2: 52 GPU-hours a day. The one scale-up (2 GPUs at 08:00) is paid
  // 330 s early; the scale-downs at 20:00 and 00:00 cost nothing.
  const double lead = 2 * price * 330.0 / 3600.0;
  EXPECT_NEAR(cost->scale_up_usd, lead * 730.0 / 24.0, 1e-9);
  EXPECT_NEAR(cost->monthly_usd, (52 * price + lead) * 730.0 / 24.0, 1e-9);
  EXPECT_NE(autoscaled_note(*cost).find("GPUs from 00:00: 1 1 1 1 1 1 1 1 3 3 3 3 3 3 3 3 3 3 3 3 2 2 2 2"),
            std::string::npos)
      << autoscaled_note(*cost);
  EXPECT_NE(autoscaled_note(*cost).find("never goes below 1 GPU (the quietest hour's fleet)"), std::string::npos);
}

TEST_F(AutoscaleFixture, AReservationIsPaidEveryHourSoItHasNoAutoscaledFigure) {
  EXPECT_FALSE(autoscaled_cost(strategy, scenario, table, pricing::PurchaseOption::reserved_1y, 1.0).has_value());
  strategy.sizing->hourly.clear();
  EXPECT_FALSE(autoscaled_cost(strategy, scenario, table, pricing::PurchaseOption::on_demand, 1.0).has_value());
}

}  // namespace
}  // namespace slicewise::report
