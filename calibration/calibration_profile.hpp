// A calibration profile (docs/calibration.md): the fitted value, standard error, fit quality and
// data sources of every model constant, as JSON the simulator loads (`--calibration FILE`; the
// shipped data/calibration/default.json otherwise). Constants the data does not cover keep their
// uncalibrated defaults and say so.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "models/gpu_catalog.hpp"

namespace slicewise::calibration {

/// Names of the constants a profile may carry, in documentation order.
const std::vector<std::string>& constant_names();
/// The values a constant may take: the two efficiencies and hami_launch_overhead_frac in (0, 1]
/// (an efficiency above 1 would be a negative switch cost); mps_interference >= 0 (below 0 company
/// would speed a client up); roofline_sharpness >= 1 (below 1 a slice would run slower than its SM
/// and bandwidth demands added up).
NumberRange constant_range(const std::string& name);

/// One constant: for every GPU ("*") or for one GPU id.
struct CalibratedConstant {
  std::string name;
  std::string gpu = "*";
  double value = 0.0;
  double std_error = 0.0;  ///< 0 for an uncalibrated default
  bool fitted = false;
  int num_points = 0;
  double rmse = 0.0;  ///< in the data's unit (s for times)
  double mape = 0.0;  ///< in-sample, fraction
  double r2 = 0.0;
  std::string fit_message;           ///< why the solver stopped
  std::vector<std::string> sources;  ///< "source (date)", one per distinct source
  std::string note;
  bool operator==(const CalibratedConstant&) const = default;
};

/// Out-of-sample error of one constant's model (leave-one-workload-out).
struct CrossValidation {
  std::string constant;
  std::string gpu;
  std::string protocol;  ///< how it was held out, in words
  int num_predicted = 0;
  double mape = 0.0;               ///< with the fitted constant
  double mape_uncalibrated = 0.0;  ///< same protocol, the uncalibrated default
  double mape_naive = 0.0;         ///< same protocol, the simplest rule (documented per constant)
  /// Why nothing was predicted (num_predicted 0, when the three MAPEs mean nothing and the JSON has
  /// null for them), in words; "" otherwise.
  std::string not_predicted;
  bool operator==(const CrossValidation&) const = default;
};

struct CalibrationProfile {
  std::string id;
  std::string description;
  std::string created;                  ///< YYYY-MM-DD
  std::vector<std::string> data_files;  ///< file names the fits read (no directories)
  std::vector<CalibratedConstant> constants;
  std::vector<CrossValidation> validation;

  /// The constant for `gpu`: its own entry, else the "*" entry; nullptr when neither exists.
  const CalibratedConstant* find(const std::string& name, const std::string& gpu = "*") const;
  /// Largest in-sample MAPE of a fitted constant (0 when nothing is fitted): the profile's fit error.
  double worst_fit_mape() const;
  /// Distinct sources of the fitted constants, sorted.
  std::vector<std::string> sources() const;

  nlohmann::ordered_json to_json() const;
  /// Strict: unknown keys, unknown constant names, values outside constant_range(), a GPU that is
  /// neither "*" nor in `gpus` (an alias becomes its id), a constant given twice for one GPU get
  /// `file: /pointer: message` (ConfigError, every problem at once).
  static CalibrationProfile from_json(const nlohmann::json& json, const std::string& file,
                                      const models::GpuCatalog& gpus = models::GpuCatalog::shipped());
  static CalibrationProfile load(const std::filesystem::path& path,
                                 const models::GpuCatalog& gpus = models::GpuCatalog::shipped());
  /// data/calibration/default.json.
  static const CalibrationProfile& shipped();
  /// The profile at `path`, or shipped() when `path` is empty (a --calibration option not given).
  static CalibrationProfile load_or_shipped(const std::string& path);
  bool operator==(const CalibrationProfile&) const = default;
};

/// The uncalibrated defaults of docs/model.md §3 as a profile (nothing fitted).
CalibrationProfile uncalibrated_profile();

}  // namespace slicewise::calibration
