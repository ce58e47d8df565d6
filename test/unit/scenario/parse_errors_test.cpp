// Phase 1 (parse and type-map) errors: each test asserts the whole message, as ninja does.
// GCC 12 reports -Warray-bounds false positives inside std::map when json members are assigned
// strings under JSON_DIAGNOSTICS (GCC bug 105651; the ci preset turns the warning off globally).
#pragma GCC diagnostic ignored "-Warray-bounds"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "scenario_test_util.hpp"

namespace slicewise::scenario {
namespace {

using test::minimal_document;
using test::parse_error;
using test::parse_text_error;

TEST(ScenarioParseErrors, MalformedJsonHasLineAndColumn) {
  EXPECT_EQ(parse_text_error("{\n  \"schema_version\": 1,\n  \"name\": \"x\"\n  \"fleet\": []\n}"),
            "s.json:4:9: parse error: syntax error while parsing object - unexpected string literal; expected '}'");
}

TEST(ScenarioParseErrors, DuplicateKey) {
  EXPECT_EQ(parse_text_error(R"({"schema_version": 1, "name": "a", "name": "b"})"),
            "s.json: /name: duplicate key (each key may appear once)");
}

TEST(ScenarioParseErrors, UnknownTopLevelKeySuggestsTheClosest) {
  auto doc = minimal_document();
  doc["horizon"] = 60;
  EXPECT_EQ(parse_error(doc), "s.json: /horizon: unknown key (did you mean \"horizon_s\"?)");
}

TEST(ScenarioParseErrors, UnknownNestedKeySuggestsTheClosest) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["memroy_gib"] = 4;
  doc["tenants"][0]["workload"].erase("memory_gib");
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/workload: missing required key \"memory_gib\"\n"
            "s.json: /tenants/0/workload/memroy_gib: unknown key (did you mean \"memory_gib\"?)");
}

TEST(ScenarioParseErrors, UnknownKeyWithoutSuggestionListsTheAllowedKeys) {
  auto doc = minimal_document();
  doc["fleet"][0]["xyzzy"] = 1;
  EXPECT_EQ(parse_error(doc), "s.json: /fleet/0/xyzzy: unknown key; allowed here: gpu, instance_type, count, tenants");
}

TEST(ScenarioParseErrors, BadStrategyKindListsKindsAndSuggests) {
  auto doc = minimal_document();
  doc["strategies"][0]["kind"] = "mps2";
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0/kind: unknown \"mps2\"; expected "
            "dedicated|time_slicing|mps|mig|mig_time_slicing|hami|vgpu (did you mean \"mps\"?)");
}

TEST(ScenarioParseErrors, BadSizing) {
  auto doc = minimal_document();
  doc["strategies"][0]["sizing"] = "sla_p99";
  EXPECT_EQ(parse_error(doc), "s.json: /strategies/0/sizing: unknown \"sla_p99\"; expected as_given|sla");
  doc["strategies"][0]["sizing"] = true;
  EXPECT_EQ(parse_error(doc), "s.json: /strategies/0/sizing: expected string (got true)");
}

TEST(ScenarioParseErrors, BadPriority) {
  auto doc = minimal_document();
  doc["tenants"][0]["priority"] = "urgent";
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/priority: unknown \"urgent\"; expected high|normal|low");
  doc["tenants"][0]["priority"] = "normal";
  doc["strategies"][0]["low_priority_thread_pct"] = 30;
  EXPECT_EQ(parse_error(doc), "s.json: /strategies/0/low_priority_thread_pct: unknown key for strategy kind \"" +
                                  doc["strategies"][0]["kind"].get<std::string>() + "\" (applies to mps)");
}

