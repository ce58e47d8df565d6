// Phase 2 (semantic) checks against the shipped catalogs; each test asserts the whole message.
// GCC 12 reports -Warray-bounds false positives inside std::map when json members are assigned
// strings under JSON_DIAGNOSTICS (GCC bug 105651; the ci preset turns the warning off globally).
#pragma GCC diagnostic ignored "-Warray-bounds"
#include "scenario/validate.hpp"

#include <filesystem>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/json_file.hpp"
#include "scenario_test_util.hpp"

namespace slicewise::scenario {
namespace {

using nlohmann::json;
using test::minimal_document;
using test::validate_error;

/// The minimal document on `count` A100-80GB with one strategy.
json on_a100(const json& strategy, int count = 1) {
  auto doc = minimal_document();
  doc["fleet"] = {{{"gpu", "A100-80GB"}, {"count", count}}};
  doc["strategies"] = json::array({strategy});  // not {strategy}: clang copies a lone element
  return doc;
}

TEST(ScenarioValidate, MinimalDocumentIsValid) { EXPECT_EQ(validate_error(minimal_document()), ""); }

TEST(ScenarioValidate, APoolIsReservedForTenantsThatExistAndLeavesTheOthersAPlaceToRun) {
  auto doc = minimal_document();
  doc["tenants"].push_back(doc["tenants"][0]);
  doc["tenants"][1]["name"] = "big";
  doc["tenants"][1]["workload"]["memory_gib"] = 70;  // more than an L40S's 48 GiB
  EXPECT_EQ(validate_error(doc), "s.json: /tenants/1/workload/memory_gib: 70 GiB does not fit on L40S (48 GiB)");
  doc["fleet"].push_back({{"gpu", "H100-SXM-80GB"}, {"tenants", {"bg"}}});
  EXPECT_EQ(validate_error(doc),
            "s.json: /fleet/1/tenants/0: unknown tenant \"bg\" (did you mean \"big\"?)\n"
            "s.json: /tenants/1/workload/memory_gib: 70 GiB does not fit on L40S (48 GiB)");
  // Its pool's H100 holds it; the L40S, which the strategies share, runs the other tenant.
  doc["fleet"][1]["tenants"] = {"big"};
  EXPECT_EQ(validate_error(doc), "");
  doc["fleet"][0]["tenants"] = {"big"};
  EXPECT_EQ(validate_error(doc),
            "s.json: /tenants/0: tenant \"a\" has no GPU to run on: every fleet entry is reserved for other tenants "
            "(\"tenants\"); add it to one, or give an entry without \"tenants\"");
  doc["fleet"][0]["tenants"] = json::array();
  EXPECT_EQ(validate_error(doc), "phase 1: s.json: /fleet/0/tenants: must list at least one tenant (got [])");
  doc["fleet"][0]["tenants"] = {"a", "a", 3};
  EXPECT_EQ(validate_error(doc),
            "phase 1: s.json: /fleet/0/tenants/1: \"a\" is listed twice\n"
            "s.json: /fleet/0/tenants/2: must be a tenant's name (got 3)");
}

TEST(ScenarioValidate, SizingForSlaNeedsOneGpuTypeAndASizedDedicatedBaseline) {
  auto doc = on_a100({{"kind", "time_slicing"}, {"sizing", "sla"}});
  EXPECT_EQ(
      validate_error(doc),
      "s.json: /strategies/0/sizing: strategy \"time_slicing\" is sized for SLA, so the dedicated baseline must be "
      "too (savings compare sized fleets); add {\"kind\": \"dedicated\", \"sizing\": \"sla\"}");
  doc["strategies"].push_back({{"kind", "dedicated"}});
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/1: the dedicated baseline is sized as given while strategy \"time_slicing\" is sized "
            "for SLA; savings must compare sized fleets: add \"sizing\": \"sla\"");
  doc["strategies"][1]["sizing"] = "sla";
  EXPECT_EQ(validate_error(doc), "");
  doc["fleet"].push_back({{"gpu", "H100-SXM-80GB"}, {"count", 1}});
  EXPECT_EQ(
      validate_error(doc),
      "s.json: /strategies/0/sizing: sizing \"sla\" needs the GPUs the strategies share to be of one type (the sized "
      "fleet is a number of them; pools reserved for named tenants may be of others); this fleet shares A100-80GB, "
      "H100-SXM-80GB: compare GPU types with `slicewise advise --gpus`");
  // A pool of another type reserved for a named tenant is not shared: the fleet can be sized.
  doc["fleet"][1]["tenants"] = json::array({doc["tenants"][0]["name"]});
  EXPECT_EQ(validate_error(doc), "");
}

TEST(ScenarioValidate, UnknownGpuSuggestsTheClosest) {
  auto doc = minimal_document();
  doc["fleet"][0]["gpu"] = "A100-80G";
  EXPECT_EQ(validate_error(doc), "s.json: /fleet/0/gpu: unknown GPU \"A100-80G\" (did you mean \"A100-80GB\"?)");
}

TEST(ScenarioValidate, UnknownGpuWithoutSuggestionPointsToTheList) {
  auto doc = minimal_document();
  doc["fleet"][0]["gpu"] = "Z9000";
  EXPECT_EQ(validate_error(doc),
            "s.json: /fleet/0/gpu: unknown GPU \"Z9000\"; run \"slicewise gpus\" to list the known ones");
}

TEST(ScenarioValidate, UnknownInstanceType) {
  auto doc = minimal_document();
  doc["fleet"][0] = {{"instance_type", "g6e.2xlarg"}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /fleet/0/instance_type: unknown instance type \"g6e.2xlarg\" in price table \"aws\" "
            "(did you mean \"g6e.2xlarge\"?)");
}

TEST(ScenarioValidate, InstanceWithoutGpu) {
  auto doc = minimal_document();
  doc["fleet"][0] = {{"instance_type", "t3.large"}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /fleet/0/instance_type: t3.large has no GPU (CPU-only instances belong in a strategy's "
            "\"sidecars\")");
}

TEST(ScenarioValidate, MigLayoutInvalidForTheGpu) {
  EXPECT_EQ(validate_error(on_a100({{"kind", "mig"}, {"layout", "4g.40gb+4g.40gb"}})),
            "s.json: /strategies/0/layout: invalid MIG layout for A100-80GB: 4g.40gb allows at most 1 instance "
            "per GPU (got 2)");
}

TEST(ScenarioValidate, MigOnANonMigGpu) {
  auto doc = minimal_document();
  doc["strategies"] = {{{"kind", "mig"}, {"layout", "7x1g.10gb"}}};
  const std::string message = validate_error(doc);
  EXPECT_EQ(message.substr(0, message.find(" (MIG-capable: ")),
            "s.json: /strategies/0/kind: mig needs a MIG-capable GPU, but the fleet has L40S");
  EXPECT_NE(message.find("A100-80GB"), std::string::npos) << message;
}

TEST(ScenarioValidate, TenantMemoryLargerThanItsDevice) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["memory_gib"] = 96;
  EXPECT_EQ(validate_error(doc), "s.json: /tenants/0/workload/memory_gib: 96 GiB does not fit on L40S (48 GiB)");
}

TEST(ScenarioValidate, TenantMemoryLargerThanEveryDeviceOfAMixedFleet) {
  auto doc = minimal_document();
  doc["fleet"].push_back({{"gpu", "A100-80GB"}});
  doc["tenants"][0]["workload"]["memory_gib"] = 96;
  EXPECT_EQ(validate_error(doc),
            "s.json: /tenants/0/workload/memory_gib: 96 GiB does not fit on any fleet GPU (largest: A100-80GB, "
            "80 GiB)");
}

TEST(ScenarioValidate, MissingTraceFileIsResolvedAgainstTheScenarioFolder) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "traces/missing.csv"}};
  EXPECT_EQ(validate_error(doc, "dir/s.json"),
            "dir/s.json: /tenants/0/load/trace_file: trace file not found: dir/traces/missing.csv");
}

