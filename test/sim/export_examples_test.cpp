// The shipped examples, simulated and exported: every strategy's export-config files pass what
// reads them (test/unit/report/k8s_consumers.hpp), so that what a platform team applies deploys
// what was simulated.
#include <gtest/gtest.h>

#include "scenario/json_io.hpp"
#include "test/sim/sim_fixture.hpp"
#include "test/unit/report/k8s_consumers.hpp"

namespace slicewise::test {
namespace {

TEST(ExportExamples, EveryStrategyOfEveryShippedExampleDeploysWhatWasSimulated) {
  for (const std::string name :
       {"mixed-mig-h100", "ten-light-jobs-a100", "seed-l40s-timeslicing", "energy-h100-light-load",
        "faults-blast-radius-h100", "mig-day-night-h100", "azure-llm-2023-conversation"}) {
    auto s = scenario::load_scenario(std::string(SW_SOURCE_DIR) + "/examples/" + name + ".json");
    // The shortest run that places every context: placement, not latency, decides the files.
    s.horizon_s = std::min(s.horizon_s, 60.0);
    s.warmup_s = 0.0;
    s.metrics_interval_s = s.horizon_s / 4.0;
    for (std::size_t i = 0; i < s.strategies.size(); ++i) {
      const auto result = simulate(s, static_cast<int>(i));
      const auto& strategy = s.strategies[i].name;
      EXPECT_EQ(report::test::consumer_problems(result, strategy), std::vector<std::string>{})
          << name << " " << strategy;
    }
  }
}

}  // namespace
}  // namespace slicewise::test
