// Scenario JSON: defaults of a minimal document and to_json/parse round trips.
#include "scenario/json_io.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "scenario/enum_tables.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/validate.hpp"
#include "scenario_test_util.hpp"

namespace slicewise::scenario {
namespace {

using models::StrategyKind;

Scenario round_trip(const Scenario& s) {
  nlohmann::ordered_json out;
  to_json(out, s);
  return parse_scenario(nlohmann::json::parse(out.dump()), s.source_file.string());
}

/// Two phases with every field set: from 7 h the day layout, from 19.5 h the night one.
LayoutSchedule day_night_schedule() {
  LayoutSchedule schedule;
  schedule.start_hour = 6.5;
  schedule.repartition_s = 45;
  schedule.rolling = true;
  LayoutPhase day;
  day.name = "day";
  day.from_hour = 7;
  day.layout = "3g.40gb+2g.20gb+1g.10gb+1g.10gb";
  day.tenants["llm/one"] = PhaseTenant{"3g.40gb", 2};
  day.tenants["p"] = PhaseTenant{"1g.10gb", 0};
  LayoutPhase night;
  night.name = "night";
  night.from_hour = 19.5;
  night.layout = "7x1g.10gb";
  night.tenants["batch"] = PhaseTenant{"1g.10gb", 5};
  schedule.phases = {day, night};
  return schedule;
}

/// Every fault setting away from its default, and one scheduled fault of each kind.
FaultSpec every_fault() {
  FaultSpec f;
  f.gpu_failure_per_gpu_hour = 2.5e-5;
  f.driver_reset_per_gpu_hour = 1e-4;
  f.tenant_crash_per_context_hour = 0.01;
  f.mps_server_fault_per_gpu_hour = 0.002;
  f.gpu_repair_s = 7200;
  f.driver_reset_s = 90;
  f.context_restart_s = 45.5;
  f.co_tenant_kill_frac = 0.25;
  f.max_retries = 3;
  f.random = false;
  ScheduledFault failure;
  failure.at_s = 600;
  failure.kind = FaultKind::gpu_failure;
  failure.gpu = 2;
  ScheduledFault reset;
  reset.at_s = 900.5;
  reset.kind = FaultKind::driver_reset;
  reset.gpu = 1;
  ScheduledFault crash;
  crash.at_s = 1200;
  crash.kind = FaultKind::tenant_crash;
  crash.tenant = "llm/one";
  crash.replica = 1;
  ScheduledFault mps;
  mps.at_s = 0;
  mps.kind = FaultKind::mps_server_fault;
  mps.gpu = 0;
  f.schedule = {failure, reset, crash, mps};
  return f;
}

/// A scenario that sets every field to a non-default value somewhere.
Scenario rich_scenario() {
  Scenario s;
  s.name = "rich";
  s.description = "every field set";
  s.seed = 9007199254740992ULL;
  s.horizon_s = 7200.5;
  s.warmup_s = 60;
  s.metrics_interval_s = 15;
  s.fleet = {{"A100-80GB", "", 3, {}}, {"", "g6e.2xlarge", 2, {}}};
  s.source_file = "dir/rich.json";

  Tenant llm;
  llm.name = "llm/one";  // '/' must be escaped in pointers, not in names
  llm.workload.kind = WorkloadKind::llm;
  llm.workload.llm = LlmSpec{"Phi-3.5-mini-instruct", "fp8", 200, 100, std::nullopt};
  EngineSpec engine;
  engine.name = ServingEngine::tgi;
  engine.max_batch_prefill_tokens = 4096;
  engine.max_total_tokens = 512;
  engine.max_input_length = 256;
  engine.cuda_memory_fraction = 0.4;
  engine.max_concurrent_requests = 16;
  engine.kv_cache_dtype = "fp8";
  engine.prefix_caching = true;
  llm.workload.engine = engine;
  llm.load.kind = LoadKind::trace;
  llm.load.trace_file = "traces/a.csv";
  llm.load.trace_format = "azure-llm";
  llm.load.multiplier = 2.5;
  llm.load.spread_ties = true;
  llm.sla = SlaTargets{2.0, 0.5, 0.05, Environment::customer_facing, 0.02};
  llm.isolation = models::IsolationLevel::hardware;
  llm.num_contexts = 2;
  llm.router = RouterPolicy::least_loaded;
  llm.priority = Priority::high;
  llm.revenue_bearing = false;
  llm.workload.source = "dcgm-prometheus: scrape.prom, 4 busy samples of 4; gpu_duty_frac 0.800 ± 0.100";

  Tenant batch;
  batch.name = "batch";
  batch.workload.solo_latency_s = 3.0;
  batch.workload.memory_gib = 4;
  batch.workload.service_dist = ServiceDistribution::exponential;
  batch.load.kind = LoadKind::closed_loop;
  batch.load.num_users = 4;
  batch.load.think_time_s = 0.5;
  batch.sla.environment = Environment::batch;
  batch.overload = OverloadSpec{0, 3600.0};

  Tenant poisson;
  poisson.name = "p";
  poisson.workload.solo_latency_s = 0.1;
  poisson.workload.memory_gib = 1;
  poisson.load.rate_per_s = 3.5;
  poisson.load.multiplier = 0.5;
  poisson.overload.queue_limit = 64;
  s.tenants = {llm, batch, poisson};

  StrategySpec dedicated;
  dedicated.name = "dedicated";
  StrategySpec ts;
  ts.name = "ts-10";
  ts.kind = StrategyKind::time_slicing;
  ts.placement = PlacementPolicy::spread;
  ts.replicas = 10;
  ts.quantum_ms = 2;
  ts.switch_cost_ms = 0.1;
  ts.exact = true;
  ts.tenants["batch"].weight = 2;
  ts.sidecars = {{"t3.large", 2}};
  StrategySpec mps;
  mps.name = "mps";
  mps.kind = StrategyKind::mps;
  mps.replicas = 8;
  mps.active_thread_pct = 50;
  mps.low_priority_thread_pct = 20;
  mps.pinned_memory_limit_gib = 20;
  mps.mps_daemon = MpsDaemon::own;
  mps.tenants["p"].active_thread_pct = 25;
  StrategySpec mig;
  mig.name = "mig";
  mig.kind = StrategyKind::mig_time_slicing;
  mig.layout = "3g.40gb+2g.20gb+1g.10gb+1g.10gb";
  mig.replicas = 4;
  mig.tenants["llm/one"].mig_profile = "3g.40gb";
  StrategySpec hami;
  hami.name = "hami";
  hami.kind = StrategyKind::hami;
  hami.gpucores_pct = 30;
  hami.gpumem_gib = 10;
  hami.tenants["p"].gpucores_pct = 10;
  hami.tenants["p"].gpumem_gib = 2;
  StrategySpec vgpu;
  vgpu.name = "vgpu";
  vgpu.kind = StrategyKind::vgpu;
  vgpu.vgpu_scheduler = VgpuScheduler::fixed_share;
  vgpu.replicas = 4;
  vgpu.timeslice_ms = 1;
  vgpu.switch_cost_ms = 0.05;
  vgpu.tenants["batch"].weight = 3;
  StrategySpec scheduled;
  scheduled.name = "mig-day-night";
  scheduled.kind = StrategyKind::mig;
  scheduled.layout_schedule = day_night_schedule();
  s.strategies = {dedicated, ts, mps, mig, hami, vgpu, scheduled};
  s.pricing = PricingSpec{"my/prices.json", "us-west-2", pricing::PurchaseOption::spot};
  s.faults = every_fault();
  return s;
}

TEST(ScenarioJson, MinimalDocumentTakesEveryDefault) {
  const Scenario s = parse_scenario(test::minimal_document(), "m.json");
  EXPECT_EQ(s.source_file, "m.json");
  EXPECT_EQ(s.schema_version, 1);
  EXPECT_EQ(s.description, "");
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.horizon_s, 3600.0);
  EXPECT_EQ(s.warmup_s, 0.0);
  EXPECT_EQ(s.metrics_interval_s, 60.0);
  ASSERT_EQ(s.fleet.size(), 1u);
  EXPECT_EQ(s.fleet[0], (FleetEntry{"L40S", "", 1, {}}));
  ASSERT_EQ(s.tenants.size(), 1u);
  const Tenant& t = s.tenants[0];
  EXPECT_EQ(t.workload.kind, WorkloadKind::generic);
  EXPECT_EQ(t.workload.reference_gpu, "");
  EXPECT_EQ(t.workload.gpu_duty_frac, 1.0);
  EXPECT_EQ(t.workload.sm_occupancy_frac, 1.0);
  EXPECT_EQ(t.workload.mem_bw_frac, 0.0);
  EXPECT_EQ(t.workload.max_concurrency, 1);
  EXPECT_EQ(t.workload.service_dist, ServiceDistribution::fixed);
  EXPECT_FALSE(t.workload.llm.has_value());
  EXPECT_EQ(t.load.multiplier, 1.0);
  EXPECT_EQ(t.sla, SlaTargets{});
  EXPECT_EQ(t.isolation, models::IsolationLevel::none);
  EXPECT_EQ(t.num_contexts, 1);
  EXPECT_EQ(t.router, RouterPolicy::round_robin);
  ASSERT_EQ(s.strategies.size(), 1u);
  StrategySpec expected;
  expected.name = "dedicated";
  EXPECT_EQ(s.strategies[0], expected);
  EXPECT_EQ(s.pricing, PricingSpec{});
  EXPECT_EQ(s.pricing.table, "aws");
}

TEST(ScenarioJson, LlmDefaultsAndStrategyNameDefaultsToKind) {
  auto doc = test::minimal_document();
  doc["tenants"][0]["workload"] = {
      {"kind", "llm"},
      {"llm", {{"model", "microsoft/Phi-3.5-mini-instruct"}, {"prompt_tokens", 200}, {"output_tokens", 100}}}};
  doc["strategies"] = {{{"kind", "time_slicing"}}, {{"kind", "mps"}, {"name", "mps-half"}}};
  const Scenario s = parse_scenario(doc, "s.json");
  const auto& w = s.tenants[0].workload;
  EXPECT_FALSE(w.solo_latency_s.has_value());
  ASSERT_TRUE(w.llm.has_value());
  EXPECT_EQ(*w.llm, (LlmSpec{"microsoft/Phi-3.5-mini-instruct", "bf16", 200, 100, std::nullopt}));
  EXPECT_EQ(w.engine, EngineSpec{});  // vLLM with its own defaults on each device
  EXPECT_EQ(w.memory_gib, 0.0);       // derived from the model and engine, not read
  EXPECT_EQ(s.strategies[0].name, "time_slicing");
  EXPECT_EQ(s.strategies[0].replicas, 0);
  EXPECT_FALSE(s.strategies[0].exact);
  EXPECT_EQ(s.strategies[1].name, "mps-half");
}

TEST(ScenarioJson, RichScenarioRoundTrips) {
  const Scenario s = rich_scenario();
  EXPECT_EQ(round_trip(s), s);
}

TEST(ScenarioJson, MinimalScenarioRoundTrips) {
  const Scenario s = parse_scenario(test::minimal_document(), "m.json");
  EXPECT_EQ(round_trip(s), s);
}

TEST(ScenarioJson, OutputKeepsFieldOrderAndOmitsUnsetOptionals) {
  nlohmann::ordered_json out;
  to_json(out, parse_scenario(test::minimal_document(), "m.json"));
  EXPECT_EQ(out.dump(),
            R"({"schema_version":1,"name":"minimal","description":"","seed":1,"horizon_s":3600.0,"warmup_s":0.0,)"
            R"("metrics_interval_s":60.0,"fleet":[{"gpu":"L40S","count":1}],"tenants":[{"name":"a","workload":)"
            R"({"kind":"generic","solo_latency_s":0.5,"gpu_duty_frac":1.0,"sm_occupancy_frac":1.0,"mem_bw_frac":0.0,)"
            R"("memory_gib":8.0,"max_concurrency":1,"service_dist":"fixed"},"load":{"kind":"poisson","rate_per_s":1.0,)"
            R"("multiplier":1.0},"sla":{"environment":"internal"},"isolation":"none","num_contexts":1,"router":)"
            R"("round_robin"}],"strategies":[{"name":"dedicated","kind":"dedicated","placement":"pack"}],)"
            R"("pricing":{"table":"aws","option":"on_demand"}})");
}

TEST(ScenarioJson, GpuFracDemandIsWrittenOnlyWhenSetAndRoundTrips) {
  auto doc = test::minimal_document();
  doc["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "pods.csv"}};
  Scenario s = parse_scenario(doc, "m.json");
  EXPECT_FALSE(s.tenants[0].load.gpu_frac_demand);
  nlohmann::ordered_json out;
  to_json(out, s);
  EXPECT_FALSE(out["tenants"][0]["load"].contains("gpu_frac_demand"));
  s.tenants[0].load.gpu_frac_demand = true;
  to_json(out, s);
  EXPECT_EQ(out["tenants"][0]["load"]["gpu_frac_demand"], true);
  EXPECT_EQ(round_trip(s), s);
}

TEST(ScenarioJson, FaultsTakeTheirDefaultsAndAreWrittenAsRead) {
  auto doc = test::minimal_document();
  doc["faults"] = nlohmann::json::parse(R"({"schedule": [{"at_s": 60, "kind": "tenant_crash", "tenant": "a"},
                                                          {"at_s": 30, "kind": "driver_reset", "gpu": 0}]})");
  const Scenario s = parse_scenario(doc, "m.json");
  ASSERT_TRUE(s.faults.has_value());
  const FaultSpec& f = *s.faults;
  EXPECT_FALSE(f.gpu_failure_per_gpu_hour.has_value());  // the simulation's public default
  EXPECT_EQ(f.driver_reset_per_gpu_hour, 0.0);
  EXPECT_EQ(f.tenant_crash_per_context_hour, 0.0);
  EXPECT_EQ(f.mps_server_fault_per_gpu_hour, 0.0);
  EXPECT_EQ(f.gpu_repair_s, 3600.0);
  EXPECT_EQ(f.driver_reset_s, 60.0);
  EXPECT_EQ(f.context_restart_s, 30.0);
  EXPECT_EQ(f.co_tenant_kill_frac, 1.0);
  EXPECT_EQ(f.max_retries, 1);
  EXPECT_TRUE(f.random);
  ASSERT_EQ(f.schedule.size(), 2u);
  EXPECT_EQ(f.schedule[0], (ScheduledFault{60.0, FaultKind::tenant_crash, 0, "a", 0}));
  EXPECT_EQ(f.schedule[1], (ScheduledFault{30.0, FaultKind::driver_reset, 0, "", 0}));
  nlohmann::ordered_json out;
  to_json(out, s);
  EXPECT_EQ(out["faults"].dump(),
            R"({"driver_reset_per_gpu_hour":0.0,"tenant_crash_per_context_hour":0.0,"mps_server_fault_per_gpu_hour":)"
            R"(0.0,"gpu_repair_s":3600.0,"driver_reset_s":60.0,"context_restart_s":30.0,"co_tenant_kill_frac":1.0,)"
            R"("max_retries":1,"random":true,"schedule":[{"at_s":60.0,"kind":"tenant_crash","tenant":"a","replica":0},)"
            R"({"at_s":30.0,"kind":"driver_reset","gpu":0}]})");
  EXPECT_EQ(round_trip(s), s);
}