TEST(ScenarioValidate, ExistingTraceFileIsAccepted) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "test/data/traces/native.csv"}};
  EXPECT_EQ(validate_error(doc, std::string(SW_SOURCE_DIR) + "/s.json"), "");
  // A JSON file given as a trace used to pass: only the header was read.
  doc["tenants"][0]["load"]["trace_file"] = "examples/seed-l40s-timeslicing.json";
  EXPECT_NE(validate_error(doc, std::string(SW_SOURCE_DIR) + "/s.json").find("expected one JSON object per line"),
            std::string::npos);
}

TEST(ScenarioValidate, ATraceWithAHeaderAndNoRowsIsRefused) {
  // It used to validate, replay no request and report "SLA met" while paying for a GPU.
  const auto dir = std::filesystem::temp_directory_path() / "sw_scenario_test" / "header-only";
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "empty.csv", "arrived_at_s,prompt_tokens,output_tokens\n");
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = {{"kind", "trace"}, {"trace_file", "empty.csv"}};
  EXPECT_EQ(validate_error(doc, (dir / "s.json").string()),
            (dir / "s.json").string() + ": /tenants/0/load/trace_file: " + (dir / "empty.csv").string() +
                ": the trace has a header and no rows: nothing to replay");
}

TEST(ScenarioValidate, SettingsForAnUnknownTenant) {
  auto doc = minimal_document();
  doc["tenants"][0]["name"] = "chat";
  doc["strategies"] = {{{"kind", "time_slicing"}, {"tenants", {{"chatt", {{"weight", 2}}}, {"zz", {{"weight", 1}}}}}}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/tenants/chatt: unknown tenant \"chatt\" (did you mean \"chat\"?)\n"
            "s.json: /strategies/0/tenants/zz: unknown tenant \"zz\"; tenants: chat");
}

TEST(ScenarioValidate, MigProfileMustBeInTheLayout) {
  EXPECT_EQ(validate_error(on_a100({{"kind", "mig"},
                                    {"layout", "3g.40gb+2g.20gb+1g.10gb+1g.10gb"},
                                    {"tenants", {{"a", {{"mig_profile", "2g.10gb"}}}}}})),
            "s.json: /strategies/0/tenants/a/mig_profile: \"2g.10gb\" is not an instance of the layout; expected "
            "3g.40gb|2g.20gb|1g.10gb (did you mean \"2g.20gb\"?)");
}

TEST(ScenarioValidate, TenantMustFitItsMigInstance) {
  auto doc = on_a100({{"kind", "mig"},
                      {"layout", "3g.40gb+2g.20gb+1g.10gb+1g.10gb"},
                      {"tenants", {{"a", {{"mig_profile", "1g.10gb"}}}}}});
  doc["tenants"][0]["workload"]["memory_gib"] = 12;
  const std::string message = validate_error(doc);
  EXPECT_EQ(message.substr(0, message.find(" has ")),
            "s.json: /strategies/0/tenants/a/mig_profile: tenant \"a\" needs 12 GiB; 1g.10gb");
}

