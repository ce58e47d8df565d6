// Nonlinear least squares (Levenberg–Marquardt, Eigen's unsupported module) for the model constants
// that enter the rate model nonlinearly: time-slicing efficiency, MPS efficiency, MIG roofline
// sharpness, per-workload occupancy.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "calibration/fit_report.hpp"

namespace slicewise::calibration {

/// One parameter to fit.
struct FitParameterSpec {
  std::string name;
  double initial = 0.0;
  /// Fitted as log(value), so it stays > 0; its standard error comes by the delta method.
  bool positive = false;
};

/// y_i ≈ f_i(θ). `predict` fills one prediction per observation (same order) from the parameters
/// (natural values, in `params` order). It may be called with any positive values for positive
/// parameters, so it must not fail on them.
struct NonlinearProblem {
  std::vector<FitParameterSpec> params;
  std::vector<double> observed;
  std::function<void(const std::vector<double>& params, std::vector<double>& predicted)> predict;
  /// Minimise Σ((y − f)/y)² (relative errors: observations spanning decades weigh alike) instead
  /// of Σ(y − f)². Standard errors then come from the weighted Jacobian.
  bool relative = true;
  int max_evaluations = 4000;
  /// Accept as many points as parameters (an exact solve, no standard errors: they come back 0).
  /// Used to pin a held-out workload's own parameters from its baseline points in cross-validation.
  bool allow_exact = false;
};

/// Fits the problem. Never throws: an unusable outcome (too few points, a parameter the data cannot
/// determine, no convergence, NaN predictions) comes back in FitReport::status and message.
FitReport fit_nonlinear(const NonlinearProblem& problem);

/// Fills rmse, mape, r2 and residuals (observed − predicted) of `report`.
void fill_fit_statistics(const std::vector<double>& observed, const std::vector<double>& predicted, FitReport& report);

}  // namespace slicewise::calibration