TEST(ScenarioParseErrors, BadOverload) {
  auto doc = minimal_document();
  doc["tenants"][0]["overload"] = {{"queue_limit", -1}, {"timeout_s", "1m"}, {"timout_s", 3}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/overload/queue_limit: must be >= 0 (got -1)\n"
            "s.json: /tenants/0/overload/timeout_s: expected number (got \"1m\")\n"
            "s.json: /tenants/0/overload/timout_s: unknown key (did you mean \"timeout_s\"?)");
  doc["tenants"][0]["overload"] = {{"queue_limit", 2.5}, {"timeout_s", -3}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/overload/queue_limit: expected integer (got 2.5)\n"
            "s.json: /tenants/0/overload/timeout_s: must be >= 0 (got -3)");
  doc["tenants"][0]["overload"] = 5;
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/overload: expected object (got 5)");
}

TEST(ScenarioParseErrors, BadIsolationLevel) {
  auto doc = minimal_document();
  doc["tenants"][0]["isolation"] = "hardwre";
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/isolation: unknown \"hardwre\"; expected none|software|hardware "
            "(did you mean \"hardware\"?)");
}

TEST(ScenarioParseErrors, NegativeMemory) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["memory_gib"] = -4;
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/workload/memory_gib: must be > 0 (got -4)");
}

TEST(ScenarioParseErrors, FractionAboveOne) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["gpu_duty_frac"] = 1.5;
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/workload/gpu_duty_frac: must be in (0, 1] (got 1.5)");
}

TEST(ScenarioParseErrors, NonIntegerCount) {
  auto doc = minimal_document();
  doc["fleet"][0]["count"] = 2.5;
  EXPECT_EQ(parse_error(doc), "s.json: /fleet/0/count: expected integer (got 2.5)");
}

TEST(ScenarioParseErrors, ZeroCount) {
  auto doc = minimal_document();
  doc["fleet"][0]["count"] = 0;
  EXPECT_EQ(parse_error(doc), "s.json: /fleet/0/count: must be >= 1 (got 0)");
}

