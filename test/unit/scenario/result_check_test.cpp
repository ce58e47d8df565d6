// Result documents read back by `roi`, `report` and the GUI: a damaged or hand-edited one is refused
// with every problem's pointer, never read with defaults. Each test asserts the whole message.
// GCC 12 reports -Warray-bounds false positives inside std::map when json members are assigned
// strings under JSON_DIAGNOSTICS (GCC bug 105651; the ci preset turns the warning off globally).
#pragma GCC diagnostic ignored "-Warray-bounds"
#include "scenario/result_check.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "scenario/result_json.hpp"

namespace slicewise::scenario {
namespace {

using nlohmann::json;

/// The committed seed result (dedicated and time_slicing, two tenants, two + one devices).
json seed_result() { return read_json_file(std::string(SW_TEST_DATA_DIR) + "/results/seed.json"); }

std::string problems(const json& document) { return format_all(check_result(document, "r.json", "")); }

TEST(ResultCheck, ResultsWrittenBySimulateAreAccepted) {
  for (const char* name : {"seed.json", "seed-report.json", "mixed-mig-h100.json"}) {
    const auto file = std::string(SW_TEST_DATA_DIR) + "/results/" + name;
    EXPECT_EQ(format_all(check_result(read_json_file(file), file, "")), "") << name;
    EXPECT_NO_THROW(load_result(file)) << name;
  }
}

TEST(ResultCheck, ASizingRecordIsCheckedAndReadBack) {
  auto doc = seed_result();
  doc["strategies"][0]["sizing"] = {
      {"num_gpus", 2},
      {"lower_bound_gpus", 2},
      {"max_gpus", 2},
      {"contexts", {1, 1}},
      {"context_load", json::array()},
      {"feasible", true},
      {"shortfall", ""},
      {"steps", {{{"phase", "contexts"}, {"num_gpus", 2}, {"num_contexts", 2}, {"met", true}}}}};
  EXPECT_EQ(problems(doc), "");
  const auto result = result_from_json(doc, "r.json", "");
  ASSERT_TRUE(result.strategies[0].sizing.has_value());
  EXPECT_EQ(result.strategies[0].sizing->contexts, (std::vector<int>{1, 1}));
  EXPECT_FALSE(result.strategies[1].sizing.has_value());

  auto& sizing = doc["strategies"][0]["sizing"];
  sizing["contexts"] = {1, 0, 2};
  sizing["context_load"] = {-0.5};
  sizing["feasible"] = "yes";
  sizing["steps"][0].erase("met");
  sizing["extra"] = 1;
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/0/sizing/contexts/1: must be an integer >= 1 (got 0)\n"
            "r.json: /strategies/0/sizing/contexts: has 3 entries for 2 tenants\n"
            "r.json: /strategies/0/sizing/context_load/0: must be a number >= 0 (got -0.5)\n"
            "r.json: /strategies/0/sizing/feasible: must be true or false\n"
            "r.json: /strategies/0/sizing/steps/0/met: must be true or false\n"
            "r.json: /strategies/0/sizing/extra: unknown key; allowed here: num_gpus, lower_bound_gpus, max_gpus, "
            "contexts, context_load, feasible, shortfall, steps, peak_hours, result_hour, placement, minimal, pools, "
            "hourly, trace_windows");

