// Spot interruptions priced into a fleet: each tenant's exposure and the spot/on-demand mix, by hand.
#include "report/spot_exposure.hpp"

#include <gtest/gtest.h>

namespace slicewise::report {
namespace {

/// Three L4 instances of one GPU each: "api" has a context on GPUs 0 and 1, "chat" shares GPU 0
/// with it, the batch job "etl" runs alone on GPU 2.
struct SpotFixture : ::testing::Test {
  scenario::Scenario scenario;
  scenario::StrategyResult strategy;
  pricing::SpotInterruptionTable rates;
  std::vector<InstanceGroup> groups{{"g6.xlarge", "L4", 1, {0, 1, 2}, 0.5, 1.0}};

  SpotFixture() {
    scenario::Tenant api, chat, etl;
    api.name = "api";
    chat.name = "chat";
    etl.name = "etl";
    etl.sla.environment = scenario::Environment::batch;  // not revenue-bearing
    scenario.tenants = {api, chat, etl};
    strategy.tenants.resize(3);
    strategy.tenants[0].name = "api";
    strategy.tenants[0].throughput_per_s = 4.0;
    strategy.tenants[0].latency_s.p50 = 200.0;  // longer than the notice: in-flight work is lost
    strategy.tenants[0].latency_s.mean = 250.0;
    strategy.tenants[1].name = "chat";
    strategy.tenants[1].throughput_per_s = 2.0;
    strategy.tenants[1].latency_s.p50 = 1.0;
    strategy.tenants[1].latency_s.mean = 1.0;
    strategy.tenants[2].name = "etl";
    strategy.tenants[2].throughput_per_s = 0.5;
    strategy.devices.resize(3);
    strategy.devices[0].gpu_index = 0;
    strategy.devices[0].contexts = {"api#0", "chat#0"};
    strategy.devices[1].gpu_index = 1;
    strategy.devices[1].contexts = {"api#1"};
    strategy.devices[2].gpu_index = 2;
    strategy.devices[2].contexts = {"etl#0"};
    rates.replacement_s = 300.0;
    rates.providers = {{"aws", 120.0, "s"}};
    rates.rates = {{"aws", "L4", {0.1, "5-10 %", "read", false}}};
    rates.fallback = {0.2, ">20 %", "assumed", true};
  }
};

TEST_F(SpotFixture, EachTenantIsDownOnlyWhileEveryOneOfItsContextsIsOnAnInterruptedInstance) {
  const auto e = spot_exposure(strategy, scenario, groups, "aws", 1000.0, rates);
  EXPECT_EQ(e.num_instances, 3);
  EXPECT_DOUBLE_EQ(e.interruptions_per_month, 0.3);
  EXPECT_DOUBLE_EQ(e.notice_s, 120.0);
  EXPECT_DOUBLE_EQ(e.outage_s, 300.0 + 30.0 - 120.0);  // replacement + model load − notice = 210 s
  EXPECT_FALSE(e.assumed);
  ASSERT_EQ(e.tenants.size(), 3u);
  // api: two instances, never both down (first order): interrupted 0.2 a month, never out.
  EXPECT_DOUBLE_EQ(e.tenants[0].interruptions_per_month, 0.2);
  EXPECT_DOUBLE_EQ(e.tenants[0].outage_hours_per_month, 0.0);
  EXPECT_DOUBLE_EQ(e.tenants[0].availability, 1.0);
  // Its in-flight requests (4/s × 250 s, half on each instance) cannot drain in 120 s: 0.1 × 500 × 2.
  EXPECT_DOUBLE_EQ(e.tenants[0].resent_requests_per_month, 0.1 * 4.0 * 250.0 * 0.5 * 2.0);
  // chat: its one context is on instance 0: out 0.1 × 210 s a month, 2/s arriving meanwhile.
  EXPECT_DOUBLE_EQ(e.tenants[1].outage_hours_per_month, 0.1 * 210.0 / 3600.0);
  EXPECT_DOUBLE_EQ(e.tenants[1].availability, 1.0 - 0.1 * 210.0 / 3600.0 / 730.0);
  EXPECT_DOUBLE_EQ(e.tenants[1].delayed_requests_per_month, 0.1 * 2.0 * 210.0);
  EXPECT_DOUBLE_EQ(e.tenants[1].resent_requests_per_month, 0.0);  // 1 s requests finish within the notice
  EXPECT_DOUBLE_EQ(e.tenants[2].delayed_requests_per_month, 0.1 * 0.5 * 210.0);
  EXPECT_FALSE(e.tenants[2].revenue_bearing);
}

TEST_F(SpotFixture, TheMixKeepsTheFewestInstancesOnDemandThatHoldAContextOfEachRevenueBearingTenant) {
  const auto e = spot_exposure(strategy, scenario, groups, "aws", 1000.0, rates);
  // Instance 0 holds api#0 and chat#0: one on-demand instance covers both; the batch job stays on spot.
  EXPECT_EQ(e.mix_on_demand_instances, 1);
  EXPECT_TRUE(e.mix_priced);
  EXPECT_DOUBLE_EQ(e.mix_monthly_usd, 1000.0 + (1.0 - 0.5) * 730.0);
  EXPECT_DOUBLE_EQ(e.mix_tenants[0].interruptions_per_month, 0.1);  // api#1's instance only
  EXPECT_DOUBLE_EQ(e.mix_tenants[1].availability, 1.0);
  EXPECT_DOUBLE_EQ(e.mix_tenants[2].availability, e.tenants[2].availability);
  const auto note = spot_note(e);
  EXPECT_NE(note.find("0.30 interruptions a month are expected over 3 instances"), std::string::npos) << note;
  EXPECT_NE(note.find("A mix with 1 of 3 instances on-demand"), std::string::npos) << note;
  EXPECT_NE(note.find("costs $1365.00 a month"), std::string::npos) << note;
}

TEST_F(SpotFixture, AGpuWithNoReadingIsAssumedAtTheDefaultAndSaysSo) {
  groups[0].gpu = "T4";
  const auto e = spot_exposure(strategy, scenario, groups, "aws", 1000.0, rates);
  EXPECT_TRUE(e.assumed);
  EXPECT_DOUBLE_EQ(e.interruptions_per_month, 0.6);
  EXPECT_NE(spot_note(e).find("assumed: no published reading"), std::string::npos);
}

TEST_F(SpotFixture, TwoGpusOfOneInstanceGoDownTogether) {
  groups[0].gpus_per_instance = 2;  // GPUs 0 and 1 on one instance, GPU 2 on a second
  const auto e = spot_exposure(strategy, scenario, groups, "aws", 1000.0, rates);
  EXPECT_EQ(e.num_instances, 2);
  EXPECT_DOUBLE_EQ(e.tenants[0].interruptions_per_month, 0.1);
  EXPECT_DOUBLE_EQ(e.tenants[0].outage_hours_per_month, 0.1 * 210.0 / 3600.0);
}

}  // namespace
}  // namespace slicewise::report
