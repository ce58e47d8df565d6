// The shipped examples, simulated and exported: every strategy's export-config files pass what
// reads them (test/unit/report/k8s_consumers.hpp), so that what a platform team applies deploys
// what was simulated.
#include <gtest/gtest.h>

#include "advisor/advice.hpp"
#include "scenario/json_io.hpp"
#include "scenario/validate.hpp"
#include "test/sim/sim_fixture.hpp"
#include "test/unit/report/k8s_consumers.hpp"

namespace slicewise::test {
namespace {

TEST(ExportExamples, EveryStrategyOfEveryShippedExampleDeploysWhatWasSimulated) {
  for (const std::string name :
       {"mixed-mig-h100", "ten-light-jobs-a100", "seed-l40s-timeslicing", "energy-h100-light-load",
        "faults-blast-radius-h100", "mig-day-night-h100", "azure-llm-2023-conversation", "fleet-13-tenants",
        "mig-mixed-layouts-h100", "diurnal-services-l40s"}) {
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

TEST(ExportExamples, TheThirteenTenantFleetsAdvisedAnswerDeploysWhatWasSimulated) {
  // `slicewise advise examples/fleet-13-tenants.json` answers time slicing on L40S with the 70B
  // model in a pool of four L40S (tensor parallel 4, one g6e.12xlarge): sized here as the advisor
  // sizes it, then exported through what reads each file.
  const auto s = scenario::load_scenario(std::string(SW_SOURCE_DIR) + "/examples/fleet-13-tenants.json");
  const auto catalogs = scenario::Catalogs::shipped();
  advisor::AdviceSelection selection;
  selection.kinds = {models::StrategyKind::time_slicing};
  selection.gpus = {"L40S"};
  const auto candidates =
      advisor::advice_candidates(s, catalogs, scenario::resolve_price_table(s, catalogs), selection);
  const auto answer = std::find_if(candidates.begin(), candidates.end(), [](const advisor::AdviceCandidate& c) {
    return c.label == "time_slicing on L40S; pools: llm-70b on 4 L40S";
  });
  ASSERT_NE(answer, candidates.end());
  const auto variant = advisor::candidate_scenario(s, *answer, 16);
  const auto search = size_for_sla(variant, 0, 16);
  ASSERT_TRUE(search.record().feasible) << search.record().shortfall;
  EXPECT_EQ(search.record().pools, (std::vector<scenario::SizedPool>{{"L40S", 4, {"llm-70b"}}}));
  const auto result = simulate(variant, 0, 2.0, scenario::sized_run_of(search.record()));
  const auto& run = result.strategies.at(0);
  const auto group =
      std::find_if(run.devices.begin(), run.devices.end(), [](const scenario::DeviceResult& d) { return d.reserved; });
  ASSERT_NE(group, run.devices.end());
  EXPECT_EQ(group->gpu_count, 4);
  EXPECT_EQ(report::test::consumer_problems(result, "time_slicing"), std::vector<std::string>{});
}

TEST(ExportExamples, TwoMigLayoutsHoldWhatTheBestOneLayoutNeedsAGpuMoreForAndDeployAsSimulated) {
  // Four services of 30-34 GiB and seven of 8 GiB on H100s. Sized for SLA, one layout
  // (3g.40gb + 4 x 1g.10gb) holds one large service per GPU: 4 GPUs. The GPUs taking
  // 4g.40gb+3g.40gb and 7 x 1g.10gb in turn hold the large ones two to a GPU and the small ones
  // on one: 3. That fleet exports as simulated, each pod on a node of its GPU's layout.
  auto s = scenario::load_scenario(std::string(SW_SOURCE_DIR) + "/examples/mig-mixed-layouts-h100.json");
  s.horizon_s = 120.0;
  s.warmup_s = 10.0;
  for (auto& spec : s.strategies) spec.sizing = scenario::Sizing::sla;
  const auto one = size_for_sla(s, 1, 11);
  const auto two = size_for_sla(s, 2, 11);
  ASSERT_TRUE(one.record().feasible && two.record().feasible);
  EXPECT_EQ(one.record().num_gpus, 4);
  EXPECT_EQ(two.record().num_gpus, 3);
  scenario::SimResult result;
  result.input = s;
  result.strategies = {two.result()};
  EXPECT_EQ(report::test::consumer_problems(result, "mig-two-layouts"), std::vector<std::string>{});
}

}  // namespace
}  // namespace slicewise::test