TEST(ScenarioParseErrors, CountsPastAnIntegerAreRefusedNotWrappedToZero) {
  // 1e19 and 2^64 - 1 fit no int64: before, they wrapped to 0 and a fleet of 0 GPUs passed.
  auto doc = minimal_document();
  doc["fleet"][0]["count"] = 1e19;
  doc["tenants"][0]["num_contexts"] = nlohmann::json::parse("18446744073709551615");
  doc["tenants"][0]["workload"]["max_concurrency"] = 1e308;
  doc["strategies"] = {{{"kind", "time_slicing"}, {"replicas", 1e30}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /fleet/0/count: must be <= 1000000 (got 1e+19)\n"
            "s.json: /tenants/0/workload/max_concurrency: must be <= 1000000 (got 1e+308)\n"
            "s.json: /tenants/0/num_contexts: must be <= 1000000 (got 18446744073709551615)\n"
            "s.json: /strategies/0/replicas: must be <= 1000000 (got 1e+30)");
}

TEST(ScenarioParseErrors, SeedPastTwoToThe53IsNotRoundedIntoRange) {
  auto doc = minimal_document();
  doc["seed"] = nlohmann::json::parse("9007199254740993");
  EXPECT_EQ(parse_error(doc), "s.json: /seed: must be in [0, 9007199254740992] (got 9007199254740993)");
  // A huge version is another version, reported alone (other keys may mean other things there).
  doc["schema_version"] = 1e300;
  EXPECT_EQ(parse_error(doc), "s.json: /schema_version: unsupported schema version (got 1e+300; supported: 1)");
}

TEST(ScenarioParseErrors, NamesWithLineBreaksOrTabsAreRefused) {
  auto doc = minimal_document();
  doc["name"] = "x\ty";
  doc["tenants"][0]["name"] = "line1\nline2";
  doc["strategies"][0]["name"] = "a\rb";
  EXPECT_EQ(parse_error(doc),
            "s.json: /name: must not contain control characters such as line breaks or tabs, nor U+0085, U+2028 or "
            "U+2029 (got \"x\\ty\")\n"
            "s.json: /tenants/0/name: must not contain control characters such as line breaks or tabs, nor U+0085, "
            "U+2028 or U+2029 (got "
            "\"line1\\nline2\")\n"
            "s.json: /strategies/0/name: must not contain control characters such as line breaks or tabs, nor U+0085, "
            "U+2028 or U+2029 (got \"a\\rb\")");
  doc = minimal_document();
  doc["tenants"][0]["name"] = "a, \"b\" | <c> & é";  // punctuation and any script are fine
  EXPECT_EQ(parse_error(doc), "no error");
}

TEST(ScenarioParseErrors, HorizonAtMostAHundredMillionSeconds) {
  auto doc = minimal_document();
  doc["horizon_s"] = 1e308;
  EXPECT_EQ(parse_error(doc), "s.json: /horizon_s: must be <= 100000000, about 3 years (got 1e+308)");
}

TEST(ScenarioParseErrors, DiurnalProfileWhoseMeanIsNotAPositiveFiniteNumber) {
  // 24 x 1e308 overflows to inf, and 5e-324 / 24 underflows to 0: the normalised profile would
  // be all zero (no arrivals at all) or an internal error.
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = {
      {"kind", "diurnal"}, {"rate_per_s", 1}, {"hourly_profile", std::vector<double>(24, 1e308)}};
  EXPECT_EQ(
      parse_error(doc),
      "s.json: /tenants/0/load/hourly_profile: the mean of the 24 relative rates must be a positive finite number "
      "(got inf); scale them towards 1");
  std::vector<double> tiny(24, 0.0);
  tiny[3] = 5e-324;
  doc["tenants"][0]["load"]["hourly_profile"] = tiny;
  EXPECT_EQ(
      parse_error(doc),
      "s.json: /tenants/0/load/hourly_profile: the mean of the 24 relative rates must be a positive finite number "
      "(got 0); scale them towards 1");
}

TEST(ScenarioParseErrors, TraceMultiplierAtMostTenThousandCopiesPerRow) {
  // 1e308 copies of a row overflowed the integer count of copies and replayed the trace once.
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "t.csv"}, {"multiplier", 1e308}};
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/load/multiplier: must be in (0, 10000] (got 1e+308)");
}

TEST(ScenarioParseErrors, MmppWithEveryRateZero) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = nlohmann::json::parse(
      R"({"kind": "mmpp", "states": [{"rate_per_s": 0, "mean_duration_s": 1}, {"rate_per_s": 0, "mean_duration_s": 2}]})");
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/load/states: needs at least one state with a rate_per_s > 0 (every state has 0)");
}

TEST(ScenarioParseErrors, WrongType) {
  auto doc = minimal_document();
  doc["tenants"][0]["name"] = 7;
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/name: expected string (got 7)");
}

TEST(ScenarioParseErrors, MissingRequiredKey) {
  auto doc = minimal_document();
  doc["tenants"][0].erase("load");
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0: missing required key \"load\"");
}

TEST(ScenarioParseErrors, SchemaVersionTwoIsUnsupported) {
  auto doc = minimal_document();
  doc["schema_version"] = 2;
  doc["something_new"] = true;  // not reported: version 2 may define it
  EXPECT_EQ(parse_error(doc), "s.json: /schema_version: unsupported schema version (got 2; supported: 1)");
}

TEST(ScenarioParseErrors, MissingSchemaVersion) {
  auto doc = minimal_document();
  doc.erase("schema_version");
  EXPECT_EQ(parse_error(doc), "s.json: /: missing required key \"schema_version\" (this slicewise reads version 1)");
}

TEST(ScenarioParseErrors, FleetEntryWithBothGpuAndInstanceType) {
  auto doc = minimal_document();
  doc["fleet"][0]["instance_type"] = "g6e.2xlarge";
  EXPECT_EQ(parse_error(doc), "s.json: /fleet/0: give either \"gpu\" or \"instance_type\", not both");
}

