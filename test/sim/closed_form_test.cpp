// Simulations whose answer is known in closed form (issue: engine tests).
#include <cmath>

#include <gtest/gtest.h>

#include "models/gpu_catalog.hpp"
#include "models/llm_step.hpp"
#include "models/model_catalog.hpp"
#include "sim/llm_engine.hpp"

#include "test/sim/sim_fixture.hpp"

namespace slicewise::test {
namespace {

using models::StrategyKind;

TEST(ClosedForm, OneContextAloneRunsAtSoloSpeedUnderEveryStrategy) {
  const std::vector<scenario::StrategySpec> strategies = {strategy(StrategyKind::dedicated),
                                                          strategy(StrategyKind::time_slicing),
                                                          strategy(StrategyKind::mps),
                                                          strategy(StrategyKind::mig, "7g.80gb"),
                                                          strategy(StrategyKind::mig_time_slicing, "7g.80gb"),
                                                          strategy(StrategyKind::hami),
                                                          strategy(StrategyKind::vgpu)};
  auto s = make_scenario("A100-80GB", 1, 100.0);
  s.tenants.push_back(generic_tenant("solo", 0.5, /*sm=*/0.5, /*bw=*/0.5));
  s.strategies = strategies;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const auto result = simulate(s, static_cast<int>(i));
    const auto& tenant = result.strategies.at(0).tenants.at(0);
    const double expected = strategies[i].kind == StrategyKind::hami ? 0.5 * 1.02 : 0.5;  // HAMi launch overhead
    EXPECT_NEAR(tenant.latency_s.mean, expected, 1e-9) << strategies[i].name;
    EXPECT_NEAR(tenant.latency_s.max, expected, 1e-9) << strategies[i].name;
    EXPECT_EQ(tenant.num_completed, static_cast<std::int64_t>(std::ceil(100.0 / expected))) << strategies[i].name;
  }
}

TEST(ClosedForm, NIdenticalSaturatedContextsTimeSlicedEachTakeNOverEtaTimesLonger) {
  auto s = make_scenario("L40S", 1, 60.0);
  for (int i = 0; i < 3; ++i) s.tenants.push_back(generic_tenant("t" + std::to_string(i), 0.2));
  auto ts = strategy(StrategyKind::time_slicing);
  ts.quantum_ms = 2.0;
  ts.switch_cost_ms = 0.1;
  s.strategies = {ts};
  const auto result = simulate(s);
  const double eta = 2.0 / 2.1;
  // The mean over the run: the sharing variance (docs/model.md §4) spreads single requests by a
  // draw of mean 0 (here at most ±2 × 2.1 ms / 2 = 0.3 % of a request).
  for (const auto& tenant : result.strategies[0].tenants) {
    EXPECT_NEAR(tenant.latency_s.mean, 3 * 0.2 / eta, 2e-4 * 0.63) << tenant.name;
  }
  // Busy time never exceeds capacity, and the work done fits in it.
  const auto& device = result.strategies[0].devices.at(0);
  EXPECT_LE(device.busy_frac, 1.0 + 1e-12);
  EXPECT_LE(device.sm_util_frac, 1.0 + 1e-12);
  double work_s = 0.0;
  for (const auto& tenant : result.strategies[0].tenants) work_s += tenant.num_completed * 0.2;
  // Requests in service at the horizon finish during the drain: at most one per tenant.
  EXPECT_LE(work_s, device.sm_util_frac * 60.0 + 3 * 0.2);
  EXPECT_NEAR(work_s, eta * 60.0, 3 * 0.2);  // eta of the time does useful work
}

TEST(ClosedForm, SlowdownIsLatencyOverSoloTimeWhetherSoloTimesAreFixedOrDrawn) {
  // One user without think time on a dedicated GPU: every request runs alone, so its latency is
  // its solo time and its slowdown exactly 1, also when the solo times are drawn (each request's
  // own solo time divides its latency: the per-request histogram).
  auto drawn = make_scenario("A100-80GB", 1, 100.0);
  drawn.tenants.push_back(generic_tenant("drawn", 0.5));
  drawn.tenants[0].workload.service_dist = scenario::ServiceDistribution::exponential;
  drawn.strategies = {strategy(StrategyKind::dedicated)};
  const auto drawn_result = simulate(drawn);
  const auto& alone = drawn_result.strategies.at(0).tenants.at(0);
  EXPECT_GT(alone.latency_s.max / alone.latency_s.p50, 3.0);  // the solo times do vary
  EXPECT_EQ(alone.slowdown.count, alone.num_completed);
  EXPECT_NEAR(alone.slowdown.mean, 1.0, 1e-9);
  EXPECT_NEAR(alone.slowdown.max, 1.0, 1e-9);
  EXPECT_NEAR(alone.slowdown.p50, 1.0, 1e-3);  // a histogram bucket: 0.1 % wide
  // Three saturated time-sliced contexts of fixed 0.2 s requests: one solo time per tenant, so the
  // slowdown is the latency divided by it, percentile by percentile; its mean is 3 / η.
  auto shared = make_scenario("L40S", 1, 60.0);
  for (int i = 0; i < 3; ++i) shared.tenants.push_back(generic_tenant("t" + std::to_string(i), 0.2));
  auto ts = strategy(StrategyKind::time_slicing);
  ts.quantum_ms = 2.0;
  ts.switch_cost_ms = 0.1;
  shared.strategies = {ts};
  const auto shared_result = simulate(shared);
  for (const auto& tenant : shared_result.strategies.at(0).tenants) {
    EXPECT_EQ(tenant.slowdown.count, tenant.latency_s.count);
    EXPECT_DOUBLE_EQ(tenant.slowdown.p95, tenant.latency_s.p95 / 0.2);
    EXPECT_DOUBLE_EQ(tenant.slowdown.max, tenant.latency_s.max / 0.2);
    EXPECT_NEAR(tenant.slowdown.mean, 3.0 / (2.0 / 2.1), 2e-4 * 0.63 / 0.2) << tenant.name;
  }
}

TEST(Metrics, TimeAfterTheHorizonIsLeftOutOfUtilisation) {
  // One user keeps an L40S busy with 30 s requests; the one started at 90 s ends at 120 s, in the
  // drain after the 100 s horizon. The last 60 s metrics interval reaches past the horizon: it
  // covers [60, 100) only, so the GPU is 100 % busy, never 120 % (nor 150 % in that interval).
  auto s = make_scenario("L40S", 1, 100.0);
  s.metrics_interval_s = 60.0;
  s.tenants.push_back(generic_tenant("long", 30.0));
  s.strategies = {strategy(StrategyKind::dedicated), strategy(StrategyKind::time_slicing)};
  for (int i = 0; i < 2; ++i) {
    const auto result = simulate(s, i);
    const auto& r = result.strategies.at(0);
    EXPECT_NEAR(r.fleet_busy_frac, 1.0, 1e-12) << r.name;
    EXPECT_NEAR(r.devices.at(0).busy_frac, 1.0, 1e-12) << r.name;
    EXPECT_NEAR(r.devices.at(0).sm_util_frac, 1.0, 1e-12) << r.name;
    ASSERT_EQ(r.series.device_busy_frac.at(0).size(), 2u) << r.name;
    EXPECT_NEAR(r.series.device_busy_frac[0][0], 1.0, 1e-12) << r.name;
    EXPECT_NEAR(r.series.device_busy_frac[0][1], 1.0, 1e-12) << r.name;
  }
}

TEST(Energy, ASaturatedGpuDrawsItsTdpAndTheFleetsUnusedGpusAreCountedApart) {
  // One user keeps one of three L40S (33 W idle, 350 W TDP) busy at full SM occupancy for 100 s:
  // 350 W for 100 s = 350 x 100 / 3600 / 1000 kWh; at half occupancy 33 + 317 / 2 = 191.5 W. The
  // two GPUs dedicated leaves unused are not in the kWh; their idle power is listed.
  for (const double sm : {1.0, 0.5}) {
    auto s = make_scenario("L40S", 3, 100.0);
    s.tenants.push_back(generic_tenant("busy", 10.0, sm));
    s.strategies = {strategy(StrategyKind::dedicated)};
    const auto result = simulate(s);
    const auto& r = result.strategies.at(0);
    ASSERT_TRUE(r.energy.has_value());
    const double watts = 33.0 + 317.0 * sm;
    EXPECT_NEAR(r.devices.at(0).sm_util_frac, sm, 1e-12);
    EXPECT_NEAR(r.energy->mean_power_w, watts, 1e-9) << sm;
    EXPECT_NEAR(r.energy->gpu_kwh, watts * 100.0 / 3600.0 / 1000.0, 1e-12) << sm;
    EXPECT_NEAR(r.energy->monthly_kwh, watts * 730.0 / 1000.0, 1e-9) << sm;
    EXPECT_EQ(r.energy->unused_gpus, 2);
    EXPECT_DOUBLE_EQ(r.energy->unused_idle_w, 66.0);
  }
}

TEST(Metrics, LongSeriesAreMergedSoThatTheResultStaysReadable) {
  // 60 GPUs x 2 series + 60 tenants, 100,000 samples each: 1.8e7 numbers, over the 5e6 a result
  // keeps. Four metrics intervals become one sample; the means are unchanged. (A valid run used to
  // write a 1.67 GB result that roi and report then refused to read.)
  auto s = make_scenario("L40S", 60, 100000.0);
  s.metrics_interval_s = 1.0;
  for (int t = 0; t < 60; ++t) {
    auto tenant = generic_tenant("t" + std::to_string(t), 1.0);
    tenant.load.kind = scenario::LoadKind::poisson;
    tenant.load.rate_per_s = 0.001;
    s.tenants.push_back(tenant);
  }
  s.strategies = {strategy(StrategyKind::dedicated)};
  const auto result = simulate(s).strategies[0];
  EXPECT_EQ(result.series.interval_s, 4.0);
  ASSERT_EQ(result.series.device_busy_frac.size(), 60u);
  EXPECT_EQ(result.series.device_busy_frac[0].size(), 25000u);
  EXPECT_EQ(result.series.tenant_queue_length[0].size(), 25000u);
  double mean = 0.0;
  for (double x : result.series.device_busy_frac[0]) mean += x / 25000.0;
  EXPECT_NEAR(mean, result.devices[0].busy_frac, 1e-9);
}

TEST(ClosedForm, MpsContextsWhoseOccupanciesSumToAtMostOneAreNotSlowed) {
  // Under a daemon of one's own (no thread split); the device plugin's split is MpsPolicy's.
  auto s = make_scenario("L40S", 1, 30.0);
  s.tenants = {generic_tenant("a", 0.25, 0.3, 0.2), generic_tenant("b", 0.5, 0.4, 0.3),
               generic_tenant("c", 0.1, 0.3, 0.4)};
  s.strategies = {strategy(StrategyKind::mps)};
  s.strategies[0].mps_daemon = scenario::MpsDaemon::own;
  const auto result = simulate(s);
  EXPECT_NEAR(result.strategies[0].tenants[0].latency_s.mean, 0.25, 1e-9);
  EXPECT_NEAR(result.strategies[0].tenants[1].latency_s.mean, 0.5, 1e-9);
  EXPECT_NEAR(result.strategies[0].tenants[2].latency_s.mean, 0.1, 1e-9);
}

TEST(ClosedForm, MigSliceCapacityFollowsSmsForComputeAndMemorySlicesForBandwidth) {
  auto s = make_scenario("A100-80GB", 1, 200.0);
  s.tenants = {generic_tenant("compute", 1.0, 1.0, 0.0)};
  s.strategies = {strategy(StrategyKind::mig, "7g.80gb"), strategy(StrategyKind::mig, "1g.10gb")};
  s.strategies[1].name = "mig-1g";
  const double on_7g = simulate(s, 0).strategies[0].tenants[0].latency_s.mean;
  const double on_1g = simulate(s, 1).strategies[0].tenants[0].latency_s.mean;
  EXPECT_NEAR(on_7g / on_1g, 14.0 / 98.0, 1e-9);  // GPU-busy part runs at 14/98 of its 7g speed
  EXPECT_NEAR(on_7g, 108.0 / 98.0, 1e-9);         // solo was measured on the whole 108-SM GPU

  s.tenants = {generic_tenant("bandwidth", 1.0, 1e-6, 1.0)};  // the format needs some SM occupancy
  const double bw_7g = simulate(s, 0).strategies[0].tenants[0].latency_s.mean;
  const double bw_1g = simulate(s, 1).strategies[0].tenants[0].latency_s.mean;
  EXPECT_NEAR(bw_7g / bw_1g, 1.0 / 8.0, 1e-9);
}

TEST(ClosedForm, WithTimeSlicesAShortRequestBesideALongOneGetsOneBurstPerSliceOfTheOther) {
  // Sharing defaults with time slices (2 ms, 0.125 ms to yield, 0.2 ms to cut a slice): one user
  // of 0.8 ms requests beside one of 21.5 ms, back to back on a time-sliced L40S. Each request's
  // GPU work is one burst: the short one runs and yields, the long one takes 11 turns of 21.5 / 11
  // ms. A round of the two is 0.925 + 21.5 / 11 + 2.125 / 11 ms, and a short request takes one
  // round, a long one 11.
  auto s = make_scenario("L40S", 1, 30.0);
  s.tenants = {generic_tenant("short", 0.8e-3), generic_tenant("long", 21.5e-3)};
  s.strategies = {strategy(StrategyKind::time_slicing)};
  models::SharingDefaults defaults;
  defaults.time_slices = true;
  defaults.quantum_ms = 2.0;
  defaults.yield_switch_ms = 0.125;
  defaults.preempt_switch_ms = 0.2;
  const auto result = simulate(s, 0, 2.0, std::nullopt, defaults).strategies[0];
  // The means, within the sampling of the sharing variance's mean-zero jitter (docs/model.md §4:
  // a request starts at a random point of the other's turn), over ~9,700 and ~900 requests.
  const double round_ms = 0.925 + 21.5 / 11.0 + 2.125 / 11.0;
  EXPECT_NEAR(result.tenants[0].latency_s.mean, round_ms * 1e-3, 0.01 * round_ms * 1e-3);
  EXPECT_NEAR(result.tenants[1].latency_s.mean, 11.0 * round_ms * 1e-3, 0.01 * 11.0 * round_ms * 1e-3);
  // (The flat η of the same defaults, 2 / 2.1, gives each half of it: the short request 1.68 ms.)
}

TEST(ClosedForm, TwoHalfDutyContextsTimeSlicedStretchByHalfPlusHalfRootTwo) {
  // 2,000 s: about 4,000 requests each, so that the mean of their sharing variance (a standard
  // deviation of about 2 % per request here) is well below the 0.1 % tolerance.
  auto s = make_scenario("L40S", 1, 2000.0);
  s.tenants = {generic_tenant("a", 0.4, 1.0, 0.0, 0.5), generic_tenant("b", 0.4, 1.0, 0.0, 0.5)};
  auto ts = strategy(StrategyKind::time_slicing);
  ts.switch_cost_ms = 0.0;
  s.strategies = {ts};
  const auto result = simulate(s);
  for (const auto& tenant : result.strategies[0].tenants) {  // the mean over the run, as above
    EXPECT_NEAR(tenant.latency_s.mean, 0.4 * (0.5 + 0.5 * std::sqrt(2.0)), 1e-3 * 0.48);
  }
}

scenario::Scenario queue_scenario(scenario::ServiceDistribution dist) {
  // λ = 0.7 /s, mean service 1 s: about 200 k requests after a 1,000 s warm-up.
  auto s = make_scenario("L40S", 1, 1000.0 + 200000.0 / 0.7);
  s.warmup_s = 1000.0;
  auto t = generic_tenant("queue", 1.0);
  t.load.kind = scenario::LoadKind::poisson;
  t.load.rate_per_s = 0.7;
  t.workload.service_dist = dist;
  s.tenants = {t};
  s.strategies = {strategy(StrategyKind::dedicated)};
  return s;
}

TEST(ClosedForm, MM1TenantOnADedicatedGpuMatchesTheAnalyticMeanLatency) {
  const auto result = simulate(queue_scenario(scenario::ServiceDistribution::exponential), 0, 1.1);
  const auto& tenant = result.strategies[0].tenants[0];
  EXPECT_GT(tenant.num_completed, 195000);
  EXPECT_NEAR(tenant.latency_s.mean, 1.0 / (1.0 - 0.7), 0.03 / (1.0 - 0.7));           // W = 1/(μ-λ), within 3 %
  EXPECT_NEAR(tenant.latency_s.p50, std::log(2.0) / 0.3, 0.03 * std::log(2.0) / 0.3);  // sojourn ~ Exp(μ-λ)
}

TEST(ClosedForm, MD1TenantMatchesPollaczekKhinchine) {
  const auto result = simulate(queue_scenario(scenario::ServiceDistribution::fixed), 0, 1.1);
  const double expected = 1.0 + 0.7 / (2.0 * (1.0 - 0.7));
  EXPECT_NEAR(result.strategies[0].tenants[0].latency_s.mean, expected, 0.03 * expected);
}

TEST(Determinism, TheSameScenarioAndSeedGiveIdenticalJsonBytes) {
  auto s = make_scenario("L40S", 1, 500.0);
  auto a = generic_tenant("a", 0.05, 0.6, 0.3, 0.7);
  a.load.kind = scenario::LoadKind::poisson;
  a.load.rate_per_s = 6.0;
  a.workload.max_concurrency = 4;
  auto b = generic_tenant("b", 0.08, 0.5, 0.5, 0.8);
  b.load.num_users = 3;
  b.load.think_time_s = 0.2;
  s.tenants = {a, b};
  s.strategies = {strategy(StrategyKind::mps)};
  const auto first = scenario::result_to_text(simulate(s));
  const auto second = scenario::result_to_text(simulate(s));
  EXPECT_EQ(first, second);
  s.seed = 8;
  EXPECT_NE(first, scenario::result_to_text(simulate(s)));
}

}  // namespace
}  // namespace slicewise::test