TEST(ScenarioValidate, TenantMustFitTheLargestInstanceWhenItNamesNoProfile) {
  auto doc = on_a100({{"kind", "mig"}, {"layout", "7x1g.10gb"}});
  doc["tenants"][0]["workload"]["memory_gib"] = 12;
  const std::string message = validate_error(doc);
  EXPECT_EQ(message.substr(0, message.find(", has ")),
            "s.json: /strategies/0/layout: tenant \"a\" needs 12 GiB; the largest instance of this layout, 1g.10gb");
}

TEST(ScenarioValidate, UnknownReferenceGpu) {
  auto doc = minimal_document();
  doc["tenants"][0]["workload"]["reference_gpu"] = "L40";
  EXPECT_EQ(validate_error(doc),
            "s.json: /tenants/0/workload/reference_gpu: unknown GPU \"L40\" (did you mean \"L40S\"?)");
}

TEST(ScenarioValidate, MpsServesAtMost48ClientsPerGpu) {
  auto doc = minimal_document();
  doc["strategies"] = {{{"kind", "mps"}, {"replicas", 60}}};
  doc["tenants"][0]["num_contexts"] = 50;
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/replicas: MPS serves at most 48 clients per GPU (got 60)\n"
            "s.json: /strategies/0: 50 contexts need more than 48 MPS clients per GPU on the fleet's 1 GPU(s)");
}

TEST(ScenarioValidate, MpsDaemonIsTheDevicePluginsOrOwnAndTheDevicePluginNeedsTwoReplicas) {
  auto doc = minimal_document();
  doc["strategies"] = {{{"kind", "mps"}, {"replicas", 1}}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/replicas: the device plugin shares a GPU under MPS between 2 replicas at least (got "
            "1; leave it out and slicewise picks the replicas its placement needs)");
  doc["strategies"] = {{{"kind", "mps"}, {"replicas", 1}, {"mps_daemon", "own"}}};
  EXPECT_EQ(validate_error(doc), "");
  doc["strategies"] = {{{"kind", "mps"}, {"mps_daemon", "mine"}}};
  EXPECT_EQ(validate_error(doc),
            "phase 1: s.json: /strategies/0/mps_daemon: unknown \"mine\"; expected device_plugin|own");
  doc["strategies"] = {{{"kind", "time_slicing"}, {"mps_daemon", "own"}}};
  EXPECT_NE(validate_error(doc).find("/strategies/0/mps_daemon"), std::string::npos) << validate_error(doc);
}

TEST(ScenarioValidate, VgpuFixedShareNeedsReplicas) {
  auto doc = minimal_document();
  doc["strategies"] = {{{"kind", "vgpu"}, {"vgpu_scheduler", "fixed_share"}}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/replicas: vgpu_scheduler fixed_share needs the number of vGPUs per GPU of the "
            "vGPU profile (got 0)");
}

TEST(ScenarioValidate, WeightOnVgpuOnlyWithFixedShare) {
  auto doc = minimal_document();
  doc["strategies"] = {{{"kind", "vgpu"}, {"tenants", {{"a", {{"weight", 2}}}}}}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/tenants/a/weight: applies to vgpu only with vgpu_scheduler fixed_share "
            "(got best_effort)");
}

TEST(ScenarioValidate, UnknownPriceTable) {
  auto doc = minimal_document();
  doc["pricing"] = {{"table", "awz"}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /pricing/table: unknown price table \"awz\"; expected aws|azure|gcp or a path to a table file "
            "(did you mean \"aws\"?)");
}

TEST(ScenarioValidate, MissingPriceTableFile) {
  auto doc = minimal_document();
  doc["pricing"] = {{"table", "prices/mine.json"}};
  EXPECT_EQ(validate_error(doc, "dir/s.json"),
            "dir/s.json: /pricing/table: price table file not found: dir/prices/mine.json");
}

TEST(ScenarioValidate, PriceTableFileIsResolvedAgainstTheScenarioFolder) {
  const auto dir = std::filesystem::temp_directory_path() / "sw_scenario_test" / "prices";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(std::filesystem::path(SW_SOURCE_DIR) / "data/prices/aws.json", dir / "mine.json",
                             std::filesystem::copy_options::overwrite_existing);
  auto doc = minimal_document();
  doc["fleet"][0] = {{"instance_type", "g6e.2xlarge"}};
  doc["pricing"] = {{"table", "prices/mine.json"}};
  const std::string file = (dir.parent_path() / "s.json").string();
  EXPECT_EQ(validate_error(doc, file), "");
  const Scenario s = parse_scenario(doc, file);
  EXPECT_EQ(resolve_price_table(s, Catalogs::shipped()).find("g6e.2xlarge")->gpu, "L40S");
}

TEST(ScenarioValidate, UnknownRegion) {
  auto doc = minimal_document();
  doc["fleet"][0] = {{"instance_type", "g6e.2xlarge"}};
  doc["pricing"] = {{"region", "us-east-9"}};
  const std::string message = validate_error(doc);
  EXPECT_EQ(message.substr(0, message.find("; expected ")),
            "s.json: /pricing/region: unknown region \"us-east-9\" in price table \"aws\"");
  EXPECT_NE(message.find("(did you mean \"us-east-1\"?)"), std::string::npos) << message;
}

TEST(ScenarioValidate, RegionMustOfferEveryInstanceUsed) {
  auto doc = minimal_document();
  doc["fleet"][0] = {{"instance_type", "g6e.2xlarge"}};
  doc["strategies"] = {{{"kind", "time_slicing"}, {"sidecars", {{{"instance_type", "t3.large"}, {"count", 2}}}}}};
  doc["pricing"] = {{"region", "us-east-2"}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /pricing/region: g6e.2xlarge, used at /fleet/0/instance_type, is not offered in us-east-2 "
            "(offered in us-east-1, us-west-2)\n"
            "s.json: /pricing/region: t3.large, used at /strategies/0/sidecars/0/instance_type, is not offered in "
            "us-east-2 (offered in us-east-1, us-west-2)");
}

TEST(ScenarioValidate, PurchaseOptionMustHaveAPrice) {
  auto doc = minimal_document();
  doc["fleet"][0] = {{"instance_type", "p5.48xlarge"}};  // 1-year reserved only as Convertible: none shipped
  doc["pricing"] = {{"region", "us-east-1"}, {"option", "reserved_1y"}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /pricing/option: no reserved_1y price for p5.48xlarge in us-east-1 (price table \"aws\")");
}

TEST(ScenarioValidate, SidecarMustBeInThePriceTable) {
  auto doc = minimal_document();
  doc["strategies"] = {{{"kind", "time_slicing"}, {"sidecars", {{{"instance_type", "t3.larg"}}}}}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/sidecars/0/instance_type: unknown instance type \"t3.larg\" in price table "
            "\"aws\" (did you mean \"t3.large\"?)");
}

TEST(ScenarioValidate, InMemoryFieldsThatDoNotApplyToTheKind) {
  Scenario s = parse_scenario(minimal_document(), "s.json");
  s.strategies[0].kind = models::StrategyKind::mps;
  s.strategies[0].layout = "7x1g.10gb";
  s.strategies[0].tenants["a"].mig_profile = "1g.10gb";
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /strategies/0/layout: set, but not used by strategy kind \"mps\" (applies to mig, "
            "mig_time_slicing)\n"
            "s.json: /strategies/0/tenants/a/mig_profile: does not apply to strategy kind \"mps\" (applies to mig, "
            "mig_time_slicing)");
}

TEST(ScenarioValidate, InMemoryGpuFracDemandOnAnLlmTenant) {
  auto doc = minimal_document();
  doc["tenants"][0]["load"] = {
      {"kind", "trace"}, {"trace_file", "test/data/traces/native-gpu-frac.csv"}, {"gpu_frac_demand", true}};
  Scenario s = parse_scenario(doc, "s.json");
  s.source_file = std::string(SW_SOURCE_DIR) + "/s.json";
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())), "");
  s.source_file = "s.json";
  s.tenants[0].load.trace_file = std::string(SW_SOURCE_DIR) + "/test/data/traces/native-gpu-frac.csv";
  s.tenants[0].workload.kind = WorkloadKind::llm;
  s.tenants[0].workload.llm = LlmSpec{"Llama-3.2-1B-Instruct", "bf16", 0.0, 0.0, std::nullopt};
  s.tenants[0].workload.engine = EngineSpec{};
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /tenants/0/load/gpu_frac_demand: applies to generic workloads only (this tenant's workload kind "
            "is \"llm\", whose demand comes from its engine's steps)");
}