TEST(ScenarioParseErrors, FleetEntryWithNeither) {
  auto doc = minimal_document();
  doc["fleet"][0] = {{"count", 2}};
  EXPECT_EQ(parse_error(doc), "s.json: /fleet/0: missing required key \"gpu\" or \"instance_type\" (give exactly one)");
}

TEST(ScenarioParseErrors, EmptyFleet) {
  auto doc = minimal_document();
  doc["fleet"] = nlohmann::json::array();
  EXPECT_EQ(parse_error(doc), "s.json: /fleet: must list at least one entry (got [])");
}

TEST(ScenarioParseErrors, StrategyKeyOnTheWrongKind) {
  auto doc = minimal_document();
  doc["strategies"][0] = {{"kind", "time_slicing"}, {"layout", "7x1g.10gb"}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0/layout: unknown key for strategy kind \"time_slicing\" "
            "(applies to mig, mig_time_slicing)");
}

TEST(ScenarioParseErrors, TenantSettingOnTheWrongKind) {
  auto doc = minimal_document();
  doc["strategies"][0] = {{"kind", "mps"}, {"tenants", {{"a", {{"mig_profile", "1g.10gb"}}}}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0/tenants/a/mig_profile: unknown key for strategy kind \"mps\" "
            "(applies to mig, mig_time_slicing)");
}

TEST(ScenarioParseErrors, MigNeedsALayoutOrALayoutSchedule) {
  auto doc = minimal_document();
  doc["strategies"][0] = {{"kind", "mig"}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0: missing required key \"layout\", \"layouts\" or \"layout_schedule\" (give "
            "exactly one)");
}

TEST(ScenarioParseErrors, LayoutsAreAtLeastTwoLayoutStringsAndNotBesideALayout) {
  auto doc = minimal_document();
  doc["strategies"][0] = {{"kind", "mig"}, {"layouts", {"7x1g.10gb"}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0/layouts: must list at least two layouts, which the GPUs take in turn (got 1; for "
            "one, give \"layout\")");
  doc["strategies"][0]["layouts"] = {"4g.40gb+3g.40gb", 7};
  EXPECT_EQ(parse_error(doc), "s.json: /strategies/0/layouts/1: must be a MIG layout such as 7x1g.10gb (got 7)");
  doc["strategies"][0]["layouts"] = {"4g.40gb+3g.40gb", "7x1g.10gb"};
  EXPECT_EQ(parse_error(doc), "no error");
  doc["strategies"][0]["layout"] = "7g.80gb";
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0: give one of \"layout\", \"layouts\" or \"layout_schedule\", not several");
  doc["strategies"][0] = {{"kind", "mps"}, {"layouts", {"4g.40gb+3g.40gb", "7x1g.10gb"}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0/layouts: unknown key for strategy kind \"mps\" (applies to mig, mig_time_slicing)");
}

/// A MIG strategy whose layout changes at 8 h and 20 h, serving tenant "a" in both phases.
nlohmann::json day_night_strategy(const std::string& kind = "mig") {
  return nlohmann::json::parse(R"({"kind": ")" + kind + R"(", "layout_schedule": {"phases": [
      {"name": "day", "from_hour": 8, "layout": "3g.40gb+2g.20gb+1g.10gb+1g.10gb", "tenants": {"a": {"mig_profile": "3g.40gb"}}},
      {"name": "night", "from_hour": 20, "layout": "7x1g.10gb", "tenants": {"a": {"mig_profile": "1g.10gb"}}}]}})");
}

TEST(ScenarioParseErrors, LayoutScheduleOnlyForTheMigKinds) {
  auto doc = minimal_document();
  doc["strategies"][0] = day_night_strategy("time_slicing");
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0/layout_schedule: unknown key for strategy kind \"time_slicing\" "
            "(applies to mig, mig_time_slicing)");
  doc["strategies"][0] = day_night_strategy("mig_time_slicing");
  EXPECT_EQ(parse_error(doc), "no error");
}

