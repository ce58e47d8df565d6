// Each reader on the real public traces (when ../shared/traces has them) and on small fixtures for
// the formats and gotchas not present there.
#include <cmath>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "trace_test_util.hpp"
#include "traces/csv.hpp"
#include "traces/fields.hpp"
#include "traces/native_trace.hpp"
#include "traces/trace_summary.hpp"

namespace slicewise::traces {
namespace {

using test::error_of;
using test::fixture;
using test::read_all;
using test::shared_trace;
using test::shipped_trace;

double utc(const char* text) { return static_cast<double>(*parse_datetime_ns(text)) / 1e9; }

TEST(Timestamp, ThreeAzureStylesAndOffsets) {
  EXPECT_EQ(*parse_datetime_ns("1970-01-01 00:00:01"), 1'000'000'000);
  EXPECT_EQ(*parse_datetime_ns("2023-11-16 18:17:03.9799600"), *parse_datetime_ns("2023-11-16T18:17:03.97996Z"));
  EXPECT_EQ(*parse_datetime_ns("2024-05-12 00:00:00+00:00") + 9'930'000,
            *parse_datetime_ns("2024-05-12 00:00:00.009930+00:00"));
  EXPECT_EQ(*parse_datetime_ns("2024-05-12 08:00:00+08:00"), *parse_datetime_ns("2024-05-12 00:00:00"));
  EXPECT_EQ(*parse_datetime_ns("2000-03-01 00:00:00") - *parse_datetime_ns("2000-02-28 00:00:00"),
            2 * 86400'000'000'000LL);
  for (const char* bad : {"2023-11-16", "2023-02-30 00:00:00", "2023-11-16 24:00:00", "2023-11-16 10:00:00.",
                          "2023-11-16 10:00:00+0800", "2023-11-16 10:00:00.1234567890", "abc"}) {
    EXPECT_FALSE(parse_datetime_ns(bad).has_value()) << bad;
  }
}

TEST(AzureLlm, Conversation2023RealFile) {
  const auto path = shipped_trace("azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, std::nullopt);
  EXPECT_EQ(reader->format(), TraceFormat::azure_llm);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 19366u);
  EXPECT_EQ(rows.front().at_s, 0.0);
  EXPECT_EQ(reader->epoch_s(), utc("2023-11-16 18:15:46.68059"));
  EXPECT_EQ(rows.front().prompt_tokens, 374);
  EXPECT_EQ(rows.front().output_tokens, 44);
  // The last line has no trailing newline and is still read.
  EXPECT_DOUBLE_EQ(rows.back().at_s, 3501.721937);
  EXPECT_EQ(rows.back().prompt_tokens, 197);
  EXPECT_EQ(rows.back().output_tokens, 183);
  EXPECT_EQ(rows.back().line, 19367);
}

TEST(AzureLlm, Code2023RealFileSummary) {
  const auto path = shipped_trace("azure-llm-inference-2023/AzureLLMInferenceTrace_code.csv");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, TraceFormat::azure_llm);
  const auto s = summarize(*reader);
  EXPECT_EQ(s.num_rows, 8819);
  EXPECT_EQ(format_utc(s.epoch_s + s.first_at_s), "2023-11-16 18:17:03.980");
  EXPECT_EQ(format_utc(s.epoch_s + s.last_at_s), "2023-11-16 19:14:19.928");
  EXPECT_EQ(s.prompt_tokens.quantile(0.0), 3);
  EXPECT_EQ(s.prompt_tokens.max(), 7437);
  EXPECT_EQ(s.output_tokens.quantile(0.0), 6);
  EXPECT_EQ(s.output_tokens.max(), 1899);
  EXPECT_EQ(s.per_minute.count(), 58);  // 18:17 .. 19:14
}

TEST(AzureLlm, Style2024OffsetAndFractionLeftOut) {
  auto reader = open_trace(fixture("azure2024.csv"), std::nullopt);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_NEAR(rows[1].at_s - rows[0].at_s, 0.00993, 1e-9);
  EXPECT_NEAR(rows[2].at_s - rows[0].at_s, 1.5, 1e-9);
}

TEST(AzureLlm, Multimodal2025IsoTimestamps) {
  auto reader = open_trace(fixture("azure2025-multimodal.csv"), std::nullopt);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_NEAR(rows[1].at_s - rows[0].at_s, 1.731, 1e-9);
  EXPECT_EQ(rows[0].prompt_tokens, 1200);
  EXPECT_EQ(rows[1].output_tokens, 60);
}

TEST(AzureLlm, GzipAndZstdReadTransparently) {
  for (const char* name : {"azure-synthetic.csv.gz", "azure-synthetic.csv.zst"}) {
    auto reader = open_trace(fixture(name), std::nullopt);  // detected through the decompression
    const auto rows = read_all(*reader);
    ASSERT_EQ(rows.size(), 50u) << name;
    EXPECT_EQ(rows[49].prompt_tokens, 149) << name;
    EXPECT_NEAR(rows[49].at_s - rows[0].at_s, 49 + (49 * 1234567 % 10000000) * 1e-7, 1e-6) << name;
  }
}

TEST(AzureLlm, FirstBadRowFailsWithFileLineColumn) {
  auto reader = open_trace(fixture("azure-bad.csv"), std::nullopt);
  TraceRow row;
  ASSERT_TRUE(reader->next(row));
  EXPECT_EQ(error_of([&] { reader->next(row); }),
            fixture("azure-bad.csv") + ":3: GeneratedTokens: expected a number, got \"abc\"");
}

TEST(AzureLlm, SkipCountsBadRowsAndKeepsTheFirstFive) {
  auto reader = open_trace(fixture("azure-bad.csv"), std::nullopt, {BadRowPolicy::skip, ""});
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].line, 7);
  EXPECT_EQ(reader->num_bad_rows(), 4);
  const std::string f = fixture("azure-bad.csv");
  EXPECT_EQ(
      reader->bad_rows(),
      (std::vector<std::string>{f + ":3: GeneratedTokens: expected a number, got \"abc\"",
                                f + ":4: ContextTokens: must be >= 0 (got -3)",
                                f + ":5: TIMESTAMP: expected a timestamp YYYY-MM-DD HH:MM:SS[.fraction][Z|+HH:MM], got "
                                    "\"2023-11-16 25:15:51.0000000\"",
                                f + ":6: expected 3 fields (TIMESTAMP, ContextTokens, GeneratedTokens), got 2"}));
}

TEST(Mooncake, RealFileBucketedTimestamps) {
  const auto path = shipped_trace("mooncake-fast25/conversation_trace.jsonl");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, std::nullopt);
  EXPECT_EQ(reader->format(), TraceFormat::mooncake);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 12031u);
  EXPECT_EQ(rows[0].at_s, 0.0);
  EXPECT_EQ(rows[1].at_s, 0.0);  // many rows share one timestamp
  EXPECT_EQ(rows[0].prompt_tokens, 6758);
  EXPECT_EQ(rows[0].output_tokens, 500);
  // hash_ids: one per block of 512 prompt tokens, ceil(6758 / 512) = 14; the second row shares the
  // first block (a system prompt) and then has its own.
  ASSERT_EQ(rows[0].prefix_hashes.size(), 14u);
  EXPECT_EQ(rows[0].prefix_hashes[13], 13u);
  EXPECT_EQ(rows[0].prefix_block_tokens, 512.0);
  ASSERT_EQ(rows[1].prefix_hashes.size(), 15u);
  EXPECT_EQ(rows[1].prefix_hashes[0], 0u);
  EXPECT_EQ(rows[1].prefix_hashes[1], 14u);
  EXPECT_DOUBLE_EQ(rows.back().at_s, 3536.999);
  EXPECT_EQ(rows.back().prompt_tokens, 20774);
}