namespace slicewise::test {
namespace {

TEST(ExactTimeSlicing, AgreesWithTheFluidModelWithinTwoPercentForRequestsOfFiftyQuanta) {
  // Three saturated tenants, Poisson arrivals, requests of 50 quanta (2 ms quantum, 0.1 ms switch).
  auto s = make_scenario("L40S", 1, 400.0);
  for (int i = 0; i < 3; ++i) {
    auto t = generic_tenant("t" + std::to_string(i), 0.1);
    t.load.kind = scenario::LoadKind::poisson;
    t.load.rate_per_s = 2.0;  // utilisation 3 × 2 × 0.1 / η ≈ 0.63
    s.tenants.push_back(t);
  }
  auto fluid = strategy(models::StrategyKind::time_slicing);
  fluid.quantum_ms = 2.0;
  fluid.switch_cost_ms = 0.1;
  auto exact = fluid;
  exact.name = "exact";
  exact.exact = true;
  s.strategies = {fluid, exact};
  const auto fluid_result = simulate(s, 0);
  const auto exact_result = simulate(s, 1);
  for (std::size_t t = 0; t < 3; ++t) {
    const double f = fluid_result.strategies[0].tenants[t].latency_s.mean;
    const double e = exact_result.strategies[0].tenants[t].latency_s.mean;
    EXPECT_NEAR(e / f, 1.0, 0.02) << "tenant " << t << ": fluid " << f << " exact " << e;
  }
}

TEST(ExactTimeSlicing, SaturatedContextsGetEtaOverNOnAverage) {
  auto s = make_scenario("L40S", 1, 30.0);
  for (int i = 0; i < 2; ++i) s.tenants.push_back(generic_tenant("t" + std::to_string(i), 0.2));
  auto exact = strategy(models::StrategyKind::time_slicing);
  exact.exact = true;
  exact.quantum_ms = 2.0;
  exact.switch_cost_ms = 0.1;
  s.strategies = {exact};
  const auto result = simulate(s);
  for (const auto& tenant : result.strategies[0].tenants) {
    EXPECT_NEAR(tenant.latency_s.mean, 2 * 0.2 * 2.1 / 2.0, 0.003) << tenant.name;  // one quantum of jitter
  }
}

}  // namespace
}  // namespace slicewise::test