TEST(ScenarioParseErrors, LayoutAndLayoutScheduleTogether) {
  auto doc = minimal_document();
  doc["strategies"][0] = day_night_strategy();
  doc["strategies"][0]["layout"] = "7x1g.10gb";
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0: give one of \"layout\", \"layouts\" or \"layout_schedule\", not several");
}

TEST(ScenarioParseErrors, LayoutScheduleFieldsAreTypedAndBounded) {
  auto doc = minimal_document();
  doc["strategies"][0] = day_night_strategy();
  auto& schedule = doc["strategies"][0]["layout_schedule"];
  schedule["start_hour"] = 24;
  schedule["repartition_s"] = -1;
  schedule["rolling"] = "yes";
  schedule["phases"][0]["from_hour"] = -8;
  schedule["phases"][0]["tenants"]["a"] = {{"num_contexts", 2.5}};
  schedule["phases"][1].erase("layout");
  schedule["phases"][1]["tenants"]["a"]["mig_profil"] = "1g.10gb";
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/0/layout_schedule/start_hour: must be in [0, 24) (got 24)\n"
            "s.json: /strategies/0/layout_schedule/repartition_s: must be >= 0 (got -1)\n"
            "s.json: /strategies/0/layout_schedule/rolling: expected boolean (got \"yes\")\n"
            "s.json: /strategies/0/layout_schedule/phases/0/from_hour: must be in [0, 24) (got -8)\n"
            "s.json: /strategies/0/layout_schedule/phases/0/tenants/a: missing required key \"mig_profile\"\n"
            "s.json: /strategies/0/layout_schedule/phases/0/tenants/a/num_contexts: expected integer (got 2.5)\n"
            "s.json: /strategies/0/layout_schedule/phases/1: missing required key \"layout\"\n"
            "s.json: /strategies/0/layout_schedule/phases/1/tenants/a/mig_profil: unknown key (did you mean "
            "\"mig_profile\"?)");
}

TEST(ScenarioParseErrors, UnknownKeyInFaultsListsTheAllowedKeys) {
  auto doc = minimal_document();
  doc["faults"] = {{"xyzzy", 1}, {"max_retry", 2}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /faults/max_retry: unknown key (did you mean \"max_retries\"?)\n"
            "s.json: /faults/xyzzy: unknown key; allowed here: gpu_failure_per_gpu_hour, driver_reset_per_gpu_hour, "
            "tenant_crash_per_context_hour, mps_server_fault_per_gpu_hour, gpu_repair_s, driver_reset_s, "
            "context_restart_s, co_tenant_kill_frac, max_retries, random, schedule");
}

TEST(ScenarioParseErrors, UnknownFaultKindListsTheKinds) {
  auto doc = minimal_document();
  doc["faults"] = {{"schedule", {{{"at_s", 10}, {"kind", "gpu_fail"}, {"gpu", 0}}}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /faults/schedule/0/kind: unknown \"gpu_fail\"; expected "
            "gpu_failure|driver_reset|tenant_crash|mps_server_fault (did you mean \"gpu_failure\"?)");
}

TEST(ScenarioParseErrors, NegativeFaultRate) {
  auto doc = minimal_document();
  doc["faults"] = {{"driver_reset_per_gpu_hour", -0.5}, {"gpu_failure_per_gpu_hour", "often"}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /faults/gpu_failure_per_gpu_hour: expected number (got \"often\")\n"
            "s.json: /faults/driver_reset_per_gpu_hour: must be >= 0 (got -0.5)");
}

TEST(ScenarioParseErrors, CoTenantKillFractionAndRetriesInRange) {
  auto doc = minimal_document();
  doc["faults"] = {{"co_tenant_kill_frac", 1.5}, {"max_retries", 11}, {"gpu_repair_s", -1}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /faults/gpu_repair_s: must be >= 0 (got -1)\n"
            "s.json: /faults/co_tenant_kill_frac: must be in [0, 1] (got 1.5)\n"
            "s.json: /faults/max_retries: must be in [0, 10] (got 11)");
}

TEST(ScenarioParseErrors, ScheduledFaultsTakeTheKeysOfTheirKind) {
  auto doc = minimal_document();
  doc["faults"] = nlohmann::json::parse(R"({"schedule": [
      {"at_s": 10, "kind": "gpu_failure", "gpu": 0, "tenant": "a", "replica": 0},
      {"at_s": 20, "kind": "tenant_crash", "gpu": 1},
      {"at_s": -1, "kind": "driver_reset"}]})");
  EXPECT_EQ(parse_error(doc),
            "s.json: /faults/schedule/0/tenant: unknown key for fault kind \"gpu_failure\" (applies to tenant_crash)\n"
            "s.json: /faults/schedule/0/replica: unknown key for fault kind \"gpu_failure\" (applies to tenant_crash)\n"
            "s.json: /faults/schedule/1/gpu: unknown key for fault kind \"tenant_crash\" (applies to gpu_failure, "
            "driver_reset, mps_server_fault)\n"
            "s.json: /faults/schedule/1: missing required key \"tenant\"\n"
            "s.json: /faults/schedule/2/at_s: must be >= 0 (got -1)\n"
            "s.json: /faults/schedule/2: missing required key \"gpu\"");
}

TEST(ScenarioParseErrors, WorkloadSourceIsText) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["source"] = 3;
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/workload/source: expected string (got 3)");
  doc["tenants"][0]["workload"]["source"] =
      "dcgm-prometheus: scrape.prom, 4 busy samples of 4; gpu_duty_frac 0.700 ± 0.100";
  EXPECT_EQ(parse_error(doc), "no error");
}

