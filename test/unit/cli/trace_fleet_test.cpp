// `slicewise trace fleet` driven in-process (issue 4): the fleet it prints is pasted into a copy of
// a scenario, which must then validate; --out writes the same text.
#include "cli/app.hpp"

#include <filesystem>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "core/json_file.hpp"

namespace slicewise::cli {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::run;

const std::string kSmallNodes = std::string(SW_TEST_DATA_DIR) + "/traces/openb-nodes-small.csv";
const std::string kRealNodes =
    std::string(SW_SHARED_DIR) + "/traces/alibaba-cluster-trace-gpu-v2023/openb_node_list_gpu_node.csv";

/// A fresh temporary folder, removed with the fixture.
class TraceFleet : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sw_trace_fleet_test_" + std::to_string(std::random_device{}()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// examples/NAME with its "fleet" replaced by `fleet_text` and trace files made absolute,
  /// written into the temporary folder; `slicewise validate` on it.
  CliRun validate_with_fleet(const std::string& name, const std::string& fleet_text) {
    const fs::path examples = fs::path(SW_SOURCE_DIR) / "examples";
    auto scenario = read_json_file(examples / name);
    scenario["fleet"] = nlohmann::json::parse(fleet_text);
    for (auto& tenant : scenario["tenants"]) {
      auto& load = tenant["load"];
      if (load.contains("trace_file")) {
        load["trace_file"] = (examples / load["trace_file"].get<std::string>()).lexically_normal().string();
      }
    }
    const fs::path copy = dir_ / name;
    write_file_atomically(copy, scenario.dump(2));
    return run({"validate", copy.string()});
  }

  fs::path dir_;
};

TEST_F(TraceFleet, FixtureFleetValidatesInAScenario) {
  const auto fleet = run({"trace", "fleet", kSmallNodes, "--map", "G1=H100-SXM-80GB"});
  ASSERT_EQ(fleet.code, 0) << fleet.err;
  EXPECT_EQ(fleet.out,
            "[\n"
            "  {\"gpu\": \"H100-SXM-80GB\", \"count\": 16},\n"
            "  {\"gpu\": \"V100-32GB\", \"count\": 8},\n"
            "  {\"gpu\": \"T4\", \"count\": 6},\n"
            "  {\"gpu\": \"V100-16GB\", \"count\": 2}\n"
            "]\n");
  const auto r = validate_with_fleet("seed-l40s-timeslicing.json", fleet.out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(": ok: 2 tenants, 2 strategies (dedicated, time_slicing); fleet 16 x H100-SXM-80GB + 8 x "
                       "V100-32GB + 6 x T4 + 2 x V100-16GB"),
            std::string::npos)
      << r.out;
}

TEST_F(TraceFleet, RealNodeListFleetValidatesWithTheOpenbPods) {
  if (!fs::exists(kRealNodes)) GTEST_SKIP() << "not present: " << kRealNodes;
  // The example replays the openb pods, which slicewise may not redistribute.
  if (!fs::exists(fs::path(SW_SOURCE_DIR) /
                  "examples/traces/alibaba-cluster-trace-gpu-v2023/openb_pod_list_default.csv")) {
    GTEST_SKIP() << "the openb pod list is not fetched: run scripts/fetch-traces openb";
  }
  const auto fleet =
      run({"trace", "fleet", kRealNodes, "--map", "G2=A100-80GB", "--map", "G3=A100-80GB", "--skip-unmapped"});
  ASSERT_EQ(fleet.code, 0) << fleet.err;
  const auto r = validate_with_fleet("openb-default-pods.json", fleet.out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("fleet 4704 x A100-80GB + 842 x T4 + 204 x V100-32GB + 195 x V100-16GB"), std::string::npos)
      << r.out;
}

TEST_F(TraceFleet, OutWritesWhatStandardOutputWouldShow) {
  const auto to_stdout = run({"trace", "fleet", kSmallNodes, "--skip-unmapped"});
  ASSERT_EQ(to_stdout.code, 0) << to_stdout.err;
  const auto out = dir_ / "fleet.json";
  const auto to_file = run({"trace", "fleet", kSmallNodes, "--skip-unmapped", "--out", out.string()});
  ASSERT_EQ(to_file.code, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(read_text_file(out), to_stdout.out);
  EXPECT_EQ(to_file.err, to_stdout.err + "wrote " + out.string() + "\n");
  // A failed run leaves the previous file as it was, and nothing beside it.
  const auto failed = run({"trace", "fleet", kSmallNodes, "--out", out.string()});
  EXPECT_EQ(failed.code, 1);
  EXPECT_EQ(read_text_file(out), to_stdout.out);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(TraceFleet, AModelMappedTwiceIsAnError) {
  const auto r = run({"trace", "fleet", kSmallNodes, "--skip-unmapped", "--map", "T4=T4", "--map", "T4=L4"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "slicewise trace fleet: --map: T4 mapped twice (T4 and L4)\n");
  EXPECT_EQ(r.out, "");
}

TEST_F(TraceFleet, NoGpuLeftIsAnError) {
  const auto cpu_only = (dir_ / "cpu-only.csv").string();
  write_file_atomically(cpu_only, "sn,cpu_milli,memory_mib,gpu,model\nn0,32000,131072,0,\n");
  auto r = run({"trace", "fleet", cpu_only});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "slicewise trace fleet: " + cpu_only + ": no GPU nodes: nothing to make a fleet of\n");
  const auto undisclosed = (dir_ / "undisclosed.csv").string();
  write_file_atomically(undisclosed, "sn,cpu_milli,memory_mib,gpu,model\nn0,96000,786432,8,G1\n");
  r = run({"trace", "fleet", undisclosed, "--skip-unmapped"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "slicewise trace fleet: " + undisclosed +
                       ": every GPU model was skipped: nothing left to make a fleet of\n");
}

}  // namespace
}  // namespace slicewise::cli