namespace slicewise::test {
namespace {

TEST(ClosedForm, AnLlmServerAloneServesEachRequestInItsSoloSteps) {
  // Llama-3.2-1B in bf16 under vLLM on an L40S (362 TFLOPS, 864 GB/s), one user at a time: the
  // engine is idle at each arrival, so a request takes its prefill step (100 tokens) and 49 decode
  // steps, each the roofline of what it reads and computes plus the host's part.
  auto s = make_scenario("L40S", 1, 20.0);
  auto t = generic_tenant("llm", 0.0);
  t.workload = scenario::Workload{};
  t.workload.kind = scenario::WorkloadKind::llm;
  t.workload.llm = scenario::LlmSpec{"Llama-3.2-1B-Instruct", "bf16", 100.0, 50.0, std::nullopt};
  t.workload.engine = scenario::EngineSpec{};
  t.load.kind = scenario::LoadKind::closed_loop;
  t.load.num_users = 1;
  t.load.think_time_s = 0.0;
  s.tenants = {t};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto tenant = simulate(s).strategies[0].tenants[0];

  const auto& model = *models::ModelCatalog::shipped().find("Llama-3.2-1B-Instruct");
  const auto& fit = models::h200_step_fit();
  const double overhead = models::default_step_overhead_s(model);  // 0.3 ms + 16 layers x 20 us
  EXPECT_DOUBLE_EQ(overhead, 0.62e-3);
  // Decode: the 16 layers and the head (973,078,528 + 262,668,288 parameters; the tied embeddings
  // are read as the head), 2 bytes each, at the fitted share of 864 GB/s; 16 attention kernels;
  // the KV cache of 100..148 tokens, 32 KiB each, at the attention's share.
  const double weights = (model.layer_params() + model.lm_head_params()) * 2.0;
  const double read_s = weights / (864e9 * fit.bandwidth_efficiency);
  const double kv_s_per_token = 32768.0 / (864e9 * fit.attention_bandwidth_efficiency);
  const double decode_step = read_s + 16 * fit.attention_kernel_s + overhead;
  ASSERT_GT(tenant.num_completed, 10);
  // TPOT over the 49 tokens after the first: the step at context 100 + k for k = 0..48 (the GEMMs
  // of one token and its attention's FLOPs add under 0.1 %).
  const double tpot = decode_step + kv_s_per_token * (100.0 + 24.0);
  EXPECT_NEAR(tenant.tpot_s.mean, tpot, 1e-3 * tpot);
  EXPECT_NEAR(tenant.latency_s.mean, tenant.ttft_s.mean + 49.0 * tenant.tpot_s.mean, 1e-9);
  // Every request alone: no queueing, and the same latency each time.
  EXPECT_NEAR(tenant.latency_s.max, tenant.latency_s.mean, 1e-9);
  EXPECT_NEAR(tenant.slowdown.mean, 1.0, 1e-9);
}

TEST(ClosedForm, APromptLongerThanTheEngineTakesIsRefusedAndReported) {
  // DeepSeek-R1-Distill-Qwen-32B on one H100 with max_model_len 32,768: 85k-token prompts are
  // refused at arrival, every one counted dropped, and the result says why.
  auto s = make_scenario("H100-SXM-80GB", 1, 60.0);
  auto t = llm_tenant("long", "DeepSeek-R1-Distill-Qwen-32B", 85000.0, 100.0);
  t.workload.engine->max_model_len = 32768;
  s.tenants = {t};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto result = simulate(s).strategies[0];
  const auto& tenant = result.tenants[0];
  ASSERT_GT(tenant.num_arrived, 10);
  EXPECT_EQ(tenant.num_dropped, tenant.num_arrived);
  EXPECT_EQ(tenant.num_completed, 0);
  EXPECT_FALSE(tenant.sla_met);
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_EQ(result.issues[0], "long: " + std::to_string(tenant.num_arrived) +
                                  " requests refused by its engine (longer than it takes, more KV blocks than its "
                                  "pool, or the server full), counted dropped");
}

TEST(ClosedForm, AnEngineThatWouldNotStartLeavesItsContextUnplaced) {
  // The same model with its own max_model_len (131,072): 0.9 of 80 GiB less 61 GiB of weights
  // leaves a KV pool of about 9 GiB, 38,000 tokens: vLLM refuses to start, and so does placement.
  auto s = make_scenario("H100-SXM-80GB", 1, 10.0);
  s.tenants = {llm_tenant("big", "DeepSeek-R1-Distill-Qwen-32B", 1000.0, 100.0)};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto result = simulate(s).strategies[0];
  EXPECT_EQ(result.tenants[0].num_contexts_unplaced, 1);
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_NE(result.issues[0].find("is unplaceable: its engine starts on no device: its KV pool of "), std::string::npos)
      << result.issues[0];
  EXPECT_NE(result.issues[0].find("less than one request of max_model_len 131072"), std::string::npos)
      << result.issues[0];
}

TEST(ClosedForm, AFullKvPoolPreemptsAndLosesNoRequest) {
  // Llama-3.1-8B on an L4 (24 GiB) at 0.9 of its memory with max_model_len 2,048: a KV pool of
  // about 5 GiB, 40,000 tokens; 64 requests of 1,000 + 1,000 tokens at once need 128,000, so the
  // engine preempts and recomputes, and the result counts it.
  auto s = make_scenario("L4", 1, 30.0);
  auto t = llm_tenant("tight", "Llama-3.1-8B-Instruct", 1000.0, 1000.0);
  t.workload.engine->max_model_len = 2048;
  t.load.kind = scenario::LoadKind::closed_loop;
  t.load.num_users = 64;
  t.load.think_time_s = 0.0;
  s.tenants = {t};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto result = simulate(s, 0, 20.0).strategies[0];
  const auto& tenant = result.tenants[0];
  EXPECT_GT(tenant.num_completed, 0);
  EXPECT_EQ(tenant.num_dropped, 0);
  EXPECT_EQ(tenant.num_completed + tenant.num_unfinished, tenant.num_arrived);  // preempted, not lost
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_NE(result.issues[0].find(" preemptions (its KV cache was full"), std::string::npos) << result.issues[0];
}

/// Llama-3.1-70B on vLLM over two GPUs, 512 + 128 tokens, max_model_len 8,192.
scenario::Tenant llama70b_over_two_gpus() {
  auto t = llm_tenant("big", "Llama-3.1-70B-Instruct", 512.0, 128.0);
  t.workload.engine->tensor_parallel = 2;
  t.workload.engine->max_model_len = 8192;
  return t;
}

TEST(ClosedForm, A70BModelRunsOnTwoH100sAsOneTensorParallelGroup) {
  // Llama-3.1-70B in bf16 (131.4 GiB) fits no H100; with tensor_parallel 2 each GPU holds half.
  // Three H100s: the group takes two of one node, and the fleet's third stays unused.
  auto s = make_scenario("H100-SXM-80GB", 3, 60.0);
  s.tenants = {llama70b_over_two_gpus()};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto result = simulate(s).strategies[0];
  EXPECT_TRUE(result.issues.empty()) << result.issues.front();
  EXPECT_EQ(result.num_gpus_used, 2);
  ASSERT_EQ(result.devices.size(), 1u);
  EXPECT_EQ(result.devices[0].gpu_count, 2);
  // Both GPUs of the group draw power as busy ones; the third idles.
  ASSERT_TRUE(result.energy.has_value());
  ASSERT_EQ(result.energy->per_gpu.size(), 2u);
  EXPECT_EQ(result.energy->per_gpu[1].util_frac, result.energy->per_gpu[0].util_frac);
  EXPECT_EQ(result.energy->unused_gpus, 1);
  EXPECT_EQ(result.tenants[0].num_contexts_unplaced, 0);
  EXPECT_GT(result.tenants[0].num_completed, 10);
  // A decode step reads 65.7 GiB a GPU at 0.905 x 3.35 TB/s (23.3 ms) plus 160 all-reduces:
  // about 25 ms a token.
  EXPECT_GT(result.tenants[0].tpot_s.mean, 0.020);
  EXPECT_LT(result.tenants[0].tpot_s.mean, 0.035);
}

TEST(ClosedForm, APrefixCachedOnTheEngineIsServedFromItsKvCache) {
  // A Mooncake-format trace: 20 prompts of 3,000 tokens, 10 s apart (the engine idle at each), all
  // opening with the same 4 blocks of 512 tokens (a 2,048-token system prompt), then their own.
  // With prefix caching each prompt after the first computes 952 tokens attending over the
  // cached 2,048; without, all 3,000. The cached share is 19 x 2,048 / (20 x 3,000).
  const auto path = std::filesystem::temp_directory_path() / ("sw_prefix_" + std::to_string(::getpid()) + ".jsonl");
  {
    std::FILE* out = std::fopen(path.c_str(), "w");
    for (int r = 0; r < 20; ++r) {
      std::fprintf(out,
                   "{\"timestamp\": %d, \"input_length\": 3000, \"output_length\": 1, \"hash_ids\": "
                   "[0, 1, 2, 3, %d, %d]}\n",
                   r * 10000, 100 + 2 * r, 101 + 2 * r);
    }
    std::fclose(out);
  }
  auto s = make_scenario("H100-SXM-80GB", 2, 200.0);
  auto cached = llm_tenant("cached", "Llama-3.1-8B-Instruct", 0.0, 0.0);
  cached.load = scenario::LoadSpec{};
  cached.load.kind = scenario::LoadKind::trace;
  cached.load.trace_file = path.string();
  cached.load.trace_format = "mooncake";
  cached.workload.engine->max_model_len = 8192;
  auto uncached = cached;
  uncached.name = "uncached";
  uncached.workload.engine->prefix_caching = false;
  s.tenants = {cached, uncached};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto result = simulate(s).strategies[0];
  std::filesystem::remove(path);
  ASSERT_EQ(result.tenants[0].num_completed, 20);
  ASSERT_EQ(result.tenants[1].num_completed, 20);
  ASSERT_TRUE(result.tenants[0].prefix_cache_hit_frac.has_value());
  EXPECT_DOUBLE_EQ(*result.tenants[0].prefix_cache_hit_frac, 19.0 * 2048.0 / (20.0 * 3000.0));
  EXPECT_FALSE(result.tenants[1].prefix_cache_hit_frac.has_value());

  // The prefill steps, priced as the engine prices them (one output token: TTFT is the latency).
  const auto* gpu = models::GpuCatalog::shipped().find("H100-SXM-80GB");
  const auto step = sim::step_model_for(cached.workload, gpu->id,
                                        models::StepDevice{*gpu->bf16_dense_tflops, gpu->memory_bandwidth_gbps});
  models::StepBatch whole;
  whole.prefill_tokens = whole.prefill_context_tokens = 3000.0;
  whole.prefill_seqs = 1.0;
  whole.prefill_attention_pairs = 3000.0 * 1500.0;
  models::StepBatch rest = whole;
  rest.prefill_tokens = 952.0;
  rest.prefill_attention_pairs = 952.0 * (2048.0 + 476.0);
  const double full_s = step.cost(whole).total_s(), hit_s = step.cost(rest).total_s();
  EXPECT_NEAR(result.tenants[1].ttft_s.mean, full_s, 1e-9);
  EXPECT_NEAR(result.tenants[0].ttft_s.mean, (full_s + 19.0 * hit_s) / 20.0, 1e-9);
  EXPECT_NEAR(result.tenants[0].ttft_s.max, full_s, 1e-9);
  EXPECT_LT(hit_s, 0.5 * full_s);
}

TEST(ClosedForm, MigInstancesNeverHostATensorParallelGroup) {
  auto s = make_scenario("H100-SXM-80GB", 2, 10.0);
  s.tenants = {llama70b_over_two_gpus()};
  s.strategies = {strategy(models::StrategyKind::mig, "7g.80gb")};
  const auto result = simulate(s).strategies[0];
  EXPECT_EQ(result.tenants[0].num_contexts_unplaced, 1);
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_EQ(result.issues[0],
            "big#0 (tensor_parallel 2) is unplaceable: MIG instances never host a tensor-parallel "
            "group; mig has only instances (reserve whole GPUs for it: a fleet entry with \"tenants\")");
}

TEST(ClosedForm, APoolReservedForA70BModelRunsItAsDedicatedBesideSharedGpus) {
  // One H100 the strategy shares (or partitions), and a pool of two H100s reserved for the 70B model (tensor_parallel
  // 2). Whatever the strategy does with the shared GPU, the model runs alone on its pool's two GPUs exactly as under
  // dedicated: same steps, same TTFT.
  auto s = make_scenario("H100-SXM-80GB", 1, 30.0);
  s.fleet.push_back({"H100-SXM-80GB", "", 2, {"big"}});
  s.tenants = {llama70b_over_two_gpus(), generic_tenant("a", 0.05, 0.6), generic_tenant("b", 0.05, 0.6)};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto alone = simulate(s).strategies[0];
  // dedicated has one shared GPU for two tenants: b is unplaced, big is not.
  EXPECT_EQ(alone.tenants[0].num_contexts_unplaced, 0);
  EXPECT_EQ(alone.tenants[2].num_contexts_unplaced, 1);
  for (const auto kind : {models::StrategyKind::mps, models::StrategyKind::time_slicing, models::StrategyKind::mig}) {
    s.strategies = {strategy(kind, kind == models::StrategyKind::mig ? "4g.40gb+3g.40gb" : "")};
    const auto shared = simulate(s).strategies[0];
    SCOPED_TRACE(shared.name);
    EXPECT_TRUE(shared.issues.empty()) << shared.issues.front();
    EXPECT_EQ(shared.num_gpus_used, 3);
    // The pool's group: GPUs 1 and 2, whole, reserved; the tenants a and b share GPU 0.
    const auto group = std::find_if(shared.devices.begin(), shared.devices.end(),
                                    [](const scenario::DeviceResult& d) { return d.reserved; });
    ASSERT_NE(group, shared.devices.end());
    EXPECT_EQ(group->name, "gpu1");
    EXPECT_EQ(group->gpu_count, 2);
    EXPECT_EQ(group->mig_profile, "");
    EXPECT_EQ(group->contexts, std::vector<std::string>{"big#0"});
    for (const auto& d : shared.devices) {
      if (!d.reserved) {
        EXPECT_EQ(d.gpu_index, 0);
      }
    }
    EXPECT_EQ(shared.tenants[0].ttft_s.mean, alone.tenants[0].ttft_s.mean);
    EXPECT_EQ(shared.tenants[0].num_completed, alone.tenants[0].num_completed);
    EXPECT_EQ(shared.tenants[2].num_contexts_unplaced, 0);
  }
}

TEST(Placement, UnplaceableContextsAreReportedNotDropped) {
  auto s = make_scenario("L40S", 1, 10.0);
  s.tenants = {generic_tenant("a", 0.1), generic_tenant("b", 0.1)};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto result = simulate(s).strategies[0];
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_EQ(result.issues[0], "b#0 (4 GiB) is unplaceable: no device left that can take it");
  EXPECT_EQ(result.tenants[1].num_contexts_unplaced, 1);
  EXPECT_EQ(result.tenants[1].num_completed, 0);
  EXPECT_FALSE(result.tenants[1].sla_met);
  EXPECT_TRUE(result.tenants[0].sla_met);
}

TEST(Placement, TimeSlicingOvercommitIsAnOutOfMemoryRisk) {
  auto s = make_scenario("L40S", 1, 10.0);
  auto a = generic_tenant("a", 0.1);
  auto b = generic_tenant("b", 0.1);
  a.workload.memory_gib = 30.0;
  b.workload.memory_gib = 30.0;
  s.tenants = {a, b};
  s.strategies = {strategy(models::StrategyKind::time_slicing)};
  const auto result = simulate(s).strategies[0];
  ASSERT_EQ(result.devices.size(), 1u);
  EXPECT_TRUE(result.devices[0].oom_risk);
  EXPECT_EQ(result.issues.at(0),
            "gpu0: out-of-memory risk: contexts hold 60 GiB of 48 GiB and time_slicing does not "
            "isolate memory");
}

TEST(Placement, HardwareIsolationKeepsATenantOffSharedTimeSlicedGpus) {
  auto s = make_scenario("L40S", 2, 10.0);
  auto secure = generic_tenant("secure", 0.1);
  secure.isolation = models::IsolationLevel::hardware;
  s.tenants = {secure, generic_tenant("b", 0.1), generic_tenant("c", 0.1)};
  s.strategies = {strategy(models::StrategyKind::time_slicing)};
  const auto result = simulate(s).strategies[0];
  ASSERT_EQ(result.devices.size(), 2u);
  EXPECT_EQ(result.devices[0].contexts, (std::vector<std::string>{"secure#0"}));
  EXPECT_EQ(result.devices[1].contexts, (std::vector<std::string>{"b#0", "c#0"}));
}

}  // namespace
}  // namespace slicewise::test