TEST(BurstGpt, V1FailedRowsKeptAndMarked) {
  auto reader = open_trace(fixture("burstgpt-v1.csv"), std::nullopt, {BadRowPolicy::fail, "Model"});
  EXPECT_EQ(reader->format(), TraceFormat::burstgpt);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].at_s, 5.0);
  EXPECT_EQ(rows[0].prompt_tokens, 472);
  EXPECT_EQ(rows[0].key, "ChatGPT");
  EXPECT_FALSE(rows[0].failed);
  EXPECT_TRUE(rows[1].failed);  // 0 response tokens
  EXPECT_TRUE(rows[2].failed);  // 0 request and 0 response tokens
  EXPECT_EQ(rows[3].key, "GPT-4");
}

TEST(BurstGpt, V3InsertedColumnsFoundByName) {
  auto reader = open_trace(fixture("burstgpt-v3.csv"), std::nullopt, {BadRowPolicy::fail, "Log Type"});
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].at_s, 3.0);
  EXPECT_EQ(rows[1].prompt_tokens, 20);
  EXPECT_TRUE(rows[1].failed);
  EXPECT_EQ(rows[1].key, "API log");
}

TEST(BurstGpt, UnknownSplitColumnListsTheHeader) {
  EXPECT_EQ(error_of([] {
              open_trace(fixture("burstgpt-v1.csv"), std::nullopt, {BadRowPolicy::fail, "model"});
            }),
            fixture("burstgpt-v1.csv") +
                ":1: no column \"model\" to split by (the header has: Timestamp, Model, Request tokens, Response "
                "tokens, Total tokens, Log Type)");
}

