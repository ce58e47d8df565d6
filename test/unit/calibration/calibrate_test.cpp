// calibrate(): the shipped default profile is exactly what the shipped data gives; profiles round
// trip through JSON; bad profiles are refused with their JSON pointer; sampling stays positive.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "calibration/calibrate.hpp"
#include "calibration_test_util.hpp"
#include "core/json_file.hpp"

namespace slicewise::calibration {
namespace {

const std::string kMiso = std::string(SW_SHARED_DIR) + "/calibration/miso-a100-40gb-mig-steps.csv";
const std::string kSeed = std::string(SW_SOURCE_DIR) + "/data/measurements/l40s-seed-timeslicing.csv";

CalibrationOutcome calibrate_shipped_data() {
  auto rows = test::load(kMiso);
  const auto seed = test::load(kSeed);
  rows.insert(rows.end(), seed.begin(), seed.end());
  CalibrateOptions options;
  options.id = "slicewise-default-2026-11-22";
  options.created = "2026-11-22";
  options.cross_validate = true;
  return calibrate(rows, {"miso-a100-40gb-mig-steps.csv", "l40s-seed-timeslicing.csv"}, options,
                   models::GpuCatalog::shipped(), models::MigCatalog::shipped());
}

TEST(Calibrate, TheShippedDefaultProfileIsReproducedFromTheShippedData) {
  if (!std::filesystem::exists(kMiso)) GTEST_SKIP() << "not present: " << kMiso;
  const auto outcome = calibrate_shipped_data();
  const auto shipped = CalibrationProfile::load(std::string(SW_SOURCE_DIR) + "/data/calibration/default.json");
  ASSERT_EQ(outcome.profile.constants.size(), shipped.constants.size());
  for (std::size_t i = 0; i < shipped.constants.size(); ++i) {
    EXPECT_EQ(outcome.profile.constants[i].name, shipped.constants[i].name);
    EXPECT_NEAR(outcome.profile.constants[i].value, shipped.constants[i].value, 1e-9 * shipped.constants[i].value);
  }
  const auto* sharpness = outcome.profile.find("roofline_sharpness", "A100-40GB");
  ASSERT_NE(sharpness, nullptr);
  EXPECT_TRUE(sharpness->fitted);
  EXPECT_EQ(outcome.profile.find("roofline_sharpness", "H100-SXM-80GB"), nullptr);  // no data, no constant
  ASSERT_EQ(outcome.profile.validation.size(), 2u);
  EXPECT_EQ(outcome.profile.validation[1].num_predicted, 47);
}

TEST(Calibrate, ProfilesRoundTripAndBadOnesAreRefusedWithTheirPointer) {
  CalibrationProfile profile = uncalibrated_profile();
  profile.constants[0].fitted = true;
  profile.constants[0].std_error = 0.1;
  profile.constants[0].sources = {"x (2026-01-01)"};
  profile.validation.push_back({"time_slicing_efficiency", "*", "loo", 2, 0.25, 0.12, 0.14});
  const auto text = profile.to_json().dump();
  EXPECT_EQ(CalibrationProfile::from_json(parse_json_text(text, "p.json"), "p.json"), profile);

  const auto bad = parse_json_text(
      R"({"id": "x", "constants": [{"name": "switch_cost", "value": 1}, {"name": "mps_efficiency", "value": -1, "colour": 1}]})",
      "bad.json");
  const std::string message = test::error_of([&] { CalibrationProfile::from_json(bad, "bad.json"); });
  EXPECT_NE(message.find("bad.json: /constants/0/name: unknown \"switch_cost\""), std::string::npos) << message;
  EXPECT_NE(message.find("bad.json: /constants/1/value: must be in (0, 1] (got -1)"), std::string::npos) << message;
  EXPECT_NE(message.find("/constants/1/colour"), std::string::npos) << message;
}

TEST(Calibrate, SamplesSpreadByTheStandardErrorAndStayInRange) {
  CalibrationProfile profile = uncalibrated_profile();
  profile.constants[0].fitted = true;  // time_slicing_efficiency 0.952 ± 0.05
  profile.constants[0].std_error = 0.05;
  double sum = 0.0, sum2 = 0.0;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const double v = sample_profile(profile, static_cast<std::uint64_t>(i)).constants[0].value;
    EXPECT_GT(v, 0.0);
    EXPECT_LE(v, 1.0);  // an efficiency is capped at 1
    sum += std::log(v);
    sum2 += std::log(v) * std::log(v);
  }
  const double mean = sum / n;
  const double sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(sd, 0.05 / 0.952, 0.01);  // log-scale σ = se / value, a little less where the cap bites
  EXPECT_EQ(sample_profile(profile, 3), sample_profile(profile, 3));  // seeded
  EXPECT_EQ(sample_profile(profile, 3).constants[1].value, 1.0);     // uncalibrated: kept
}

}  // namespace
}  // namespace slicewise::calibration
