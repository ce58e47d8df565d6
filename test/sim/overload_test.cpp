// Overload (docs/overload.md): a full queue sheds arrivals, clients time out, and a run that would
// hold more requests than memory allows stops with a message that names the tenant.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test/sim/sim_fixture.hpp"

namespace slicewise::test {
namespace {

using models::StrategyKind;
using ::testing::HasSubstr;

/// One context on a dedicated A100 serving `solo_s` requests one at a time, Poisson arrivals.
scenario::Scenario md1(double rate_per_s, double solo_s, double horizon_s, scenario::OverloadSpec overload) {
  auto s = make_scenario("A100-80GB", 1, horizon_s);
  auto t = generic_tenant("service", solo_s);
  t.load.kind = scenario::LoadKind::poisson;
  t.load.rate_per_s = rate_per_s;
  t.overload = overload;
  s.tenants.push_back(t);
  s.strategies = {strategy(StrategyKind::dedicated)};
  return s;
}

/// Every measured arrival ends one way: completed, dropped, shed, timed out, or still in the system.
void expect_conserved(const scenario::TenantResult& r) {
  EXPECT_EQ(r.num_completed + r.num_dropped + r.num_shed + r.num_timed_out + r.num_unfinished, r.num_arrived) << r.name;
  EXPECT_EQ(r.num_failed, r.num_shed + r.num_timed_out) << r.name;  // no faults here
}

TEST(Overload, AnMD1QueuePastSaturationShedsOneMinusOneOverRho) {
  // λ = 20/s on D = 0.1 s (μ = 10/s, ρ = 2), at most K = 40 waiting and no timeout. Once the queue
  // has filled the server never idles: it completes μ a second to the horizon, then the K + 1 it
  // holds in the drain, and sheds the rest, a share 1 − 1/ρ of the arrivals (docs/overload.md).
  const auto result = simulate(md1(20.0, 0.1, 1000.0, {40, 0.0}));
  const auto& r = result.strategies.at(0).tenants.at(0);
  expect_conserved(r);
  EXPECT_EQ(r.num_timed_out, 0);
  EXPECT_EQ(r.num_unfinished, 0);
  EXPECT_EQ(r.sla_violations, r.num_shed);  // no latency target: a shed request is the only violation
  // 1000 / 0.1 services, less the first one (the first arrival is after 0) and the few the server
  // loses while its queue is short in the first seconds, plus the K + 1 of the drain.
  EXPECT_LE(r.num_completed, 10000 - 1 + 41);
  EXPECT_GE(r.num_completed, 10000 - 10 + 41);
  // Nobody waits longer than the K ahead of it and the one in service.
  EXPECT_LE(r.queue_delay_s.max, 41 * 0.1 + 1e-9);
  const double n = static_cast<double>(r.num_arrived);
  EXPECT_NEAR(n, 20000.0, 4 * std::sqrt(20000.0));
  // The shed share is 1 − (μT + K + 1) / N given N arrivals: 1 − 1/ρ within the arrivals' noise.
  EXPECT_NEAR(static_cast<double>(r.num_shed), n - static_cast<double>(r.num_completed), 0.0);
  EXPECT_NEAR(static_cast<double>(r.num_shed) / n, 1.0 - 1.0 / 2.0, 4 * 0.5 / std::sqrt(n) + 41.0 / n);
}

TEST(Overload, BelowSaturationNothingIsShedOrTimedOut) {
  // ρ = 0.5 with the defaults (10,000 waiting, 600 s): the queue never comes near either.
  const auto result = simulate(md1(5.0, 0.1, 1000.0, {}));
  const auto& r = result.strategies.at(0).tenants.at(0);
  expect_conserved(r);
  EXPECT_EQ(r.num_shed, 0);
  EXPECT_EQ(r.num_timed_out, 0);
  EXPECT_EQ(r.num_failed, 0);
  // Pollaczek-Khinchine: the mean wait of M/D/1 is ρD / (2(1 − ρ)) = 0.05 s.
  EXPECT_NEAR(r.queue_delay_s.mean, 0.05, 0.01);
}

TEST(Overload, ATimeoutAloneDoesNotProtectAServerThatFinishesWhatItStarts) {
  // ρ = 2, no queue limit, clients give up after τ = 5 s. Once the wait nears τ the server, busy
  // all the time, starts the oldest request still waiting; its slack (how much of τ it has left)
  // follows Z' = (Z − D)⁺ + Exp(λ), the Lindley recursion of a D/M/1 queue, and it is done in time
  // when Z ≥ D: with probability σ, the root of σ = exp(−λD(1 − σ)) (σ = 0.2032 for λD = 2).
  // Goodput falls to μσ = 2.03 a second, a fifth of what the GPU serves (docs/overload.md).
  auto s = md1(20.0, 0.1, 1050.0, {0, 5.0});
  s.warmup_s = 50.0;  // past the first seconds, in which every request is done in time
  const auto result = simulate(s);
  const auto& strategy = result.strategies.at(0);
  const auto& r = strategy.tenants.at(0);
  expect_conserved(r);
  EXPECT_EQ(r.num_shed, 0);
  double sigma = 0.5;
  for (int i = 0; i < 100; ++i) sigma = std::exp(-2.0 * (1.0 - sigma));
  EXPECT_NEAR(sigma, 0.2032, 1e-4);
  EXPECT_NEAR(static_cast<double>(r.num_completed) / 1000.0, 10.0 * sigma, 0.05 * 10.0 * sigma);
  EXPECT_LE(r.latency_s.max, 5.0);  // a completed request met its client's timeout
  EXPECT_EQ(r.sla_violations, r.num_timed_out);
  EXPECT_GT(strategy.devices.at(0).busy_frac, 0.99);
}

TEST(Overload, AQueueShorterThanTheTimeoutShedsInsteadOfTimingOut) {
  // K / μ + D = 4.1 s < τ = 5 s: every request admitted is done in time, the rest shed at once.
  const auto result = simulate(md1(20.0, 0.1, 200.0, {40, 5.0}));
  const auto& r = result.strategies.at(0).tenants.at(0);
  expect_conserved(r);
  EXPECT_EQ(r.num_timed_out, 0);
  EXPECT_GT(r.num_shed, 0);
  EXPECT_GE(r.num_completed, 2000 - 10 + 41 - 1);
}

TEST(Overload, AClosedLoopUserWhoseRequestIsShedTriesAgainAfterABackOff) {
  // Three users without think time on one 0.5 s slot with room for one waiting: the third is
  // shed, tries again a second later, and is shed again while the other two keep the GPU busy;
  // a user lost at the first shed would be shed once.
  auto s = make_scenario("A100-80GB", 1, 100.0);
  auto t = generic_tenant("users", 0.5);
  t.load.num_users = 3;
  t.overload = {1, 0.0};
  s.tenants.push_back(t);
  s.strategies = {strategy(StrategyKind::dedicated)};
  const auto result = simulate(s);
  const auto& r = result.strategies.at(0).tenants.at(0);
  expect_conserved(r);
  EXPECT_GE(r.num_completed, 199);
  EXPECT_GT(r.num_shed, 50);
}

TEST(Overload, AnLlmEngineShedsAtItsQueueLimitAndDropsWaitingRequestsAtTheirDeadline) {
  // Llama-3.1-8B on an L40S at 40 requests a second of 2,000-token prompts, several times what
  // one engine serves: with a queue limit of 16 most are shed; with a 2 s timeout instead, those
  // still waiting after 2 s leave its queue (and the rest finish late).
  auto s = make_scenario("L40S", 1, 60.0);
  auto t = llm_tenant("chat", "Llama-3.1-8B-Instruct", 2000.0, 20.0);
  t.load.rate_per_s = 40.0;
  t.overload = {16, 0.0};
  s.tenants.push_back(t);
  s.strategies = {strategy(StrategyKind::dedicated)};
  const auto shed = simulate(s);
  const auto& r = shed.strategies.at(0).tenants.at(0);
  expect_conserved(r);
  EXPECT_GT(r.num_shed, r.num_arrived / 2);
  EXPECT_EQ(r.num_timed_out, 0);
  EXPECT_GT(r.num_completed, 0);
  s.tenants[0].overload = {0, 2.0};
  const auto timed = simulate(s);
  const auto& u = timed.strategies.at(0).tenants.at(0);
  expect_conserved(u);
  EXPECT_EQ(u.num_shed, 0);
  EXPECT_GT(u.num_timed_out, u.num_arrived / 2);
  EXPECT_LE(u.queue_delay_s.max, 2.0);
}

TEST(Overload, ARunThatWouldHoldTooManyRequestsStopsWithAMessageNamingTheTenant) {
  auto s = md1(1000.0, 0.1, 100.0, {0, 0.0});  // ρ = 100, nothing sheds
  s.source_file = "flood.json";
  sim::RunOptions options;
  options.max_requests_in_system = 5000;
  const auto run = run_in_child(s, options);
  ASSERT_FALSE(run.result);
  EXPECT_THAT(run.error, HasSubstr("flood.json: /tenants/0/overload: tenant \"service\" had "));
  EXPECT_THAT(run.error, HasSubstr("more than a run may hold (5000): its load outruns its contexts and nothing "
                                   "sheds it (queue_limit 0, timeout_s 0; 0 is none)"));
  // With a queue limit the same load is shed, and the run ends.
  s.tenants[0].overload = {100, 0.0};
  const auto bounded = run_in_child(s, options);
  ASSERT_TRUE(bounded.result) << bounded.error;
  EXPECT_GT(bounded.result->strategies.at(0).tenants.at(0).num_shed, 0);
}

}  // namespace
}  // namespace slicewise::test
