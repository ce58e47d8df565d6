// Sizing for SLA against closed forms: the contexts a dedicated tenant needs (E_k/M/1 queues) and
// the GPUs time-sliced tenants need (their utilisation).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "test/sim/sim_fixture.hpp"

namespace slicewise::test {
namespace {

using models::StrategyKind;

/// A Poisson tenant with exponential service of mean `solo_s`, one request at a time per context,
/// an SLA of `target_s` with 5 % allowed over (internal).
scenario::Tenant poisson_tenant(const std::string& name, double rate, double solo_s, double target_s) {
  auto t = generic_tenant(name, solo_s);
  t.load.kind = scenario::LoadKind::poisson;
  t.load.rate_per_s = rate;
  t.workload.service_dist = scenario::ServiceDistribution::exponential;
  t.sla.latency_s = target_s;
  return t;
}

/// A strategy of `kind` sized for SLA.
scenario::StrategySpec sized(StrategyKind kind) {
  auto spec = strategy(kind);
  spec.sizing = scenario::Sizing::sla;
  return spec;
}

/// Six tenants t0..t5, each 4.5/s of fixed 0.1 s requests (a GPU 45 % busy), a 5 s target.
void add_six_tenants_45_percent_busy(scenario::Scenario& s) {
  for (int i = 0; i < 6; ++i) {
    auto t = poisson_tenant("t" + std::to_string(i), 4.5, 0.1, 5.0);
    t.workload.service_dist = scenario::ServiceDistribution::fixed;
    s.tenants.push_back(t);
  }
}

/// P(sojourn > t) in an E_k/M/1 queue (what each of k round-robin contexts of a Poisson(λ) stream
/// is): Exp(μ(1 - σ)), σ the root in (0, 1) of σ = (λ / (λ + μ(1 - σ)))^k (Kleinrock, vol. 1, §6.4).
double ek_m1_tail(int k, double lambda, double mu, double t) {
  double sigma = 0.5;
  for (int i = 0; i < 10000; ++i) sigma = std::pow(lambda / (lambda + mu * (1.0 - sigma)), k);
  return std::exp(-mu * (1.0 - sigma) * t);
}

TEST(SizingClosedForm, DedicatedContextsAreTheFewestRoundRobinQueuesThatMeetTheTail) {
  // λ = 25/s of 0.1 s requests (μ = 10/s), p95 under 0.5 s. The E_k/M/1 tails: k = 3 is barely
  // stable, k = 4 leaves 6.5 % over the target, k = 5 2.8 %: five contexts.
  const double lambda = 25.0, mu = 10.0, target = 0.5;
  int expected = 0;
  for (int k = 1; k <= 8 && expected == 0; ++k) {
    if (lambda / (k * mu) < 1.0 && ek_m1_tail(k, lambda, mu, target) <= 0.05) expected = k;
  }
  ASSERT_EQ(expected, 5);
  EXPECT_NEAR(ek_m1_tail(4, lambda, mu, target), 0.0646, 5e-4);
  EXPECT_NEAR(ek_m1_tail(5, lambda, mu, target), 0.0283, 5e-4);

  auto s = make_scenario("L40S", 8, 1800.0);
  s.warmup_s = 60.0;
  s.tenants.push_back(poisson_tenant("api", lambda, 1.0 / mu, target));
  s.strategies = {sized(StrategyKind::dedicated)};
  const auto search = size_for_sla(s, 0, 8);
  const auto& record = search.record();
  ASSERT_TRUE(record.feasible) << record.shortfall;
  EXPECT_EQ(record.contexts, std::vector<int>{expected});
  EXPECT_EQ(record.num_gpus, expected);
  // 1, 2, 4 fail (gallop), 8 passes, then 6 and 5 pass (bisect): n passes and n - 1 failed.
  ASSERT_EQ(record.steps.size(), 6u);
  EXPECT_EQ(record.steps[3].num_contexts, 8);
  EXPECT_EQ(record.steps[5].num_contexts, 5);
  EXPECT_TRUE(record.steps[5].met);
  EXPECT_FALSE(record.steps[2].met);
  // The simulated tail at 5 contexts is the closed form's (45,000 requests: ±0.3 %).
  const auto& tenant = search.result().tenants.at(0);
  EXPECT_NEAR(tenant.sla_violation_frac, ek_m1_tail(5, lambda, mu, target), 0.006);
}

TEST(SizingClosedForm, ADiurnalTenantIsSizedAtItsPeakHourNotTheSimulatedOne) {
  // The tenant above, its rate following the day: 10/s in every hour but 14:00-15:00, when it is
  // 25/s (the profile's mean is 25.5 / 24, so rate_per_s = 10 × 25.5 / 24). The scenario starts at
  // 09:00, where two contexts would do (E_2/M/1 at 10/s: 1.4 % over 0.5 s); at the peak it needs the
  // five of the closed form above. The search runs the peak hour, and says so.
  const double mu = 10.0, target = 0.5;
  EXPECT_LE(ek_m1_tail(2, 10.0, mu, target), 0.05);
  EXPECT_GT(ek_m1_tail(1, 10.0, mu, target), 0.05);
  auto s = make_scenario("L40S", 8, 1800.0);
  s.warmup_s = 60.0;
  auto t = poisson_tenant("api", 10.0 * 25.5 / 24.0, 1.0 / mu, target);
  t.load.kind = scenario::LoadKind::diurnal;
  t.load.hourly_profile.assign(24, 1.0);
  t.load.hourly_profile[14] = 2.5;
  t.load.start_hour = 9.0;
  s.tenants.push_back(t);
  s.strategies = {sized(StrategyKind::dedicated)};
  const auto search = size_for_sla(s, 0, 8);
  const auto& record = search.record();
  ASSERT_TRUE(record.feasible) << record.shortfall;
  EXPECT_EQ(record.peak_hours, std::vector<double>{14.0});
  EXPECT_EQ(record.result_hour, 14.0);
  EXPECT_EQ(record.contexts, std::vector<int>{5});
  // Run at its own 09:00, the sized fleet has room to spare: what sizing on that hour would miss.
  auto at_nine = scenario::sized_run_of(record);
  EXPECT_EQ(at_nine.start_hour, 14.0);
  at_nine.start_hour.reset();
  const auto calm = simulate(s, 0, 2.0, at_nine).strategies.at(0).tenants.at(0);
  EXPECT_NEAR(calm.throughput_per_s, 10.0, 0.5);
  const auto& peak = search.result().tenants.at(0);
  EXPECT_NEAR(peak.throughput_per_s, 25.0, 1.0);
  // Sized at 09:00 alone (one hour of an autoscaled fleet), at most the peak's 5: the two of
  // E_2/M/1.
  const auto at_hour = size_for_sla(s, 0, record.num_gpus, {9.0});
  ASSERT_TRUE(at_hour.record().feasible);
  EXPECT_EQ(at_hour.record().contexts, std::vector<int>{2});
  EXPECT_EQ(at_hour.record().result_hour, 9.0);
}

TEST(SizingClosedForm, ATraceTenantIsSizedAtItsBusiestWindowNotTheOneReplayed) {
  // The same tenant from a trace of two half-hours: Poisson 10/s, then 25/s, each request's
  // duration exponential with mean 0.1 s. A run replays 30 minutes, from trace time 0 as given:
  // two contexts would carry that. The search replays the busy half-hour instead (its measured
  // 1,740 s hold the most rows), where five are needed, and says so.
  const double mu = 10.0, target = 0.5;
  const auto path = std::filesystem::temp_directory_path() / ("sw_busy_half_" + std::to_string(::getpid()) + ".csv");
  {
    std::FILE* out = std::fopen(path.c_str(), "w");
    std::fprintf(out, "arrived_at_s,duration_s\n");
    std::mt19937_64 rng(7);
    std::exponential_distribution<double> service(mu);
    double t = 0.0;
    for (;;) {
      t += std::exponential_distribution<double>(t < 1800.0 ? 10.0 : 25.0)(rng);
      if (t >= 3600.0) break;
      std::fprintf(out, "%.6f,%.6f\n", t, service(rng));
    }
    std::fclose(out);
  }
  auto s = make_scenario("L40S", 8, 1800.0);
  s.warmup_s = 60.0;
  auto t = generic_tenant("api", 1.0 / mu);
  t.load = scenario::LoadSpec{};
  t.load.kind = scenario::LoadKind::trace;
  t.load.trace_file = path.string();
  t.load.trace_format = "native";
  t.sla.latency_s = target;
  s.tenants.push_back(t);
  s.strategies = {sized(StrategyKind::dedicated)};
  const auto search = size_for_sla(s, 0, 8);
  std::filesystem::remove(path);
  const auto& record = search.record();
  ASSERT_TRUE(record.feasible) << record.shortfall;
  ASSERT_EQ(record.trace_windows.size(), 1u);
  const auto& window = record.trace_windows[0];
  EXPECT_EQ(window.tenant, "api");
  // The busiest 1,740 s begin at the busy half's first rows (1,800 to 1,860 s), less the warm-up.
  EXPECT_GE(window.window_start_s, 1740.0);
  EXPECT_LE(window.window_start_s, 1800.0);
  EXPECT_NEAR(static_cast<double>(window.arrivals), 25.0 * 1740.0, 0.03 * 25.0 * 1740.0);
  EXPECT_NEAR(static_cast<double>(window.arrivals_as_given), 10.0 * 1740.0, 0.03 * 10.0 * 1740.0);
  EXPECT_EQ(record.contexts, std::vector<int>{5});
  EXPECT_NEAR(search.result().tenants.at(0).throughput_per_s, 25.0, 1.0);
  EXPECT_EQ(scenario::sized_run_of(record).window_start_s.at("api"), window.window_start_s);
}

TEST(SizingClosedForm, TimeSlicedGpusFollowTheTenantsUtilisation) {
  // Six tenants, each keeping a GPU 45 % busy (4.5/s of 0.1 s): 2.7 GPUs of work, time-sliced at
  // η = 0.978. Two GPUs would need to be 1.38 busy each: overloaded, their queues grow without
  // end. Three carry 0.92 each; the SLA (5 s, 50 × the request) holds. Answer: 3 GPUs.
  auto s = make_scenario("A100-80GB", 8, 600.0);
  s.warmup_s = 30.0;
  add_six_tenants_45_percent_busy(s);
  s.strategies = {sized(StrategyKind::time_slicing)};
  const auto search = size_for_sla(s, 0, 8);
  const auto& record = search.record();
  ASSERT_TRUE(record.feasible) << record.shortfall;
  EXPECT_EQ(record.contexts, std::vector<int>(6, 1));
  EXPECT_EQ(record.lower_bound_gpus, 1);  // 24 GiB on 80 GiB
  EXPECT_EQ(record.num_gpus, 3);
  // One run with every context alone, then the start ceil(2.7) = 3 passes and 2 fails, balanced
  // and spread alike (138 % busy whichever tenants pair); packed first-fit, all six fit the memory
  // of one of the 2 GPUs, which it uses alone (270 % busy).
  ASSERT_EQ(record.steps.size(), 5u);
  EXPECT_EQ(record.steps[1].num_gpus, 3);
  EXPECT_TRUE(record.steps[1].met);
  for (std::size_t i = 2; i < 5; ++i) {
    EXPECT_EQ(record.steps[i].num_gpus, i == 4 ? 1 : 2);
    EXPECT_FALSE(record.steps[i].met);
  }
  EXPECT_EQ(record.steps[3].phase, "spread");
  EXPECT_EQ(record.steps[4].phase, "pack");
  EXPECT_EQ(record.placement, "balanced");
  EXPECT_FALSE(record.minimal);  // the memory bound is 1
  // Balanced: two tenants per GPU.
  for (const auto& device : search.result().devices) EXPECT_EQ(device.contexts.size(), 2u) << device.name;
}

TEST(SizingClosedForm, APoolIsSizedOneGroupPerContextBesideTheSharedGpus) {
  // The six tenants above on shared A100s, and a 70B model (tensor_parallel 2) in a pool of H100s
  // reserved for it: the pool holds its one context's two GPUs in every run; the shared GPUs are
  // sized as without it (3). The fleet: 5 GPUs of two types.
  auto s = make_scenario("A100-80GB", 8, 600.0);
  s.warmup_s = 30.0;
  s.fleet.push_back({"H100-SXM-80GB", "", 4, {"big"}});
  add_six_tenants_45_percent_busy(s);
  auto big = llm_tenant("big", "Llama-3.1-70B-Instruct", 512.0, 128.0);
  big.workload.engine->tensor_parallel = 2;
  big.workload.engine->max_model_len = 8192;
  big.load.rate_per_s = 0.2;
  big.sla.ttft_s = 5.0;
  s.tenants.push_back(big);
  s.strategies = {sized(StrategyKind::time_slicing)};
  const auto search = size_for_sla(s, 0, 12);
  const auto& record = search.record();
  ASSERT_TRUE(record.feasible) << record.shortfall;
  EXPECT_EQ(record.num_gpus, 5);
  EXPECT_EQ(record.lower_bound_gpus, 3);  // the pool's 2 and one shared GPU (24 GiB on 80 GiB)
  ASSERT_EQ(record.pools.size(), 1u);
  EXPECT_EQ(record.pools[0], (scenario::SizedPool{"H100-SXM-80GB", 2, {"big"}}));
  // Every context alone (6 shared GPUs and the pool's 2), then 3 shared pass, 2 fail (balanced,
  // spread, and packed onto one of them).
  ASSERT_EQ(record.steps.size(), 5u);
  EXPECT_EQ(record.steps[0].num_gpus, 8);
  EXPECT_EQ(record.steps[1].num_gpus, 5);
  EXPECT_TRUE(record.steps[1].met);
  for (std::size_t i = 2; i < 5; ++i) {
    EXPECT_EQ(record.steps[i].num_gpus, i == 4 ? 3 : 4);
    EXPECT_FALSE(record.steps[i].met);
  }
  // The sized run again, from the record: the same fleet.
  const auto again = scenario::sized_run_of(record);
  EXPECT_EQ(again.num_gpus, 3);
  EXPECT_EQ(again.pools, record.pools);
}

}  // namespace
}  // namespace slicewise::test
