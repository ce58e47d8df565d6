// The command line driven in-process: exit codes, messages, and the simulate round trip.
#include "cli/app.hpp"

#include <filesystem>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "core/json_file.hpp"
#include "scenario/result_json.hpp"

namespace slicewise::cli {
namespace {

using test::run;

std::string example(const char* name) { return std::string(SW_SOURCE_DIR) + "/examples/" + name; }

TEST(Cli, VersionNamesTheLibraries) {
  const auto r = run({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("slicewise 0.1.0 (SimGrid 3.32", 0), 0u) << r.out;
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run({}).code, 2);
  EXPECT_EQ(run({"simulat"}).code, 2);
  const auto r = run({"mig", "A100-80GB"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "slicewise: mig: one of --layout or --enumerate is required\nRun with --help for more information.\n");
  const auto fancy = run({"simulate", example("seed-l40s-timeslicing.json"), "--progress", "fancy"});
  EXPECT_EQ(fancy.code, 2);
  // Not CLI11's "Check fancy value in {bar->1,json->2,none->3} OR {1,2,3} FAILED", which also let "1" in.
  EXPECT_EQ(
      fancy.err,
      "slicewise: --progress: unknown \"fancy\"; expected bar|json|none\nRun with --help for more information.\n");
  EXPECT_EQ(run({"simulate", example("seed-l40s-timeslicing.json"), "--progress", "1"}).code, 2);
}

TEST(Cli, MigPrintsMemoryWithTwoDecimals) {
  // The total used to print the sum's binary rounding: 38.870000000000005.
  const auto r = run({"mig", "A100-40GB", "--layout", "3g.20gb+2g.10gb+1g.5gb+1g.5gb"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("total                                       7/7   98       38.87\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("0000"), std::string::npos) << r.out;
}

TEST(Cli, HelpOfASubcommandListsItsOptions) {
  const auto r = run({"simulate", "--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--progress"), std::string::npos);
  EXPECT_NE(r.out.find("--jobs"), std::string::npos);
}

TEST(Cli, HelpWritesTheAllowedValuesPlainly) {
  // CLI11 wrote its validators: `--progress ENUM:value in {bar->1,json->2,none->3} OR {1,2,3}`.
  for (const char* command : {"simulate", "sweep"}) {
    const auto r = run({command, "--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("  --progress TEXT "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" (one of: bar, json, none; default: bar on a terminal, else none)\n"), std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("ENUM"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("->"), std::string::npos) << r.out;
  }
  const auto sweep = run({"sweep", "--help"});
  EXPECT_NE(sweep.out.find("  --emit TEXT "), std::string::npos) << sweep.out;
  EXPECT_NE(sweep.out.find(" (one of: slurm, k8s)\n"), std::string::npos) << sweep.out;
  EXPECT_NE(sweep.out.find("1-based"), std::string::npos) << sweep.out;  // --shard K/N
  EXPECT_NE(sweep.out.find("0-based"), std::string::npos) << sweep.out;  // --shard-index I
  const std::vector<std::vector<std::string>> others = {{"advise", "--help"},
                                                        {"report", "--help"},
                                                        {"trace", "inspect", "--help"},
                                                        {"trace", "convert", "--help"},
                                                        {"trace", "fleet", "--help"}};
  for (const auto& args : others) {
    const auto r = run(args);
    EXPECT_EQ(r.code, 0) << args[0];
    EXPECT_NE(r.out.find("(one of: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("ENUM"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(":{"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("->"), std::string::npos) << r.out;
  }
  const auto trace = run({"trace", "inspect", "--help"});
  EXPECT_NE(trace.out.find(" (one of: fail, skip; default: fail)\n"), std::string::npos) << trace.out;
}

TEST(Cli, HelpWritesTypesAndRangesWithoutCli11Internals) {
  // CLI11 2.1 joined the type and its validators: `--out TEXT:FILE`, `--jobs INT:INT in [1 - 64]`.
  const auto simulate = run({"simulate", "--help"});
  EXPECT_NE(simulate.out.find("  --jobs N (1-64) "), std::string::npos) << simulate.out;
  EXPECT_NE(simulate.out.find("  --out PATH "), std::string::npos) << simulate.out;
  const auto sweep = run({"sweep", "--help"});
  EXPECT_NE(sweep.out.find("  --shards N (1-100000) Excludes: --shard\n"), std::string::npos) << sweep.out;
  const auto calibrate = run({"calibrate", "--help"});
  EXPECT_NE(calibrate.out.find("  --date YYYY-MM-DD "), std::string::npos) << calibrate.out;
  const std::vector<std::vector<std::string>> every = {{"--help"},
                                                       {"validate", "--help"},
                                                       {"simulate", "--help"},
                                                       {"advise", "--help"},
                                                       {"export-config", "--help"},
                                                       {"roi", "--help"},
                                                       {"gpus", "--help"},
                                                       {"models", "--help"},
                                                       {"mig", "--help"},
                                                       {"prices", "--help"},
                                                       {"prices", "import", "--help"},
                                                       {"trace", "inspect", "--help"},
                                                       {"trace", "convert", "--help"},
                                                       {"trace", "fleet", "--help"},
                                                       {"profile", "import", "--help"},
                                                       {"calibrate", "--help"},
                                                       {"validate-model", "--help"},
                                                       {"sweep", "--help"},
                                                       {"merge", "--help"},
                                                       {"report", "--help"}};
  for (const auto& args : every) {
    const auto r = run(args);
    EXPECT_EQ(r.code, 0) << args[0];
    for (const char* internal : {"TEXT:", "INT:", "FLOAT:", " in [", "UINT"}) {
      EXPECT_EQ(r.out.find(internal), std::string::npos) << internal << " in\n" << r.out;
    }
  }
}

TEST(Cli, BadInputExitsWithOneAndAMessage) {
  auto r = run({"prices", "--cloud", "awz"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "slicewise prices: --cloud: unknown \"awz\"; expected aws|azure|gcp (did you mean \"aws\"?)\n");
  r = run({"simulate", example("seed-l40s-timeslicing.json"), "--strategy", "mps"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err,
            "slicewise simulate: --strategy: unknown strategy \"mps\"; the scenario has dedicated|time_slicing\n");
}

TEST(Cli, AnOptionGivenAsAnEmptyStringIsAUsageError) {
  // "" used to read as "not given": simulate wrote no --out file and roi priced on_demand, silently.
  auto r = run({"simulate", example("seed-l40s-timeslicing.json"), "--out", ""});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "slicewise: --out: must not be empty\nRun with --help for more information.\n");
  const std::string result = std::string(SW_TEST_DATA_DIR) + "/results/seed.json";
  r = run({"roi", result, "--option", ""});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "slicewise: --option: must not be empty\nRun with --help for more information.\n");
}

TEST(Cli, SimulateChecksOutBeforeTheRun) {
  const auto folder = std::filesystem::temp_directory_path();
  const auto r = run({"simulate", example("seed-l40s-timeslicing.json"), "--out", folder.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "--out: is a folder: " + folder.string() + "; give a file name\n");
}

TEST(Cli, RoiNamesAnUnknownRegionAndTheTablesRegions) {
  const auto r =
      run({"roi", std::string(SW_TEST_DATA_DIR) + "/results/seed.json", "--pricing", "gcp", "--region", "us-east"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err,
            "slicewise roi: --region: unknown region \"us-east\" in price table \"gcp\"; expected "
            "us-central1|us-east4 (did you mean \"us-east4\"?)\n");
}

TEST(Cli, ValidateSummarisesEachExample) {
  const auto r = run({"validate", example("seed-l40s-timeslicing.json")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(": ok: 2 tenants, 2 strategies (dedicated, time_slicing); fleet 2 x g6e.2xlarge (L40S)"),
            std::string::npos)
      << r.out;
}

TEST(Cli, CalibrateCvSaysWhyItPredictedNothing) {
  // One workload's shared rows: each fold leaves out every row. This printed "0.0" under CV MAPE %.
  const auto out = std::filesystem::temp_directory_path() / "sw_cli_test_one_workload_profile.json";
  const auto r = run({"calibrate", std::string(SW_TEST_DATA_DIR) + "/measurements/one-workload-timeslicing.csv",
                      "--out", out.string(), "--cv", "--date", "2026-11-24"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string reason =
      "the time_slicing rows are all of one workload (mps-test-1thread): leaving it out leaves no rows to fit on; "
      "measure a second workload";
  EXPECT_NE(r.out.find("\ntime_slicing_efficiency (*): cross-validation predicted nothing: " + reason + "\n"),
            std::string::npos)
      << r.out;
  const auto cv = r.out.substr(r.out.find("leave-one-workload-out cross-validation"));
  EXPECT_EQ(cv.substr(0, cv.find("predicted nothing")).find("0.0"), std::string::npos) << cv;
  const auto profile = read_json_file(out);
  ASSERT_EQ(profile.at("validation").size(), 1u);
  const auto& entry = profile["validation"][0];
  EXPECT_EQ(entry.at("num_predicted"), 0);
  EXPECT_TRUE(entry.at("mape").is_null());
  EXPECT_TRUE(entry.at("mape_uncalibrated").is_null());
  EXPECT_TRUE(entry.at("mape_naive").is_null());
  EXPECT_EQ(entry.at("not_predicted"), reason);
  std::filesystem::remove(out);
}

TEST(Cli, SimulateWritesTheMergedResultAndJsonProgress) {
  const auto out = std::filesystem::temp_directory_path() / "sw_cli_test_result.json";
  const auto r =
      run({"simulate", example("seed-l40s-timeslicing.json"), "--out", out.string(), "--progress=json", "--jobs", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto result = scenario::load_result(out);
  ASSERT_EQ(result.strategies.size(), 2u);
  EXPECT_EQ(result.strategies[0].name, "dedicated");
  EXPECT_EQ(result.strategies[1].name, "time_slicing");
  EXPECT_EQ(result.strategies[0].num_gpus_used, 2);
  EXPECT_EQ(result.strategies[1].num_gpus_used, 1);
  // Dedicated: the measured solo latencies, to 0.3 % (the 8B model's set the token counts; Phi's
  // is a prediction of the step model).
  EXPECT_NEAR(result.strategies[0].tenants[0].latency_s.mean, 0.609, 0.003 * 0.609);
  EXPECT_NEAR(result.strategies[0].tenants[1].latency_s.mean, 1.135, 0.003 * 1.135);
  EXPECT_NE(r.err.find(R"("event":"progress",)"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("time_slicing"), std::string::npos);
  // Every progress line carries the whole run's figures; the whole fraction never goes back, and
  // a strategy's never jumps: at most 2 % of the horizon between two lines, the last at 100 %.
  std::istringstream lines(r.err);
  std::string text;
  double total = 0.0;
  std::map<std::string, double> last;
  int progress_lines = 0;
  while (std::getline(lines, text)) {
    const auto line = nlohmann::json::parse(text);
    if (line.at("event") != "progress") continue;
    ++progress_lines;
    ASSERT_TRUE(line.contains("elapsed_s") && line.contains("eta_s")) << text;
    EXPECT_GE(line.at("total_fraction").get<double>(), total) << text;
    total = line.at("total_fraction").get<double>();
    const double fraction = line.at("fraction").get<double>();
    const std::string strategy = line.at("strategy");
    EXPECT_LE(fraction - last[strategy], 0.02 + 1e-9) << text;
    last[strategy] = fraction;
  }
  EXPECT_GE(progress_lines, 2 * 50);
  EXPECT_DOUBLE_EQ(total, 1.0);
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace slicewise::cli

namespace slicewise::cli {
namespace {

TEST(Cli, SimulatePricesTheSeedCaseToTheCent) {
  const auto r = run({"simulate", example("seed-l40s-timeslicing.json"), "--progress=none", "--jobs", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  // 2 x g6e.2xlarge at $2.24208/h vs 1 x g6e.2xlarge + 2 x t3.large at $0.0832/h, 730 h/month.
  EXPECT_NE(
      r.out.find("dedicated        2  2 x g6e.2xlarge                 4.48416  3273.44            0.00       0.0"),
      std::string::npos)
      << r.out;
  EXPECT_NE(
      r.out.find("time_slicing     1  1 x g6e.2xlarge + 2 x t3.large  2.40848  1758.19         1515.25      46.3"),
      std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace slicewise::cli
