// The telemetry estimators in closed form: constant samples give exact figures with no spread, a
// known mixture its mean and standard deviation, SM and bandwidth are weighted by engine activity;
// what cannot be estimated is left out with a note; the workload object pastes into a scenario.
#include <cmath>

#include <gtest/gtest.h>

#include "calibration/tenant_profile.hpp"
#include "scenario/json_io.hpp"
#include "scenario/validate.hpp"
#include "traces/telemetry_readers.hpp"

namespace slicewise::calibration {
namespace {

using traces::TelemetrySample;

TelemetrySample sample(std::optional<double> gr, std::optional<double> sm = {}, std::optional<double> dram = {},
                       std::optional<double> memory = {}) {
  TelemetrySample s;
  s.gr_engine_active = gr;
  s.sm_active = sm;
  s.dram_active = dram;
  s.memory_gib = memory;
  return s;
}

traces::WorkloadSamples workload(const std::string& name, std::vector<TelemetrySample> samples,
                                 const std::string& model = "NVIDIA H100 80GB HBM3") {
  traces::WorkloadSamples w;
  w.name = name;
  if (!model.empty()) w.gpu_models.insert(model);
  w.samples = std::move(samples);
  return w;
}

traces::TelemetryData data_of(std::vector<traces::WorkloadSamples> workloads,
                              traces::TelemetryFormat format = traces::TelemetryFormat::dcgm_prometheus) {
  traces::TelemetryData data;
  data.path = "scrape.prom";
  data.format = format;
  data.workloads = std::move(workloads);
  for (const auto& w : data.workloads) data.num_samples += static_cast<std::int64_t>(w.samples.size());
  return data;
}

TenantProfiles estimate(const traces::TelemetryData& data, double busy_above = 0.0) {
  EstimateOptions options;
  options.busy_above = busy_above;
  return estimate_tenants(data, options, models::GpuCatalog::shipped());
}

TEST(WeightedSpread, ConstantSamplesHaveNoSpread) {
  const auto s = weighted_spread({{0.5, 1.0}, {0.5, 1.0}, {0.5, 1.0}, {0.5, 1.0}, {0.5, 1.0}});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->num_samples, 5);
  EXPECT_EQ(s->mean, 0.5);
  EXPECT_EQ(s->std_dev, 0.0);
  EXPECT_EQ(s->p5, 0.5);
  EXPECT_EQ(s->p95, 0.5);
  EXPECT_FALSE(weighted_spread({}).has_value());
}

TEST(WeightedSpread, AlternatingValuesGiveTheirMeanAndHalfTheirDistance) {
  // 0.25 and 0.75 four times each: mean 0.5, population standard deviation 0.25; nearest rank: p50
  // is the 4th of 8 (0.25), p95 the 8th (0.75).
  std::vector<std::pair<double, double>> values;
  for (int i = 0; i < 4; ++i) {
    values.emplace_back(0.25, 1.0);
    values.emplace_back(0.75, 1.0);
  }
  const auto s = weighted_spread(values);
  EXPECT_EQ(s->mean, 0.5);
  EXPECT_EQ(s->std_dev, 0.25);
  EXPECT_EQ(s->min, 0.25);
  EXPECT_EQ(s->p5, 0.25);
  EXPECT_EQ(s->p50, 0.25);
  EXPECT_EQ(s->p95, 0.75);
  EXPECT_EQ(s->max, 0.75);
}

TEST(WeightedSpread, WeightsCountLikeTime) {
  // 1.0 for a quarter of the time, 0.5 for three quarters: mean 0.625, variance
  // 0.25 * 0.375² + 0.75 * 0.125² = 0.046875; half the weight is reached at 0.5.
  const auto s = weighted_spread({{1.0, 0.25}, {0.5, 0.75}});
  EXPECT_EQ(s->mean, 0.625);
  EXPECT_DOUBLE_EQ(s->std_dev, std::sqrt(0.046875));
  EXPECT_EQ(s->p50, 0.5);
  EXPECT_EQ(s->p95, 1.0);
}

TEST(TenantProfile, ConstantSamplesGiveExactEstimates) {
  std::vector<TelemetrySample> samples(4, sample(0.5, 0.25, 0.125, 8.0));
  const auto profiles = estimate(data_of({workload("ns/p/c", samples)}));
  ASSERT_EQ(profiles.tenants.size(), 1u);
  const auto& t = profiles.tenants[0];
  EXPECT_EQ(t.name, "ns/p/c");
  EXPECT_EQ(t.num_samples, 4);
  EXPECT_EQ(t.num_busy, 4);
  EXPECT_EQ(t.gpu_duty_frac, 0.5);
  EXPECT_EQ(t.sm_occupancy_frac, 0.5);  // SM_ACTIVE 0.25 over the half of the time the engine is busy
  EXPECT_EQ(t.mem_bw_frac, 0.25);
  EXPECT_EQ(t.memory_gib, 8.0);
  EXPECT_EQ(t.duty->std_dev, 0.0);
  EXPECT_EQ(t.sm->std_dev, 0.0);
  EXPECT_EQ(t.reference_gpu, "H100-SXM-80GB");
  EXPECT_TRUE(t.notes.empty()) << t.notes.front();
  EXPECT_TRUE(profiles.skipped.empty());
}

TEST(TenantProfile, AKnownMixtureOfTwoPods) {
  // Pod a alternates 0.25 / 0.75 busy with half its SMs active; pod b is always busy and alternates
  // 0.25 / 0.75 of the memory bandwidth.
  std::vector<TelemetrySample> a;
  std::vector<TelemetrySample> b;
  for (int i = 0; i < 3; ++i) {
    a.push_back(sample(0.25, 0.125, 0.0, 2.0));
    a.push_back(sample(0.75, 0.375, 0.0, 4.0));
    b.push_back(sample(1.0, 1.0, 0.25, 16.0));
    b.push_back(sample(1.0, 1.0, 0.75, 16.0));
  }
  const auto profiles = estimate(data_of({workload("a", a), workload("b", b)}));
  ASSERT_EQ(profiles.tenants.size(), 2u);
  const auto& pa = profiles.tenants[0];
  EXPECT_EQ(pa.gpu_duty_frac, 0.5);
  EXPECT_EQ(pa.duty->mean, 0.5);
  EXPECT_EQ(pa.duty->std_dev, 0.25);
  EXPECT_EQ(pa.sm_occupancy_frac, 0.5);
  EXPECT_EQ(pa.sm->std_dev, 0.0);
  EXPECT_EQ(pa.mem_bw_frac, 0.0);
  EXPECT_EQ(pa.memory_gib, 4.0);  // the largest sample, not the mean
  EXPECT_EQ(pa.memory->mean, 3.0);
  EXPECT_EQ(pa.memory->std_dev, 1.0);
  const auto& pb = profiles.tenants[1];
  EXPECT_EQ(pb.gpu_duty_frac, 1.0);
  EXPECT_EQ(pb.sm_occupancy_frac, 1.0);
  EXPECT_EQ(pb.mem_bw_frac, 0.5);
  EXPECT_EQ(pb.bandwidth->std_dev, 0.25);
  EXPECT_EQ(pb.bandwidth->p5, 0.25);
  EXPECT_EQ(pb.bandwidth->p95, 0.75);
}

TEST(TenantProfile, SmAndBandwidthAreWeightedByEngineActivity) {
  // Busy a quarter of one period with every SM, three quarters of the next with half of them: while
  // running, the SMs were 0.625 busy (Σ SM_ACTIVE / Σ GR_ENGINE_ACTIVE), not 0.75 (the mean of the
  // two ratios).
  const auto profiles = estimate(data_of({workload("w", {sample(0.25, 0.25, 0.25), sample(0.75, 0.375, 0.0)})}));
  const auto& t = profiles.tenants[0];
  EXPECT_EQ(t.sm_occupancy_frac, 0.625);
  EXPECT_DOUBLE_EQ(t.sm->std_dev, std::sqrt(0.046875));
  // DRAM busy for all of the first period's busy time and none of the second's: a quarter of it.
  EXPECT_EQ(t.mem_bw_frac, 0.25);
}

TEST(TenantProfile, IdleSamplesCountForMemoryOnly) {
  const auto data = data_of(
      {workload("w", {sample(0.0, 0.0, 0.0, 30.0), sample(0.5, 0.25, 0.25, 10.0), sample(0.2, 0.1, 0.1, 10.0)})});
  const auto profiles = estimate(data);
  const auto& t = profiles.tenants[0];
  EXPECT_EQ(t.num_busy, 3 - 1);
  EXPECT_DOUBLE_EQ(*t.gpu_duty_frac, 0.35);
  EXPECT_EQ(t.memory_gib, 30.0);  // memory held while idle is held all the same
  // Above a threshold, the 0.2 sample is idle too.
  const auto above_profiles = estimate(data, 0.3);
  const auto& above = above_profiles.tenants[0];
  EXPECT_EQ(above.num_busy, 1);
  EXPECT_EQ(above.gpu_duty_frac, 0.5);
}

TEST(TenantProfile, WorkloadsNeverBusyAreSkippedWithTheReason) {
  const auto profiles =
      estimate(data_of({workload("idle", {sample(0.0, {}, {}, 1.0), sample(0.0, {}, {}, 1.0)}),
                        workload("memory-only", {sample({}, {}, {}, 1.0)}), workload("busy", {sample(0.5)})}));
  ASSERT_EQ(profiles.tenants.size(), 1u);
  EXPECT_EQ(profiles.tenants[0].name, "busy");
  ASSERT_EQ(profiles.skipped.size(), 2u);
  EXPECT_EQ(profiles.skipped[0].name, "idle");
  EXPECT_EQ(profiles.skipped[0].num_samples, 2);
  EXPECT_EQ(profiles.skipped[0].reason,
            "never busy: DCGM_FI_PROF_GR_ENGINE_ACTIVE <= 0 in every sample that gives it (2 samples)");
  EXPECT_EQ(profiles.skipped[1].reason, "no DCGM_FI_PROF_GR_ENGINE_ACTIVE value in its 1 sample");
}

TEST(TenantProfile, WhatCannotBeEstimatedIsLeftOutWithANote) {
  // dcgm-exporter's default counters leave SM_ACTIVE out, and this scrape has no FB_USED either.
  const auto profiles = estimate(data_of({workload("w", {sample(0.5)}, "")}));
  const auto& t = profiles.tenants[0];
  EXPECT_FALSE(t.sm_occupancy_frac);
  EXPECT_FALSE(t.mem_bw_frac);
  EXPECT_FALSE(t.memory_gib);
  EXPECT_EQ(t.reference_gpu, "");
  EXPECT_EQ(t.notes,
            (std::vector<std::string>{
                "sm_occupancy_frac left out (the scenario's default is 1): no DCGM_FI_PROF_SM_ACTIVE value in a busy "
                "sample; dcgm-exporter exports it when its line in the counters CSV is not commented out",
                "mem_bw_frac left out (the scenario's default is 0): no DCGM_FI_PROF_DRAM_ACTIVE value in a busy "
                "sample; dcgm-exporter exports it when its line in the counters CSV is not commented out",
                "memory_gib left out (a scenario requires it: set it by hand): no DCGM_FI_DEV_FB_USED value; "
                "dcgm-exporter exports it when its line in the counters CSV is not commented out",
                "the file names no GPU model: reference_gpu left out (--reference-gpu sets one)"}));
  const auto pai =
      estimate(data_of({workload("worker", {sample(0.5, {}, {}, 0.0)}, "")}, traces::TelemetryFormat::pai_sensor));
  EXPECT_EQ(pai.tenants[0].notes,
            (std::vector<std::string>{
                "sm_occupancy_frac left out (the scenario's default is 1): the format records no SM activity",
                "mem_bw_frac left out (the scenario's default is 0): the format records no memory bandwidth activity",
                "memory_gib left out (a scenario requires it: set it by hand): max_gpu_wrk_mem is 0 in every sample",
                "the file names no GPU model: reference_gpu left out (--reference-gpu sets one)"}));
}

TEST(TenantProfile, ReferenceGpuFromTheModelUnlessMigOrUnknown) {
  auto mig = workload("mig", {sample(0.5, 0.25, 0.25, 8.0)}, "NVIDIA A100-SXM4-80GB");
  mig.mig_profiles.insert("3g.40gb");
  auto unknown = workload("unknown", {sample(0.5, 0.25, 0.25, 8.0)}, "NVIDIA A800-SXM4-80GB");
  auto mixed = workload("mixed", {sample(0.5, 0.25, 0.25, 8.0)}, "NVIDIA L4");
  mixed.gpu_models.insert("NVIDIA L40S");
  const auto profiles = estimate(data_of({mig, unknown, mixed}));
  EXPECT_EQ(profiles.tenants[0].reference_gpu, "");
  EXPECT_EQ(profiles.tenants[0].notes,
            std::vector<std::string>{"measured on a MIG instance (\"3g.40gb\"): its fractions are of the instance, not "
                                     "of the whole GPU; reference_gpu left out"});
  EXPECT_EQ(profiles.tenants[1].notes,
            std::vector<std::string>{"GPU model \"NVIDIA A800-SXM4-80GB\" is not in the GPU catalog: reference_gpu "
                                     "left out (`slicewise gpus` lists the ids; --reference-gpu sets one)"});
  EXPECT_EQ(profiles.tenants[2].notes,
            std::vector<std::string>{
                "samples from several GPU models (\"NVIDIA L4\", \"NVIDIA L40S\"): reference_gpu left out"});
  EstimateOptions options;
  options.reference_gpu = "A100-80GB";
  const auto given = estimate_tenants(data_of({unknown}), options, models::GpuCatalog::shipped());
  EXPECT_EQ(given.tenants[0].reference_gpu, "A100-80GB");
  EXPECT_TRUE(given.tenants[0].notes.empty());
}

TEST(TenantProfile, CatalogIdsOfDcgmModelNames) {
  const auto& gpus = models::GpuCatalog::shipped();
  EXPECT_EQ(catalog_gpu_of("NVIDIA H100 80GB HBM3", gpus), "H100-SXM-80GB");
  EXPECT_EQ(catalog_gpu_of("NVIDIA A100-SXM4-80GB", gpus), "A100-80GB");
  EXPECT_EQ(catalog_gpu_of("NVIDIA A100 80GB PCIe", gpus), "A100-PCIe-80GB");
  EXPECT_EQ(catalog_gpu_of("NVIDIA H100 PCIe", gpus), "H100-PCIe-80GB");
  EXPECT_EQ(catalog_gpu_of("NVIDIA L40S", gpus), "L40S");
  EXPECT_EQ(catalog_gpu_of("Tesla T4", gpus), "T4");
  EXPECT_EQ(catalog_gpu_of("Tesla V100-SXM2-32GB", gpus), "V100-32GB");
  EXPECT_EQ(catalog_gpu_of("NVIDIA A800-SXM4-80GB", gpus), "");
  EXPECT_EQ(catalog_gpu_of("", gpus), "");
}

TEST(TenantProfile, FiguresAreRoundedAsAScenarioTakesThem) {
  const auto profiles = estimate(data_of({workload("w", {sample(0.00001, 0.000001, 0.000001, 15.7)}),
                                          workload("v", {sample(0.123456, 0.1, 0.1, 10.0004)})}));
  const auto& w = profiles.tenants[0];
  EXPECT_EQ(w.name, "w");
  EXPECT_EQ(w.gpu_duty_frac, 0.0001);  // > 0 as the scenario requires
  EXPECT_EQ(w.memory_gib, 15.7);       // not 15.701: 15.7 * 1000 is 15700.000000000002
  const auto& v = profiles.tenants[1];
  EXPECT_EQ(v.gpu_duty_frac, 0.1235);
  EXPECT_EQ(v.memory_gib, 10.001);  // memory is rounded up, never understated
}

TEST(TenantProfile, TheWorkloadObjectPastesIntoAScenario) {
  std::vector<TelemetrySample> samples(3, sample(0.6, 0.48, 0.3, 41.0));
  const auto data = data_of({workload("inference/vllm-0/vllm", samples)});
  const auto document = to_json(data, estimate(data));
  const auto& tenant = document["tenants"][0];
  EXPECT_EQ(tenant["name"], "inference/vllm-0/vllm");
  EXPECT_EQ(tenant["workload"].dump(),
            R"({"reference_gpu":"H100-SXM-80GB","gpu_duty_frac":0.6,"sm_occupancy_frac":0.8,"mem_bw_frac":0.5,)"
            R"("memory_gib":41.0,"source":"dcgm-prometheus: scrape.prom, 3 busy samples of 3; gpu_duty_frac )"
            R"(0.600 ± 0.000, sm_occupancy_frac 0.800 ± 0.000, mem_bw_frac 0.500 ± 0.000, memory_gib max 41.000"})");
  EXPECT_EQ(tenant["spread"]["gpu_duty_frac"].dump(),
            R"({"samples":3,"mean":0.6,"std":0.0,"min":0.6,"p5":0.6,"p50":0.6,"p95":0.6,"max":0.6})");
  EXPECT_EQ(document["source"]["format"], "dcgm-prometheus");
  EXPECT_EQ(document["source"]["samples"], 3);
  EXPECT_TRUE(document["source"]["time_span_s"].is_null());

  auto workload_json = nlohmann::json::parse(tenant["workload"].dump());
  workload_json["kind"] = "generic";
  workload_json["solo_latency_s"] = 0.05;
  // examples/mixed-mig-h100.json's fleet and prices, and the tenant as pasted.
  auto scenario_json = nlohmann::json::parse(R"({
    "schema_version": 1, "name": "pasted",
    "fleet": [{"instance_type": "p5.4xlarge", "count": 1}],
    "strategies": [{"kind": "dedicated"}],
    "pricing": {"table": "aws", "region": "us-east-1", "option": "on_demand"}})");
  scenario_json["tenants"] = nlohmann::json::array();
  scenario_json["tenants"].push_back({{"name", tenant["name"].get<std::string>()},
                                      {"workload", workload_json},
                                      {"load", {{"kind", "poisson"}, {"rate_per_s", 1.0}}}});
  const auto scenario = scenario::parse_scenario(scenario_json, "pasted.json");
  const auto problems = scenario::validate_scenario(scenario, scenario::Catalogs::shipped());
  EXPECT_TRUE(problems.empty()) << format_all(problems);
  ASSERT_EQ(scenario.tenants.size(), 1u);
  EXPECT_EQ(scenario.tenants[0].workload.gpu_duty_frac, 0.6);
  EXPECT_EQ(scenario.tenants[0].workload.sm_occupancy_frac, 0.8);
  EXPECT_EQ(scenario.tenants[0].workload.mem_bw_frac, 0.5);
  EXPECT_EQ(scenario.tenants[0].workload.memory_gib, 41.0);
  EXPECT_EQ(scenario.tenants[0].workload.reference_gpu, "H100-SXM-80GB");
  EXPECT_EQ(scenario.tenants[0].workload.source, tenant["workload"]["source"].get<std::string>());
}