TEST(ScenarioParseErrors, LoadKeyOnTheWrongKind) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = {{"kind", "closed_loop"}, {"num_users", 2}, {"rate_per_s", 1}};
  EXPECT_EQ(
      parse_error(doc),
      "s.json: /tenants/0/load/rate_per_s: unknown key for load kind \"closed_loop\" (applies to poisson, diurnal)");
}

TEST(ScenarioParseErrors, SpreadTiesIsATraceKeyAndABoolean) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"]["spread_ties"] = true;  // a poisson load
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/load/spread_ties: unknown key for load kind \"poisson\" (applies to trace)");
  doc["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "t.csv"}, {"spread_ties", 1}};
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/load/spread_ties: expected boolean (got 1)");
}

TEST(ScenarioParseErrors, GpuFracDemandIsATraceKeyForGenericWorkloads) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"]["gpu_frac_demand"] = true;  // a poisson load
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/load/gpu_frac_demand: unknown key for load kind \"poisson\" (applies to trace)");
  doc["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "t.csv"}, {"gpu_frac_demand", "yes"}};
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/load/gpu_frac_demand: expected boolean (got \"yes\")");
  doc["tenants"][0]["load"]["gpu_frac_demand"] = true;
  EXPECT_EQ(parse_error(doc), "no error");
  doc["tenants"][0]["workload"] = {{"kind", "llm"}, {"llm", {{"model", "Qwen3-8B"}}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/load/gpu_frac_demand: applies to generic workloads only (this tenant's workload kind "
            "is \"llm\", whose demand comes from its engine's steps)");
  doc["tenants"][0]["load"]["gpu_frac_demand"] = false;  // off: nothing to reject
  EXPECT_EQ(parse_error(doc), "no error");
}

TEST(ScenarioParseErrors, InvalidLoadKindGivesOneMessage) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"]["kind"] = "poison";
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/load/kind: unknown \"poison\"; expected poisson|closed_loop|trace|diurnal|mmpp "
            "(did you mean \"poisson\"?)");
}

TEST(ScenarioParseErrors, LlmObjectOnlyForLlmWorkloads) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["llm"] = {{"params_b", 8}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/workload/llm: unknown key for workload kind \"generic\" (applies to llm)");
}