  // The keys of pools, diurnal peaks, trace windows and placements, each with a bad value.
  sizing["contexts"] = {1, 1};
  sizing["context_load"] = json::array();
  sizing["feasible"] = true;
  sizing["steps"][0]["met"] = true;
  sizing.erase("extra");
  sizing["peak_hours"] = {14, 24};
  sizing["result_hour"] = -1;
  sizing["placement"] = "diagonal";
  sizing["minimal"] = "yes";
  sizing["pools"] = {{{"gpu", "H100-SXM-80G"}, {"count", 2}, {"tenants", {"big", 3}}}};
  sizing["trace_windows"] = {{{"tenant", ""}, {"window_start_s", -5}, {"arrivals", 1.5}, {"arrivals_as_given", 3}}};
  sizing["hourly"] = {{{"hour", 24}, {"num_gpus", 2}, {"contexts", {1, 1}}, {"pools", json::array()}}};
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/0/sizing/peak_hours/1: must be in [0, 24) (got 24)\n"
            "r.json: /strategies/0/sizing/result_hour: must be in [0, 24) (got -1)\n"
            "r.json: /strategies/0/sizing/placement: must be balanced, spread or pack (got \"diagonal\")\n"
            "r.json: /strategies/0/sizing/minimal: expected boolean (got \"yes\")\n"
            "r.json: /strategies/0/sizing/pools/0/gpu: unknown GPU \"H100-SXM-80G\" (did you mean \"H100-SXM-80GB\"?)\n"
            "r.json: /strategies/0/sizing/pools/0/tenants/1: expected string (got 3)\n"
            "r.json: /strategies/0/sizing/hourly: must have 24 entries, one per hour of day (got 1)\n"
            "r.json: /strategies/0/sizing/hourly/0/hour: must be in [0, 23] (got 24)\n"
            "r.json: /strategies/0/sizing/trace_windows/0/tenant: must name a tenant\n"
            "r.json: /strategies/0/sizing/trace_windows/0/window_start_s: must be >= 0 (got -5)\n"
            "r.json: /strategies/0/sizing/trace_windows/0/arrivals: expected integer (got 1.5)");
}

TEST(ResultCheck, MissingUnknownAndMistypedKeys) {
  auto doc = seed_result();
  doc["strategies"][0].erase("tenants");
  doc["strategies"][1]["tenants"][0]["latency_s"].erase("p95");
  doc["strategies"][1]["fleet_busy_frac"] = nullptr;
  doc["strategies"][1]["devices"][0]["oom_risk"] = "no";
  doc["extra"] = 1;
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/0: missing required key \"tenants\"\n"
            "r.json: /strategies/1/fleet_busy_frac: expected number (got null)\n"
            "r.json: /strategies/1/tenants/0/latency_s: missing required key \"p95\"\n"
            "r.json: /strategies/1/devices/0/oom_risk: expected boolean (got \"no\")\n"
            "r.json: /extra: unknown key; allowed here: schema_version, scenario, seed, horizon_s, input, calibration, "
            "origin, "
            "strategies, uncertainty");
}

TEST(ResultCheck, NegativeCountsAndFractions) {
  auto doc = seed_result();
  doc["strategies"][0]["num_gpus_used"] = -5;
  doc["strategies"][0]["tenants"][1]["num_arrived"] = -1;
  doc["strategies"][0]["tenants"][1]["sla_max_violation_frac"] = 2;
  doc["strategies"][0]["devices"][0]["busy_frac"] = -1e308;
  doc["strategies"][0]["series"]["device_busy_frac"][1][3] = -0.5;
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/0/num_gpus_used: must be >= 0 (got -5)\n"
            "r.json: /strategies/0/tenants/1/num_arrived: must be >= 0 (got -1)\n"
            "r.json: /strategies/0/tenants/1/sla_max_violation_frac: must be in [0, 1] (got 2)\n"
            "r.json: /strategies/0/devices/0/busy_frac: must be >= 0 (got -1e+308)\n"
            "r.json: /strategies/0/series/device_busy_frac/1/3: must be >= 0 (got -0.5)");
}

TEST(ResultCheck, TheSlowdownMayBeAbsentButWhenGivenIsADistribution) {
  // seed.json was written before the slowdown was measured: accepted without it (the test above).
  auto doc = seed_result();
  doc["strategies"][0]["tenants"][0]["slowdown"] = {{"count", 3},  {"mean", 1.5}, {"p50", 1.2}, {"p90", 1.9},
                                                    {"p95", -2.0}, {"p99", 2.1},  {"max", 2.2}};
  doc["strategies"][1]["tenants"][1]["slowdown"] = "fast";
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/0/tenants/0/slowdown/p95: must be >= 0 (got -2.0)\n"
            "r.json: /strategies/1/tenants/1/slowdown: expected object (got \"fast\")");
}