namespace slicewise::test {
namespace {

TEST(Router, LeastLoadedBeatsRoundRobinAndBothUseEveryContext) {
  auto s = make_scenario("L40S", 2, 3000.0);
  auto t = generic_tenant("svc", 1.0);
  t.num_contexts = 2;
  t.load.kind = scenario::LoadKind::poisson;
  t.load.rate_per_s = 1.4;  // 70 % of two servers
  t.workload.service_dist = scenario::ServiceDistribution::exponential;
  s.tenants = {t};
  s.strategies = {strategy(models::StrategyKind::dedicated)};
  const auto round_robin = simulate(s).strategies[0];
  s.tenants[0].router = scenario::RouterPolicy::least_loaded;
  const auto least_loaded = simulate(s).strategies[0];
  EXPECT_EQ(round_robin.devices.size(), 2u);
  EXPECT_EQ(least_loaded.devices.size(), 2u);
  // Round-robin splits Poisson(1.4) into two Erlang-2 streams (GI/M/1, mean about 2.6 s); joining
  // the shorter queue comes close to M/M/2 (mean 1.96 s).
  EXPECT_LT(least_loaded.tenants[0].latency_s.mean, 0.85 * round_robin.tenants[0].latency_s.mean);
  EXPECT_NEAR(least_loaded.tenants[0].latency_s.mean, 1.0 / (1.0 - 0.7 * 0.7), 0.25);
}

}  // namespace
}  // namespace slicewise::test

