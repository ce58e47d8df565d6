// What `slicewise calibrate` is asked (CalibrateOptions) and what it gives back: the profile, each
// fit that ran, notes on rows no fit could use, and the cross-validation's folds. Every fit step
// (calibrate.cpp, fit_steps.cpp, mps_fit.cpp, mig fits) fills an outcome.
#pragma once

#include <string>
#include <vector>

#include "calibration/calibration_profile.hpp"
#include "calibration/fit_report.hpp"

namespace slicewise::calibration {

struct CalibrateOptions {
  std::string id;               ///< profile id; empty = "calibrated-<created>"
  std::string created;          ///< YYYY-MM-DD written into the profile
  bool cross_validate = false;  ///< leave-one-workload-out per constant (profile.validation)
};

/// A fit that ran, for the report: which constant, on which GPU, and how it went.
struct FitRun {
  std::string constant;
  std::string gpu;
  FitReport report;
};

/// One held-out workload of a co-run constant's cross-validation (MAPE over its rows).
struct CvFold {
  std::string constant;
  std::string workload;
  int num_predicted = 0;
  std::string fitted;              ///< the constant(s) fitted without the workload's rows, in words
  double mape = 0.0;               ///< with the constant(s) fitted without the workload
  double mape_uncalibrated = 0.0;  ///< with the uncalibrated default (the model without the constant)
  double mape_naive = 0.0;         ///< fair share: time × n_contexts
};

struct CalibrationOutcome {
  CalibrationProfile profile;
  std::vector<FitRun> fits;
  std::vector<std::string> notes;  ///< rows no fit could use, and constants left at their default
  std::vector<CvFold> folds;       ///< per held-out workload, for the co-run constants (--cv)
};

}  // namespace slicewise::calibration
