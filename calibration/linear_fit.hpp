// Ordinary least squares for models linear in their parameters: y ≈ X β.
#pragma once

#include <string>
#include <vector>

#include "calibration/fit_report.hpp"

namespace slicewise::calibration {

/// Fits β minimising ‖y − Xβ‖² with a column-pivoting QR decomposition. `rows[i]` is the i-th row
/// of X (one value per parameter, in `names` order). Needs more points than parameters so that the
/// standard errors (σ² (XᵀX)⁻¹ with σ² = RSS / (n − p)) exist. Never throws: problems are reported
/// through FitReport::status and message.
FitReport fit_linear(const std::vector<std::vector<double>>& rows, const std::vector<double>& y,
                     const std::vector<std::string>& names);

}  // namespace slicewise::calibration
