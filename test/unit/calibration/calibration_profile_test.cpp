// Strict profile loading (values a constant may take, GPUs, constants given twice) and a fit whose
// best value the model does not allow.
#include <gtest/gtest.h>

#include "calibration/calibrate.hpp"
#include "calibration_test_util.hpp"
#include "core/json_file.hpp"

namespace slicewise::calibration {
namespace {

using test::error_of;

std::string profile_error(const std::string& text) {
  return error_of([&] { CalibrationProfile::from_json(parse_json_text(text, "p.json"), "p.json"); });
}

TEST(CalibrationProfile, ValuesTheModelCannotTakeAreRefused) {
  // An efficiency above 1 is a negative switch cost; a sharpness near 0 makes the roofline NaN.
  EXPECT_EQ(profile_error(R"({"id": "x", "constants": [
                {"name": "time_slicing_efficiency", "value": 5},
                {"name": "mps_efficiency", "value": 1.5},
                {"name": "hami_launch_overhead_frac", "value": 50},
                {"name": "roofline_sharpness", "gpu": "A100-40GB", "value": 1e-9},
                {"name": "bandwidth_sm_frac", "gpu": "H200", "value": 1.5},
                {"name": "bandwidth_sm_frac", "gpu": "H100-SXM-80GB", "value": 0}]})"),
            "p.json: /constants/0/value: must be in (0, 1] (got 5)\n"
            "p.json: /constants/1/value: must be in (0, 1] (got 1.5)\n"
            "p.json: /constants/2/value: must be in (0, 1] (got 50)\n"
            "p.json: /constants/3/value: must be >= 1 (got 1e-09)\n"
            "p.json: /constants/4/value: must be in (0, 1] (got 1.5)\n"
            "p.json: /constants/5/value: must be in (0, 1] (got 0)");
}

TEST(CalibrationProfile, AGpuMustBeStarOrACatalogIdAndAnAliasBecomesTheId) {
  // A sharpness for a misspelt GPU used to load and never apply.
  EXPECT_EQ(
      profile_error(R"({"id": "x", "constants": [{"name": "roofline_sharpness", "gpu": "A100-40G", "value": 2}]})"),
      "p.json: /constants/0/gpu: unknown GPU \"A100-40G\"; expected \"*\" (every GPU) or a catalog id "
      "(`slicewise gpus`) (did you mean \"A100-40GB\"?)");
  const auto profile = CalibrationProfile::from_json(
      parse_json_text(
          R"({"id": "x", "constants": [{"name": "roofline_sharpness", "gpu": "A100-SXM4-40GB", "value": 2}]})",
          "p.json"),
      "p.json");
  ASSERT_NE(profile.find("roofline_sharpness", "A100-40GB"), nullptr);
  EXPECT_EQ(profile.constants[0].gpu, "A100-40GB");
}

TEST(CalibrationProfile, AConstantTwiceForOneGpuAndOtherSilentDropsAreRefused) {
  EXPECT_EQ(profile_error(R"({"id": "", "created": "yesterday", "data_files": ["a.csv", 7], "constants": [
                {"name": "time_slicing_efficiency", "value": 0.9},
                {"name": "time_slicing_efficiency", "gpu": "*", "value": 0.5, "num_points": 1e30}],
                "validation": [{"constant": "time_slicing_efficiency", "num_predicted": 1e30, "mape": 0.1}]})"),
            "p.json: /id: must not be empty\n"
            "p.json: /created: expected a date YYYY-MM-DD (got \"yesterday\")\n"
            "p.json: /data_files: entry 1 must be a string (got 7)\n"
            "p.json: /constants/1/num_points: must be in [0, 1e+09] (got 1e+30)\n"
            "p.json: /constants/1: a second time_slicing_efficiency for gpu \"*\" (the first is /constants/0); each "
            "constant may appear once per GPU\n"
            "p.json: /validation/0/num_predicted: must be in [0, 1e+09] (got 1e+30)");
}

TEST(CalibrationProfile, AValidationErrorIsNullExactlyWhereNothingWasPredicted) {
  EXPECT_EQ(profile_error(R"({"id": "x", "constants": [], "validation": [
                {"constant": "mps_efficiency", "num_predicted": 0, "mape": null, "mape_naive": null,
                 "not_predicted": "one workload"},
                {"constant": "time_slicing_efficiency", "num_predicted": 2, "mape": null}]
})"),
            "p.json: /validation/1/mape: expected number (got null)");
}

TEST(CalibrationProfile, TheShippedProfilesLoad) {
  for (const char* name : {"default.json", "uncalibrated.json"}) {
    EXPECT_NO_THROW(CalibrationProfile::load(std::string(SW_SOURCE_DIR) + "/data/calibration/" + name)) << name;
  }
}

Measurement timed(models::StrategyKind strategy, int contexts, const std::string& workload, double value,
                  const std::string& run) {
  Measurement m;
  m.gpu = "L40S";
  m.strategy = strategy;
  m.n_contexts = contexts;
  m.workload = workload;
  m.params = {{"gpu_duty_frac", 1.0}};
  m.metric = Metric::time_mean;
  m.value = value;
  m.source = "synthetic";
  m.date = "2026-11-22";
  m.run = run;
  m.file = "synthetic.csv";
  return m;
}

TEST(CalibrationProfile, AFitOutsideWhatTheModelAllowsIsRefused) {
  // Two saturated contexts time-sliced take 2 / η of their solo time; measured at 1.2× it would take
  // η ≈ 1.67, a profile that could not be loaded.
  using models::StrategyKind;
  const std::vector<Measurement> rows = {
      timed(StrategyKind::dedicated, 1, "a", 1.0, ""),       timed(StrategyKind::dedicated, 1, "b", 2.0, ""),
      timed(StrategyKind::time_slicing, 2, "a", 1.2, "r1"),  timed(StrategyKind::time_slicing, 2, "b", 2.4, "r1"),
      timed(StrategyKind::time_slicing, 2, "a", 1.25, "r2"), timed(StrategyKind::time_slicing, 2, "b", 2.5, "r2"),
  };
  CalibrateOptions options;
  options.created = "2026-11-22";
  const std::string message = error_of([&] {
    calibrate(rows, {"synthetic.csv"}, options, models::GpuCatalog::shipped(), models::MigCatalog::shipped());
  });
  EXPECT_TRUE(message.starts_with("cannot calibrate time_slicing_efficiency: the best fit is 1.6")) << message;
  EXPECT_TRUE(
      message.ends_with(", but it must be in (0, 1]; the measurements are not what the model can explain "
                        "(check them)"))
      << message;
}

}  // namespace
}  // namespace slicewise::calibration