TEST(ResultCheck, StrategiesAndTenantsMustBeTheScenarios) {
  auto doc = seed_result();
  doc["strategies"][0]["name"] = "dedicatd";
  doc["strategies"][1]["kind"] = "mps";
  doc["strategies"][1]["tenants"][0]["name"] = "nobody";
  doc["strategies"][1]["devices"][0]["gpu"] = "L40";
  EXPECT_EQ(
      problems(doc),
      "r.json: /strategies/0/name: unknown strategy \"dedicatd\"; the result's scenario (/input/strategies) has "
      "dedicated|time_slicing (did you mean \"dedicated\"?)\n"
      "r.json: /strategies/1/tenants/0/name: unknown tenant \"nobody\"; the result's scenario (/input/tenants) has "
      "phi-3.5-mini-instruct|deepseek-r1-distill-llama-8b\n"
      "r.json: /strategies/1/tenants: missing tenant \"phi-3.5-mini-instruct\" of the result's scenario "
      "(/input/tenants)\n"
      "r.json: /strategies/1/devices/0/gpu: unknown GPU \"L40\" (did you mean \"L40S\"?)\n"
      "r.json: /strategies/1/kind: \"mps\", but the scenario's strategy \"time_slicing\" is time_slicing");
}

TEST(ResultCheck, EmptyStrategiesDuplicatesAndSeriesRows) {
  auto doc = seed_result();
  doc["strategies"] = json::array();
  EXPECT_EQ(problems(doc), "r.json: /strategies: must list at least one strategy (got [])");
  doc = seed_result();
  doc["strategies"][1] = doc["strategies"][0];
  doc["strategies"][0]["series"]["tenant_queue_length"].erase(1);
  doc["strategies"][0]["series"]["device_sm_util_frac"][0].erase(0);
  doc["strategies"][0]["tenants"][0]["latency_cdf_s"] = {0.1, 0.2};
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/0/tenants/0/latency_cdf_s: expected 22 latencies, one per CDF level, or none (got 2)\n"
            "r.json: /strategies/0/series/device_sm_util_frac/1: expected 59 samples, as many as row 0 (got 60)\n"
            "r.json: /strategies/0/series/tenant_queue_length: expected 2 rows, one per tenant (got 1)\n"
            "r.json: /strategies/1/name: duplicate strategy name \"dedicated\" (also /strategies/0/name)");
}

TEST(ResultCheck, TheScenarioInsideIsReadStrictlyAndNamedWithTheFile) {
  auto doc = seed_result();
  doc["input"]["tenants"][0]["workload"]["memory_gib"] = -1;
  try {
    result_from_json(doc, "r.json", "");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "r.json: /input/tenants/0/workload/memory_gib: must be > 0 (got -1)");
  }
  doc.erase("input");
  EXPECT_EQ(problems(doc), "r.json: /: missing required key \"input\"");
}

TEST(ResultCheck, NewerSchemaAndUncertaintyBands) {
  auto doc = seed_result();
  doc["schema_version"] = 2;
  EXPECT_EQ(problems(doc), "r.json: /schema_version: unsupported schema version (got 2; supported: 1)");
  doc = seed_result();
  doc["uncertainty"] = json::parse(R"([{"strategy": "mps", "num_samples": 0, "monthly_savings_p05_usd": -1,
    "monthly_savings_p50_usd": 0, "monthly_savings_p95_usd": 1, "sla_violation_p05_frac": 0,
    "sla_violation_p50_frac": 0, "sla_violation_p95_frac": -0.1}])");
  EXPECT_EQ(format_all(check_result(doc, "d/p0001.json", "/result")),
            "d/p0001.json: /result/uncertainty/0/strategy: unknown strategy \"mps\"; the result has "
            "dedicated|time_slicing\n"
            "d/p0001.json: /result/uncertainty/0/num_samples: must be >= 1 (got 0)\n"
            "d/p0001.json: /result/uncertainty/0/sla_violation_p95_frac: must be >= 0 (got -0.1)");
}