namespace slicewise::test {
namespace {

/// A generic tenant replaying two rows at t = 0 that ask for GPU shares `a` and `b`: 1 s solo,
/// sm_occupancy_frac 0.5, so each row's demand_scale is its share / 0.5.
scenario::Scenario gpu_share_scenario(const std::string& name, double a, double b, bool gpu_frac_demand) {
  const auto path = std::filesystem::temp_directory_path() / ("sw_" + name + "_" + std::to_string(::getpid()) + ".csv");
  {
    std::FILE* out = std::fopen(path.c_str(), "w");
    std::fprintf(out, "arrived_at_s,gpu_frac\n0,%g\n0,%g\n", a, b);
    std::fclose(out);
  }
  auto s = make_scenario("L40S", 1, 10.0);
  auto t = generic_tenant("pods", 1.0, /*sm=*/0.5);
  t.load = scenario::LoadSpec{};
  t.load.kind = scenario::LoadKind::trace;
  t.load.trace_file = path.string();
  t.load.trace_format = "native";
  t.load.gpu_frac_demand = gpu_frac_demand;
  s.tenants = {t};
  return s;
}

TEST(ClosedForm, TraceGpuSharesAddUpInsideABatch) {
  // One context serving both rows at once (max_concurrency 2) on a time-sliced L40S: its demand is
  // 0.5 × Σ demand_scale = Σ shares. At most 1: full speed; above: the lone context runs at 1/demand.
  struct Case {
    double a, b;
    bool on;
    double latency_s;
  };
  const Case cases[] = {{0.3, 0.5, true, 1.0},   // 0.3 + 0.5 = 0.8 of the SMs
                        {0.6, 0.7, true, 1.3},   // 1.3 of the SMs: both at 1/1.3
                        {0.6, 0.7, false, 1.0},  // tenant figures: 2 × 0.5 = 1
                        {0.3, 0.5, false, 1.0}};
  for (const auto& c : cases) {
    auto s = gpu_share_scenario("batch", c.a, c.b, c.on);
    s.tenants[0].workload.max_concurrency = 2;
    s.strategies = {strategy(StrategyKind::time_slicing)};
    const auto tenant = simulate(s).strategies[0].tenants[0];
    EXPECT_EQ(tenant.num_completed, 2) << c.a << "+" << c.b << " on=" << c.on;
    EXPECT_NEAR(tenant.latency_s.mean, c.latency_s, 1e-9) << c.a << "+" << c.b << " on=" << c.on;
    EXPECT_NEAR(tenant.latency_s.max, c.latency_s, 1e-9) << c.a << "+" << c.b << " on=" << c.on;
    std::filesystem::remove(s.tenants[0].load.trace_file);
  }
}

TEST(ClosedForm, TraceGpuSharesSplitMpsByKernelTurns) {
  // Two contexts of one tenant on one MPS L40S, one row each (round robin). Shares 0.6 and 0.8 reach
  // 1.4 of the SMs: 0.4 of them are wanted by both, which the two hold in turns (equal kernels).
  // g = 0.5 + 0.5 · 0.2/0.6 = 2/3 and 0.5 + 0.5 · 0.4/0.8 = 3/4. The second finishes at 4/3 s; the
  // first has done 8/9 of its work and runs the last 1/9 s alone: 13/9 s.
  auto s = gpu_share_scenario("mps", 0.6, 0.8, true);
  s.tenants[0].num_contexts = 2;
  s.strategies = {strategy(StrategyKind::mps)};
  s.strategies[0].mps_daemon = scenario::MpsDaemon::own;  // no thread split: the turns alone
  auto tenant = simulate(s).strategies[0].tenants[0];
  EXPECT_EQ(tenant.num_completed, 2);
  EXPECT_NEAR(tenant.latency_s.mean, (4.0 / 3.0 + 13.0 / 9.0) / 2.0, 1e-9);
  EXPECT_NEAR(tenant.latency_s.max, 13.0 / 9.0, 1e-9);
  // Without the flag each context asks for the tenant's 0.5: together 1, nobody is slowed.
  s.tenants[0].load.gpu_frac_demand = false;
  tenant = simulate(s).strategies[0].tenants[0];
  EXPECT_NEAR(tenant.latency_s.mean, 1.0, 1e-9);
  EXPECT_NEAR(tenant.latency_s.max, 1.0, 1e-9);
  std::filesystem::remove(s.tenants[0].load.trace_file);
}

TEST(Issues, ATenantWithoutArrivalsInTheWindowIsNamedNotSilentlyMet) {
  // Both rows at t = 0, replayed from window_start_s 5: nothing arrives; a closed loop beside it does.
  auto s = gpu_share_scenario("empty_window", 0.1, 0.1, false);
  s.tenants[0].load.window_start_s = 5.0;
  auto busy = generic_tenant("busy", 0.1, 0.5);
  s.tenants.push_back(busy);
  s.strategies = {strategy(StrategyKind::time_slicing)};
  const auto result = simulate(s).strategies[0];
  EXPECT_EQ(result.tenants[0].num_arrived, 0);
  EXPECT_GT(result.tenants[1].num_arrived, 0);
  ASSERT_EQ(result.issues.size(), 1u);
  EXPECT_EQ(result.issues[0],
            "tenant pods: no request arrived in the measured window (0 s to 10 s), so its latency and SLA figures are "
            "empty; the trace has no row there (check the file, window_start_s, window_end_s, select and sample_frac)");
  std::filesystem::remove(s.tenants[0].load.trace_file);
}

TEST(EventLoop, OneUserWithoutThinkTimeCostsTwoDeviceEventsPerRequest) {
  // Requests at 0, 1, ..., 10 (each sent when the last returns), done at 1, ..., 11; the horizon
  // at 10.5 stops the source. The device runs at 0 (start) and for each arrival and completion:
  // 2 at t = 0, 2 at each t = 1 .. 10 (a completion, then the next arrival), 1 when the source
  // stops at 10.5, 1 for the last completion at 11, when it is idle and done.
  auto s = make_scenario("A100-80GB", 1, 10.5);
  s.tenants.push_back(generic_tenant("one", 1.0));
  s.strategies = {strategy(StrategyKind::dedicated)};
  const auto result = simulate(s).strategies[0];
  EXPECT_EQ(result.tenants[0].num_completed, 11);
  EXPECT_EQ(result.num_events, 24);
  EXPECT_DOUBLE_EQ(result.simulated_s, 11.0);
  EXPECT_DOUBLE_EQ(result.tenants[0].latency_s.max, 1.0);
}

TEST(Issues, ARunInWhichNoRequestQueuesReadsItsResultBackAtAThousandTenants) {
  // A thousand tenants, 64 requests in service each and one arriving every 2 s: no request ever
  // waits, so every queue delay is exactly 0 (it once came out -3e-13 and the result was refused).
  auto s = make_scenario("A100-80GB", 25, 20.0);
  for (int t = 0; t < 1000; ++t) {
    auto tenant = generic_tenant("t" + std::to_string(t), 0.02, 0.01, 0.0, 0.5);
    tenant.workload.memory_gib = 1.0;
    tenant.workload.max_concurrency = 64;
    tenant.load.kind = scenario::LoadKind::poisson;
    tenant.load.rate_per_s = 0.5;
    s.tenants.push_back(tenant);
  }
  s.strategies = {strategy(StrategyKind::mps)};
  const auto result = simulate(s).strategies[0];
  std::int64_t completed = 0;
  for (const auto& tenant : result.tenants) {
    completed += tenant.num_completed;
    EXPECT_EQ(tenant.queue_delay_s.mean, 0.0) << tenant.name;
    EXPECT_EQ(tenant.queue_delay_s.max, 0.0) << tenant.name;
  }
  EXPECT_GT(completed, 9000);
}

}  // namespace
}  // namespace slicewise::test