TEST(ScenarioJson, LayoutScheduleIsWrittenInsteadOfTheLayout) {
  Scenario s = parse_scenario(test::minimal_document(), "m.json");
  s.strategies[0].kind = StrategyKind::mig_time_slicing;
  s.strategies[0].layout_schedule = day_night_schedule();
  s.strategies[0].layout_schedule->phases[1].tenants = {{"a", PhaseTenant{"1g.10gb", 0}}};
  nlohmann::ordered_json out;
  to_json(out, s);
  const auto& strategy = out["strategies"][0];
  EXPECT_FALSE(strategy.contains("layout"));
  EXPECT_EQ(strategy["layout_schedule"].dump(),
            R"({"start_hour":6.5,"repartition_s":45.0,"rolling":true,"phases":[{"name":"day","from_hour":7.0,)"
            R"("layout":"3g.40gb+2g.20gb+1g.10gb+1g.10gb","tenants":{"llm/one":{"mig_profile":"3g.40gb",)"
            R"("num_contexts":2},"p":{"mig_profile":"1g.10gb"}}},{"name":"night","from_hour":19.5,"layout":)"
            R"("7x1g.10gb","tenants":{"a":{"mig_profile":"1g.10gb"}}}]})");
  EXPECT_EQ(round_trip(s), s);
}

