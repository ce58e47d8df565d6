// Every scenario in examples/ loads cleanly against the shipped catalogs and round-trips.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "scenario/llm_serving.hpp"
#include "scenario_test_util.hpp"

namespace slicewise::scenario {
namespace {

std::vector<std::filesystem::path> example_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(SW_SOURCE_DIR) / "examples")) {
    // sweep-*.json are sweep files (test/e2e/sweep_test.sh runs them), not scenarios.
    if (entry.path().extension() == ".json" && entry.path().filename().string().rfind("sweep-", 0) != 0) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ScenarioExamples, TheThreeExamplesExist) {
  std::vector<std::string> names;
  for (const auto& file : example_files()) names.push_back(file.filename().string());
  for (const char* expected : {"seed-l40s-timeslicing.json", "ten-light-jobs-a100.json", "mixed-mig-h100.json"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
}

TEST(ScenarioExamples, EveryExampleLoadsAndRoundTrips) {
  for (const auto& file : example_files()) {
    SCOPED_TRACE(file.string());
    Scenario s;
    try {
      s = load_scenario(file);
    } catch (const ConfigError& e) {
      // A trace slicewise may not redistribute and that is not fetched yet: every problem must say
      // how to fetch it (scripts/fetch-traces); anything else fails.
      const auto& problems = e.diagnostics();
      const bool only_fetches =
          !problems.empty() && std::all_of(problems.begin(), problems.end(), [](const Diagnostic& d) {
            return d.message.find("fetch it with `scripts/fetch-traces") != std::string::npos;
          });
      if (only_fetches) {
        std::printf("skipped %s: %s\n", file.filename().string().c_str(), problems.front().message.c_str());
      } else {
        ADD_FAILURE() << e.what();
      }
      continue;
    }
    EXPECT_EQ(s.source_file, file);
    nlohmann::ordered_json out;
    to_json(out, s);
    Scenario back = parse_scenario(nlohmann::json::parse(out.dump()), file.string());
    // load_scenario fills an instance entry's gpu from the price table; the JSON carries only the type.
    for (std::size_t i = 0; i < back.fleet.size() && i < s.fleet.size(); ++i) {
      if (!back.fleet[i].instance_type.empty()) back.fleet[i].gpu = s.fleet[i].gpu;
    }
    EXPECT_EQ(back, s);
  }
}

TEST(ScenarioExamples, SeedExampleIsTheMeasuredPair) {
  const Scenario s = load_scenario(std::filesystem::path(SW_SOURCE_DIR) / "examples/seed-l40s-timeslicing.json");
  ASSERT_EQ(s.fleet.size(), 1u);
  EXPECT_EQ(s.fleet[0], (FleetEntry{"L40S", "g6e.2xlarge", 2, {}}));
  ASSERT_EQ(s.tenants.size(), 2u);
  EXPECT_EQ(s.tenants[0].workload.llm->model, "Phi-3.5-mini-instruct");
  EXPECT_EQ(s.tenants[1].workload.llm->model, "DeepSeek-R1-Distill-Llama-8B");
  for (const auto& t : s.tenants) {
    // The study's TGI settings.
    const auto& engine = *t.workload.engine;
    EXPECT_EQ(engine.name, ServingEngine::tgi);
    EXPECT_EQ(engine.cuda_memory_fraction, 0.4);
    EXPECT_EQ(engine.max_batch_prefill_tokens, 4096);
    EXPECT_EQ(engine.max_input_length, 256);
    EXPECT_EQ(engine.max_total_tokens, 512);
    EXPECT_EQ(engine.max_concurrent_requests, 16);
    EXPECT_DOUBLE_EQ(engine_on_device(t.workload, "L40S", 48.0).held_gib, 0.4 * 48);
    EXPECT_LE(t.workload.llm->prompt_tokens, 256);
    EXPECT_LE(t.workload.llm->prompt_tokens + t.workload.llm->output_tokens, 512);
    EXPECT_EQ(t.sla.latency_s, 2.0);
  }
  ASSERT_EQ(s.strategies.size(), 2u);
  EXPECT_EQ(s.strategies[1].replicas, 10);
  EXPECT_EQ(s.strategies[1].sidecars, (std::vector<Sidecar>{{"t3.large", 2}}));
}

}  // namespace
}  // namespace slicewise::scenario
