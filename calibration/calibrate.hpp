// `slicewise calibrate`: every constant the measurements determine, fitted, cross-validated and
// collected into a CalibrationProfile; and `validate-model`: a profile's predictions against
// measured rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "calibration/calibration_outcome.hpp"
#include "calibration/calibration_profile.hpp"
#include "calibration/measurement_row.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"

namespace slicewise::calibration {

/// Fits every constant the rows determine; the others keep their uncalibrated default. Throws
/// CalibrationError naming the constant when a fit is unusable (too few points, undetermined,
/// not converged), so no profile is written from it.
CalibrationOutcome calibrate(const std::vector<Measurement>& rows, const std::vector<std::string>& files,
                             const CalibrateOptions& options, const models::GpuCatalog& gpus,
                             const models::MigCatalog& mig);

/// One row compared with the profile's prediction.
struct ValidationRow {
  const Measurement* row = nullptr;
  std::string constant;   ///< the constant whose model predicts it
  bool baseline = false;  ///< used as an input (a dedicated run, or a MIG instance's pinning point)
  double predicted = 0.0;
  double error = 0.0;  ///< (predicted − measured) / measured
};
struct ModelValidation {
  std::vector<ValidationRow> rows;
  int num_predicted = 0;
  double mape = 0.0;
  std::vector<std::string> notes;
};

/// Predicts every shared row from its baseline and co-runners, and every MIG row from its
/// instance's largest and smallest profile, with the profile's constants.
ModelValidation validate_model(const std::vector<Measurement>& rows, const CalibrationProfile& profile,
                               const models::GpuCatalog& gpus, const models::MigCatalog& mig);

/// A profile with every fitted constant drawn from its sampling distribution (log-normal with
/// the fitted value as median and std_error / value as log-scale σ, so it stays positive);
/// efficiencies are capped at 1. An MPS constant left at its no-effect edge with a one-sided
/// std_error (efficiency 1, interference 0) is drawn half-normal from the edge into its range.
/// Uncalibrated constants are kept.
CalibrationProfile sample_profile(const CalibrationProfile& profile, std::uint64_t seed);

}  // namespace slicewise::calibration