TEST(ScenarioParseErrors, LlmWorkloadNeedsItsLlmObjectAndNoHandTypedFigures) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"] = {
      {"kind", "llm"}, {"memory_gib", 8}, {"max_concurrency", 16}, {"sm_occupancy_frac", 0.5}};
  EXPECT_EQ(
      parse_error(doc),
      "s.json: /tenants/0/workload/sm_occupancy_frac: not for an LLM tenant: its demands follow from its model's "
      "steps\n"
      "s.json: /tenants/0/workload/memory_gib: not for an LLM tenant: its memory follows from its engine: set "
      "engine.gpu_memory_utilization (vllm, sglang) or engine.cuda_memory_fraction (tgi)\n"
      "s.json: /tenants/0/workload/max_concurrency: not for an LLM tenant: set engine.max_num_seqs (vllm, sglang) "
      "or engine.max_concurrent_requests (tgi)\n"
      "s.json: /tenants/0/workload: missing required key \"llm\"");
}

TEST(ScenarioParseErrors, AnLlmNamesACatalogModel) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"] = {
      {"kind", "llm"},
      {"llm", {{"params_b", 8}, {"model", "Llama-3.1-8B-Instruc"}, {"prompt_tokens", 1}, {"output_tokens", 1}}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/workload/llm/params_b: replaced by \"model\": name a model of the catalog "
            "(`slicewise models` lists them), whose shapes give the parameters\n"
            "s.json: /tenants/0/workload/llm/model: unknown model \"Llama-3.1-8B-Instruc\" (did you mean "
            "\"Llama-3.1-8B-Instruct\"?); `slicewise models` lists the catalog");
}

TEST(ScenarioParseErrors, EngineSettingsUnderTheirOwnEngine) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"] = {{"kind", "llm"},
                                   {"llm", {{"model", "Qwen3-8B"}, {"prompt_tokens", 1}, {"output_tokens", 1}}},
                                   {"engine",
                                    {{"name", "tgi"},
                                     {"gpu_memory_utilization", 0.5},
                                     {"max_total_tokens", 512},
                                     {"max_input_length", 512},
                                     {"tensor_parallel", 3},
                                     {"kv_cache_dtype", "int4"},
                                     {"prefix_caching", "yes"}}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/workload/engine/gpu_memory_utilization: unknown key for engine \"tgi\" (applies to "
            "vllm, sglang)\n"
            "s.json: /tenants/0/workload/engine/kv_cache_dtype: unknown \"int4\"; expected auto|bf16|fp16|fp8\n"
            "s.json: /tenants/0/workload/engine/prefix_caching: expected boolean (got \"yes\")\n"
            "s.json: /tenants/0/workload/engine/tensor_parallel: must be 1, 2, 4 or 8: GPUs of one node (got 3)\n"
            "s.json: /tenants/0/workload/engine/max_input_length: must be below max_total_tokens (512) (got 512)");
}

TEST(ScenarioParseErrors, GeneratedLlmLoadNeedsTokenCounts) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"] = {{"kind", "llm"}, {"llm", {{"model", "Qwen3-8B"}, {"output_tokens", 0}}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/workload/llm: missing required key \"prompt_tokens\" (a poisson load generates "
            "requests of this length; only trace loads carry their own)\n"
            "s.json: /tenants/0/workload/llm/output_tokens: must be > 0 for a poisson load (got 0)");
}

TEST(ScenarioParseErrors, TtftTargetOnlyForLlmWorkloads) {
  auto doc = minimal_document();
  doc["tenants"][0]["sla"] = {{"latency_s", 2}, {"ttft_s", 0.5}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/sla/ttft_s: unknown key for workload kind \"generic\" (applies to llm)");
}

TEST(ScenarioParseErrors, DuplicateTenantName) {
  auto doc = minimal_document();
  doc["tenants"].push_back(doc["tenants"][0]);
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/1/name: duplicate tenant name \"a\" (also /tenants/0/name)");
}

