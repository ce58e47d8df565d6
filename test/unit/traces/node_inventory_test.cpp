// Node lists counted per GPU model (issue 4): the real v2023 node lists when ../shared/traces has
// them, and fixtures for CPU-only nodes, repeated models, bad rows and formats that are not node lists.
#include "traces/node_inventory.hpp"

#include <gtest/gtest.h>

#include "trace_test_util.hpp"

namespace slicewise::traces {
namespace {

using test::error_of;
using test::fixture;
using test::shared_trace;

NodeModelCount count(std::int64_t nodes, std::int64_t gpus, std::map<int, std::int64_t> sizes) {
  return {nodes, gpus, std::move(sizes)};
}

// Totals from the file itself: awk -F, 'NR>1{n[$5]++; g[$5]+=$4} END{for(k in n) print k, n[k], g[k]}'
TEST(NodeInventory, RealGpuNodeListPerModel) {
  const auto path = shared_trace("alibaba-cluster-trace-gpu-v2023/openb_node_list_gpu_node.csv");
  SW_REQUIRE_FILE(path);
  const auto inventory = read_node_inventory(path, std::nullopt);
  EXPECT_EQ(inventory.num_gpu_nodes(), 1213);
  EXPECT_EQ(inventory.num_gpus(), 6212);
  EXPECT_EQ(inventory.num_cpu_nodes, 0);
  const std::map<std::string, NodeModelCount> expected = {
      {"A10", count(2, 2, {{1, 2}})},
      {"G2", count(549, 4392, {{8, 549}})},
      {"G3", count(39, 312, {{8, 39}})},
      {"P100", count(134, 265, {{1, 3}, {2, 131}})},
      {"T4", count(404, 842, {{2, 387}, {4, 17}})},
      {"V100M16", count(55, 195, {{1, 19}, {4, 28}, {8, 8}})},
      {"V100M32", count(30, 204, {{4, 9}, {8, 21}})},
  };
  EXPECT_EQ(inventory.models, expected);
}

TEST(NodeInventory, RealAllNodeListCountsCpuOnlyNodesApart) {
  const auto path = shared_trace("alibaba-cluster-trace-gpu-v2023/openb_node_list_all_node.csv");
  SW_REQUIRE_FILE(path);
  const auto inventory = read_node_inventory(path, TraceFormat::openb_nodes);
  EXPECT_EQ(inventory.num_cpu_nodes, 310);
  EXPECT_EQ(inventory.num_gpu_nodes(), 1213);
  EXPECT_EQ(inventory.num_gpus(), 6212);
  EXPECT_EQ(inventory.models.count(""), 0u);
}

TEST(NodeInventory, RepeatedModelsAreSummedAndCpuNodesCounted) {
  const auto inventory = read_node_inventory(fixture("openb-nodes-small.csv"), std::nullopt);
  EXPECT_EQ(inventory.num_cpu_nodes, 2);
  const std::map<std::string, NodeModelCount> expected = {
      {"G1", count(2, 16, {{8, 2}})},
      {"T4", count(2, 6, {{2, 1}, {4, 1}})},
      {"V100M16", count(1, 2, {{2, 1}})},
      {"V100M32", count(1, 8, {{8, 1}})},
  };
  EXPECT_EQ(inventory.models, expected);
}

TEST(NodeInventory, BadRowsFailOrAreSkipped) {
  const auto path = fixture("openb-nodes-bad.csv");
  EXPECT_EQ(error_of([&] { read_node_inventory(path, std::nullopt); }),
            path + ":3: gpu: expected a number, got \"two\"");
  const auto inventory = read_node_inventory(path, std::nullopt, BadRowPolicy::skip);
  EXPECT_EQ(inventory.num_bad_rows, 2);
  ASSERT_EQ(inventory.bad_rows.size(), 2u);
  EXPECT_EQ(inventory.bad_rows[1], path + ":4: model: empty for a node with 4 GPUs");
  EXPECT_EQ(inventory.models.at("T4"), count(2, 6, {{2, 1}, {4, 1}}));
}

TEST(NodeInventory, RefusesFilesWhoseRowsAreNotMachines) {
  const auto pods = fixture("openb-unsorted.csv");
  EXPECT_EQ(error_of([&] { read_node_inventory(pods, std::nullopt); }),
            pods +
                ": a fleet comes from a node list, one machine per row; this file reads as openb-pods, whose rows are "
                "not machines (expected --format openb-nodes)");
  const auto nodes = fixture("openb-nodes-small.csv");
  EXPECT_EQ(error_of([&] { read_node_inventory(nodes, TraceFormat::pai_sensor); }),
            nodes +
                ": a fleet comes from a node list, one machine per row; this file reads as pai-sensor, whose rows are "
                "not machines (expected --format openb-nodes)");
}

}  // namespace
}  // namespace slicewise::traces
