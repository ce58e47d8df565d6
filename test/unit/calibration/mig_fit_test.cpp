// MIG slice scaling on the real MISO A100-40GB step times (../shared/calibration) and on
// synthetic data with known parameters.
#include <cmath>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "calibration/mig_fit.hpp"

namespace slicewise::calibration {
namespace {

const std::string kMiso = std::string(SW_SHARED_DIR) + "/calibration/miso-a100-40gb-mig-steps.csv";

std::vector<Measurement> load_miso() {
  return load_measurements(kMiso, models::GpuCatalog::shipped(), models::MigCatalog::shipped());
}

TEST(MigFit, PointsCarryTheCatalogSliceFractions) {
  if (!std::filesystem::exists(kMiso)) GTEST_SKIP() << "not present: " << kMiso;
  const auto rows = load_miso();
  const auto points = mig_points(rows, "A100-40GB", models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  ASSERT_EQ(points.size(), 87u);  // one median per row of the file
  const MigPoint& first = points.front();  // 2g.10gb bert batch 2: 28 of 108 SMs, 2 of 8 memory slices
  EXPECT_EQ(first.instance, "bert[batch_size=2]");
  EXPECT_DOUBLE_EQ(first.compute, 28.0 / 108.0);
  EXPECT_DOUBLE_EQ(first.memory, 2.0 / 8.0);
  EXPECT_DOUBLE_EQ(first.observed, 0.1213);
}

TEST(MigFit, TheFitOnTheMisoDataReproducesItsOwnPoints) {
  if (!std::filesystem::exists(kMiso)) GTEST_SKIP() << "not present: " << kMiso;
  const auto rows = load_miso();
  const auto points = mig_points(rows, "A100-40GB", models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  const FitReport fit = fit_mig_scaling(points);
  ASSERT_TRUE(fit.usable()) << fit.message;
  std::cout << fit.message << " p=" << fit.params[0].value << " +- " << fit.params[0].std_error
            << " mape=" << fit.mape << " r2=" << fit.r2 << "\n";
  const MigCvReport cv = cross_validate_mig(points);
  for (const auto& f : cv.folds)
    std::cout << f.workload << " p=" << f.sharpness << " n=" << f.num_predicted << " fit=" << f.mape_fitted
              << " hard=" << f.mape_hard << " prop=" << f.mape_proportional << "\n";
  std::cout << "all n=" << cv.num_predicted << " " << cv.mape_fitted << " " << cv.mape_hard << " "
            << cv.mape_proportional << "\n";
}

}  // namespace
}  // namespace slicewise::calibration
