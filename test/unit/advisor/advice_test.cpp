// The advisor's content from given outcomes: prices, the answer, the Pareto front, why each other
// candidate lost, and the message when nothing meets every SLA.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "advisor/advice.hpp"
#include "scenario/sizing.hpp"
#include "scenario/validate.hpp"

namespace slicewise::advisor {
namespace {

using models::StrategyKind;

scenario::Scenario one_tenant() {
  scenario::Scenario s;
  s.name = "advice";
  s.fleet.push_back({"L40S", "", 2, {}});
  scenario::Tenant t;
  t.name = "api";
  t.workload.solo_latency_s = 0.1;
  t.workload.memory_gib = 8.0;
  t.sla.latency_s = 1.0;
  s.tenants.push_back(t);
  s.strategies.push_back({});
  s.pricing.table = "aws";
  s.pricing.region = "us-east-1";
  return s;
}

AdviceCandidate candidate(StrategyKind kind, bool baseline = false) {
  scenario::StrategySpec spec;
  spec.kind = kind;
  spec.name = models::to_string(kind);
  spec.sizing = scenario::Sizing::sla;
  return {spec.name + " on L40S", "L40S", spec, baseline, {}, {}, {}};
}

/// A sized run on `gpus` L40S whose one tenant's latency quantiles all sit at `latency_s`.
CandidateOutcome outcome(int gpus, double latency_s, bool feasible = true) {
  scenario::StrategyResult r;
  r.num_gpus_used = gpus;
  for (int g = 0; g < gpus; ++g) {
    scenario::DeviceResult d;
    d.name = "gpu" + std::to_string(g);
    d.gpu = "L40S";
    d.gpu_index = g;
    d.contexts = {"api#" + std::to_string(g)};
    r.devices.push_back(d);
  }
  scenario::TenantResult tr;
  tr.name = "api";
  tr.sla_met = feasible;
  tr.sla_max_violation_frac = 0.05;
  tr.sla_violation_frac = feasible ? 0.0 : 0.2;
  tr.latency_cdf_s.assign(scenario::kLatencyCdfLevels.size(), latency_s);
  tr.latency_s.max = latency_s;
  r.tenants.push_back(tr);
  scenario::SizingRecord record;
  record.num_gpus = gpus;
  record.max_gpus = 4;
  record.contexts = {gpus};
  record.feasible = feasible;
  if (!feasible) record.shortfall = "no configuration within 4 GPUs meets every SLA: the closest (4 GPUs) misses api";
  r.sizing = record;
  return {r, gpus, ""};
}

TEST(Advice, TheCheapestThatMeetsEverySlaWinsAndTiesGoToTheMargin) {
  const auto s = one_tenant();
  const auto table = scenario::resolve_price_table(s, scenario::Catalogs::shipped());
  AdviceSelection selection;
  selection.max_gpus = 4;
  const std::vector<AdviceCandidate> candidates = {candidate(StrategyKind::dedicated, true),
                                                   candidate(StrategyKind::time_slicing), candidate(StrategyKind::mps),
                                                   candidate(StrategyKind::hami), candidate(StrategyKind::vgpu)};
  std::vector<CandidateOutcome> outcomes = {
      outcome(2, 0.6), outcome(1, 0.9), outcome(1, 0.7), outcome(4, 1.3, false), {}};
  outcomes[4].lower_bound_gpus = 3;
  outcomes[4].pruned = "its 3 GPUs at least cost more than the baseline";
  const auto advice = build_advice(s, table, selection, candidates, outcomes, 9, 2);

  ASSERT_EQ(advice.rows.size(), 5u);
  // g6e.xlarge, $1.861 an hour, 730 hours: $1,358.53 per GPU-month.
  EXPECT_NEAR(advice.rows[0].monthly_usd, 2 * 1.861 * 730, 1e-6);
  EXPECT_EQ(advice.rows[0].instances, "2 x g6e.xlarge");
  EXPECT_NEAR(advice.rows[1].monthly_savings_usd, 1.861 * 730, 1e-6);
  EXPECT_NEAR(advice.rows[1].savings_frac, 0.5, 1e-12);
  // time slicing and MPS cost the same; MPS keeps 30 % of its target to spare, time slicing 10 %.
  ASSERT_TRUE(advice.answer.has_value());
  EXPECT_EQ(*advice.answer, 2u);
  EXPECT_NEAR(advice.rows[2].worst_margin, 0.3, 1e-12);
  EXPECT_EQ(advice.rows[1].reason, "meets every SLA at the answer's cost, with less margin (10.0 % against 30.0 %)");
  // The front: MPS (cheapest, most margin at its price) and dedicated (dearer, 40 % margin).
  EXPECT_TRUE(advice.rows[0].on_front);
  EXPECT_FALSE(advice.rows[1].on_front);
  EXPECT_TRUE(advice.rows[2].on_front);
  EXPECT_EQ(
      advice.rows[0].reason,
      "meets every SLA but costs $1358.53 per month more than the answer (on the front: 40.0 % margin against the "
      "answer's 30.0 %)");
  EXPECT_EQ(advice.rows[3].status, "misses");
  EXPECT_EQ(advice.rows[3].reason, "no configuration within 4 GPUs meets every SLA: the closest (4 GPUs) misses api");
  EXPECT_EQ(advice.rows[4].status, "pruned");
  EXPECT_EQ(advice.rows[4].reason, "its 3 GPUs at least cost more than the baseline");
  EXPECT_EQ(advice.rows[4].num_gpus, 3);
  EXPECT_NE(advice.explanation.front().find("(9 simulations; 2 runs reused)"), std::string::npos);
  EXPECT_EQ(no_answer_message(advice, s, outcomes), "");
  // The CSV carries every row; the front's only its two.
  const auto all = advice_candidates_csv(advice);
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 6);
  const auto front = advice_pareto_csv(advice);
  EXPECT_EQ(std::count(front.begin(), front.end(), '\n'), 3);
  EXPECT_LT(front.find("mps on L40S"), front.find("dedicated on L40S"));  // by cost
}

TEST(Advice, SavingsAreLikeForLikeAndTheOptionsOwnSavingIsApart) {
  // Dedicated on 2 g6e.xlarge against time slicing on 1, on demand ($1.861/h) and 1-year reserved
  // ($1.17243/h), 730 h a month. Like for like, sharing saves one GPU under either option: 50 %.
  // Reserved itself saves 2 x (1.861 - 1.17243) x 730 = $1,005.3122 a month on the baseline.
  auto s = one_tenant();
  const auto table = scenario::resolve_price_table(s, scenario::Catalogs::shipped());
  AdviceSelection selection;
  selection.max_gpus = 4;
  selection.options = {pricing::PurchaseOption::on_demand, pricing::PurchaseOption::reserved_1y};
  const std::vector<AdviceCandidate> candidates = {candidate(StrategyKind::dedicated, true),
                                                   candidate(StrategyKind::time_slicing)};
  const std::vector<CandidateOutcome> outcomes = {outcome(2, 0.6), outcome(1, 0.9)};
  const auto advice = build_advice(s, table, selection, candidates, outcomes, 2, 0);
  ASSERT_EQ(advice.rows.size(), 4u);
  const auto& on_demand = advice.rows[2];
  const auto& reserved = advice.rows[3];
  EXPECT_NEAR(on_demand.monthly_savings_usd, 1.861 * 730, 1e-6);
  EXPECT_NEAR(on_demand.savings_frac, 0.5, 1e-12);
  EXPECT_EQ(on_demand.option_savings_usd, 0.0);
  EXPECT_NEAR(reserved.monthly_savings_usd, 1.17243 * 730, 1e-6);
  EXPECT_NEAR(reserved.savings_frac, 0.5, 1e-12);  // not (2 x 1.861 - 1.17243) / (2 x 1.861) = 68.5 %
  EXPECT_NEAR(reserved.option_savings_usd, 2 * (1.861 - 1.17243) * 730, 1e-6);
  ASSERT_TRUE(advice.answer.has_value());
  EXPECT_EQ(*advice.answer, 3u);
  EXPECT_NE(advice_summary_text(advice).find(
                "saves $855.87 (50.0 %) against the baseline on reserved_1y, which itself saves $1005.31 against "
                "on_demand"),
            std::string::npos)
      << advice_summary_text(advice);
}

TEST(Advice, ASpotRowCarriesItsInterruptionsAndTheAnswerOnSpotSaysWhatTheyCost) {
  // Time slicing on one g6e.xlarge on spot: the L40S has no published reading, so the assumed 0.2
  // interruptions per instance-month, each 300 + 30 - 120 = 210 s down for the one tenant.
  auto s = one_tenant();
  const auto table = scenario::resolve_price_table(s, scenario::Catalogs::shipped());
  AdviceSelection selection;
  selection.max_gpus = 4;
  selection.options = {pricing::PurchaseOption::on_demand, pricing::PurchaseOption::spot};
  const std::vector<AdviceCandidate> candidates = {candidate(StrategyKind::dedicated, true),
                                                   candidate(StrategyKind::time_slicing)};
  const auto advice = build_advice(s, table, selection, candidates, {outcome(2, 0.6), outcome(1, 0.9)}, 2, 0);
  ASSERT_EQ(advice.rows.size(), 4u);
  EXPECT_FALSE(advice.rows[2].spot.has_value());
  const auto& spot = advice.rows[3];
  ASSERT_TRUE(spot.spot.has_value());
  EXPECT_DOUBLE_EQ(spot.spot->interruptions_per_month, 0.2);
  EXPECT_TRUE(spot.spot->assumed);
  ASSERT_EQ(spot.spot->tenants.size(), 1u);
  EXPECT_DOUBLE_EQ(spot.spot->tenants[0].availability, 1.0 - 0.2 * 210.0 / 3600.0 / 730.0);
  ASSERT_TRUE(advice.answer.has_value());
  EXPECT_EQ(*advice.answer, 3u);
  const auto said = std::any_of(advice.explanation.begin(), advice.explanation.end(), [](const std::string& p) {
    return p.rfind("On spot, 0.20 interruptions a month are expected over 1 instance", 0) == 0;
  });
  EXPECT_TRUE(said);
  EXPECT_NE(advice_to_json_text(advice).find("\"worst_availability\""), std::string::npos);
}

TEST(Advice, AnAnswerSizedForEveryHourIsPricedAutoscaled) {
  // Time slicing on one g6e.xlarge at the peak, and on one every hour: the autoscaled fleet is the
  // peak's, $1.861 an hour all day, with no scale-up to pay.
  auto s = one_tenant();
  const auto table = scenario::resolve_price_table(s, scenario::Catalogs::shipped());
  AdviceSelection selection;
  selection.max_gpus = 4;
  const std::vector<AdviceCandidate> candidates = {candidate(StrategyKind::dedicated, true),
                                                   candidate(StrategyKind::time_slicing)};
  auto outcomes = std::vector<CandidateOutcome>{outcome(2, 0.6), outcome(1, 0.9)};
  auto advice = build_advice(s, table, selection, candidates, outcomes, 2, 0);
  ASSERT_TRUE(advice.answer.has_value());
  auto answer = *outcomes[1].result;
  add_autoscaled(advice, s, answer, table);
  EXPECT_FALSE(advice.autoscaled.has_value());  // not sized by the hour
  for (int h = 0; h < 24; ++h) answer.sizing->hourly.push_back({h, 1, {1}, {}, true});
  add_autoscaled(advice, s, answer, table);
  ASSERT_TRUE(advice.autoscaled.has_value());
  EXPECT_NEAR(advice.autoscaled->monthly_usd, 1.861 * 730, 1e-6);
  EXPECT_EQ(advice.autoscaled->scale_up_usd, 0.0);
  EXPECT_NE(advice.explanation.back().find("sized again for each hour. Autoscaled by hour of day"), std::string::npos);
  EXPECT_NE(advice_to_json_text(advice).find("\"gpus_by_hour\""), std::string::npos);
}

TEST(Advice, ATimeSlicingPriorityMeetsAsSimulatedButIsNeverTheAnswer) {
  // The prioritised time-slicing candidate is the cheapest with the most margin, but NVIDIA's device
  // plugin cannot deploy priority: plain time slicing is the answer and the front leaves it out.
  const auto s = one_tenant();
  const auto table = scenario::resolve_price_table(s, scenario::Catalogs::shipped());
  AdviceSelection selection;
  selection.max_gpus = 4;
  auto first = candidate(StrategyKind::time_slicing);
  first.label = "time_slicing, api first on L40S";
  first.priorities["api"] = scenario::Priority::high;
  const std::vector<AdviceCandidate> candidates = {candidate(StrategyKind::dedicated, true), first,
                                                   candidate(StrategyKind::time_slicing)};
  const std::vector<CandidateOutcome> outcomes = {outcome(2, 0.6), outcome(1, 0.5), outcome(1, 0.9)};
  const auto advice = build_advice(s, table, selection, candidates, outcomes, 3, 0);
  ASSERT_TRUE(advice.answer.has_value());
  EXPECT_EQ(*advice.answer, 2u);
  EXPECT_EQ(advice.rows[1].status, "meets");
  EXPECT_FALSE(advice.rows[1].on_front);
  EXPECT_EQ(advice.rows[1].reason,
            "meets every SLA as simulated, but cannot be deployed: NVIDIA's device plugin time-slices its replicas "
            "with no priority or weight between them; it shows what priority would buy");
}

TEST(Advice, NoAnswerNamesTheClosestCandidateAndWhatItMisses) {
  const auto s = one_tenant();
  const auto table = scenario::resolve_price_table(s, scenario::Catalogs::shipped());
  AdviceSelection selection;
  selection.max_gpus = 4;
  const std::vector<AdviceCandidate> candidates = {candidate(StrategyKind::dedicated, true),
                                                   candidate(StrategyKind::time_slicing), candidate(StrategyKind::mps)};
  const std::vector<CandidateOutcome> outcomes = {outcome(4, 1.5, false), outcome(4, 1.3, false),
                                                  outcome(4, 1.04, false)};
  const auto advice = build_advice(s, table, selection, candidates, outcomes);
  EXPECT_FALSE(advice.answer.has_value());
  EXPECT_EQ(no_answer_message(advice, s, outcomes),
            "no configuration within 4 GPUs meets every SLA: the closest is mps on L40S with 4 GPUs, missing api: p95 "
            "latency 1.04 s against its 1 s target (misses by 40 ms; 20 % of requests over, 5 % allowed)");
}

TEST(Advice, CandidatesCoverTheSelectionAndOnlyLayoutsEveryTenantFits) {
  auto s = one_tenant();
  s.pricing.table = "gcp";
  s.pricing.region = "us-central1";
  s.fleet = {{"A100-80GB", "", 1, {}}};
  s.tenants[0].workload.memory_gib = 15.0;  // no 1g.10gb instance holds it
  const auto catalogs = scenario::Catalogs::shipped();
  const auto table = scenario::resolve_price_table(s, catalogs);
  AdviceSelection selection;
  selection.kinds = {StrategyKind::mig, StrategyKind::vgpu};
  selection.gpus = {"A100-80GB"};
  // vGPU needs hosts with NVIDIA's vGPU manager: not offered on a public cloud's instances...
  for (const auto& c : advice_candidates(s, catalogs, table, selection)) EXPECT_NE(c.strategy.kind, StrategyKind::vgpu);
  try {
    AdviceSelection only = selection;
    only.kinds = {StrategyKind::vgpu};
    advice_candidates(s, catalogs, table, only);
    FAIL() << "vGPU alone on a public cloud must be refused";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--strategies: vgpu needs hosts that run NVIDIA's vGPU manager, and gcp's GPU instances are VMs without "
              "one: price vGPU with a table of your own hosts");
  }
  // ... but on a table of one's own hosts.
  auto own_hosts = table;
  own_hosts.name = "my-hosts";
  const auto candidates = advice_candidates(s, catalogs, own_hosts, selection);
  ASSERT_GE(candidates.size(), 3u);
  EXPECT_TRUE(candidates[0].baseline);
  EXPECT_EQ(candidates[0].strategy.kind, StrategyKind::dedicated);
  int vgpu = 0;
  std::vector<std::vector<std::string>> mixed;
  const std::string seven_small = "1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb+1g.10gb";
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    const auto& c = candidates[i];
    if (c.strategy.kind == StrategyKind::vgpu) {
      ++vgpu;
      EXPECT_LE(c.strategy.replicas, 4) << c.label;  // 80 GiB / 8 = 10 GiB < 15 GiB
      continue;
    }
    ASSERT_EQ(c.strategy.kind, StrategyKind::mig) << c.label;
    EXPECT_EQ(c.strategy.sizing, scenario::Sizing::sla);
    EXPECT_EQ(c.strategy.layout.find(seven_small), std::string::npos);
    if (!c.strategy.layouts.empty()) mixed.push_back(c.strategy.layouts);
  }
  EXPECT_EQ(vgpu, 2);
  // No 1g.10gb holds the tenant, so the seven-instance layout comes only beside one whose every
  // instance holds it (most instances first): GPUs of each in turn.
  ASSERT_EQ(mixed.size(), 2u);
  EXPECT_EQ(mixed[0], (std::vector<std::string>{"2g.20gb+2g.20gb+2g.20gb+1g.20gb", seven_small}));
  EXPECT_EQ(mixed[1][1], seven_small);
  try {
    selection.gpus = {"B300"};
    advice_candidates(s, catalogs, table, selection);
    FAIL() << "an unknown GPU must be refused";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown GPU \"B300\""), std::string::npos) << e.what();
  }
}

