// Helpers shared by the calibration tests: temporary measurement files and error capture.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "calibration/measurement.hpp"
#include "test/test_util.hpp"

namespace slicewise::calibration::test {

/// Writes `text` to a file under the test's temporary directory and returns its path.
inline std::string write_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "sw_calibration_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

inline constexpr const char* kHeader =
    "gpu,strategy,mig_profile,n_contexts,workload,workload_params,metric,value,unit,source,date,run\n";

inline std::vector<Measurement> load(const std::string& path) {
  return load_measurements(path, models::GpuCatalog::shipped(), models::MigCatalog::shipped());
}

using slicewise::test::error_of;

}  // namespace slicewise::calibration::test