TEST(ScenarioValidate, TimeSeriesOfAtMostAHundredThousandSamples) {
  auto doc = minimal_document();
  doc["horizon_s"] = 60;
  doc["metrics_interval_s"] = 1e-6;
  EXPECT_EQ(validate_error(doc),
            "s.json: /metrics_interval_s: horizon_s / metrics_interval_s gives 60000000 samples per time series; at "
            "most 100000 (got 1e-06; horizon_s is 60)");
  doc["horizon_s"] = 100000;
  doc["metrics_interval_s"] = 1;  // exactly the limit
  EXPECT_EQ(validate_error(doc), "");
}

TEST(ScenarioValidate, LimitsThatPassAloneAreCheckedTogether) {
  // 10,000 contexts on 10,000 GPUs and 100,000 samples each pass their own limit, but their series
  // take 16 GB: that used to end in a bare std::bad_alloc after validation said yes.
  auto doc = minimal_document();
  doc["horizon_s"] = 100000;
  doc["metrics_interval_s"] = 1;
  doc["fleet"][0]["count"] = 10000;
  doc["tenants"][0]["num_contexts"] = 10000;
  doc["strategies"] = json::parse(R"([{"kind": "time_slicing", "replicas": 1}])");
  EXPECT_EQ(validate_error(doc),
            "s.json: /metrics_interval_s: this run would hold about 15260 MiB of metrics (10000 devices x 2 and 1 "
            "tenants x 100000 samples); at most 8192 MiB: use a longer metrics_interval_s, or fewer contexts");
  doc["metrics_interval_s"] = 2;  // half the samples: 7.6 GiB
  EXPECT_EQ(validate_error(doc), "");
}