/// A 70B bf16 endpoint (131 GiB of weights: no single GPU holds it) and two small services on
/// H100s at AWS us-east-1.
scenario::Scenario seventy_b_beside_small_tenants() {
  auto s = one_tenant();
  s.fleet = {{"H100-SXM-80GB", "", 8, {}}};
  scenario::Tenant big;
  big.name = "llm-70b";
  big.workload.kind = scenario::WorkloadKind::llm;
  big.workload.llm = scenario::LlmSpec{"Llama-3.1-70B-Instruct", "bf16", 512.0, 128.0, std::nullopt};
  big.workload.engine = scenario::EngineSpec{};
  big.workload.engine->max_model_len = 8192;
  big.workload.engine->tensor_parallel = 2;
  big.sla.ttft_s = 2.0;
  s.tenants.push_back(big);
  auto ocr = s.tenants[0];
  ocr.name = "ocr";
  s.tenants.push_back(ocr);
  return s;
}

TEST(Advice, ATenantNoDeviceHoldsRunsInAPoolOfWholeGpusOnItsCheapestType) {
  const auto s = seventy_b_beside_small_tenants();
  const auto catalogs = scenario::Catalogs::shipped();
  const auto table = scenario::resolve_price_table(s, catalogs);
  AdviceSelection selection;
  selection.kinds = {StrategyKind::dedicated, StrategyKind::mps, StrategyKind::mig};
  selection.gpus = {"H100-SXM-80GB", "L40S"};
  const auto candidates = advice_candidates(s, catalogs, table, selection);
  std::map<std::string, const AdviceCandidate*> by_label;
  for (const auto& c : candidates) by_label[c.label] = &c;
  // The baseline: the 70B model on two H100s of one node, as the scenario runs it; the others share.
  EXPECT_EQ(candidates[0].label, "dedicated on H100-SXM-80GB (baseline); pools: llm-70b on 2 H100-SXM-80GB");
  EXPECT_EQ(candidates[0].pools, (std::map<std::string, std::string>{{"llm-70b", "H100-SXM-80GB"}}));
  EXPECT_TRUE(candidates[0].tensor_parallel.empty());
  // On H100, beside the small tenants' MPS: a pool of two H100s (tensor parallel 2, as given), and a
  // second candidate with the pool on the type where it costs least: four L40S of one g6e.12xlarge
  // ($10.49/h) rather than two H100s of a p5.48xlarge, which only comes whole ($55.04/h).
  const auto* same = by_label["mps on H100-SXM-80GB; pools: llm-70b on 2 H100-SXM-80GB"];
  const auto* cheap = by_label["mps on H100-SXM-80GB; pools: llm-70b on 4 L40S"];
  ASSERT_TRUE(same && cheap);
  EXPECT_TRUE(same->tensor_parallel.empty());
  EXPECT_EQ(cheap->tensor_parallel, (std::map<std::string, int>{{"llm-70b", 4}}));
  // On L40S the cheapest pool is L40S itself: one candidate, its tensor parallelism raised to 4.
  const auto* l40s = by_label["mps on L40S; pools: llm-70b on 4 L40S"];
  ASSERT_TRUE(l40s);
  EXPECT_EQ(by_label.count("mps on L40S; pools: llm-70b on 2 H100-SXM-80GB"), 0u);
  // The candidate's scenario: the shared GPUs, then the pool, its tenant at tensor_parallel 4.
  const auto variant = candidate_scenario(s, *l40s, 6);
  ASSERT_EQ(variant.fleet.size(), 2u);
  EXPECT_EQ(variant.fleet[0], (scenario::FleetEntry{"L40S", "", 6, {}}));
  EXPECT_EQ(variant.fleet[1], (scenario::FleetEntry{"L40S", "", 6, {"llm-70b"}}));
  EXPECT_EQ(variant.tenants[1].workload.engine->tensor_parallel, 4);
  EXPECT_EQ(scenario::validate_scenario(variant, catalogs).size(), 0u);
  // Its bound: one shared L40S for the small tenants' 16 GiB, and the pool's 4.
  EXPECT_EQ(candidate_lower_bound(s, *l40s, catalogs), 5);
  // MIG on H100: every layout is searched, the 70B model always in a pool (no instance hosts a group).
  int mig = 0;
  for (const auto& c : candidates) {
    if (c.strategy.kind != StrategyKind::mig || c.gpu != "H100-SXM-80GB") continue;
    ++mig;
    EXPECT_EQ(c.pools.count("llm-70b"), 1u) << c.label;
    EXPECT_EQ(c.pools.count("api"), 0u) << c.label;
  }
  EXPECT_GT(mig, 10);
}

