// The strict measurement loader: units, parameters, the MISO layout, and line-precise errors.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "calibration_test_util.hpp"

namespace slicewise::calibration {
namespace {

using test::error_of;
using test::kHeader;
using test::load;
using test::write_file;

TEST(Measurements, ARowIsReadInBaseUnitsWithItsParametersAndRun) {
  const auto path = write_file(
      "good.csv", std::string("# probe header\n\n") + kHeader +
                      "A100-SXM4-40GB,mig,3g.20gb,1,resnet,batch_size=64,time_p99,12.5,ms,probe:x,2026-11-20,\n"
                      "H100-SXM-80GB,time_slicing,,2,spin,\"kernel_ms=2; "
                      "gpu_duty_frac=1\",throughput,480,1/s,probe:ts,2026-11-21,r1\n"
                      "H100-SXM-80GB,dedicated,,1,stream,,mem_bandwidth,2.9,TB/s,probe:bw,2026-11-21,\n");
  const auto rows = load(path);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].gpu, "A100-40GB");  // the alias resolves to the catalog id
  EXPECT_EQ(rows[0].mig_profile, "3g.20gb");
  EXPECT_DOUBLE_EQ(rows[0].value, 0.0125);
  EXPECT_EQ(rows[0].line, 4);
  EXPECT_EQ(rows[0].workload_key(), "resnet[batch_size=64]");
  EXPECT_EQ(rows[1].run, "r1");
  EXPECT_EQ(rows[1].n_contexts, 2);
  EXPECT_DOUBLE_EQ(rows[1].param("kernel_ms", 0), 2.0);
  EXPECT_DOUBLE_EQ(rows[1].param("gpu_duty_frac", 0), 1.0);
  EXPECT_EQ(rows[1].metric, Metric::throughput);
  EXPECT_DOUBLE_EQ(rows[2].value, 2900.0);
}

TEST(Measurements, TheMisoTableBecomesMedianAndP90Rows) {
  const std::string miso = std::string(SW_SOURCE_DIR) + "/data/measurements/miso-a100-40gb-mig-steps.csv";
  const auto rows = load(miso);
  ASSERT_EQ(rows.size(), 2u * 87u);
  EXPECT_EQ(rows[0].gpu, "A100-40GB");
  EXPECT_EQ(rows[0].strategy, models::StrategyKind::mig);
  EXPECT_EQ(rows[0].workload_key(), "bert[batch_size=2]");
  EXPECT_EQ(rows[0].metric, Metric::time_median);
  EXPECT_DOUBLE_EQ(rows[0].value, 0.1213);
  EXPECT_EQ(rows[1].metric, Metric::time_p90);
  EXPECT_DOUBLE_EQ(rows[1].value, 0.1225);
  EXPECT_EQ(rows[0].line, 10);  // after the 8 comment lines naming the source, and the header
}

TEST(Measurements, AnOpenLoopServersOfferedLoadIsAFractionOfItsSoloCapacity) {
  const auto path =
      write_file("open-loop.csv", std::string(kHeader) +
                                      "A100-40GB,dedicated,,1,server,\"gpu_duty_frac=0.9;offered_load=0.5\","
                                      "time_mean,4.033,ms,x,2024-10-09,\n");
  const auto rows = load(path);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].param("offered_load", 0.0), 0.5);
  EXPECT_EQ(rows[0].workload_key(), "server[gpu_duty_frac=0.9;offered_load=0.5]");
  // 0 would be no requests at all; above 1 the server could never keep up alone.
  for (const char* load_text : {"0", "1.5", "-0.2"}) {
    const auto bad = write_file("open-loop-bad.csv", std::string(kHeader) +
                                                         "A100-40GB,dedicated,,1,server,offered_load=" + load_text +
                                                         ",time_mean,4,ms,x,2024-10-09,\n");
    EXPECT_NE(error_of([&] {
                load(bad);
              }).find(bad + ":2: workload_params: offered_load must be in (0, 1], got " + load_text),
              std::string::npos)
        << load_text;
  }
}

struct BadCase {
  const char* name;
  std::string row;
  std::string expected;  // after "file:3: "
};