TEST(ResultCheck, AStrategysEnergyIsCheckedAndReadBack) {
  auto doc = seed_result();
  doc["strategies"][1]["energy"] = json::parse(R"({"hours": 0.5, "gpu_kwh": 0.1, "mean_power_w": 200,
    "monthly_kwh": 146, "unused_gpus": 1, "unused_idle_w": 33, "per_gpu": [{"gpu_index": 0, "gpu": "L40S",
    "util_frac": 0.53, "idle_w": 33, "max_w": 350, "idle_estimated": false, "mean_power_w": 200, "kwh": 0.1}]})");
  EXPECT_EQ(problems(doc), "");
  const auto result = result_from_json(doc, "r.json", "");
  ASSERT_TRUE(result.strategies[1].energy.has_value());
  EXPECT_EQ(result.strategies[1].energy->unused_gpus, 1);
  EXPECT_EQ(result.strategies[1].energy->per_gpu.at(0).max_w, 350.0);
  EXPECT_FALSE(result.strategies[0].energy.has_value());  // optional: older results lack it

  auto& energy = doc["strategies"][1]["energy"];
  energy["gpu_kwh"] = -0.1;
  energy["unused_gpus"] = 1.5;
  energy.erase("hours");
  auto& gpu = energy["per_gpu"][0];
  gpu["gpu"] = "L40";
  gpu["util_frac"] = 1.2;
  gpu["idle_w"] = 400;
  gpu["idle_estimated"] = "no";
  gpu["kwhh"] = 1;
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/1/energy: missing required key \"hours\"\n"
            "r.json: /strategies/1/energy/gpu_kwh: must be >= 0 (got -0.1)\n"
            "r.json: /strategies/1/energy/unused_gpus: expected integer (got 1.5)\n"
            "r.json: /strategies/1/energy/per_gpu/0/gpu: unknown GPU \"L40\" (did you mean \"L40S\"?)\n"
            "r.json: /strategies/1/energy/per_gpu/0/util_frac: must be in [0, 1] (got 1.2)\n"
            "r.json: /strategies/1/energy/per_gpu/0/idle_w: must not exceed max_w (350) (got 400)\n"
            "r.json: /strategies/1/energy/per_gpu/0/idle_estimated: expected boolean (got \"no\")\n"
            "r.json: /strategies/1/energy/per_gpu/0/kwhh: unknown key (did you mean \"kwh\"?)");
}

/// The seed result with faults in its time_slicing strategy: one driver reset of its only GPU at
/// 100 s that took both tenants down for 60 s, and the GPU failures its rates make expected.
json seed_with_faults() {
  auto doc = seed_result();
  auto& shared = doc["strategies"][1];
  for (auto& tenant : shared["tenants"]) {
    tenant.update({{"num_failed", 2},
                   {"num_retried", 5},
                   {"num_interruptions", 1},
                   {"downtime_s", 60.0},
                   {"availability", 0.9}});  // 1 − 60 / 600
  }
  shared["devices"][0].update({{"phase", "day"}, {"down_s", 60.0}});
  shared["faults"] = json::parse(R"({"events": [{"at_s": 100, "kind": "driver_reset", "gpu_index": 0, "origin": "",
    "scheduled": true, "contexts_hit": ["phi-3.5-mini-instruct#0", "deepseek-r1-distill-llama-8b#0"],
    "tenants_hit": 2, "outage_s": 60}], "blast_radius_tenants": 2,
    "expected": [{"kind": "gpu_failure", "per_month": 0.25, "tenants_hit": 2, "contexts_hit": 2, "outage_s": 3600}],
    "expected_blast_radius": 2, "tenants": [
      {"name": "phi-3.5-mini-instruct", "interruptions_per_month": 0.25, "outage_hours_per_month": 0.25,
       "availability": 0.99965753424657533},
      {"name": "deepseek-r1-distill-llama-8b", "interruptions_per_month": 0.25, "outage_hours_per_month": 0.25,
       "availability": 0.99965753424657533}], "num_repartitions": 0})");
  return doc;
}

TEST(ResultCheck, FaultsAndAvailabilityAreCheckedAndReadBack) {
  const auto doc = seed_with_faults();
  EXPECT_EQ(problems(doc), "");
  const auto result = result_from_json(doc, "r.json", "");
  const auto& shared = result.strategies[1];
  EXPECT_EQ(shared.tenants[0].num_failed, 2);
  EXPECT_EQ(shared.tenants[1].num_retried, 5);
  EXPECT_EQ(shared.tenants[1].num_interruptions, 1);
  EXPECT_EQ(shared.tenants[0].downtime_s, 60.0);
  EXPECT_EQ(shared.tenants[0].availability, 0.9);
  EXPECT_EQ(shared.devices[0].phase, "day");
  EXPECT_EQ(shared.devices[0].down_s, 60.0);
  ASSERT_TRUE(shared.faults.has_value());
  ASSERT_EQ(shared.faults->events.size(), 1U);
  EXPECT_EQ(shared.faults->events[0].kind, "driver_reset");
  EXPECT_EQ(shared.faults->events[0].contexts_hit.size(), 2U);
  EXPECT_TRUE(shared.faults->events[0].scheduled);
  EXPECT_EQ(shared.faults->expected.at(0).outage_s, 3600.0);
  EXPECT_EQ(shared.faults->tenants.at(1).name, "deepseek-r1-distill-llama-8b");
  // seed.json was written before faults were modelled: every tenant up all the time, no record.
  const auto& dedicated = result.strategies[0];
  EXPECT_EQ(dedicated.tenants[0].num_interruptions, 0);
  EXPECT_EQ(dedicated.tenants[0].downtime_s, 0.0);
  EXPECT_EQ(dedicated.tenants[0].availability, 1.0);
  EXPECT_EQ(dedicated.devices[0].phase, "");
  EXPECT_EQ(dedicated.devices[0].down_s, 0.0);
  EXPECT_FALSE(dedicated.faults.has_value());
}