TEST(TenantProfile, WorkloadSourceNamesTheFileTheSamplesAndEachFiguresSpread) {
  // Pod a of AKnownMixtureOfTwoPods: duty 0.25 / 0.75 (mean 0.5, std 0.25), SM 0.5 throughout, no
  // bandwidth, memory 2 / 4 GiB; read from a file in a folder, of which only the base name is kept.
  std::vector<TelemetrySample> a;
  for (int i = 0; i < 3; ++i) {
    a.push_back(sample(0.25, 0.125, 0.0, 2.0));
    a.push_back(sample(0.75, 0.375, 0.0, 4.0));
  }
  a.push_back(sample(0.0, 0.0, 0.0, 1.0));  // idle: counts for memory only
  auto data = data_of({workload("a", a)});
  data.path = "/var/lib/telemetry/node-1.prom";
  const auto profiles = estimate(data);
  EXPECT_EQ(workload_source(data, profiles.tenants[0]),
            "dcgm-prometheus: node-1.prom, 6 busy samples of 7; gpu_duty_frac 0.500 ± 0.250, sm_occupancy_frac "
            "0.500 ± 0.000, mem_bw_frac 0.000 ± 0.000, memory_gib max 4.000");
  // What the telemetry lacks is left out of the source as of the workload.
  const auto bare = data_of({workload("w", {sample(0.5)}, "")}, traces::TelemetryFormat::dcgmi_dmon);
  const auto bare_profiles = estimate(bare);
  EXPECT_EQ(workload_source(bare, bare_profiles.tenants[0]),
            "dcgmi-dmon: scrape.prom, 1 busy sample of 1; gpu_duty_frac 0.500 ± 0.000");
}

}  // namespace
}  // namespace slicewise::calibration