TEST(ScenarioJson, WorkloadSourceIsWrittenOnlyWhenSet) {
  Scenario s = parse_scenario(test::minimal_document(), "m.json");
  nlohmann::ordered_json out;
  to_json(out, s);
  EXPECT_FALSE(out["tenants"][0]["workload"].contains("source"));
  s.tenants[0].workload.source = "given by hand, 2026-11";
  to_json(out, s);
  EXPECT_EQ(out["tenants"][0]["workload"]["source"], "given by hand, 2026-11");
  EXPECT_EQ(round_trip(s), s);
}

TEST(ScenarioJson, InstanceEntriesWriteOnlyTheInstanceType) {
  Scenario s = parse_scenario(test::minimal_document(), "m.json");
  s.fleet = {{"L40S", "g6e.2xlarge", 2, {}}};  // gpu as load_scenario fills it in
  nlohmann::ordered_json out;
  to_json(out, s);
  EXPECT_EQ(out["fleet"].dump(), R"([{"instance_type":"g6e.2xlarge","count":2}])");
}

TEST(ScenarioJson, AResultsLlmTenantFromBeforeTheCatalogIsReadAndWrittenBackAsItWas) {
  auto doc = test::minimal_document();
  doc["tenants"][0]["workload"] = nlohmann::json::parse(R"({
      "kind": "llm", "solo_latency_s": 0.609, "reference_gpu": "L40S", "gpu_duty_frac": 0.795,
      "sm_occupancy_frac": 0.5, "mem_bw_frac": 0.6, "memory_gib": 19.2, "max_concurrency": 16,
      "llm": {"params_b": 3.8, "dtype": "bf16", "prompt_tokens": 200, "output_tokens": 44}})");
  // A scenario file in that form is refused; a result's own scenario is read as it is.
  EXPECT_NE(test::parse_error(doc).find("/tenants/0/workload/llm/params_b: replaced by \"model\""), std::string::npos);
  const Scenario s = parse_scenario(doc, "r.json", ScenarioSource::result_input);
  const auto& w = s.tenants[0].workload;
  ASSERT_TRUE(w.llm.has_value());
  EXPECT_EQ(w.llm->legacy_params_b, 3.8);
  EXPECT_EQ(w.llm->model, "");
  EXPECT_FALSE(w.engine.has_value());
  EXPECT_EQ(w.memory_gib, 19.2);
  EXPECT_EQ(memory_need_gib(w), 19.2);
  nlohmann::ordered_json back;
  to_json(back, s);
  EXPECT_EQ(nlohmann::json(back["tenants"][0]["workload"]), doc["tenants"][0]["workload"]);
  // Simulating it again needs a model.
  EXPECT_NE(format_all(validate_scenario(s, Catalogs::shipped())).find("written before LLM tenants named a model"),
            std::string::npos);
}

}  // namespace
}  // namespace slicewise::scenario
