// Linear least squares with Eigen.
#include "calibration/linear_fit.hpp"

#include <cmath>

#include <Eigen/Dense>

namespace slicewise::calibration {

std::string to_string(FitStatus status) {
  switch (status) {
    case FitStatus::converged: return "converged";
    case FitStatus::max_iterations: return "max_iterations";
    case FitStatus::rank_deficient: return "rank_deficient";
    case FitStatus::too_few_points: return "too_few_points";
    case FitStatus::invalid_input: return "invalid_input";
  }
  return "unknown";
}

FitReport fit_linear(const std::vector<std::vector<double>>& rows, const std::vector<double>& y,
                     const std::vector<std::string>& names) {
  FitReport report;
  const auto n = static_cast<Eigen::Index>(y.size());
  const auto p = static_cast<Eigen::Index>(names.size());
  report.num_points = static_cast<int>(n);
  if (p == 0 || rows.size() != y.size()) {
    report.message = "need one row per observation and at least one parameter";
    return report;
  }
  if (n <= p) {
    report.status = FitStatus::too_few_points;
    report.message =
        std::to_string(n) + " points for " + std::to_string(p) + " parameters; need at least " + std::to_string(p + 1);
    return report;
  }
  Eigen::MatrixXd x(n, p);
  Eigen::VectorXd target(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& row = rows[static_cast<std::size_t>(i)];
    if (static_cast<Eigen::Index>(row.size()) != p) {
      report.message =
          "row " + std::to_string(i) + " has " + std::to_string(row.size()) + " values; expected " + std::to_string(p);
      return report;
    }
    for (Eigen::Index j = 0; j < p; ++j) x(i, j) = row[static_cast<std::size_t>(j)];
    target(i) = y[static_cast<std::size_t>(i)];
  }
  if (!x.allFinite() || !target.allFinite()) {
    report.message = "observations contain NaN or infinity";
    return report;
  }
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(x);
  if (qr.rank() < p) {
    report.status = FitStatus::rank_deficient;
    report.message = "design matrix has rank " + std::to_string(qr.rank()) + " < " + std::to_string(p) +
                     " parameters: the data cannot tell them apart";
    return report;
  }
  const Eigen::VectorXd beta = qr.solve(target);
  const Eigen::VectorXd residual = target - x * beta;
  const double rss = residual.squaredNorm();
  const double sigma2 = rss / static_cast<double>(n - p);
  const Eigen::MatrixXd covariance = sigma2 * (x.transpose() * x).inverse();
  const double mean = target.mean();
  const double tss = (target.array() - mean).square().sum();

  for (Eigen::Index j = 0; j < p; ++j) {
    report.params.push_back({names[static_cast<std::size_t>(j)], beta(j), std::sqrt(covariance(j, j))});
  }
  for (Eigen::Index i = 0; i < p; ++i) {
    for (Eigen::Index j = 0; j < p; ++j) report.covariance.push_back(covariance(i, j));
  }
  double ape_sum = 0.0;
  int ape_count = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    report.residuals.push_back(residual(i));
    if (target(i) != 0.0) {
      ape_sum += std::abs(residual(i) / target(i));
      ++ape_count;
    }
  }
  report.rmse = std::sqrt(rss / static_cast<double>(n));
  report.mape = ape_count > 0 ? ape_sum / ape_count : 0.0;
  report.r2 = tss > 0.0 ? 1.0 - rss / tss : 1.0;
  report.status = FitStatus::converged;
  report.message = "linear least squares: exact solution (QR, rank " + std::to_string(qr.rank()) + ")";
  return report;
}

}  // namespace slicewise::calibration
