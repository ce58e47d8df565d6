// MIG slice scaling on the real MISO A100-40GB step times (data/measurements) and on synthetic
// data with known parameters.
#include <cmath>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "calibration/measurement.hpp"
#include "calibration/mig_fit.hpp"

namespace slicewise::calibration {
namespace {

const std::string kMiso = std::string(SW_SOURCE_DIR) + "/data/measurements/miso-a100-40gb-mig-steps.csv";

std::vector<Measurement> load_miso() {
  return load_measurements(kMiso, models::GpuCatalog::shipped(), models::MigCatalog::shipped());
}

TEST(MigFit, PointsCarryTheCatalogSliceFractions) {
  const auto rows = load_miso();
  const auto points = mig_points(rows, "A100-40GB", models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  ASSERT_EQ(points.size(), 87u);           // one median per row of the file
  const MigPoint& first = points.front();  // 2g.10gb bert batch 2: 28 of 108 SMs, 2 of 8 memory slices
  EXPECT_EQ(first.instance, "bert[batch_size=2]");
  EXPECT_DOUBLE_EQ(first.compute, 28.0 / 108.0);
  EXPECT_DOUBLE_EQ(first.memory, 2.0 / 8.0);
  EXPECT_DOUBLE_EQ(first.observed, 0.1213);
}

TEST(MigFit, TheFitOnTheMisoDataReproducesItsOwnPoints) {
  const auto rows = load_miso();
  const auto points = mig_points(rows, "A100-40GB", models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  const FitReport fit = fit_mig_scaling(points);
  ASSERT_TRUE(fit.usable()) << fit.message;
  // 87 points, 1 + 2 × 20 parameters: every instance's own points pin its T and o, and one sharpness
  // serves all of them.
  EXPECT_EQ(fit.params.size(), 41u);
  EXPECT_EQ(fit.params[0].name, "roofline_sharpness");
  EXPECT_GT(fit.params[0].value, 2.0);
  EXPECT_LT(fit.params[0].value, 3.5);
  EXPECT_GT(fit.params[0].std_error, 0.1);
  EXPECT_LT(fit.mape, 0.05);
  EXPECT_GT(fit.r2, 0.99);
}

TEST(MigFit, CrossValidatedTheFittedSharpnessBeatsTheHardRooflineAndTheSmCountRule) {
  const auto rows = load_miso();
  const auto points = mig_points(rows, "A100-40GB", models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  const MigCvReport cv = cross_validate_mig(points);
  ASSERT_EQ(cv.folds.size(), 5u);  // bert, cyclegan, mobilenet, resnet, transformer
  // Every instance with n profiles has n − 2 predicted points: 87 − 2 × 20 = 47.
  EXPECT_EQ(cv.num_predicted, 47);
  EXPECT_LT(cv.mape_fitted, 0.08);
  EXPECT_LT(cv.mape_fitted, cv.mape_hard);
  EXPECT_LT(cv.mape_hard, cv.mape_proportional);
  for (const auto& fold : cv.folds) EXPECT_LT(fold.mape_fitted, fold.mape_proportional) << fold.workload;
}

TEST(MigFit, RecoversAKnownSharpnessFromNoisySyntheticSteps) {
  // Six instances on the five A100-40GB profiles, p = 3, 1 % seeded noise.
  const double truth = 3.0;
  const std::vector<std::pair<int, int>> profiles = {{14, 1}, {28, 2}, {42, 4}, {56, 4}, {98, 8}};
  std::vector<Measurement> rows;
  rows.reserve(30);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0.0, 0.01);
  std::vector<MigPoint> points;
  for (int w = 0; w < 6; ++w) {
    const double full = 0.05 * (w + 1);
    const double occupancy = 0.15 + 0.15 * w;
    for (const auto& [sms, slices] : profiles) {
      rows.emplace_back();
      rows.back().workload = "w" + std::to_string(w);
      MigPoint point;
      point.row = &rows.back();
      point.instance = rows.back().workload;
      point.compute = sms / 108.0;
      point.memory = slices / 8.0;
      point.observed = predict_mig(point, full, occupancy, truth) * (1.0 + noise(rng));
      points.push_back(point);
    }
  }
  const FitReport fit = fit_mig_scaling(points);
  ASSERT_TRUE(fit.usable()) << fit.message;
  EXPECT_LT(std::abs(fit.params[0].value - truth), 2 * fit.params[0].std_error)
      << fit.params[0].value << " ± " << fit.params[0].std_error;
  EXPECT_LT(std::abs(fit.params[2].value - 0.15), 2 * fit.params[2].std_error);  // o of w0
}

}  // namespace
}  // namespace slicewise::calibration
