// The outcome of a fit: parameters with standard errors, residuals, goodness of fit and why the
// solver stopped (after ceres' Solver::Summary). Plain structs: no Eigen types cross this header.
#pragma once

#include <string>
#include <vector>

namespace slicewise::calibration {

enum class FitStatus {
  converged,       ///< solution found; usable
  max_iterations,  ///< iteration limit reached before convergence; not usable
  rank_deficient,  ///< the data cannot determine every parameter; not usable
  too_few_points,  ///< fewer observations than parameters (+1 for an error estimate); not usable
  invalid_input,   ///< NaN/inf, mismatched sizes; not usable
};
std::string to_string(FitStatus status);

/// One fitted parameter.
struct FitParameter {
  std::string name;
  double value = 0.0;
  double std_error = 0.0;  ///< sqrt of the covariance diagonal (sigma² (JᵀJ)⁻¹)
  bool operator==(const FitParameter&) const = default;
};

struct FitReport {
  FitStatus status = FitStatus::invalid_input;
  std::string message;  ///< why it stopped, in words
  std::vector<FitParameter> params;
  std::vector<double> residuals;   ///< observed − predicted, per point
  std::vector<double> covariance;  ///< row-major params × params
  double rmse = 0.0;
  double mape = 0.0;  ///< mean |residual / observed| over points with observed != 0
  double r2 = 0.0;
  int num_points = 0;

  bool usable() const { return status == FitStatus::converged; }
};

}  // namespace slicewise::calibration
