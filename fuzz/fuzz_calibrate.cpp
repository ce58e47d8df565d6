// libFuzzer harness: a measurement file through `slicewise calibrate` whole: read, every constant
// the rows determine fitted, the profile written as JSON and read back, and the rows predicted
// from it (`validate-model`). A file of more than 64 rows is only read: the fits' cost grows with
// the rows, and the reading is what a hostile file reaches first. Every message and note passes
// the hygiene check.
#include <string>
#include <vector>

#include "calibration/calibrate.hpp"
#include "calibration/calibration_profile.hpp"
#include "calibration/measurement.hpp"
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace cal = slicewise::calibration;
  static slicewise::fuzz::InputFile input("measurements.csv");
  const auto& gpus = slicewise::models::GpuCatalog::shipped();
  const auto& mig = slicewise::models::MigCatalog::shipped();
  try {
    std::vector<std::string> notes;
    const auto rows =
        cal::load_measurements(input.write(slicewise::fuzz::bytes_of(data, size)).string(), gpus, mig, &notes);
    for (const auto& note : notes) slicewise::fuzz::check_message(note, "note");
    if (rows.size() > 64) return 0;
    cal::CalibrateOptions options;
    options.created = "2026-11-29";
    const auto outcome = cal::calibrate(rows, {"measurements.csv"}, options, gpus, mig);
    for (const auto& note : outcome.notes) slicewise::fuzz::check_message(note, "note");
    const auto profile = cal::CalibrationProfile::from_json(outcome.profile.to_json(), "profile.json", gpus);
    const auto validation = cal::validate_model(rows, profile, gpus, mig);
    for (const auto& note : validation.notes) slicewise::fuzz::check_message(note, "note");
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
