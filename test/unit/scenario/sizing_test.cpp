// The sizing search against an oracle instead of a simulator: which runs it asks for, in which
// order, where it stops and what it says when nothing fits. The simulated cases (closed forms)
// are in test/sim/sizing_test.cpp.
#include <gtest/gtest.h>

#include <functional>
#include <numeric>

#include "scenario/sizing.hpp"

namespace slicewise::scenario {
namespace {

Scenario three_tenants(models::StrategyKind kind) {
  Scenario s;
  s.name = "sizing";
  s.horizon_s = 100.0;
  s.fleet.push_back({"A100-80GB", "", 8, {}});
  for (const char* name : {"a", "b", "c"}) {
    Tenant t;
    t.name = name;
    t.workload.solo_latency_s = 0.1;
    t.workload.memory_gib = 4.0;
    t.sla.latency_s = 0.5;
    s.tenants.push_back(t);
  }
  StrategySpec st;
  st.kind = kind;
  st.name = models::to_string(kind);
  st.sizing = Sizing::sla;
  s.strategies.push_back(st);
  return s;
}

/// What the oracle says of a run: whether each tenant meets its SLA.
using Oracle = std::function<std::vector<bool>(const SizedRun&)>;

/// A result as the simulator would give it for `run`: one device per GPU used, busy 0.5 each.
StrategyResult fake_result(const Scenario& s, const SizedRun& run, const std::vector<bool>& met, bool own_device) {
  StrategyResult r;
  r.name = s.strategies[0].name;
  const int contexts = std::accumulate(run.contexts.begin(), run.contexts.end(), 0);
  r.num_gpus_used = own_device ? contexts : std::min(run.num_gpus, contexts);
  for (int d = 0; d < r.num_gpus_used; ++d) {
    DeviceResult device;
    device.name = "gpu" + std::to_string(d);
    device.busy_frac = 0.5;
    device.sm_util_frac = 0.5;
    r.devices.push_back(device);
  }
  for (std::size_t t = 0; t < s.tenants.size(); ++t) {
    TenantResult tr;
    tr.name = s.tenants[t].name;
    tr.num_contexts = run.contexts[t];
    tr.sla_met = met[t];
    tr.sla_max_violation_frac = 0.05;
    tr.sla_violation_frac = met[t] ? 0.01 : 0.2;
    tr.throughput_per_s = 10.0 * run.contexts[t];  // more contexts, more throughput: they help
    tr.latency_cdf_s.assign(kLatencyCdfLevels.size(), met[t] ? 0.3 : 0.8);
    tr.latency_s.max = 1.0;
    r.tenants.push_back(tr);
  }
  return r;
}

/// Runs the search to the end against the oracle; returns the runs it asked for.
std::vector<SizedRun> drive(SizingSearch& search, const Scenario& s, const Oracle& oracle, bool own_device) {
  std::vector<SizedRun> runs;
  while (auto run = search.next()) {
    runs.push_back(*run);
    search.feed(fake_result(s, *run, oracle(*run), own_device));
    if (runs.size() > 100) break;
  }
  EXPECT_TRUE(search.done());
  return runs;
}

/// Tenant b needs 3 contexts alone; together, the contexts meet their SLAs on 5 GPUs or more.
std::vector<bool> needs_b3_and_5_gpus(const SizedRun& run) {
  const bool isolated = !run.context_load.size();
  std::vector<bool> met = {true, run.contexts[1] >= 3, true};
  if (!isolated && run.num_gpus < 5) met = {false, false, true};
  return met;
}

TEST(SizingSearch, GrowsContextsThenFindsTheFewestGpusWithTheStoppingRule) {
  const auto s = three_tenants(models::StrategyKind::time_slicing);
  SizingSearch search(s, 0, 8, Catalogs::shipped());
  const auto runs = drive(search, s, needs_b3_and_5_gpus, false);
  // Step 1: b at 1, 2 (gallop), 4 (pass), 3 (bisect: pass, and 2 failed): each context alone.
  ASSERT_EQ(runs.size(), 8u);
  EXPECT_EQ(runs[0].contexts, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(runs[1].contexts, (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(runs[2].contexts, (std::vector<int>{1, 4, 1}));
  EXPECT_EQ(runs[3].contexts, (std::vector<int>{1, 3, 1}));
  EXPECT_EQ(runs[3].num_gpus, 5);
  EXPECT_TRUE(runs[3].balance);
  EXPECT_TRUE(runs[3].context_load.empty());
  // Step 2: 5 contexts busy 0.5 each start at ceil(2.5) = 3 GPUs; 3 fails, then 4 (between 3 and
  // the isolated 5, known to pass) fails: 5 it is.
  EXPECT_EQ(runs[4].num_gpus, 3);
  EXPECT_EQ(runs[5].num_gpus, 4);
  EXPECT_EQ(runs[4].context_load.size(), 3u);
  // Then 4 GPUs spread round robin and packed first-fit: both fail, so 5 is the fewest found (not
  // proven minimal: the lower bound is 1).
  EXPECT_EQ(runs[6].num_gpus, 4);
  EXPECT_FALSE(runs[6].balance);
  EXPECT_EQ(runs[6].placement, scenario::PlacementPolicy::spread);
  EXPECT_EQ(runs[7].placement, scenario::PlacementPolicy::pack);
  const auto& record = search.record();
  EXPECT_TRUE(record.feasible);
  EXPECT_EQ(record.num_gpus, 5);
  EXPECT_EQ(record.lower_bound_gpus, 1);  // 5 x 4 GiB on 80 GiB
  EXPECT_EQ(record.contexts, (std::vector<int>{1, 3, 1}));
  EXPECT_EQ(record.steps.size(), 8u);
  EXPECT_EQ(record.steps[4].phase, "gpus");
  EXPECT_FALSE(record.steps[4].met);
  EXPECT_EQ(record.steps[6].phase, "spread");
  EXPECT_EQ(record.steps[7].phase, "pack");
  EXPECT_EQ(record.placement, "balanced");
  EXPECT_FALSE(record.minimal);
  ASSERT_TRUE(search.result().sizing.has_value());
  EXPECT_EQ(search.result().num_gpus_used, 5);
}

TEST(SizingSearch, ProbesBelowAPassingStartOnce) {
  const auto s = three_tenants(models::StrategyKind::mps);
  SizingSearch search(s, 0, 8, Catalogs::shipped());
  // Everything meets alone; together on 2 GPUs or more. Step 2 starts at ceil(3 x 0.5) = 2.
  const auto runs = drive(
      search, s,
      [](const SizedRun& run) {
        const bool ok = run.context_load.empty() || run.num_gpus >= 2;
        return std::vector<bool>(3, ok);
      },
      false);
  ASSERT_EQ(runs.size(), 5u);
  EXPECT_EQ(runs[1].num_gpus, 2);  // the start passes ...
  EXPECT_EQ(runs[2].num_gpus, 1);  // ... and the one below it fails, balanced, spread and packed
  EXPECT_EQ(runs[4].num_gpus, 1);
  EXPECT_EQ(search.record().num_gpus, 2);
}

TEST(SizingSearch, AFleetThatBalancingMissesIsFoundSpreadOrPacked) {
  // Balanced by load the contexts need 5 GPUs; spread round robin they meet their SLAs on 4, packed
  // first-fit on 3 (what pairs them matters, as when a tight tenant must not share with a heavy
  // one). The search says which placement its answer has, and that 3 is only the fewest found.
  const auto s = three_tenants(models::StrategyKind::time_slicing);
  SizingSearch search(s, 0, 8, Catalogs::shipped());
  const auto runs = drive(
      search, s,
      [](const SizedRun& run) {
        if (run.context_load.empty()) return std::vector<bool>{true, run.contexts[1] >= 3, true};  // alone
        const int needs = run.balance ? 5 : run.placement == scenario::PlacementPolicy::spread ? 4 : 3;
        return std::vector<bool>(3, run.num_gpus >= needs);
      },
      false);
  const auto& record = search.record();
  ASSERT_TRUE(record.feasible);
  EXPECT_EQ(record.num_gpus, 3);
  EXPECT_EQ(record.placement, "pack");
  EXPECT_FALSE(record.minimal);
  // b grows to 3 contexts alone (4 runs); balanced, 3 (the start) and 4 fail, the isolated 5
  // passes; then 4 spread passes, 3 spread fails, 3 packed passes, 2 spread and 2 packed fail.
  std::vector<std::string> phases;
  for (const auto& step : record.steps) phases.push_back(step.phase + " " + std::to_string(step.num_gpus));
  EXPECT_EQ(phases, (std::vector<std::string>{"contexts 3", "contexts 4", "contexts 6", "contexts 5", "gpus 3",
                                              "gpus 4", "spread 4", "spread 3", "pack 3", "spread 2", "pack 2"}));
  // The record runs its answer again as it was placed.
  const auto again = scenario::sized_run_of(record);
  EXPECT_FALSE(again.balance);
  EXPECT_EQ(again.placement, scenario::PlacementPolicy::pack);
  EXPECT_EQ(again.num_gpus, 3);
}

TEST(SizingSearch, SaysWhatTheClosestFleetMissesWhenNothingFits) {
  const auto s = three_tenants(models::StrategyKind::time_slicing);
  SizingSearch search(s, 0, 4, Catalogs::shipped());  // at most 4 GPUs; the answer needs 5
  drive(search, s, needs_b3_and_5_gpus, false);
  const auto& record = search.record();
  EXPECT_FALSE(record.feasible);
  EXPECT_EQ(record.num_gpus, 4);
  EXPECT_EQ(record.shortfall,
            "no configuration within 4 GPUs meets every SLA: the closest (4 GPUs) misses a: p95 latency 800 ms against "
            "its 500 ms target (misses by 300 ms; 20 % of requests over, 5 % allowed)");
}

TEST(SizingSearch, DedicatedContextsDecideTheGpus) {
  const auto s = three_tenants(models::StrategyKind::dedicated);
  SizingSearch search(s, 0, 8, Catalogs::shipped());
  const auto runs = drive(search, s, needs_b3_and_5_gpus, true);
  ASSERT_EQ(runs.size(), 4u);  // no step 2
  EXPECT_FALSE(runs[0].balance);
  EXPECT_EQ(search.record().num_gpus, 5);
  EXPECT_EQ(search.record().contexts, (std::vector<int>{1, 3, 1}));

  SizingSearch small(s, 0, 4, Catalogs::shipped());
  drive(small, s, needs_b3_and_5_gpus, true);
  EXPECT_FALSE(small.record().feasible);
  EXPECT_EQ(small.record().shortfall,
            "no configuration within 4 GPUs meets every SLA: the smallest fleet that does has 5 GPUs");
}

TEST(SizingSearch, StopsWhenMoreContextsDoNotHelp) {
  const auto s = three_tenants(models::StrategyKind::dedicated);
  SizingSearch search(s, 0, 8, Catalogs::shipped());
  int runs = 0;
  while (auto run = search.next()) {
    auto result = fake_result(s, *run, {true, false, true}, true);
    result.tenants[1].throughput_per_s = 10.0;  // the same whatever the contexts: service-bound
    search.feed(result);
    ++runs;
  }
  EXPECT_EQ(runs, 2);
  EXPECT_FALSE(search.record().feasible);
  EXPECT_NE(search.record().shortfall.find("more contexts do not help (2 gave the same as 1)"), std::string::npos)
      << search.record().shortfall;
}

TEST(HourGroups, HoursWhereEveryDiurnalProfileAgreesShareOneSizing) {
  auto s = three_tenants(models::StrategyKind::dedicated);
  EXPECT_TRUE(hour_groups(s).empty());  // no diurnal load: nothing to size by the hour
  // a: quiet 00-07, busy 08-19, medium 20-23; b: busy 12-13 only; c: not diurnal.
  s.tenants[0].load.kind = LoadKind::diurnal;
  s.tenants[0].load.hourly_profile.assign(24, 2.0);
  for (int h = 0; h < 8; ++h) s.tenants[0].load.hourly_profile[static_cast<std::size_t>(h)] = 0.5;
  for (int h = 20; h < 24; ++h) s.tenants[0].load.hourly_profile[static_cast<std::size_t>(h)] = 1.0;
  s.tenants[1].load.kind = LoadKind::diurnal;
  s.tenants[1].load.hourly_profile.assign(24, 1.0);
  s.tenants[1].load.hourly_profile[12] = s.tenants[1].load.hourly_profile[13] = 3.0;
  const auto groups = hour_groups(s);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0], (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(groups[1], (std::vector<int>{8, 9, 10, 11, 14, 15, 16, 17, 18, 19}));
  EXPECT_EQ(groups[2], (std::vector<int>{12, 13}));
  EXPECT_EQ(groups[3], (std::vector<int>{20, 21, 22, 23}));
}

TEST(SlaMargin, ReadsTheQuantileTheSlaAllows) {
  Tenant t;
  t.name = "x";
  t.sla.latency_s = 1.0;
  TenantResult r;
  r.sla_met = true;
  r.sla_max_violation_frac = 0.05;  // p95
  r.latency_cdf_s.assign(kLatencyCdfLevels.size(), 0.0);
  for (std::size_t i = 0; i < kLatencyCdfLevels.size(); ++i) r.latency_cdf_s[i] = kLatencyCdfLevels[i];  // uniform 0..1
  const auto m = sla_margin(t, r);
  EXPECT_EQ(m.metric, "latency");
  EXPECT_DOUBLE_EQ(m.value_s, 0.95);
  EXPECT_NEAR(m.relative, 0.05, 1e-12);
  r.sla_max_violation_frac = 0.2;  // p80
  EXPECT_NEAR(sla_margin(t, r).value_s, 0.8, 1e-12);
  r.sla_max_violation_frac = 0.125;  // p87.5, between the 0.85 and 0.90 levels
  EXPECT_NEAR(sla_margin(t, r).value_s, 0.875, 1e-12);
}

}  // namespace
}  // namespace slicewise::scenario