TEST(ScenarioValidate, AtMostABillionExpectedRequestsPerTenant) {
  auto doc = minimal_document();
  doc["horizon_s"] = 60;
  doc["tenants"][0]["load"] = {{"kind", "poisson"}, {"rate_per_s", 1e308}};
  doc["tenants"].push_back(doc["tenants"][0]);
  doc["tenants"][1]["name"] = "b";
  doc["tenants"][1]["load"] = {{"kind", "poisson"}, {"rate_per_s", 1000}, {"multiplier", 1e5}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /tenants/0/load: rate_per_s x multiplier x horizon_s gives inf expected requests; at most "
            "1000000000 per tenant (lower the rate, the multiplier or horizon_s)\n"
            "s.json: /tenants/1/load: rate_per_s x multiplier x horizon_s gives 6000000000 expected requests; at most "
            "1000000000 per tenant (lower the rate, the multiplier or horizon_s)");
}

TEST(ScenarioValidate, MmppStatesAndExactQuantaAtMostABillionSteps) {
  auto doc = minimal_document();
  doc["horizon_s"] = 60;
  doc["tenants"][0]["load"] = json::parse(
      R"({"kind": "mmpp", "states": [{"rate_per_s": 1e9, "mean_duration_s": 1}, {"rate_per_s": 1, "mean_duration_s": 1e-300}]})");
  doc["strategies"] = json::parse(R"([{"kind": "time_slicing", "exact": true, "quantum_ms": 1e-6},
                                      {"kind": "time_slicing", "name": "fluid", "quantum_ms": 1e-6}])");
  EXPECT_EQ(validate_error(doc),
            "s.json: /tenants/0/load: the fastest state's rate_per_s x multiplier x horizon_s gives 60000000000 "
            "expected requests; at most 1000000000 per tenant (lower the rate, the multiplier or horizon_s)\n"
            "s.json: /tenants/0/load/states: horizon_s / the shortest mean_duration_s gives 6e+301 expected state "
            "changes; at most 1000000000 (got 1e-300 s; horizon_s is 60)\n"
            "s.json: /strategies/0/quantum_ms: exact time slicing steps horizon_s / quantum_ms = 60000000000 quanta "
            "per device; at most 1000000000 (use a longer quantum, or \"exact\": false for the fluid model)");
}

TEST(ScenarioValidate, AtMostTenThousandGpusAndContexts) {
  // Placement tries every context on every device: a million of each never finished.
  auto doc = minimal_document();
  doc["fleet"] = {{{"gpu", "L40S"}, {"count", 1000000}}, {{"instance_type", "p4d.24xlarge"}, {"count", 1000000}}};
  doc["tenants"][0]["num_contexts"] = 1000000;
  doc["tenants"].push_back(doc["tenants"][0]);
  doc["tenants"][1]["name"] = "b";
  EXPECT_EQ(validate_error(doc),
            "s.json: /fleet: the fleet has 9000000 GPUs; at most 10000 can be simulated\n"
            "s.json: /tenants: the tenants' num_contexts add up to 2000000 contexts; at most 10000 can be placed");
}

TEST(ScenarioValidate, SeveralProblemsAreReportedAtOnceInDocumentOrder) {
  auto doc = minimal_document();
  doc["fleet"] = {{{"gpu", "A100-80GB"}}, {{"instance_type", "t3.large"}}};  // not checked: no price table
  doc["tenants"][0]["name"] = "chat";
  doc["tenants"][0]["workload"]["memory_gib"] = 100;
  doc["tenants"][0]["workload"]["reference_gpu"] = "L40";
  doc["strategies"] = {{{"kind", "mig"}, {"layout", "8x1g.10gb"}},
                       {{"kind", "mps"}, {"tenants", {{"x", json::object()}}}}};
  doc["pricing"] = {{"table", "gpc"}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /tenants/0/workload/reference_gpu: unknown GPU \"L40\" (did you mean \"L40S\"?)\n"
            "s.json: /tenants/0/workload/memory_gib: 100 GiB does not fit on A100-80GB (80 GiB)\n"
            "s.json: /strategies/0/layout: invalid MIG layout for A100-80GB: 1g.10gb allows at most 7 instances per "
            "GPU (got 8)\n"
            "s.json: /strategies/1/tenants/x: unknown tenant \"x\"; tenants: chat\n"
            "s.json: /pricing/table: unknown price table \"gpc\"; expected aws|azure|gcp or a path to a table file "
            "(did you mean \"gcp\"?)");
}

/// A mig strategy whose layout changes at 8 h and 20 h, serving tenant `tenant` in both phases.
json day_night(const std::string& tenant = "a") {
  auto strategy = json::parse(R"({"kind": "mig", "layout_schedule": {"start_hour": 0, "repartition_s": 90,
      "rolling": true, "phases": [
      {"name": "day", "from_hour": 8, "layout": "3g.40gb+2g.20gb+1g.10gb+1g.10gb", "tenants": {}},
      {"name": "night", "from_hour": 20, "layout": "7x1g.10gb", "tenants": {}}]}})");
  strategy["layout_schedule"]["phases"][0]["tenants"][tenant] = {{"mig_profile", "3g.40gb"}};
  strategy["layout_schedule"]["phases"][1]["tenants"][tenant] = {{"mig_profile", "1g.10gb"}, {"num_contexts", 3}};
  return strategy;
}

