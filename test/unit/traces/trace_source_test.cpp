// Mapping a trace onto a tenant: window, compression, split, multiplier, sampling, order checks.
#include <fstream>

#include <gtest/gtest.h>

#include "trace_test_util.hpp"
#include "traces/trace_source.hpp"

namespace slicewise::traces {
namespace {

using test::error_of;
using test::fixture;
using test::shared_trace;
using test::shipped_trace;

/// A native trace with one row per second, t = 0..n-1, prompt_tokens = t.
std::string write_ramp(const std::string& name, int n) {
  const auto path = std::string(::testing::TempDir()) + name;
  std::ofstream out(path);
  out << "arrived_at_s,prompt_tokens,output_tokens,duration_s,kind\n";
  for (int i = 0; i < n; ++i)
    out << 100 + i << ',' << i << ",1," << 2 * i << ',' << (i % 2 == 0 ? "even" : "odd") << '\n';
  return path;
}

std::vector<RequestRecord> drain(TraceSource& source) {
  std::vector<RequestRecord> out;
  RequestRecord r;
  while (source.next(r)) out.push_back(r);
  return out;
}

TEST(TraceSource, WindowAndCompressionRebaseOnTheFirstRow) {
  TraceMapping m;
  m.window_start_s = 10.0;  // trace time: the file starts at 100 s, so rows 110..119
  m.window_end_s = 20.0;
  m.time_compression = 2.0;
  m.horizon_s = 1000.0;
  TraceSource source(open_trace(write_ramp("ramp1.csv", 100), TraceFormat::native), m);
  const auto r = drain(source);
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(r[0].arrived_at_s, 0.0);
  EXPECT_EQ(r[0].prompt_tokens, 10.0);
  EXPECT_EQ(r[9].arrived_at_s, 4.5);
  EXPECT_EQ(r[9].prompt_tokens, 19.0);
}

TEST(TraceSource, HorizonStopsTheReplay) {
  TraceMapping m;
  m.horizon_s = 5.0;
  TraceSource source(open_trace(write_ramp("ramp2.csv", 100), TraceFormat::native), m);
  EXPECT_EQ(drain(source).size(), 5u);
}

TEST(TraceSource, SplitByColumnValue) {
  TraceMapping m;
  m.horizon_s = 1000.0;
  m.select = {"odd"};
  TraceSource source(open_trace(write_ramp("ramp3.csv", 10), TraceFormat::native, {BadRowPolicy::fail, "kind"}), m);
  const auto r = drain(source);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].arrived_at_s, 1.0);  // the clock starts at the file's first row, not the tenant's
}

TEST(TraceSource, DurationBecomesWorkScale) {
  TraceMapping m;
  m.horizon_s = 1000.0;
  m.solo_latency_s = 4.0;
  TraceSource source(open_trace(write_ramp("ramp4.csv", 3), TraceFormat::native), m);
  const auto r = drain(source);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[2].work_scale, 1.0);  // 4 s / 4 s
}

TEST(TraceSource, IntegerMultiplierSpreadsCopiesOverTheGap) {
  TraceMapping m;
  m.horizon_s = 1000.0;
  m.multiplier = 4.0;
  TraceSource source(open_trace(write_ramp("ramp5.csv", 3), TraceFormat::native), m);
  const auto r = drain(source);
  ASSERT_EQ(r.size(), 12u);
  const double expected[] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2, 2, 2};  // the last row has no gap
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_DOUBLE_EQ(r[i].arrived_at_s, expected[i]) << i;
}

/// A native trace whose rows share times: 0, 0, 0, 3, 3, 6.
std::string write_ties(const std::string& name) {
  const auto path = std::string(::testing::TempDir()) + name;
  std::ofstream out(path);
  out << "arrived_at_s,prompt_tokens,output_tokens\n";
  for (int t : {0, 0, 0, 3, 3, 6}) out << t << ",1,1\n";
  return path;
}

TEST(TraceSource, TiesStayTogetherUnlessSpread) {
  TraceMapping m;
  m.horizon_s = 1000.0;
  TraceSource bursts(open_trace(write_ties("ties1.csv"), TraceFormat::native), m);
  std::vector<double> times;
  for (const auto& r : drain(bursts)) times.push_back(r.arrived_at_s);
  EXPECT_EQ(times, (std::vector<double>{0, 0, 0, 3, 3, 6}));

  // Three rows at 0 over the 3 s to the next time, two at 3 over 3 s; the last group stays.
  m.spread_ties = true;
  TraceSource spread(open_trace(write_ties("ties2.csv"), TraceFormat::native), m);
  times.clear();
  for (const auto& r : drain(spread)) times.push_back(r.arrived_at_s);
  EXPECT_EQ(times, (std::vector<double>{0, 1, 2, 3, 4.5, 6}));
}

TEST(TraceSource, SpreadTiesThenCopiesOverTheSpreadGaps) {
  TraceMapping m;
  m.horizon_s = 1000.0;
  m.spread_ties = true;
  m.multiplier = 2.0;
  TraceSource source(open_trace(write_ties("ties3.csv"), TraceFormat::native), m);
  std::vector<double> times;
  for (const auto& r : drain(source)) times.push_back(r.arrived_at_s);
  EXPECT_EQ(times, (std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.75, 4.5, 5.25, 6, 6}));
}