TEST(OpenbPods, DefaultRealFile) {
  const auto path = shared_trace("alibaba-cluster-trace-gpu-v2023/openb_pod_list_default.csv");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, std::nullopt, {BadRowPolicy::fail, "qos"});
  EXPECT_EQ(reader->format(), TraceFormat::openb_pods);
  const auto s = summarize(*reader);
  EXPECT_EQ(s.num_rows, 8152);
  EXPECT_EQ(s.first_at_s, 0.0);
  EXPECT_EQ(s.last_at_s, 12901761.0);
  EXPECT_EQ(s.rows_per_key.at("LS"), 4647);
  EXPECT_EQ(s.rows_per_key.at("BE"), 3398);
  EXPECT_EQ(s.rows_per_key.at("Burstable"), 100);
  EXPECT_EQ(s.rows_per_key.at("Guaranteed"), 7);
  EXPECT_EQ(s.num_gpus.count(), 8152 - 1088);  // every pod but the CPU-only ones asks for GPUs
}

TEST(OpenbPods, FirstRowsOfTheRealFile) {
  const auto path = shared_trace("alibaba-cluster-trace-gpu-v2023/openb_pod_list_default.csv");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, TraceFormat::openb_pods);
  TraceRow row;
  ASSERT_TRUE(reader->next(row));
  EXPECT_EQ(row.duration_s, 12537496.0);
  EXPECT_EQ(row.gpu_frac, 1.0);
  ASSERT_TRUE(reader->next(row));
  EXPECT_EQ(row.at_s, 427061.0);
  EXPECT_EQ(row.gpu_frac, 0.46);
  EXPECT_EQ(row.duration_s, 12902960.0 - 427061.0);  // right-censored at the trace end
}

TEST(OpenbPods, MultigpuFilesHaveNoTimes) {
  const auto path = shared_trace("alibaba-cluster-trace-gpu-v2023/openb_pod_list_multigpu20.csv");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, std::nullopt);
  const auto s = summarize(*reader);
  EXPECT_EQ(s.num_rows, 8324);
  EXPECT_EQ(s.num_without_time, 8324);
}

TEST(OpenbPods, UnsortedVariantAndPendingAndNegativeLifetime) {
  auto reader = open_trace(fixture("openb-unsorted.csv"), std::nullopt);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].at_s, 10.0);  // pending: scheduled_time empty
  EXPECT_EQ(rows[1].duration_s, 30.0);
  EXPECT_EQ(rows[2].duration_s, 0.0);  // deletion before creation
  EXPECT_EQ(rows[2].num_gpus, 2);
  EXPECT_EQ(rows[2].gpu_frac, 1.0);
}

TEST(OpenbNodes, RealGpuNodeListIsAFleet) {
  const auto path = shared_trace("alibaba-cluster-trace-gpu-v2023/openb_node_list_gpu_node.csv");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, std::nullopt, {BadRowPolicy::fail, "model"});
  EXPECT_EQ(reader->format(), TraceFormat::openb_nodes);
  const auto s = summarize(*reader);
  EXPECT_EQ(s.num_rows, 1213);
  EXPECT_EQ(s.total_gpus, 6212);
  EXPECT_EQ(s.rows_per_key.at("G2"), 549);
  EXPECT_EQ(s.rows_per_key.at("T4"), 404);
  EXPECT_EQ(s.rows_per_key.at("A10"), 2);
}

TEST(GenAi, RealFile) {
  const auto path = shared_trace("alibaba-cluster-trace-v2026-genai/lora_request_trace.csv");
  SW_REQUIRE_FILE(path);
  auto reader = open_trace(path, std::nullopt, {BadRowPolicy::fail, "predict_type"});
  EXPECT_EQ(reader->format(), TraceFormat::genai_2026);
  const auto s = summarize(*reader);
  EXPECT_EQ(s.num_rows, 26823);
  EXPECT_EQ(format_utc(s.epoch_s + s.first_at_s), "2024-11-15 16:57:50.000");
  EXPECT_EQ(format_utc(s.epoch_s + s.last_at_s), "2024-12-08 17:33:57.000");
  EXPECT_EQ(s.num_failed, 398);
  EXPECT_EQ(s.rows_per_key.at("TXT_2_IMG"), 24438);
  EXPECT_EQ(s.duration_ms.count(), 26823);
}