TEST(Measurements, EachBadFieldGetsALinePreciseMessage) {
  const std::vector<BadCase> cases = {
      {"gpu", "A100-40G,dedicated,,1,w,,time_mean,1,s,x,2026-01-01,",
       "gpu: unknown GPU \"A100-40G\"; see `slicewise gpus` (did you mean \"A100-40GB\"?)"},
      {"strategy", "L4,timeslicing,,1,w,,time_mean,1,s,x,2026-01-01,", "strategy: unknown \"timeslicing\""},
      {"unit", "L4,dedicated,,1,w,,time_mean,1,sec,x,2026-01-01,", "unit: unknown \"sec\"; expected s|ms|us"},
      {"param", "L4,dedicated,,1,w,batch=4,time_mean,1,s,x,2026-01-01,",
       "workload_params: unknown parameter \"batch\""},
      {"range", "L4,dedicated,,1,w,gpu_duty_frac=1.5,time_mean,1,s,x,2026-01-01,",
       "workload_params: gpu_duty_frac must be in (0, 1], got 1.5"},
      {"value", "L4,dedicated,,1,w,,time_mean,-2,s,x,2026-01-01,", "value: must be > 0, got -2"},
      {"date", "L4,dedicated,,1,w,,time_mean,1,s,x,2026-02-30,",
       "date: expected a date YYYY-MM-DD, got \"2026-02-30\""},
      {"profile", "A100-40GB,mig,3g.40gb,1,w,,time_mean,1,s,x,2026-01-01,",
       "mig_profile: \"3g.40gb\" is not a MIG profile of A100-40GB"},
      {"nomig", "L4,mig,1g.6gb,1,w,,time_mean,1,s,x,2026-01-01,", "gpu: L4 does not support MIG"},
      {"contexts", "L4,dedicated,,2,w,,time_mean,1,s,x,2026-01-01,",
       "n_contexts: strategy dedicated runs one context per device, got 2"},
      {"source", "L4,dedicated,,1,w,,time_mean,1,s,,2026-01-01,", "source: must not be empty"},
      {"fields", "L4,dedicated,,1,w,,time_mean,1,s,x,2026-01-01", "expected 12 fields"},
  };
  for (const auto& c : cases) {
    const auto path =
        write_file(std::string("bad-") + c.name + ".csv",
                   std::string(kHeader) + "L4,dedicated,,1,ok,,time_mean,1,s,x,2026-01-01,\n" + c.row + "\n");
    const std::string message = error_of([&] { load(path); });
    EXPECT_NE(message.find(path + ":3: " + c.expected), std::string::npos) << c.name << ": " << message;
  }
}

TEST(Measurements, AMissingColumnOrAnEmptyFileIsNamed) {
  const auto no_unit = write_file(
      "no-unit.csv", "gpu,strategy,mig_profile,n_contexts,workload,workload_params,metric,value,source,date\n");
  EXPECT_NE(error_of([&] { load(no_unit); }).find("missing column"), std::string::npos);
  const auto empty = write_file("empty.csv", "# nothing\n");
  EXPECT_NE(error_of([&] { load(empty); }).find("no header row"), std::string::npos);
  const auto header_only = write_file("header-only.csv", kHeader);
  EXPECT_NE(error_of([&] { load(header_only); }).find("no measurements after the header"), std::string::npos);
}

TEST(Measurements, AColumnGivenTwiceOrNotOfTheFormatIsRefused) {
  // The first "value" used to win silently; a typo such as "runs" used to drop the co-run ids.
  const auto twice = write_file("value-twice.csv",
                                "gpu,strategy,mig_profile,n_contexts,workload,workload_params,metric,"
                                "value,value,unit,source,date,run\n"
                                "L4,dedicated,,1,w,,time_mean,1,2,s,x,2026-01-01,\n");
  EXPECT_EQ(error_of([&] { load(twice); }),
            twice + ":1: column \"value\" appears twice (columns 8 and 9); each column may appear once");
  const auto typo = write_file("runs.csv",
                               "gpu,strategy,mig_profile,n_contexts,workload,workload_params,metric,value,"
                               "unit,source,date,runs\n"
                               "L4,dedicated,,1,w,,time_mean,1,s,x,2026-01-01,\n");
  EXPECT_EQ(error_of([&] { load(typo); }),
            typo +
                ":1: unknown column \"runs\"; allowed: gpu, strategy, mig_profile, n_contexts, workload, "
                "workload_params, metric, value, unit, source, date, run (did you mean \"run\"?)");
  // Header names are trimmed like the fields.
  const auto spaced =
      write_file("spaced.csv", std::string(" gpu ,strategy,mig_profile,n_contexts,workload,workload_params,"
                                           "metric,value,unit,source,date,run\n") +
                                   "L4,dedicated,,1,w,,time_mean,1,s,x,2026-01-01,\n");
  EXPECT_EQ(load(spaced).size(), 1u);
}