/// Every kind of scheduled fault on the minimal document's tenant, on `gpus` A100-80GB.
json with_faults(int gpus = 2) {
  auto doc = on_a100({{"kind", "dedicated"}}, gpus);
  doc["tenants"][0]["num_contexts"] = 2;
  doc["faults"] = json::parse(R"({"gpu_failure_per_gpu_hour": 0.001, "tenant_crash_per_context_hour": 0.01,
      "co_tenant_kill_frac": 0.5, "max_retries": 2, "random": false, "schedule": [
      {"at_s": 0, "kind": "gpu_failure", "gpu": 1},
      {"at_s": 100, "kind": "driver_reset", "gpu": 0},
      {"at_s": 200, "kind": "tenant_crash", "tenant": "a", "replica": 1},
      {"at_s": 3599, "kind": "mps_server_fault", "gpu": 0}]})");
  return doc;
}

TEST(ScenarioValidate, LayoutScheduleAndFaultsAreValid) {
  EXPECT_EQ(validate_error(on_a100(day_night())), "");
  EXPECT_EQ(validate_error(with_faults()), "");
  auto doc = on_a100(day_night());
  doc["strategies"][0]["kind"] = "mig_time_slicing";
  EXPECT_EQ(validate_error(doc), "");
}

TEST(ScenarioValidate, ScheduledFaultAtOrAfterTheHorizon) {
  auto doc = with_faults();
  doc["horizon_s"] = 200;
  EXPECT_EQ(validate_error(doc),
            "s.json: /faults/schedule/2/at_s: must be < horizon_s (got 200; horizon_s is 200)\n"
            "s.json: /faults/schedule/3/at_s: must be < horizon_s (got 3599; horizon_s is 200)");
}

TEST(ScenarioValidate, TenantCrashOfAnUnknownTenant) {
  auto doc = with_faults();
  doc["faults"]["schedule"][2]["tenant"] = "batch";
  EXPECT_EQ(validate_error(doc), "s.json: /faults/schedule/2/tenant: unknown tenant \"batch\"; tenants: a");
  doc["tenants"][0]["name"] = "chat";
  doc["faults"]["schedule"][2]["tenant"] = "chatt";
  EXPECT_EQ(validate_error(doc),
            "s.json: /faults/schedule/2/tenant: unknown tenant \"chatt\" (did you mean \"chat\"?)");
}

TEST(ScenarioValidate, TenantCrashOfAReplicaTheTenantDoesNotHave) {
  auto doc = with_faults();
  doc["faults"]["schedule"][2]["replica"] = 2;
  EXPECT_EQ(validate_error(doc),
            "s.json: /faults/schedule/2/replica: tenant \"a\" has 2 contexts, numbered 0 .. 1 (got 2)");
  doc["tenants"][0]["num_contexts"] = 1;
  doc["faults"]["schedule"][2]["replica"] = 1;
  EXPECT_EQ(validate_error(doc), "s.json: /faults/schedule/2/replica: tenant \"a\" has 1 context, numbered 0 (got 1)");
}

TEST(ScenarioValidate, GpuFaultOnAGpuBeyondTheFleet) {
  auto doc = with_faults(1);
  EXPECT_EQ(validate_error(doc),
            "s.json: /faults/schedule/0/gpu: the fleet has 1 GPU, numbered 0 in fleet order, an instance counting "
            "its GPUs (got 1)");
  // An instance counts its GPUs: 1 + 8 A100-80GB of a p4de.24xlarge.
  doc["fleet"].push_back({{"instance_type", "p4de.24xlarge"}});
  doc["faults"]["schedule"][0]["gpu"] = 8;
  EXPECT_EQ(validate_error(doc), "");
  doc["faults"]["schedule"][0]["gpu"] = 9;
  EXPECT_EQ(validate_error(doc),
            "s.json: /faults/schedule/0/gpu: the fleet has 9 GPUs, numbered 0 .. 8 in fleet order, an instance "
            "counting its GPUs (got 9)");
}

TEST(ScenarioValidate, InMemoryOverloadOutOfRange) {
  Scenario s = parse_scenario(minimal_document(), "s.json");
  s.tenants[0].overload = {-2, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /tenants/0/overload/queue_limit: must be >= 0 (got -2)\n"
            "s.json: /tenants/0/overload/timeout_s: must be a finite number (got nan)");
  s.tenants[0].overload = {0, 0.0};  // none of either
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())), "");
}

TEST(ScenarioValidate, InMemoryFaultsOutOfRange) {
  Scenario s = parse_scenario(with_faults(), "s.json");
  s.faults->gpu_failure_per_gpu_hour = std::numeric_limits<double>::infinity();
  s.faults->tenant_crash_per_context_hour = -1;
  s.faults->context_restart_s = -30;
  s.faults->co_tenant_kill_frac = 1.5;
  s.faults->max_retries = 11;
  s.faults->schedule[0].tenant = "a";
  s.faults->schedule[2].gpu = 1;
  s.faults->schedule[3].gpu = -1;
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /faults/gpu_failure_per_gpu_hour: must be a finite number (got inf)\n"
            "s.json: /faults/tenant_crash_per_context_hour: must be >= 0 (got -1)\n"
            "s.json: /faults/context_restart_s: must be >= 0 (got -30)\n"
            "s.json: /faults/co_tenant_kill_frac: must be in [0, 1] (got 1.5)\n"
            "s.json: /faults/max_retries: must be in [0, 10] (got 11)\n"
            "s.json: /faults/schedule/0/tenant: set, but not used by fault kind \"gpu_failure\" (applies to "
            "tenant_crash)\n"
            "s.json: /faults/schedule/2/gpu: set, but not used by fault kind \"tenant_crash\" (applies to "
            "gpu_failure, driver_reset, mps_server_fault)\n"
            "s.json: /faults/schedule/3/gpu: must be >= 0 (got -1)");
}