TEST(TraceSource, SpreadTiesOnTheMooncakeBuckets) {
  const auto path = shipped_trace("mooncake-fast25/conversation_trace.jsonl");
  SW_REQUIRE_FILE(path);
  TraceMapping m;
  m.horizon_s = 1e6;
  m.spread_ties = true;
  TraceSource source(open_trace(path, std::nullopt), m);
  const auto r = drain(source);
  ASSERT_EQ(r.size(), 12031u);  // every row, none lost or added
  // Strictly increasing except inside the last bucket, which has no next time to spread into.
  std::size_t equal = 0;
  for (std::size_t i = 1; i < r.size(); ++i) {
    ASSERT_GE(r[i].arrived_at_s, r[i - 1].arrived_at_s) << i;
    if (r[i].arrived_at_s == r[i - 1].arrived_at_s) ++equal;
  }
  std::size_t last_bucket = 0;
  while (last_bucket < r.size() && r[r.size() - 1 - last_bucket].arrived_at_s == r.back().arrived_at_s) ++last_bucket;
  EXPECT_EQ(equal, last_bucket - 1);
  EXPECT_DOUBLE_EQ(r.back().arrived_at_s, 3536.999);
}

TEST(TraceSource, FractionalMultiplierAndSamplingAreSeededAndNearTheirMean) {
  TraceMapping m;
  m.horizon_s = 1e9;
  m.multiplier = 1.5;
  m.sample_frac = 0.5;
  m.seed = 7;
  const auto path = write_ramp("ramp6.csv", 20000);
  TraceSource a(open_trace(path, TraceFormat::native), m);
  TraceSource b(open_trace(path, TraceFormat::native), m);
  const auto ra = drain(a);
  const auto rb = drain(b);
  EXPECT_EQ(ra, rb);
  // Expected 20000 × 0.5 × 1.5 = 15000; the count's sd is about 100.
  EXPECT_NEAR(static_cast<double>(ra.size()), 15000.0, 400.0);
  for (std::size_t i = 1; i < ra.size(); ++i) ASSERT_LE(ra[i - 1].arrived_at_s, ra[i].arrived_at_s);
}

TEST(TraceSource, SortedFormatGoingBackInTimeIsAnError) {
  const auto path = std::string(::testing::TempDir()) + "backwards.csv";
  std::ofstream(path) << "arrived_at_s\n0\n5\n3\n";
  TraceMapping m;
  m.horizon_s = 100.0;
  TraceSource source(open_trace(path, TraceFormat::native), m);
  EXPECT_EQ(error_of([&] { drain(source); }),
            path +
                ":4: arrival goes back in time (3.000000 s after the first row, line 3 was at 5.000000 s); this "
                "format must be in arrival order");
}

TEST(TraceSource, UnsortedFormatsAreSortedAndTimelessRowsCounted) {
  TraceMapping m;
  m.horizon_s = 100.0;
  m.solo_latency_s = 1.0;
  TraceSource source(open_trace(fixture("openb-unsorted.csv"), std::nullopt), m);
  const auto r = drain(source);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].arrived_at_s, 0.0);
  EXPECT_EQ(r[0].work_scale, 30.0);
  EXPECT_EQ(r[1].arrived_at_s, 20.0);
  EXPECT_EQ(r[2].arrived_at_s, 40.0);
  m.horizon_s = 1e4;
  TraceSource philly(open_trace(fixture("philly_job_log.json"), std::nullopt), m);
  EXPECT_EQ(drain(philly).size(), 2u);
  EXPECT_EQ(philly.num_without_time(), 2);
}

}  // namespace
}  // namespace slicewise::traces

namespace slicewise::traces {
namespace {

/// test/data/traces/native-gpu-frac.csv: gpu_frac 0.3, 0.5, empty, 1, 0 at t = 0..4.
std::vector<RequestRecord> gpu_frac_rows(bool gpu_frac_demand, double multiplier = 1.0) {
  TraceMapping m;
  m.horizon_s = 1000.0;
  m.solo_latency_s = 1.0;
  m.gpu_frac_demand = gpu_frac_demand;
  m.sm_occupancy_frac = 0.5;
  m.multiplier = multiplier;
  TraceSource source(open_trace(test::fixture("native-gpu-frac.csv"), TraceFormat::native), m);
  return drain(source);
}

TEST(TraceSource, GpuFracSetsTheDemandScaleOnlyWhenAsked) {
  std::vector<double> off;
  for (const auto& r : gpu_frac_rows(false)) off.push_back(r.demand_scale);
  EXPECT_EQ(off, (std::vector<double>{1, 1, 1, 1, 1}));
  // demand_scale = gpu_frac / sm_occupancy_frac (0.5); rows without a share (empty, 0) keep 1.
  std::vector<double> on;
  for (const auto& r : gpu_frac_rows(true)) {
    on.push_back(r.demand_scale);
    EXPECT_EQ(r.work_scale, 2.0);  // the run time is untouched
  }
  EXPECT_EQ(on, (std::vector<double>{0.6, 1.0, 1.0, 2.0, 1.0}));
}

TEST(TraceSource, MultiplierCopiesKeepTheRowsDemandScale) {
  std::vector<double> scales;
  for (const auto& r : gpu_frac_rows(true, 2.0)) scales.push_back(r.demand_scale);
  EXPECT_EQ(scales, (std::vector<double>{0.6, 0.6, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 1.0, 1.0}));
}

}  // namespace
}  // namespace slicewise::traces
