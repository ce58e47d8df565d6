// The telemetry readers on their upstream-format fixtures (test/data/telemetry/README.md says where
// each layout comes from), the grouping into workloads, and the whole message of each bad line.
#include <fstream>

#include <gtest/gtest.h>

#include "test/test_util.hpp"
#include "traces/telemetry_detail.hpp"
#include "traces/telemetry_readers.hpp"

namespace slicewise::traces {
namespace {

using detail::parse_prometheus_line;
using detail::PrometheusLine;
using slicewise::test::error_of;

std::string telemetry_fixture(const std::string& name) { return std::string(SW_TEST_DATA_DIR) + "/telemetry/" + name; }
std::string example_scrape() { return std::string(SW_SOURCE_DIR) + "/examples/telemetry/dcgm-exporter-h100.prom"; }

/// Writes `text` to a file under the test's temporary directory and returns its path.
std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::string(::testing::TempDir()) + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const WorkloadSamples& workload(const TelemetryData& data, const std::string& name) {
  for (const auto& w : data.workloads) {
    if (w.name == name) return w;
  }
  throw std::runtime_error("no workload " + name);
}

std::vector<std::string> names(const TelemetryData& data) {
  std::vector<std::string> out;
  for (const auto& w : data.workloads) out.push_back(w.name);
  return out;
}

TelemetryData read(const std::string& path, TelemetryFormat format, std::optional<TelemetryGrouping> group_by = {},
                   BadRowPolicy policy = BadRowPolicy::fail) {
  TelemetryOptions options;
  options.group_by = group_by;
  options.on_bad_row = policy;
  return read_telemetry(path, format, options);
}

std::string read_error(const std::string& path, TelemetryFormat format) {
  return error_of([&] { read(path, format); });
}

// The label set of one GPU as dcgm-exporter 3.x writes it for a pod.
const std::string kPodLabels =
    R"({gpu="0",UUID="GPU-5f8a1c2e",pci_bus_id="00000000:18:00.0",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",)"
    R"(Hostname="node-1",DCGM_FI_DRIVER_VERSION="550.54.15",container="c",namespace="ns",pod="p"})";

TEST(TelemetryNames, FormatsAndGroupingsRoundTrip) {
  EXPECT_EQ(telemetry_format_names(), (std::vector<std::string>{"dcgm-prometheus", "dcgmi-dmon", "pai-sensor"}));
  for (const auto& name : telemetry_format_names()) EXPECT_EQ(to_string(*telemetry_format_from_string(name)), name);
  EXPECT_FALSE(telemetry_format_from_string("prometheus"));
  EXPECT_EQ(telemetry_grouping_from_string("namespace"), TelemetryGrouping::kube_namespace);
  EXPECT_EQ(groupings_of(TelemetryFormat::dcgmi_dmon), std::vector<TelemetryGrouping>{TelemetryGrouping::gpu});
  EXPECT_EQ(groupings_of(TelemetryFormat::pai_sensor).front(), TelemetryGrouping::task);
}

TEST(DcgmPrometheus, ConcatenatedScrapesJoinEachGpusMetricsPerScrape) {
  const auto data = read(example_scrape(), TelemetryFormat::dcgm_prometheus);
  // Four scrapes of three GPUs; the GPU no pod holds is named by its node and index.
  EXPECT_EQ(names(data),
            (std::vector<std::string>{"gpu-node-1/gpu2", "inference/vllm-0/vllm", "training/resnet-train-0/pytorch"}));
  EXPECT_EQ(data.num_samples, 12);
  EXPECT_EQ(data.group_by, TelemetryGrouping::container);
  EXPECT_FALSE(data.time_span_s.has_value());  // dcgm-exporter writes no timestamps
  const auto& vllm = workload(data, "inference/vllm-0/vllm");
  ASSERT_EQ(vllm.samples.size(), 4u);
  EXPECT_EQ(vllm.gpu_models, (std::set<std::string>{"NVIDIA H100 80GB HBM3"}));
  EXPECT_TRUE(vllm.mig_profiles.empty());
  const auto& second = vllm.samples[1];
  EXPECT_EQ(second.gr_engine_active, 0.8);
  EXPECT_EQ(second.sm_active, 0.64);
  EXPECT_EQ(second.sm_occupancy, 0.32);
  EXPECT_EQ(second.dram_active, 0.4);
  EXPECT_EQ(second.memory_gib, 40.0);  // 40960 MiB
  EXPECT_EQ(vllm.samples[3].memory_gib, 41.0);
  EXPECT_EQ(workload(data, "gpu-node-1/gpu2").samples[0].gr_engine_active, 0.0);
}

TEST(DcgmPrometheus, GroupByPodNamespaceGpuOrOneName) {
  EXPECT_EQ(names(read(example_scrape(), TelemetryFormat::dcgm_prometheus, TelemetryGrouping::pod)),
            (std::vector<std::string>{"gpu-node-1/gpu2", "inference/vllm-0", "training/resnet-train-0"}));
  EXPECT_EQ(names(read(example_scrape(), TelemetryFormat::dcgm_prometheus, TelemetryGrouping::kube_namespace)),
            (std::vector<std::string>{"gpu-node-1/gpu2", "inference", "training"}));
  EXPECT_EQ(names(read(example_scrape(), TelemetryFormat::dcgm_prometheus, TelemetryGrouping::gpu)),
            (std::vector<std::string>{"gpu-node-1/gpu0", "gpu-node-1/gpu1", "gpu-node-1/gpu2"}));
  TelemetryOptions pooled;
  pooled.name = "all\x1b[31m";
  const auto all = read_telemetry(example_scrape(), TelemetryFormat::dcgm_prometheus, pooled);
  EXPECT_EQ(names(all), std::vector<std::string>{"all_[31m"});  // no control characters in a tenant name
  EXPECT_EQ(all.workloads[0].samples.size(), 12u);
}

TEST(DcgmPrometheus, MigInstancesWithTimestamps) {
  const auto data = read(telemetry_fixture("dcgm-exporter-mig.prom"), TelemetryFormat::dcgm_prometheus);
  EXPECT_EQ(names(data), (std::vector<std::string>{"search/embedder-7d9f/tei", "search/ranker-5c2b/ranker"}));
  EXPECT_EQ(data.time_span_s, 2.0);  // 1700000000000 .. 1700000002000 ms
  const auto& ranker = workload(data, "search/ranker-5c2b/ranker");
  EXPECT_EQ(ranker.mig_profiles, (std::set<std::string>{"3g.40gb"}));
  ASSERT_EQ(ranker.samples.size(), 3u);
  EXPECT_EQ(ranker.samples[0].gr_engine_active, 0.25);
  EXPECT_EQ(ranker.samples[1].gr_engine_active, 0.75);
  EXPECT_EQ(ranker.samples[2].gr_engine_active, 0.0);
  EXPECT_EQ(ranker.samples[1].sm_active, 0.375);
  EXPECT_EQ(workload(data, "search/embedder-7d9f/tei").samples[1].memory_gib, 12.0);
  EXPECT_EQ(names(read(telemetry_fixture("dcgm-exporter-mig.prom"), TelemetryFormat::dcgm_prometheus,
                       TelemetryGrouping::gpu)),
            (std::vector<std::string>{"a100-node-7/gpu0/gi1", "a100-node-7/gpu0/gi2"}));
}

TEST(DcgmPrometheus, MetricsItDoesNotUseAreSkippedWhateverTheirValue) {
  // A real scrape carries dozens of fields: only their syntax is checked.
  const auto path = write_file("other-metrics.prom",
                               "# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.\n"
                               "DCGM_FI_DEV_XID_ERRORS" +
                                   kPodLabels +
                                   " 9223372036854775794\n"
                                   "my_app_requests_total{code=\"200\",} +Inf\n"
                                   "  DCGM_FI_PROF_GR_ENGINE_ACTIVE" +
                                   kPodLabels + "\t0.5\n");
  const auto data = read(path, TelemetryFormat::dcgm_prometheus);
  EXPECT_EQ(names(data), std::vector<std::string>{"ns/p/c"});
  EXPECT_EQ(data.workloads[0].samples[0].gr_engine_active, 0.5);
}

TEST(DcgmPrometheus, LabelValuesAreUnescaped) {
  PrometheusLine line;
  const std::string path = "x.prom";
  const FieldContext at{&path, 1};
  ASSERT_TRUE(parse_prometheus_line(R"(m{pod="a\"b\\c\nd" , ns = "x"} 1 1700000000000)", line, at));
  EXPECT_EQ(line.metric, "m");
  EXPECT_EQ(line.label("pod"), "a\"b\\c\nd");
  EXPECT_EQ(line.label("ns"), "x");
  EXPECT_EQ(line.label("container"), "");
  EXPECT_EQ(line.value, "1");
  EXPECT_EQ(line.timestamp_ms, 1700000000000);
  EXPECT_FALSE(parse_prometheus_line("# TYPE m gauge", line, at));
  EXPECT_FALSE(parse_prometheus_line("   ", line, at));
  const auto scrape = write_file("escaped-pod.prom", "DCGM_FI_PROF_GR_ENGINE_ACTIVE{pod=\"a\\nb\"} 0.5\n");
  EXPECT_EQ(names(read(scrape, TelemetryFormat::dcgm_prometheus)), std::vector<std::string>{"a_b"});
}

TEST(DcgmiDmon, RowsPerEntityUnderARepeatedHeader) {
  const auto data = read(telemetry_fixture("dcgmi-dmon.txt"), TelemetryFormat::dcgmi_dmon);
  EXPECT_EQ(names(data), (std::vector<std::string>{"gpu0", "gpu1"}));
  EXPECT_EQ(data.num_samples, 34);  // 17 samples of 2 GPUs; the header comes again after 15
  const auto& gpu0 = workload(data, "gpu0");
  ASSERT_EQ(gpu0.samples.size(), 17u);
  EXPECT_FALSE(gpu0.samples[0].gr_engine_active.has_value());  // N/A: the first sample after the start
  EXPECT_EQ(gpu0.samples[0].memory_gib, 1.0);
  EXPECT_EQ(gpu0.samples[1].gr_engine_active, 0.25);
  EXPECT_EQ(gpu0.samples[1].sm_active, 0.125);
  EXPECT_EQ(gpu0.samples[1].sm_occupancy, 0.1);
  EXPECT_EQ(gpu0.samples[16].gr_engine_active, 0.75);
  EXPECT_EQ(gpu0.samples[16].memory_gib, 16.0);
  EXPECT_TRUE(gpu0.gpu_models.empty());
}

TEST(DcgmiDmon, MigInstancesAreMarked) {
  const auto path = write_file("dmon-mig.txt",
                               "#Entity   GRACT        FBUSD             \n"
                               "ID                                       \n"
                               "GPU 0     0.500        20480             \n"
                               "GPU-I 1   0.250        10240             \n");
  const auto data = read(path, TelemetryFormat::dcgmi_dmon);
  EXPECT_EQ(names(data), (std::vector<std::string>{"gpu-i1", "gpu0"}));
  EXPECT_EQ(workload(data, "gpu-i1").mig_profiles, std::set<std::string>{""});
  EXPECT_TRUE(workload(data, "gpu0").mig_profiles.empty());
}

TEST(PaiSensor, InstancesByTaskOrJob) {
  const auto data = read(telemetry_fixture("pai_sensor_table.csv"), TelemetryFormat::pai_sensor);
  EXPECT_EQ(names(data), (std::vector<std::string>{"ps", "worker"}));
  EXPECT_EQ(data.num_incomplete, 1);  // the evaluator has no gpu_wrk_util
  const auto& worker = workload(data, "worker");
  ASSERT_EQ(worker.samples.size(), 3u);
  EXPECT_EQ(worker.samples[0].gr_engine_active, 0.5);
  EXPECT_EQ(worker.samples[0].memory_gib, 4.0);
  // 150 % of a GPU: two GPUs at 0.75, the instance's 20 GB spread over them.
  EXPECT_EQ(worker.samples[2].gr_engine_active, 0.75);
  EXPECT_EQ(worker.samples[2].memory_gib, 10.0);
  EXPECT_FALSE(worker.samples[0].sm_active.has_value());
  EXPECT_EQ(workload(data, "ps").samples[0].gr_engine_active, 0.0);
  const auto by_job =
      read(telemetry_fixture("pai_sensor_table.csv"), TelemetryFormat::pai_sensor, TelemetryGrouping::job);
  EXPECT_EQ(names(by_job), (std::vector<std::string>{"4b3f04b66a525d2df903eb16", "af724763f4f5d0beef445849"}));
}

TEST(TelemetryBadInput, APrometheusLineThatIsNotOneNamesItsLine) {
  const auto bad = telemetry_fixture("bad-label.prom");
  EXPECT_EQ(read_error(bad, TelemetryFormat::dcgm_prometheus),
            bad + ":4: expected , or } after label \"pod\", got \"0.950000\"");
  const auto csv = write_file("not-prometheus.prom", "gpu,util\n0,0.5\n");
  EXPECT_EQ(read_error(csv, TelemetryFormat::dcgm_prometheus),
            csv +
                ":1: not a Prometheus sample line: expected a metric name (letters, digits, _ and :) and a value, got "
                "\"gpu,util\"");
  const auto unclosed = write_file("unclosed.prom", "# HELP x y\nDCGM_FI_PROF_SM_ACTIVE{pod=\"abc} 1\n");
  EXPECT_EQ(read_error(unclosed, TelemetryFormat::dcgm_prometheus),
            unclosed + ":2: label \"pod\": its value has no closing quote");
  const auto escape = write_file("escape.prom", "DCGM_FI_PROF_SM_ACTIVE{pod=\"a\\qb\"} 1\n");
  EXPECT_EQ(read_error(escape, TelemetryFormat::dcgm_prometheus),
            escape + ":1: label \"pod\": unknown escape \"\\\\q\" in its value (allowed: \\\\, \\\" and \\n)");
  const auto no_value = write_file("no-value.prom", "DCGM_FI_PROF_SM_ACTIVE{pod=\"a\"}\n");
  EXPECT_EQ(read_error(no_value, TelemetryFormat::dcgm_prometheus),
            no_value + ":1: expected a value after \"DCGM_FI_PROF_SM_ACTIVE\" and its labels");
  const auto no_equals = write_file("no-equals.prom", "DCGM_FI_PROF_SM_ACTIVE{pod:\"a\"} 1\n");
  EXPECT_EQ(read_error(no_equals, TelemetryFormat::dcgm_prometheus),
            no_equals + ":1: label \"pod\": expected =, got \":\\\"a\\\"} 1\"");
}

TEST(TelemetryBadInput, ValuesAndTimestamps) {
  const auto text = write_file("not-a-number.prom", "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + kPodLabels + " abc\n");
  EXPECT_EQ(read_error(text, TelemetryFormat::dcgm_prometheus),
            text + ":1: DCGM_FI_PROF_GR_ENGINE_ACTIVE: expected a number, got \"abc\"");
  const auto nan = write_file("nan.prom", "DCGM_FI_PROF_DRAM_ACTIVE" + kPodLabels + " NaN\n");
  EXPECT_EQ(read_error(nan, TelemetryFormat::dcgm_prometheus),
            nan + ":1: DCGM_FI_PROF_DRAM_ACTIVE: expected a number, got \"NaN\"");
  const auto percent = write_file("percent.prom", "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + kPodLabels + " 45.3\n");
  EXPECT_EQ(read_error(percent, TelemetryFormat::dcgm_prometheus),
            percent +
                ":1: DCGM_FI_PROF_GR_ENGINE_ACTIVE: must be in [0, 1] (got 45.3): DCGM's profiling fields are ratios, "
                "not percentages");
  const auto memory = write_file("memory.prom", "DCGM_FI_DEV_FB_USED" + kPodLabels + " -1\n");
  EXPECT_EQ(read_error(memory, TelemetryFormat::dcgm_prometheus),
            memory + ":1: DCGM_FI_DEV_FB_USED: must be >= 0 (got -1)");
  const auto stamp = write_file("stamp.prom", "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + kPodLabels + " 0.5 12.5\n");
  EXPECT_EQ(read_error(stamp, TelemetryFormat::dcgm_prometheus),
            stamp + ":1: timestamp: expected whole milliseconds since 1970, got \"12.5\"");
  const auto extra = write_file("extra.prom", "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + kPodLabels + " 0.5 1000 x\n");
  EXPECT_EQ(read_error(extra, TelemetryFormat::dcgm_prometheus),
            extra + ":1: unexpected text after the timestamp: \"x\"");
  const auto mixed = write_file("mixed.prom", "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + kPodLabels + " 0.5 1000\n" +
                                                  "DCGM_FI_PROF_SM_ACTIVE" + kPodLabels + " 0.5\n");
  EXPECT_EQ(read_error(mixed, TelemetryFormat::dcgm_prometheus),
            mixed + ":2: no timestamp, but line 1 had one: a file's samples carry timestamps all or none");
  const auto twice = write_file("twice.prom", "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + kPodLabels + " 0.5 1000\n" +
                                                  "DCGM_FI_PROF_GR_ENGINE_ACTIVE" + kPodLabels + " 0.25 1000\n");
  EXPECT_EQ(read_error(twice, TelemetryFormat::dcgm_prometheus),
            twice +
                ":2: DCGM_FI_PROF_GR_ENGINE_ACTIVE given twice at timestamp 1000 for node-1/gpu0 (workload ns/p/c); "
                "each metric may appear once per GPU and instant");
}

TEST(TelemetryBadInput, AFileWithoutSamplesSaysWhatItLacks) {
  const auto comments = write_file("comments.prom",
                                   "# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).\n"
                                   "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\"} 1980\n");
  EXPECT_EQ(read_error(comments, TelemetryFormat::dcgm_prometheus),
            comments +
                ": no sample of a DCGM field profile import uses (DCGM_FI_PROF_GR_ENGINE_ACTIVE, "
                "DCGM_FI_PROF_SM_ACTIVE, DCGM_FI_PROF_SM_OCCUPANCY, DCGM_FI_PROF_DRAM_ACTIVE, DCGM_FI_DEV_FB_USED): "
                "not a dcgm-exporter scrape, or one without them");
  const auto csv = write_file("not-dmon.txt", "gpu,util\n0,0.5\n");
  EXPECT_EQ(read_error(csv, TelemetryFormat::dcgmi_dmon),
            csv + ":1: a row before the #Entity header: expected `dcgmi dmon` output, which starts with its header");
  EXPECT_EQ(
      error_of([&] { read(csv, TelemetryFormat::dcgmi_dmon, std::nullopt, BadRowPolicy::skip); }),
      csv +
          ": no #Entity header: not `dcgmi dmon` output, which starts with a line like \"#Entity   GRACT   SMACT  "
          " SMOCC   DRAMA   FBUSD\"");
}

TEST(TelemetryBadInput, DmonRowsAndHeaders) {
  const auto no_gract = write_file("no-gract.txt", "#Entity   SMACT        DRAMA\nID\nGPU 0     0.5          0.5\n");
  const std::string no_gract_message =
      no_gract +
      ":1: no GRACT column (the header has: SMACT, DRAMA); profile import needs DCGM_FI_PROF_GR_ENGINE_ACTIVE: dcgmi "
      "dmon -e 1001,1002,1003,1005,252";
  EXPECT_EQ(read_error(no_gract, TelemetryFormat::dcgmi_dmon), no_gract_message);
  // The file as a whole is wrong: skipping lines cannot help.
  EXPECT_EQ(error_of([&] { read(no_gract, TelemetryFormat::dcgmi_dmon, std::nullopt, BadRowPolicy::skip); }),
            no_gract_message);
  const auto header = std::string("#Entity   GRACT        SMACT        SMOCC        DRAMA        FBUSD\nID\n");
  const auto fields = write_file("dmon-fields.txt", header + "GPU 0     0.500        0.400        0.200        0.1\n");
  EXPECT_EQ(
      read_error(fields, TelemetryFormat::dcgmi_dmon),
      fields + ":3: expected an entity (\"GPU 0\") and 5 values (GRACT, SMACT, SMOCC, DRAMA, FBUSD), got 6 fields");
  const auto percent = write_file("dmon-percent.txt", header + "GPU 0     45.3   0.4   0.2   0.1   512\n");
  EXPECT_EQ(read_error(percent, TelemetryFormat::dcgmi_dmon),
            percent + ":3: GRACT: must be in [0, 1] (got 45.3): DCGM's profiling fields are ratios, not percentages");
  const auto entity = write_file("dmon-entity.txt", header + "GPU x     0.5   0.4   0.2   0.1   512\n");
  EXPECT_EQ(read_error(entity, TelemetryFormat::dcgmi_dmon), entity + ":3: entity: expected a number, got \"x\"");
}

TEST(TelemetryBadInput, PaiRows) {
  const auto short_row = write_file("pai_sensor_table.csv", "job,worker,w,i,m,g,1\n");
  EXPECT_EQ(read_error(short_row, TelemetryFormat::pai_sensor),
            short_row +
                ":1: expected 16 fields (job_name, task_name, worker_name, inst_id, machine, gpu_name, cpu_usage, "
                "gpu_wrk_util, avg_mem, max_mem, avg_gpu_wrk_mem, max_gpu_wrk_mem, read, write, read_count, "
                "write_count), got 7");
  const auto text = write_file("pai_sensor_text.csv", "job,worker,w,i,m,g,1,abc,1,1,1,1,0,0,0,0\n");
  EXPECT_EQ(read_error(text, TelemetryFormat::pai_sensor), text + ":1: gpu_wrk_util: expected a number, got \"abc\"");
}

TEST(TelemetryBadInput, SkipCountsBadLinesAndKeepsTheRest) {
  const auto bad = telemetry_fixture("bad-label.prom");
  const auto data = read(bad, TelemetryFormat::dcgm_prometheus, std::nullopt, BadRowPolicy::skip);
  EXPECT_EQ(data.num_bad_rows, 1);
  EXPECT_EQ(data.bad_rows, std::vector<std::string>{bad + ":4: expected , or } after label \"pod\", got \"0.950000\""});
  // The skipped line leaves a hole, not a shift: the next scrape still joins by GPU.
  const auto& trainer = workload(data, "training/resnet-train-0/pytorch");
  ASSERT_EQ(trainer.samples.size(), 2u);
  EXPECT_FALSE(trainer.samples[0].gr_engine_active.has_value());
  EXPECT_EQ(trainer.samples[0].memory_gib, 60.0);
  EXPECT_EQ(trainer.samples[1].gr_engine_active, 0.9);
}

}  // namespace
}  // namespace slicewise::traces