TEST(ScenarioValidate, AtMostABillionExpectedFaults) {
  auto doc = with_faults(4);
  doc["horizon_s"] = 7200;
  doc["faults"]["random"] = true;
  doc["faults"]["driver_reset_per_gpu_hour"] = 2e8;
  doc["faults"]["tenant_crash_per_context_hour"] = 1e8;
  EXPECT_EQ(validate_error(doc),
            "s.json: /faults/driver_reset_per_gpu_hour: this rate on the fleet's 4 GPU(s) for horizon_s (2 h) gives "
            "1600000000 expected faults; at most 1000000000 (lower the rate or horizon_s)");
  doc["faults"]["random"] = false;  // the schedule only: the rates draw nothing
  EXPECT_EQ(validate_error(doc), "");
}

TEST(ScenarioValidate, LayoutScheduleWithOnePhase) {
  auto doc = on_a100(day_night());
  doc["strategies"][0]["layout_schedule"]["phases"].erase(1);
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/layout_schedule/phases: must list at least two phases (got 1); for one layout all "
            "day, give \"layout\" instead");
}

TEST(ScenarioValidate, LayoutSchedulePhasesInTheOrderOfTheDayWithTheirOwnNames) {
  auto doc = on_a100(day_night());
  auto& phases = doc["strategies"][0]["layout_schedule"]["phases"];
  phases[1]["from_hour"] = 6;
  phases[1]["name"] = "day";
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/layout_schedule/phases/1/name: duplicate phase name \"day\" (also "
            "/strategies/0/layout_schedule/phases/0/name)\n"
            "s.json: /strategies/0/layout_schedule/phases/1/from_hour: must be > 8, the from_hour of phase \"day\" "
            "before it: phases are listed in the order of the day (got 6)");
}

TEST(ScenarioValidate, LayoutSchedulePhaseProfileMustBeInItsLayout) {
  auto doc = on_a100(day_night());
  auto& phases = doc["strategies"][0]["layout_schedule"]["phases"];
  phases[1]["tenants"]["a"]["mig_profile"] = "3g.40gb";
  phases[0]["layout"] = "8x1g.10gb";
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/layout_schedule/phases/0/layout: invalid MIG layout for A100-80GB: 1g.10gb allows "
            "at most 7 instances per GPU (got 8)\n"
            "s.json: /strategies/0/layout_schedule/phases/1/tenants/a/mig_profile: \"3g.40gb\" is not an instance of "
            "the layout; expected 1g.10gb");
}

TEST(ScenarioValidate, LayoutSchedulePhaseTenantsAreTheScenarios) {
  auto doc = on_a100(day_night());
  doc["strategies"][0]["layout_schedule"]["phases"][0]["tenants"]["zz"] = {{"mig_profile", "1g.10gb"}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/layout_schedule/phases/0/tenants/zz: unknown tenant \"zz\"; "
            "tenants: a");
}

TEST(ScenarioValidate, LayoutScheduleServesEveryTenant) {
  auto doc = on_a100(day_night());
  doc["tenants"].push_back(doc["tenants"][0]);
  doc["tenants"][1]["name"] = "b";
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/layout_schedule/phases: tenant \"b\" is in no phase's \"tenants\", so it would "
            "never be served; give it a profile in at least one phase");
}

TEST(ScenarioValidate, LayoutScheduleClockMustAgreeWithDiurnalLoads) {
  auto doc = on_a100(day_night("chat"));
  doc["tenants"][0]["name"] = "chat";
  doc["tenants"][0]["load"] = {
      {"kind", "diurnal"}, {"rate_per_s", 1}, {"hourly_profile", std::vector<double>(24, 1.0)}, {"start_hour", 6}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/layout_schedule/start_hour: 0 but tenant \"chat\" has a diurnal load starting at "
            "hour 6; the schedule's clock and the load's must agree");
  doc["strategies"][0]["layout_schedule"]["start_hour"] = 6;
  EXPECT_EQ(validate_error(doc), "");
}

TEST(ScenarioValidate, EachOfTheLayoutsIsValidAndEachTenantFitsAnInstanceOfOne) {
  auto doc = on_a100(day_night());
  doc["strategies"][0].erase("layout_schedule");
  doc["strategies"][0]["layouts"] = {"3g.40gb+2g.20gb+1g.10gb+1g.10gb", "7x1g.10gb"};
  EXPECT_EQ(validate_error(doc), "");
  doc["strategies"][0]["layouts"][1] = "8x1g.10gb";
  doc["strategies"][0]["tenants"] = {{"a", {{"mig_profile", "4g.40gb"}}}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/layouts/1: invalid MIG layout for A100-80GB: 1g.10gb allows at most 7 instances "
            "per GPU (got 8)");
  doc["strategies"][0]["layouts"][1] = "7x1g.10gb";
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/tenants/a/mig_profile: \"4g.40gb\" is not an instance of any of the layouts; "
            "expected 3g.40gb|2g.20gb|1g.10gb (did you mean \"3g.40gb\"?)");
}