TEST(Advice, ThreadCapsTakeAtMostHalfOfATenantsSlack) {
  // The worst slowdown of a cap c is 1/c; it may use sqrt(slack): 25 % from slack 16, 50 % from 4,
  // 75 % from 16/9.
  EXPECT_EQ(thread_cap_for_slack(std::numeric_limits<double>::infinity()), 25.0);
  EXPECT_EQ(thread_cap_for_slack(16.0), 25.0);
  EXPECT_EQ(thread_cap_for_slack(15.9), 50.0);
  EXPECT_EQ(thread_cap_for_slack(4.0), 50.0);
  EXPECT_EQ(thread_cap_for_slack(3.9), 75.0);
  EXPECT_EQ(thread_cap_for_slack(1.78), 75.0);
  EXPECT_EQ(thread_cap_for_slack(1.77), 100.0);
  EXPECT_EQ(thread_cap_for_slack(0.5), 100.0);  // it missed alone
}

/// Three tenants with 1 s targets (c has none) and a baseline whose p95 latencies are 0.8, 0.2 and
/// 0.5 s: slack 1.25, 5 and none.
struct SlackCase {
  scenario::Scenario s;
  scenario::StrategyResult baseline;
  SlackCase() {
    s = one_tenant();
    s.tenants[0].name = "a";
    s.tenants.push_back(s.tenants[0]);
    s.tenants[1].name = "b";
    s.tenants.push_back(s.tenants[0]);
    s.tenants[2].name = "c";
    s.tenants[2].sla.latency_s.reset();
    for (const auto& [name, latency] : {std::pair{"a", 0.8}, {"b", 0.2}, {"c", 0.5}}) {
      scenario::TenantResult tr;
      tr.name = name;
      tr.sla_met = true;
      tr.sla_max_violation_frac = 0.05;
      tr.latency_cdf_s.assign(scenario::kLatencyCdfLevels.size(), latency);
      tr.latency_s.max = latency;
      baseline.tenants.push_back(tr);
    }
  }
};

