// Public measurements that no fit has seen, simulated end to end with the shipped profile
// (docs/validation.md, "Public co-location runs no fit has seen").
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "calibration/calibration_profile.hpp"
#include "calibration/sharing_defaults.hpp"

#include "test/sim/sim_fixture.hpp"

namespace slicewise::test {
namespace {

using models::StrategyKind;

TEST(PublicRuns, SevenYolosPodsTimeSlicedOnAnA100TakeWhatNosMeasured) {
  // nos (nebuly-ai) ran 7 pods of YOLOS-small, each a closed loop of 88.15 ms inferences alone, on
  // one A100 80GB PCIe under time-slicing: 0.6849 s each. With the shipped slices (fitted on an
  // H200) each inference is one burst of m = ⌈88.15 / T⌉ turns of r = 88.15 / m ms, each costing
  // o = ((m − 1) c_p + c_y) / m, so a pod's inference takes 7 (r + o) / r of its solo time.
  const double solo = 0.08815048247208879;
  auto s = make_scenario("A100-PCIe-80GB", 1, 120.0);
  for (int i = 0; i < 7; ++i) s.tenants.push_back(generic_tenant("pod-" + std::to_string(i), solo));
  s.strategies = {strategy(StrategyKind::time_slicing)};
  const auto defaults = calibration::sharing_defaults(calibration::CalibrationProfile::shipped());
  ASSERT_TRUE(defaults.time_slices);
  const double slice = defaults.quantum_ms * 1e-3;
  const double m = std::ceil(solo / slice);
  const double turn = solo / m;
  const double cost = ((m - 1.0) * defaults.preempt_switch_ms + defaults.yield_switch_ms) * 1e-3 / m;
  const double expected = 7.0 * solo * (turn + cost) / turn;
  const auto result = simulate(s, 0, 2.0, std::nullopt, defaults).strategies.at(0);
  ASSERT_EQ(result.tenants.size(), 7u);
  for (const auto& tenant : result.tenants) {
    // Within the sharing variance's mean-zero jitter over ~170 inferences a pod.
    EXPECT_NEAR(tenant.latency_s.mean, expected, 0.01 * expected) << tenant.name;
    EXPECT_NEAR(tenant.latency_s.mean, 0.6848803898344092, 0.02 * 0.6849) << tenant.name;
  }
}

}  // namespace
}  // namespace slicewise::test
