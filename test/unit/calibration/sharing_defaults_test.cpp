// A calibration profile as the simulator's sharing defaults.
#include "calibration/sharing_defaults.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "models/rate_model.hpp"

namespace slicewise::calibration {
namespace {

TEST(SharingDefaults, TheFittedSharpnessAppliesToEveryGpuOfItsArchitecture) {
  // p was fitted on MISO's A100-40GB slices. The A100-80GB kept the hard roofline before, so an
  // SM-bound job was 108/14 = 7.7 times slower on its 1g.10gb than on the whole GPU, but 6.0 times
  // on an A100-40GB 1g.5gb: one architecture, two rules.
  const auto d = sharing_defaults(CalibrationProfile::shipped());
  const double p = d.roofline_sharpness_for("A100-40GB");
  ASSERT_TRUE(std::isfinite(p));
  EXPECT_EQ(d.roofline_sharpness_for("A100-80GB"), p);
  EXPECT_EQ(d.roofline_sharpness_for("A100-PCIe-80GB"), p);
  EXPECT_EQ(d.roofline_sharpness_for("A30-24GB"), p);
  // Hopper's, fitted on the H200's green contexts, applies to the H100 too; Ada has none.
  const double hopper = d.roofline_sharpness_for("H200");
  ASSERT_TRUE(std::isfinite(hopper));
  EXPECT_EQ(d.roofline_sharpness_for("H100-SXM-80GB"), hopper);
  EXPECT_NE(hopper, p);
  EXPECT_TRUE(std::isinf(d.roofline_sharpness_for("L40S")));

  // The SMs that saturate bandwidth, fitted on the H200's green contexts, go to Hopper alone; other
  // GPUs keep 0 (SMs never limit bandwidth there).
  const double saturating = d.bandwidth_sm_frac_for("H200");
  EXPECT_NEAR(saturating, 0.316, 0.005);
  EXPECT_EQ(d.bandwidth_sm_frac_for("H100-SXM-80GB"), saturating);
  EXPECT_EQ(d.bandwidth_sm_frac_for("A100-40GB"), 0.0);
  EXPECT_EQ(d.bandwidth_sm_frac_for("L40S"), 0.0);

  // The same SM-bound job (occupancy 1 on the whole GPU) confined to 14 of 108 SMs.
  auto slowdown_on_1g = [](double sharpness) {
    models::ContextDemand c;
    c.ref_sm = 1.0;
    c.demand_sm = 108.0 / 14.0;
    return 1.0 / models::RateModel::solo_gpu_rate(c, sharpness);
  };
  const double expected = std::pow(1.0 + std::pow(108.0 / 14.0, p), 1.0 / p) / std::pow(2.0, 1.0 / p);
  EXPECT_NEAR(slowdown_on_1g(d.roofline_sharpness_for("A100-80GB")), expected, 1e-12);
  EXPECT_NEAR(slowdown_on_1g(d.roofline_sharpness_for("A100-40GB")), expected, 1e-12);
  EXPECT_NEAR(expected, 6.0, 0.1);
}

TEST(SharingDefaults, TheTimeSlicingEfficiencyBecomesASwitchCostAtTheDefaultQuantum) {
  // A profile with η and no time slices (the shipped one has them: below).
  CalibrationProfile profile = uncalibrated_profile();
  profile.constants[0].value = 0.9;
  const auto d = sharing_defaults(profile);
  EXPECT_FALSE(d.time_slices);
  EXPECT_NEAR(models::SharingDefaults::efficiency(d.quantum_ms, d.switch_cost_ms), 0.9, 1e-12);
  EXPECT_TRUE(sharing_defaults(CalibrationProfile::shipped()).time_slices);
}

TEST(SharingDefaults, FittedTimeSlicesReplaceTheFlatEfficiency) {
  CalibrationProfile profile = uncalibrated_profile();
  EXPECT_FALSE(sharing_defaults(profile).time_slices);  // all three are needed
  for (const auto& [name, value] :
       {std::pair{"timeslice_ms", 2.15}, std::pair{"yield_switch_ms", 0.12}, std::pair{"preempt_switch_ms", 0.2}}) {
    CalibratedConstant c;
    c.name = name;
    c.value = value;
    c.fitted = true;
    profile.constants.push_back(c);
  }
  const auto d = sharing_defaults(profile);
  EXPECT_TRUE(d.time_slices);
  EXPECT_EQ(d.quantum_ms, 2.15);
  EXPECT_EQ(d.yield_switch_ms, 0.12);
  EXPECT_EQ(d.preempt_switch_ms, 0.2);
  EXPECT_EQ(d.switch_cost_ms, 0.2);  // a slice and its cut, for exact quanta and the sharing variance
}

}  // namespace
}  // namespace slicewise::calibration