TEST(Measurements, AValueOutOfRangeOnceConvertedIsRefused) {
  const auto big =
      write_file("big.csv", std::string(kHeader) + "L4,dedicated,,1,w,,mem_bandwidth,1e307,TB/s,x,2026-01-01,\n");
  EXPECT_EQ(error_of([&] { load(big); }),
            big + ":2: value: 1e307 TB/s is out of range once converted to GB/s (finite and > 0)");
  const auto tiny =
      write_file("tiny.csv", std::string(kHeader) + "L4,dedicated,,1,w,,time_mean,1e-320,us,x,2026-01-01,\n");
  EXPECT_EQ(error_of([&] { load(tiny); }),
            tiny + ":2: value: 1e-320 us is out of range once converted to s (finite and > 0)");
}

TEST(Measurements, ContextCountsOutOfRangeSayWhatIsAllowed) {
  for (const char* n : {"0", "-3", "1025", "1.5"}) {
    const auto path = write_file("contexts.csv",
                                 std::string(kHeader) + "L4,time_slicing,," + n + ",w,,time_mean,1,s,x,2026-01-01,\n");
    EXPECT_EQ(error_of([&] { load(path); }), path + ":2: n_contexts: must be an integer in [1, 1024], got " + n);
  }
}

TEST(Measurements, ARowListedTwiceIsRefused) {
  // Three copies of one shared row fitted η with a standard error of 2e-16.
  const auto path =
      write_file("repeated.csv", std::string(kHeader) +
                                     "L40S,dedicated,,1,w,gpu_duty_frac=0.5,time_mean,0.5,s,x,2026-01-01,\n"
                                     "L40S,time_slicing,,2,w,gpu_duty_frac=0.5,time_mean,1.0,s,x,2026-01-01,\n"
                                     "L40S,time_slicing,,2,w,gpu_duty_frac=0.5,time_mean,1.0,s,x,2026-01-01,\n");
  EXPECT_EQ(error_of([&] { load(path); }),
            path +
                ":4: repeats line 3 (every field the same); list a measurement once, or tell repeated runs apart by "
                "their run column");
  // The same numbers from two runs are two measurements.
  const auto runs = write_file("two-runs.csv", std::string(kHeader) +
                                                   "L40S,time_slicing,,2,w,,time_mean,1.0,s,x,2026-01-01,r1\n"
                                                   "L40S,time_slicing,,2,w,,time_mean,1.0,s,x,2026-01-01,r2\n");
  EXPECT_EQ(load(runs).size(), 2u);
}

TEST(Measurements, ACoLocationFileIsReadAsItsProcessesThroughputs) {
  // The H200 co-location runs: a row per process; each loop's burst is its solo period (it
  // synchronises after each GEMM), its demands the file's compute_frac and mem_bw_frac.
  std::vector<std::string> notes;
  const std::string file = std::string(SW_SOURCE_DIR) + "/data/measurements/h200-colocation.csv";
  const auto rows = load_measurements(file, models::GpuCatalog::shipped(), models::MigCatalog::shipped(), &notes);
  ASSERT_EQ(rows.size(), 27u);  // 27 processes, 12 of them under MPS
  EXPECT_EQ(rows[0].gpu, "H200");
  EXPECT_EQ(rows[0].strategy, models::StrategyKind::dedicated);
  EXPECT_EQ(rows[0].workload_key().rfind("decode[compute_frac=0.006568;kernel_ms=0.79", 0), 0u)
      << rows[0].workload_key();
  EXPECT_DOUBLE_EQ(rows[0].param("kernel_ms", 0), 1000.0 / 1253.61);
  EXPECT_EQ(rows[0].run, "");
  EXPECT_EQ(rows[2].run, "ts_decode_decode");
  EXPECT_EQ(rows[2].n_contexts, 2);
  EXPECT_DOUBLE_EQ(rows[2].value, 544.29);
  EXPECT_EQ(rows[2].date, "2026-11-28");
  EXPECT_TRUE(notes.empty());
  EXPECT_DOUBLE_EQ(rows[0].param("mem_bw_frac", 0), 1.0);
  EXPECT_DOUBLE_EQ(rows[1].param("compute_frac", 0), 1.0);
  const auto capped =
      std::find_if(rows.begin(), rows.end(), [](const auto& m) { return m.run == "mps_decode_prefill25"; });
  ASSERT_NE(capped, rows.end());
  EXPECT_EQ(capped->strategy, models::StrategyKind::mps);
}

