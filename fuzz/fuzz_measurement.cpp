// libFuzzer harness: a measurement file (docs/measurement-format.md, or the MISO MIG step table),
// read as `slicewise calibrate` does.
#include "calibration/measurement.hpp"
#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static slicewise::fuzz::InputFile input("measurements.csv");
  try {
    slicewise::calibration::load_measurements(input.write(slicewise::fuzz::bytes_of(data, size)).string(),
                                              slicewise::models::GpuCatalog::shipped(),
                                              slicewise::models::MigCatalog::shipped());
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