TEST(Pai, TaskTableHeaderFromFileAndPercentGpus) {
  auto reader = open_trace(fixture("pai_task_table.csv"), std::nullopt, {BadRowPolicy::fail, "gpu_type"});
  EXPECT_EQ(reader->format(), TraceFormat::pai_task);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at_s, 1000.5);
  EXPECT_EQ(rows[0].duration_s, 100.0);
  EXPECT_EQ(rows[0].num_gpus, 1);
  EXPECT_EQ(rows[0].gpu_frac, 0.5);
  EXPECT_FALSE(rows[1].has_time);  // start_time 0 = unknown
  EXPECT_TRUE(rows[1].failed);
  EXPECT_EQ(rows[1].num_gpus, 8);
  EXPECT_EQ(rows[2].num_gpus, 3);
  EXPECT_NEAR(rows[2].gpu_frac, 2.5 / 3, 1e-12);
  EXPECT_EQ(rows[2].key, "P100");
}

TEST(Pai, SensorTableGivesWorkloadParameters) {
  auto reader = open_trace(fixture("pai_sensor_table.csv"), std::nullopt);
  EXPECT_EQ(reader->format(), TraceFormat::pai_sensor);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].gpu_frac, 0.35);
  EXPECT_EQ(rows[0].memory_gib, 8.0);  // GiB as written (values are MiB / 1024, whatever the README says)
  EXPECT_FALSE(rows[1].complete);      // empty gpu_wrk_util
  EXPECT_EQ(rows[2].num_gpus, 2);
  EXPECT_EQ(rows[2].gpu_frac, 0.75);
}

TEST(Philly, JobArrayWithMissingTimes) {
  auto reader = open_trace(fixture("philly_job_log.json"), std::nullopt, {BadRowPolicy::fail, "vc"});
  EXPECT_EQ(reader->format(), TraceFormat::philly);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(reader->epoch_s() + rows[0].at_s, utc("2017-10-03 10:00:00"));
  EXPECT_EQ(rows[1].at_s - rows[0].at_s, -3600.0);
  EXPECT_EQ(rows[0].duration_s, 300.0);
  EXPECT_EQ(rows[0].num_gpus, 3);
  EXPECT_EQ(rows[0].key, "vc1");
  EXPECT_TRUE(rows[1].failed);
  EXPECT_EQ(rows[1].duration_s, 19 * 60.0);  // first start to last end, over both attempts
  EXPECT_FALSE(rows[2].has_time);            // "None"
  EXPECT_FALSE(rows[3].has_time);            // ""
}

TEST(Native, OptionalColumnsAndExtraKeyColumn) {
  auto reader = open_trace(fixture("native.csv"), std::nullopt, {BadRowPolicy::fail, "team"});
  EXPECT_EQ(reader->format(), TraceFormat::native);
  const auto rows = read_all(*reader);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].duration_s, -1.0);
  EXPECT_EQ(rows[1].duration_s, 2.5);
  EXPECT_EQ(rows[1].key, "ads");
  EXPECT_TRUE(rows[2].failed);
}

TEST(Native, ConvertRoundTripsAndSortsUnsortedFormats) {
  auto reader = open_trace(fixture("openb-unsorted.csv"), std::nullopt, {BadRowPolicy::fail, "qos"});
  std::ostringstream out;
  EXPECT_EQ(write_native(*reader, out, "qos"), 3);
  EXPECT_EQ(out.str(),
            "arrived_at_s,prompt_tokens,output_tokens,duration_s,gpu_frac,num_gpus,failed,qos\n"
            "0,0,0,30,0.25,1,0,LS\n"
            "20,0,0,0,1,2,0,LS\n"
            "40,0,0,100,0.5,1,0,BE\n");
}

TEST(Detect, UnknownHeaderNamesTheFormats) {
  const auto path = std::string(::testing::TempDir()) + "unknown.csv";
  std::ofstream(path) << "when,what\n1,2\n";
  EXPECT_EQ(error_of([&] { detect_format(path); }),
            path +
                ":1: cannot tell the trace format from this header; give it with --format or \"trace_format\" "
                "(one of azure-llm|mooncake|burstgpt|openb-pods|openb-nodes|pai-task|pai-sensor|genai-2026|philly|"
                "native)");
}

TEST(Csv, QuotedFieldsWithCommasAndQuotes) {
  std::vector<std::string_view> f;
  std::string scratch;
  ASSERT_TRUE(split_csv(R"(a,"b,c","say ""hi""",,"")", f, scratch));
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[1], "b,c");
  EXPECT_EQ(f[2], "say \"hi\"");
  EXPECT_EQ(f[3], "");
  EXPECT_EQ(f[4], "");
  EXPECT_FALSE(split_csv(R"(a,"open)", f, scratch));
}

}  // namespace
}  // namespace slicewise::traces