TEST(Advice, TheBaselinesSlackSetsPerTenantThreadCapsAndTimeSlicingPriority) {
  const SlackCase k;
  EXPECT_NEAR(sla_slack(k.s.tenants[0], k.baseline.tenants[0]), 1.25, 1e-12);
  EXPECT_NEAR(sla_slack(k.s.tenants[1], k.baseline.tenants[1]), 5.0, 1e-12);
  EXPECT_TRUE(std::isinf(sla_slack(k.s.tenants[2], k.baseline.tenants[2])));

  const std::vector<AdviceCandidate> given = {candidate(StrategyKind::dedicated, true),
                                              candidate(StrategyKind::time_slicing), candidate(StrategyKind::mps),
                                              candidate(StrategyKind::hami)};
  const auto out = with_baseline_settings(given, k.s, k.baseline);
  ASSERT_EQ(out.size(), 6u);
  // After time slicing: a (slack 1.25, under twice the least) first; b (5) and c (none) not.
  EXPECT_EQ(out[2].label, "time_slicing, a first on L40S");
  EXPECT_EQ(out[2].strategy.kind, StrategyKind::time_slicing);
  ASSERT_EQ(out[2].priorities.size(), 1u);
  EXPECT_EQ(out[2].priorities.at("a"), scenario::Priority::high);
  // After MPS: b at 50 % (sqrt 5 >= 2), c at 25 % (no target), a uncapped (sqrt 1.25 < 4/3).
  EXPECT_EQ(out[4].label, "mps, 25 % threads for c; 50 % threads for b on L40S");
  EXPECT_EQ(out[4].strategy.tenants.size(), 2u);
  EXPECT_EQ(out[4].strategy.tenants.at("b").active_thread_pct, 50.0);
  EXPECT_EQ(out[4].strategy.tenants.at("c").active_thread_pct, 25.0);
  EXPECT_EQ(out[5].strategy.kind, StrategyKind::hami);
  // The candidate's scenario carries the priority; the tenants' own stay as they were elsewhere.
  const auto variant = candidate_scenario(k.s, out[2], 4);
  EXPECT_EQ(variant.tenants[0].priority, scenario::Priority::high);
  EXPECT_EQ(variant.tenants[1].priority, scenario::Priority::normal);
  EXPECT_EQ(candidate_scenario(k.s, out[1], 4).tenants[0].priority, scenario::Priority::normal);
}

TEST(Advice, NoPerTenantCandidateDuplicatesAnotherOrOverridesTheScenariosPriorities) {
  SlackCase k;
  // Every tenant with slack 5: every cap is 50 % (the uniform candidate) and every tenant is the
  // tightest, so neither kind gets a new candidate.
  k.s.tenants[2].sla.latency_s = 1.0;
  for (auto& tr : k.baseline.tenants) tr.latency_cdf_s.assign(scenario::kLatencyCdfLevels.size(), 0.2);
  const std::vector<AdviceCandidate> given = {candidate(StrategyKind::dedicated, true),
                                              candidate(StrategyKind::time_slicing), candidate(StrategyKind::mps)};
  EXPECT_EQ(with_baseline_settings(given, k.s, k.baseline).size(), 3u);
  // A scenario that sets priorities itself keeps them: no time-slicing candidate reorders them.
  SlackCase p;
  p.s.tenants[1].priority = scenario::Priority::low;
  const auto out = with_baseline_settings(given, p.s, p.baseline);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[3].strategy.kind, StrategyKind::mps);
  EXPECT_EQ(out[3].label, "mps, 25 % threads for c; 50 % threads for b on L40S");
}

}  // namespace
}  // namespace slicewise::advisor