TEST(ScenarioValidate, LayoutScheduleGivesTheProfilesNotTheStrategysTenants) {
  auto doc = on_a100(day_night());
  doc["strategies"][0]["tenants"] = {{"a", {{"mig_profile", "1g.10gb"}}}};
  EXPECT_EQ(validate_error(doc),
            "s.json: /strategies/0/tenants/a/mig_profile: not used with a layout_schedule: each phase's \"tenants\" "
            "gives the tenant's profile in that phase");
}

TEST(ScenarioValidate, InMemoryLayoutScheduleNextToALayoutOrOnAnotherKind) {
  Scenario s = parse_scenario(on_a100(day_night()), "s.json");
  s.strategies[0].layout = "7x1g.10gb";
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /strategies/0: give one of \"layout\", \"layouts\" or \"layout_schedule\", not several");
  s.strategies[0].layout.clear();
  s.strategies[0].kind = models::StrategyKind::time_slicing;
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /strategies/0/layout_schedule: set, but not used by strategy kind \"time_slicing\" (applies to "
            "mig, mig_time_slicing)");
  s.strategies[0].kind = models::StrategyKind::mig;
  s.strategies[0].layout_schedule.reset();
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /strategies/0/layout: missing MIG layout (required for strategy kind \"mig\": give \"layout\", "
            "\"layouts\" or \"layout_schedule\")");
}

TEST(ScenarioValidate, FleetGpuIdResolvesInstancesAndAliases) {
  Scenario s = parse_scenario(minimal_document(), "s.json");
  const Catalogs catalogs = Catalogs::shipped();
  EXPECT_EQ(fleet_gpu_id(FleetEntry{"", "g6e.2xlarge", 1, {}}, s, catalogs), "L40S");
  EXPECT_EQ(fleet_gpu_id(FleetEntry{"A100-80GB", "", 1, {}}, s, catalogs), "A100-80GB");
  EXPECT_EQ(fleet_gpu_id(FleetEntry{"Z9000", "", 1, {}}, s, catalogs), "");
  EXPECT_EQ(fleet_gpu_id(FleetEntry{"", "t3.large", 1, {}}, s, catalogs), "");
  EXPECT_EQ(resolve_price_table(s, catalogs).name, "aws");
}

TEST(ScenarioLoad, ReportsParseProblemsWithTheFileNameAsGiven) {
  const auto dir = std::filesystem::temp_directory_path() / "sw_scenario_test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "bad.json";
  write_file_atomically(file, R"({"schema_version": 1, "name": "x", "fleet": [], "tenants": [], "strategies": []})");
  try {
    load_scenario(file);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), file.string() + ": /fleet: must list at least one entry (got [])\n" +
                                         file.string() + ": /tenants: must list at least one tenant (got [])\n" +
                                         file.string() + ": /strategies: must list at least one strategy (got [])");
  }
}

TEST(ScenarioLoad, FillsTheGpuOfInstanceEntries) {
  const auto dir = std::filesystem::temp_directory_path() / "sw_scenario_test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "ok.json";
  auto doc = minimal_document();
  doc["fleet"][0] = {{"instance_type", "g6e.2xlarge"}, {"count", 2}};
  write_file_atomically(file, doc.dump());
  const Scenario s = load_scenario(file);
  EXPECT_EQ(s.fleet[0], (FleetEntry{"L40S", "g6e.2xlarge", 2, {}}));
  EXPECT_EQ(s.source_file, file);
}

}  // namespace
}  // namespace slicewise::scenario

namespace slicewise::scenario {
namespace {

TEST(ScenarioValidate, AnLlmTenantBuiltInMemoryNeedsAnEngine) {
  Scenario s = parse_scenario(test::minimal_document(), "s.json");
  s.tenants[0].workload = Workload{};
  s.tenants[0].workload.kind = WorkloadKind::llm;
  s.tenants[0].workload.llm = LlmSpec{"Qwen3-8B", "bf16", 100.0, 10.0, std::nullopt};
  EXPECT_EQ(format_all(validate_scenario(s, Catalogs::shipped())),
            "s.json: /tenants/0/workload: missing \"engine\" (an LLM tenant's serving engine; a scenario file "
            "without one gets vLLM with its defaults)");
}

TEST(ScenarioValidate, AModelLargerThanTheGpuNamesTheFewestGpusThatWouldHoldIt) {
  // Llama-3.1-70B in bf16 (131.4 GiB of weights) on H100-SXM-80GB: vLLM's 0.9 of 80 GiB holds 72.
  auto doc = test::minimal_document();
  doc["fleet"] = nlohmann::json::parse(R"([{"gpu": "H100-SXM-80GB", "count": 4}])");
  doc["tenants"][0]["workload"] = nlohmann::json::parse(R"({"kind": "llm",
      "llm": {"model": "Llama-3.1-70B-Instruct", "prompt_tokens": 512, "output_tokens": 128},
      "engine": {"max_model_len": 8192}})");
  EXPECT_EQ(test::validate_error(doc),
            "s.json: /tenants/0/workload/llm/model: Llama-3.1-70B-Instruct (bf16) does not run on H100-SXM-80GB: its "
            "weights (131.4 GiB) and activations (2.4 GiB) do not fit in the engine's 72 GiB (0.9 of 80 GiB); set "
            "engine.tensor_parallel to 2, the fewest GPUs that hold it");
}

}  // namespace
}  // namespace slicewise::scenario
