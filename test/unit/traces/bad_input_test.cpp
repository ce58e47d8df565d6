// Adversarial trace input: values that would overflow a later conversion, keys and columns given
// twice, arrivals out of order, and the whole message each gets.
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "trace_test_util.hpp"
#include "traces/fields.hpp"
#include "traces/native_trace.hpp"
#include "traces/trace_summary.hpp"

namespace slicewise::traces {
namespace {

using test::error_of;
using test::fixture;
using test::read_all;

/// Writes `text` to a file under the test's temporary directory and returns its path.
std::string write_trace(const std::string& name, const std::string& text) {
  const auto path = std::string(::testing::TempDir()) + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// The message of the first bad row (or file) of `path` read in `format`.
std::string read_error(const std::string& path, std::optional<TraceFormat> format = std::nullopt) {
  return error_of([&] {
    auto reader = open_trace(path, format);
    read_all(*reader);
  });
}

TEST(BadTraceInput, AFifoOrAFolderIsRefusedAtOnceNeverReadForever) {
  // A FIFO passed as a trace blocked its open forever (no writer ever comes).
  const auto fifo = std::string(::testing::TempDir()) + "trace.fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(read_error(fifo, TraceFormat::native), fifo + ": cannot open: not a regular file");
  ::unlink(fifo.c_str());
  const std::string folder = ::testing::TempDir();
  EXPECT_EQ(read_error(folder, TraceFormat::native), folder + ": cannot open: a folder, not a trace file");
}

TEST(BadTraceInput, AFilesTextInAMessageIsShortAndEscaped) {
  // A trace_file pointing at any readable file echoed its whole first line, terminal escapes and
  // all (a 50 MB line gave a 52 MB message): at most 80 bytes now, control characters escaped.
  const auto path = write_trace("not-a-trace.csv", "root:$6$x\x1b[31m:" + std::string(1000, 'a') + "\n1\n");
  EXPECT_EQ(read_error(path, TraceFormat::native),
            path + ":1: missing column \"arrived_at_s\" (the header has: root:$6$x\\x1b[31m:" + std::string(65, 'a') +
                "...)");
  const auto bad = write_trace("bad-number.csv", "arrived_at_s,solo_latency_s\n" + std::string(200, '7') + "x\x07,1\n");
  const auto message = read_error(bad, TraceFormat::native);
  EXPECT_LT(message.size(), 200u) << message;
  EXPECT_EQ(message.find('\x07'), std::string::npos) << message;
}

TEST(BadTraceInput, TimestampsOutside1970To2261AreRefusedNotWrapped) {
  // Nanoseconds since 1970 of year 9999 overflow 64 bits; so does the difference of two timestamps
  // centuries apart. Both used to wrap silently (signed overflow).
  EXPECT_FALSE(parse_datetime_ns("9999-12-31 23:59:59").has_value());
  EXPECT_FALSE(parse_datetime_ns("1969-12-31 23:59:59").has_value());
  EXPECT_FALSE(parse_datetime_ns("1970-01-01 00:30:00+01:00").has_value());  // 1969 in UTC
  EXPECT_TRUE(parse_datetime_ns("2261-12-31 23:59:59.999999999-12:00").has_value());
  EXPECT_EQ(*parse_datetime_ns("1970-01-01 00:00:00"), 0);
  const auto path = write_trace("azure-year-9999.csv",
                                "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                "2023-11-16 18:15:46,374,44\n"
                                "9999-12-31 23:59:59,1,1\n");
  EXPECT_EQ(read_error(path), path +
                                  ":3: TIMESTAMP: timestamp out of range: expected 1970-01-01 00:00:00 UTC to "
                                  "2261-12-31, got \"9999-12-31 23:59:59\"");
}

TEST(BadTraceInput, HugeTimesTokensAndGpuCountsAreRefused) {
  struct Case {
    std::string text;
    std::string expected;  // after "path:2: "
  };
  const std::vector<Case> cases = {
      {"arrived_at_s\n1e300\n", "arrived_at_s: must be <= 1e+12 (got 1e300)"},
      {"arrived_at_s,duration_s\n0,2e12\n", "duration_s: must be <= 1e+12 (got 2e12)"},
      {"arrived_at_s,prompt_tokens\n0,1e300\n", "prompt_tokens: must be <= 1e+09 (got 1e300)"},
      {"arrived_at_s,num_gpus\n0,99999999999\n", "num_gpus: must be <= 1000000 (got 99999999999)"},
      {"TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,1000000001,1\n",
       "ContextTokens: must be <= 1000000000 (got 1000000001)"},
      {"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
       "p1,1,1,99999999999,1000,,LS,Running,0,10,0\n",
       "num_gpu: must be <= 1000000 (got 99999999999)"},
      {"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
       "p1,1,1,1,1000,,LS,Running,0,9000000000000000,0\n",
       "deletion_time: must be <= 1000000000000 (got 9000000000000000)"},
      {"sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,2147483647,T4\n", "gpu: must be <= 1000000 (got 2147483647)"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto path = write_trace("huge-" + std::to_string(i) + ".csv", cases[i].text);
    EXPECT_EQ(read_error(path), path + ":2: " + cases[i].expected);
  }
  // PAI's plan_gpu is percent of a GPU: 1e300 % used to become a negative GPU count (a cast out of range).
  const auto dir = std::string(::testing::TempDir()) + "pai-huge";
  std::filesystem::create_directories(dir);
  const auto pai = dir + "/pai_task_table.csv";
  std::ofstream(pai) << "j,t,1,Terminated,100,200,1,1,1e300,V100\n";
  EXPECT_EQ(read_error(pai), pai + ":1: plan_gpu: must be <= 1e+08 (got 1e300)");
}

TEST(BadTraceInput, PaiTaskRowsInAnotherColumnOrderAreRefused) {
  // The table has no header row. Rows with status and inst_num swapped used to be read: text in the
  // count column, a number as the state, every task "not failed".
  const auto dir = std::string(::testing::TempDir()) + "pai-order";
  std::filesystem::create_directories(dir);
  const auto pai = dir + "/pai_task_table.csv";
  std::ofstream(pai) << "j,t,Terminated,1.0,100,200,600,29.3,50,T4\n";
  EXPECT_EQ(read_error(pai), pai + ":1: inst_num: expected a number, got \"Terminated\"");
  std::ofstream(pai) << "j,t,,1.0,100,200,600,29.3,50,T4\n";
  EXPECT_EQ(read_error(pai), pai +
                                 ":1: status: expected a state such as Terminated, Failed or Running (got \"1.0\"); "
                                 "the columns must be in the order job_name,task_name,inst_num,status,start_time,"
                                 "end_time,plan_cpu,plan_mem,plan_gpu,gpu_type, or list them in a .header file of the "
                                 "same name beside it");
}

TEST(BadTraceInput, AColumnGivenTwiceIsRefused) {
  const auto path = write_trace("twice.csv", "arrived_at_s,prompt_tokens,arrived_at_s\n0,1,5\n");
  EXPECT_EQ(read_error(path),
            path + ":1: column \"arrived_at_s\" appears twice (columns 1 and 3); each column may appear once");
}

TEST(BadTraceInput, AQuotedFieldSpanningLinesSaysWhyItIsUnclosed) {
  const auto path = write_trace("multiline.csv", "arrived_at_s,team\n0,\"a\nb\"\n");
  EXPECT_EQ(read_error(path), path + ":2: unclosed quote (a quoted field must end on its own line)");
}

TEST(BadTraceInput, MooncakeKeysGivenTwiceAndBrokenLinesAreNamed) {
  const std::string good = R"({"timestamp": 0, "input_length": 1, "output_length": 2})";
  struct Case {
    std::string line;
    std::string expected;  // after "path:2: "
  };
  const std::vector<Case> cases = {
      {R"({"timestamp": 0, "input_length": 1, "output_length": 2, "timestamp": 7})",
       "timestamp: key given twice (each key may appear once)"},
      {R"({"timestamp": 0, "input_length": 1)",
       "expected one JSON object per line (column 35: syntax error while parsing object - unexpected end of input; "
       "expected '}')"},
      {R"({"timestamp": 1e400, "input_length": 1, "output_length": 2})",
       "expected one JSON object per line (number overflow parsing '1e400')"},
      {"[1, 2]", "expected one JSON object per line, got [1,2]"},
      {R"({"timestamp": 1e300, "input_length": 1, "output_length": 2})", "timestamp: must be <= 1e+15 (got 1e+300)"},
      {R"({"timestamp": 0, "input_length": 1e10, "output_length": 2})",
       "input_length: must be <= 1e+09 (got 10000000000.0)"},
      {R"({"timestamp": 0, "input_length": 1000, "output_length": 2, "hash_ids": 7})",
       "hash_ids: expected an array of integers >= 0, got 7"},
      {R"({"timestamp": 0, "input_length": 1000, "output_length": 2, "hash_ids": [0]})",
       "hash_ids: expected one hash per block of 512 prompt tokens: 2 for 1000 tokens (got 1)"},
      {R"({"timestamp": 0, "input_length": 1000, "output_length": 2, "hash_ids": [0, -1]})",
       "hash_ids: expected an array of integers >= 0, got -1 in it"},
      {R"({"timestamp": 0, "input_length": 1500, "output_length": 2, "hash_ids": [4, 5, 4]})",
       "hash_ids: 4 is listed twice (a block's hash names its whole prefix: once a row)"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto path = write_trace("mooncake-" + std::to_string(i) + ".jsonl", good + "\n" + cases[i].line + "\n");
    EXPECT_EQ(read_error(path, TraceFormat::mooncake), path + ":2: " + cases[i].expected);
  }
}

TEST(BadTraceInput, PhillyReadsGzipAndNamesAKeyGivenTwice) {
  // Every reader takes .gz / .zst (docs/trace-formats.md); the Philly reader used to read raw bytes.
  auto plain = open_trace(fixture("philly_job_log.json"), std::nullopt);
  auto gzipped = open_trace(fixture("philly_job_log.json.gz"), TraceFormat::philly);
  const auto a = read_all(*plain);
  const auto b = read_all(*gzipped);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].at_s, b[i].at_s);
    EXPECT_EQ(a[i].num_gpus, b[i].num_gpus);
  }
  const auto path = write_trace("philly-twice.json",
                                R"([{"submitted_time": "2017-10-01 00:00:00", "attempts": []},
                                    {"submitted_time": "2017-10-01 00:00:00", "attempts": [{"start_time": "None",
                                      "start_time": "2017-10-01 00:00:05"}]}])");
  EXPECT_EQ(read_error(path), path + ": /1/attempts/0/start_time: key given twice (each key may appear once)");
  // Under skip, the job is one bad row and the others are read.
  auto skipping = open_trace(path, std::nullopt, {BadRowPolicy::skip, ""});
  EXPECT_EQ(read_all(*skipping).size(), 1u);
  EXPECT_EQ(skipping->num_bad_rows(), 1);
  const auto broken = write_trace("philly-broken.json", R"([{"submitted_time": "2017-10-01 00:00:00", "attempts": [])");
  EXPECT_EQ(read_error(broken),
            broken +
                ": not valid JSON: line 1, column 58: syntax error while parsing object - unexpected end of "
                "input; expected '}'");
}

TEST(BadTraceInput, ConvertRefusesArrivalsGoingBackInTimeInASortedFormat) {
  // Converting used to write a negative arrived_at_s, which the native reader then refuses.
  const auto path = write_trace("backwards.csv", "arrived_at_s,prompt_tokens\n5,10\n3,20\n");
  auto reader = open_trace(path, std::nullopt);
  std::ostringstream out;
  EXPECT_EQ(error_of([&] { write_native(*reader, out, ""); }),
            path +
                ":3: arrival goes back in time (-2.000000 s after the first row, line 2 was at 0.000000 s); this "
                "format must be in arrival order");
  auto again = open_trace(path, std::nullopt);
  const auto summary = summarize(*again);
  EXPECT_EQ(summary.num_out_of_order, 1);
  EXPECT_EQ(summary.first_out_of_order_line, 3);
  EXPECT_TRUE(summary.must_be_sorted);
}

TEST(BadTraceInput, TheLargestAllowedValuesSummarizeWithoutOverflow) {
  const auto path = write_trace("largest.csv",
                                "arrived_at_s,prompt_tokens,output_tokens,duration_s,num_gpus\n"
                                "0,0,0,0,1\n"
                                "1e12,1e9,1e9,1e12,1000000\n");
  auto reader = open_trace(path, std::nullopt);
  const auto s = summarize(*reader);
  EXPECT_EQ(s.num_rows, 2);
  EXPECT_EQ(s.last_at_s, 1e12);
  EXPECT_EQ(s.prompt_tokens.max(), 1'000'000'000);
  EXPECT_EQ(s.duration_ms.max(), 1'000'000'000'000'000);
  EXPECT_EQ(s.per_minute.count(), 16'666'666'667);  // every minute of the span, the quiet ones as 0
  EXPECT_EQ(s.total_gpus, 1'000'001);
}

}  // namespace
}  // namespace slicewise::traces