TEST(ScenarioParseErrors, DuplicateDefaultStrategyName) {
  auto doc = minimal_document();
  doc["strategies"] = {{{"kind", "mps"}}, {{"kind", "mps"}, {"active_thread_pct", 50}}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /strategies/1: duplicate strategy name \"mps\" (also /strategies/0); give each strategy its "
            "own \"name\"");
}

TEST(ScenarioParseErrors, WarmupMustEndBeforeTheHorizon) {
  auto doc = minimal_document();
  doc["horizon_s"] = 60;
  doc["warmup_s"] = 60;
  EXPECT_EQ(parse_error(doc), "s.json: /warmup_s: must be < horizon_s (got 60; horizon_s is 60)");
}

TEST(ScenarioParseErrors, NegativeSeed) {
  auto doc = minimal_document();
  doc["seed"] = -1;
  EXPECT_EQ(parse_error(doc), "s.json: /seed: must be in [0, 9007199254740992] (got -1)");
}

TEST(ScenarioParseErrors, PercentageAboveHundred) {
  auto doc = minimal_document();
  doc["strategies"][0] = {{"kind", "mps"}, {"active_thread_pct", 150}};
  EXPECT_EQ(parse_error(doc), "s.json: /strategies/0/active_thread_pct: must be in (0, 100] (got 150)");
}

TEST(ScenarioParseErrors, TenantThatIsNotAnObject) {
  auto doc = minimal_document();
  doc["tenants"].push_back("b");
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/1: expected object (got \"b\")");
}

TEST(ScenarioParseErrors, SeveralProblemsAreReportedAtOnce) {
  auto doc = minimal_document();
  doc["horizon_s"] = 0;
  doc["fleet"][0]["count"] = 1.5;
  doc["tenants"][0]["workload"]["mem_bw_frac"] = -0.1;
  doc["tenants"][0]["load"]["rate_per_s"] = "fast";
  doc["tenants"][0]["sla"] = {{"environment", "prod"}};
  doc["strategies"][0]["kind"] = "timeslicing";
  doc["pricing"] = {{"option", "ondemand"}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /horizon_s: must be > 0 (got 0)\n"
            "s.json: /fleet/0/count: expected integer (got 1.5)\n"
            "s.json: /tenants/0/workload/mem_bw_frac: must be in [0, 1] (got -0.1)\n"
            "s.json: /tenants/0/load/rate_per_s: expected number (got \"fast\")\n"
            "s.json: /tenants/0/sla/environment: unknown \"prod\"; expected "
            "development|batch|internal|customer_facing\n"
            "s.json: /strategies/0/kind: unknown \"timeslicing\"; expected "
            "dedicated|time_slicing|mps|mig|mig_time_slicing|hami|vgpu (did you mean \"time_slicing\"?)\n"
            "s.json: /pricing/option: unknown \"ondemand\"; expected on_demand|spot|reserved_1y|reserved_3y "
            "(did you mean \"on_demand\"?)");
}

}  // namespace

TEST(ScenarioParseErrors, AKernelDurationIsPositiveAndOnlyForGenericWorkloads) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["kernel_ms"] = 0;
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/workload/kernel_ms: must be > 0 (got 0)");
  doc["tenants"][0]["workload"]["kernel_ms"] = "short";
  EXPECT_EQ(parse_error(doc), "s.json: /tenants/0/workload/kernel_ms: expected number (got \"short\")");
  doc["tenants"][0]["workload"] = {
      {"kind", "llm"},
      {"llm", {{"model", "Llama-3.1-8B-Instruct"}, {"prompt_tokens", 512}, {"output_tokens", 128}}},
      {"kernel_ms", 0.5}};
  EXPECT_EQ(parse_error(doc),
            "s.json: /tenants/0/workload/kernel_ms: not for an LLM tenant: its kernels follow from its model's steps");
}

}  // namespace slicewise::scenario