TEST(Measurements, ACoLocationFileSaysWhatItLacks) {
  const std::string header = "set,mechanism,n_processes,kind,thread_pct,iters_per_s,solo_iters_per_s,relative_speed\n";
  const std::string row = "alone,dedicated,1,decode,100,10,10,1.000\n";
  auto path = write_file("colo-no-gpu.csv", "# date: 2026-11-28\n" + header + row);
  EXPECT_EQ(error_of([&] { load(path); }),
            path + ":2: a co-location file names its GPU in a `# gpu: NAME` comment line before its header");
  path = write_file("colo-bad-speed.csv",
                    "# gpu: H200\n# date: 2026-11-28\n" + header + row +
                        "ts,time_slicing,2,decode,100,4,10,0.5\nts,time_slicing,2,decode,100,4,10,0.4\n");
  EXPECT_EQ(error_of([&] { load(path); }),
            path + ":5: relative_speed: 0.5 is not iters_per_s / solo_iters_per_s (0.4)");
  path =
      write_file("colo-mechanism.csv", "# gpu: H200\n# date: 2026-11-28\n" + header + "x,hami,1,decode,100,10,10,1\n");
  EXPECT_EQ(error_of([&] { load(path); }), path + ":4: mechanism: must be dedicated, time_slicing or mps, got hami");
  path = write_file("colo-no-date.csv", "# gpu: H200\n# date: last week\n" + header + row);
  EXPECT_EQ(error_of([&] { load(path); }),
            path + ":3: a co-location file gives its date in a `# date: YYYY-MM-DD` comment line before its header");
  path = write_file("colo-column.csv", "# gpu: H200\n# date: 2026-11-28\nset,mechanism,n_process,relative_speed\n");
  EXPECT_EQ(error_of([&] { load(path); }),
            path +
                ":3: unknown column \"n_process\" of a co-location file; allowed: set, mechanism, n_processes, "
                "kind, thread_pct, iters_per_s, solo_iters_per_s, relative_speed, compute_frac, mem_bw_frac (did you "
                "mean \"n_processes\"?)");
  const std::string with_demands =
      "# gpu: H200\n# date: 2026-11-28\n" + header.substr(0, header.size() - 1) + ",compute_frac,mem_bw_frac\n";
  path = write_file("colo-demand.csv", with_demands + "alone,dedicated,1,decode,100,10,10,1.000,0.01,1.5\n");
  EXPECT_EQ(error_of([&] { load(path); }), path + ":4: mem_bw_frac: must be in (0, 1], got 1.5");
  path = write_file("colo-demand-ok.csv", with_demands + "alone,dedicated,1,decode,100,10,10,1.000,,0.9\n");
  const auto rows = load(path);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].params.contains("compute_frac"));  // empty: not given
  EXPECT_DOUBLE_EQ(rows[0].param("mem_bw_frac", 0), 0.9);
}

TEST(Measurements, IsoDatesAreRealDays) {
  EXPECT_TRUE(is_iso_date("2024-02-29"));
  EXPECT_FALSE(is_iso_date("2023-02-29"));
  EXPECT_FALSE(is_iso_date("2023-2-28"));
  EXPECT_FALSE(is_iso_date("yesterday"));
}

}  // namespace
}  // namespace slicewise::calibration