TEST(ResultCheck, BadFaultFiguresAreRefusedWithTheirPointers) {
  auto doc = seed_with_faults();
  auto& shared = doc["strategies"][1];
  shared["tenants"][0]["num_failed"] = -1;
  shared["tenants"][0]["num_interruptions"] = 0.5;
  shared["tenants"][0]["downtime_s"] = -2.5;
  shared["tenants"][1]["availability"] = 1.5;
  shared["devices"][0]["phase"] = 3;
  shared["devices"][0]["down_s"] = -1;
  shared["devices"][0]["out_of_phase_s"] = "long";
  auto& faults = shared["faults"];
  auto& event = faults["events"][0];
  event["at_s"] = -0.5;
  event["kind"] = "gpu_fail";
  event["gpu_index"] = -1;
  event["tenants_hit"] = -2;
  event["outage_s"] = -60;
  event["scheduled"] = "yes";
  faults["blast_radius_tenants"] = -1;
  faults["expected"][0]["per_month"] = -0.25;
  faults["expected"][0]["kind"] = "repartitions";
  faults["expected_blast_radius"] = -2;
  faults["tenants"][0]["name"] = "phi-3.5-mini";
  faults["tenants"][1]["availability"] = 2;
  faults["tenants"][1]["outage_hours_per_month"] = -0.25;
  faults["num_repartitions"] = -3;
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/1/tenants/0/num_failed: must be >= 0 (got -1)\n"
            "r.json: /strategies/1/tenants/0/num_interruptions: expected integer (got 0.5)\n"
            "r.json: /strategies/1/tenants/0/downtime_s: must be >= 0 (got -2.5)\n"
            "r.json: /strategies/1/tenants/1/availability: must be in [0, 1] (got 1.5)\n"
            "r.json: /strategies/1/devices/0/phase: expected string (got 3)\n"
            "r.json: /strategies/1/devices/0/down_s: must be >= 0 (got -1)\n"
            "r.json: /strategies/1/devices/0/out_of_phase_s: expected number (got \"long\")\n"
            "r.json: /strategies/1/faults/events/0/at_s: must be >= 0 (got -0.5)\n"
            "r.json: /strategies/1/faults/events/0/kind: unknown \"gpu_fail\"; expected "
            "gpu_failure|driver_reset|tenant_crash|mps_server_fault|repartition (did you mean \"gpu_failure\"?)\n"
            "r.json: /strategies/1/faults/events/0/gpu_index: must be >= 0 (got -1)\n"
            "r.json: /strategies/1/faults/events/0/scheduled: expected boolean (got \"yes\")\n"
            "r.json: /strategies/1/faults/events/0/tenants_hit: must be >= 0 (got -2)\n"
            "r.json: /strategies/1/faults/events/0/outage_s: must be >= 0 (got -60)\n"
            "r.json: /strategies/1/faults/blast_radius_tenants: must be >= 0 (got -1)\n"
            "r.json: /strategies/1/faults/expected/0/kind: unknown \"repartitions\"; expected "
            "gpu_failure|driver_reset|tenant_crash|mps_server_fault|repartition (did you mean \"repartition\"?)\n"
            "r.json: /strategies/1/faults/expected/0/per_month: must be >= 0 (got -0.25)\n"
            "r.json: /strategies/1/faults/expected_blast_radius: must be >= 0 (got -2)\n"
            "r.json: /strategies/1/faults/tenants/0/name: unknown tenant \"phi-3.5-mini\"; the strategy's tenants "
            "(/strategies/1/tenants) are phi-3.5-mini-instruct|deepseek-r1-distill-llama-8b (did you mean "
            "\"phi-3.5-mini-instruct\"?)\n"
            "r.json: /strategies/1/faults/tenants/1/outage_hours_per_month: must be >= 0 (got -0.25)\n"
            "r.json: /strategies/1/faults/tenants/1/availability: must be in [0, 1] (got 2)\n"
            "r.json: /strategies/1/faults/num_repartitions: must be >= 0 (got -3)");
}

