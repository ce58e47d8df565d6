// The GPU power curve (models/power_model.hpp): a line from idle to TDP, its estimate for GPUs
// without a measured idle power, and an on-prem server's own board power.
#include "models/power_model.hpp"

#include <gtest/gtest.h>

namespace slicewise::models {
namespace {

TEST(PowerModel, WattsRiseLinearlyFromIdleToTdpAndClampTheUtilisation) {
  const PowerCurve h100{85.0, 700.0, false};
  EXPECT_DOUBLE_EQ(h100.watts(0.0), 85.0);
  EXPECT_DOUBLE_EQ(h100.watts(1.0), 700.0);
  EXPECT_DOUBLE_EQ(h100.watts(0.5), 392.5);  // 85 + 615 / 2
  EXPECT_DOUBLE_EQ(h100.watts(0.25), 238.75);
  EXPECT_DOUBLE_EQ(h100.watts(-0.1), 85.0);
  EXPECT_DOUBLE_EQ(h100.watts(1.0000000001), 700.0);
}

TEST(PowerModel, TheEstimateIsTheMedianShareOfTdpOverTheMeasuredGpus) {
  const auto& catalog = GpuCatalog::shipped();
  // Nine measured GPUs; the middle one by idle / TDP is the H100 SXM (85 W of 700 W).
  ASSERT_TRUE(measured_idle_frac(catalog).has_value());
  EXPECT_DOUBLE_EQ(*measured_idle_frac(catalog), 85.0 / 700.0);
  // The A30 has a TDP (165 W) and no measured idle power: 165 x 85 / 700 W, marked estimated.
  const auto a30 = power_curve(*catalog.find("A30-24GB"), catalog);
  ASSERT_TRUE(a30.has_value());
  EXPECT_DOUBLE_EQ(a30->idle_w, 85.0 / 700.0 * 165.0);
  EXPECT_DOUBLE_EQ(a30->max_w, 165.0);
  EXPECT_TRUE(a30->idle_estimated);
  // A measured GPU keeps its reading.
  EXPECT_EQ(power_curve(*catalog.find("L40S"), catalog), (PowerCurve{33.0, 350.0, false}));
  // No TDP, no curve.
  for (const char* id : {"H100-NVL-94GB", "GH200-96GB", "GH200-144GB", "B200"}) {
    EXPECT_FALSE(power_curve(*catalog.find(id), catalog).has_value()) << id;
  }
}

TEST(PowerModel, AServerOwnBoardPowerKeepsTheMeasuredIdleBelowIt) {
  const auto& catalog = GpuCatalog::shipped();
  const GpuSpec* h100 = catalog.find("H100-SXM-80GB");
  EXPECT_EQ(power_curve_at(h100, 500.0, catalog), (PowerCurve{85.0, 500.0, false}));
  // A limit at or below the idle reading cannot keep it: the estimate at that limit.
  EXPECT_EQ(power_curve_at(h100, 80.0, catalog), (PowerCurve{85.0 / 700.0 * 80.0, 80.0, true}));
  // A GPU the catalog does not know: the estimate.
  EXPECT_EQ(power_curve_at(nullptr, 400.0, catalog), (PowerCurve{85.0 / 700.0 * 400.0, 400.0, true}));
}

}  // namespace
}  // namespace slicewise::models