TEST(ResultCheck, AFaultRecordMissesNoKeyAndHasNoOther) {
  auto doc = seed_with_faults();
  auto& faults = doc["strategies"][1]["faults"];
  faults.erase("num_repartitions");
  faults["events"][0].erase("contexts_hit");
  faults["events"][0]["origin"] = nullptr;
  faults["expected"][0]["outage"] = 1;
  faults["tenants"] = "all";
  EXPECT_EQ(problems(doc),
            "r.json: /strategies/1/faults/events/0/origin: expected string (got null)\n"
            "r.json: /strategies/1/faults/events/0: missing required key \"contexts_hit\"\n"
            "r.json: /strategies/1/faults/expected/0/outage: unknown key (did you mean \"outage_s\"?)\n"
            "r.json: /strategies/1/faults/tenants: expected array (got \"all\")\n"
            "r.json: /strategies/1/faults: missing required key \"num_repartitions\"");
}

/// Every new field of a strategy set, so that a round trip shows each one written and read back.
StrategyResult strategy_with_every_fault_field() {
  StrategyResult s;
  s.name = "time_slicing";
  s.kind = "time_slicing";
  s.num_gpus_used = 1;
  TenantResult t;
  t.name = "chat";
  t.num_failed = 3;
  t.num_retried = 7;
  t.num_interruptions = 2;
  t.downtime_s = 42.5;
  t.availability = 0.875;
  s.tenants = {t};
  DeviceResult d;
  d.name = "gpu0/3g.40gb@0";
  d.gpu = "A100-SXM4-40GB";
  d.mig_profile = "3g.40gb";
  d.phase = "night";
  d.down_s = 120.25;
  s.devices = {d};
  FaultRecord f;
  f.events = {FaultEvent{12.5, "tenant_crash", 1, "chat#0", true, {"chat#0", "embed#1"}, 2, 30.0},
              FaultEvent{50.0, "repartition", 0, "day -> night", true, {"chat#1"}, 1, 60.0}};
  f.blast_radius_tenants = 2.0;
  f.expected = {FaultExposure{"gpu_failure", 0.125, 1.5, 2.5, 3600.0}};
  f.expected_blast_radius = 1.5;
  f.tenants = {TenantExposure{"chat", 0.5, 0.25, 0.75}};
  f.num_repartitions = 4;
  s.faults = f;
  return s;
}

TEST(ResultJson, EveryFaultFieldRoundTrips) {
  const StrategyResult original = strategy_with_every_fault_field();
  const json written = original;
  EXPECT_EQ(written.at("faults").at("num_repartitions"), 4);
  EXPECT_EQ(written.at("tenants").at(0).at("availability"), 0.875);
  EXPECT_EQ(written.at("devices").at(0).at("phase"), "night");
  EXPECT_EQ(json::parse(written.dump()).get<StrategyResult>(), original);

  StrategyResult without = original;
  without.faults.reset();
  const json plain = without;
  EXPECT_FALSE(plain.contains("faults"));  // written only when present, as energy and sizing
  EXPECT_EQ(plain.get<StrategyResult>(), without);
}

TEST(ResultJson, AResultWithFaultsIsWrittenCheckedAndReadBackEqual) {
  const auto first = result_from_json(seed_with_faults(), "r.json", "");
  const auto text = result_to_text(first);
  EXPECT_EQ(problems(json::parse(text)), "");
  const auto again = result_from_json(json::parse(text), "r.json", "");
  EXPECT_EQ(again, first);
  EXPECT_EQ(result_to_text(again), text);
}

}  // namespace
}  // namespace slicewise::scenario
