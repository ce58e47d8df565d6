// Levenberg–Marquardt with Eigen; covariance from the Jacobian at the solution.
#include "calibration/nonlinear_fit.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>
#include <unsupported/Eigen/LevenbergMarquardt>

namespace slicewise::calibration {

namespace {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;

/// The weighted residuals r_i(u) = w_i (y_i − f_i(θ(u))), where u is the internal parameter
/// vector (log θ for positive parameters). Eigen's LM minimises ½‖r‖².
struct Residuals : Eigen::DenseFunctor<double> {
  Residuals(const NonlinearProblem& p, std::vector<double>& predicted)
      : Eigen::DenseFunctor<double>(static_cast<int>(p.params.size()), static_cast<int>(p.observed.size())),
        problem(p),
        prediction(predicted) {}

  std::vector<double> natural(const Vector& u) const {
    std::vector<double> theta(static_cast<std::size_t>(u.size()));
    for (Eigen::Index j = 0; j < u.size(); ++j) {
      theta[static_cast<std::size_t>(j)] = problem.params[static_cast<std::size_t>(j)].positive ? std::exp(u(j)) : u(j);
    }
    return theta;
  }

  double weight(std::size_t i) const { return problem.relative ? 1.0 / problem.observed[i] : 1.0; }

  int operator()(const Vector& u, Vector& r) const {
    prediction.assign(problem.observed.size(), 0.0);
    problem.predict(natural(u), prediction);
    for (std::size_t i = 0; i < problem.observed.size(); ++i) {
      const double value = (problem.observed[i] - prediction[i]) * weight(i);
      r(static_cast<Eigen::Index>(i)) = std::isfinite(value) ? value : 1e6;  // push the step back
    }
    return 0;
  }

  /// Central differences: dr/du_j ≈ (r(u + h e_j) − r(u − h e_j)) / 2h.
  int df(const Vector& u, Matrix& jacobian) const {
    Vector plus(values());
    Vector minus(values());
    Vector shifted = u;
    for (Eigen::Index j = 0; j < u.size(); ++j) {
      const double h = 1e-6 * std::max(1.0, std::abs(u(j)));
      shifted(j) = u(j) + h;
      (*this)(shifted, plus);
      shifted(j) = u(j) - h;
      (*this)(shifted, minus);
      shifted(j) = u(j);
      jacobian.col(j) = (plus - minus) / (2.0 * h);
    }
    return 0;
  }

  const NonlinearProblem& problem;
  std::vector<double>& prediction;
};

std::string stop_reason(Eigen::LevenbergMarquardtSpace::Status status) {
  using S = Eigen::LevenbergMarquardtSpace::Status;
  switch (status) {
    case S::RelativeReductionTooSmall: return "the sum of squares stopped decreasing (relative reduction < ftol)";
    case S::RelativeErrorTooSmall: return "the parameters stopped changing (relative step < xtol)";
    case S::RelativeErrorAndReductionTooSmall: return "both the sum of squares and the parameters stopped changing";
    case S::CosinusTooSmall: return "the residuals are orthogonal to the Jacobian (gradient ~ 0)";
    case S::FtolTooSmall: return "ftol too small: no further reduction possible";
    case S::XtolTooSmall: return "xtol too small: no further improvement possible";
    case S::GtolTooSmall: return "gtol too small: residuals orthogonal to the Jacobian";
    case S::TooManyFunctionEvaluation: return "too many function evaluations without converging";
    default: return "improper input parameters";
  }
}

/// Sets `report`'s message (and status) and returns false when `problem` cannot be fitted: no
/// parameters or model, too few points, an unusable observation or initial value.
bool check_problem(const NonlinearProblem& problem, FitReport& report) {
  const std::size_t n = problem.observed.size();
  const std::size_t p = problem.params.size();
  if (p == 0 || !problem.predict) {
    report.message = "nothing to fit: no parameters or no model";
    return false;
  }
  if (n < p || (n == p && !problem.allow_exact)) {
    report.status = FitStatus::too_few_points;
    report.message = std::to_string(n) + " points for " + std::to_string(p) + " parameters; need at least " +
                     std::to_string(p + 1) + " to estimate an error";
    return false;
  }
  for (double y : problem.observed) {
    if (!std::isfinite(y) || (problem.relative && y == 0.0)) {
      report.message = "observations must be finite" + std::string(problem.relative ? " and non-zero" : "");
      return false;
    }
  }
  for (const auto& spec : problem.params) {
    if (spec.positive && !(spec.initial > 0.0)) {
      report.message = "initial value of positive parameter " + spec.name + " must be > 0";
      return false;
    }
  }
  return true;
}

/// The internal parameter vector u of the initial values (log θ for positive parameters).
Vector internal_start(const NonlinearProblem& problem) {
  const std::size_t p = problem.params.size();
  Vector u(static_cast<Eigen::Index>(p));
  for (std::size_t j = 0; j < p; ++j) {
    const auto& spec = problem.params[j];
    u(static_cast<Eigen::Index>(j)) = spec.positive ? std::log(spec.initial) : spec.initial;
  }
  return u;
}

/// Each parameter's value and standard error, and their covariance (row-major), from the
/// covariance `cov_u` of u by the delta method.
void fill_parameters(const NonlinearProblem& problem, const std::vector<double>& theta, const Matrix& cov_u,
                     FitReport& report) {
  const std::size_t p = problem.params.size();
  Vector scale(static_cast<Eigen::Index>(p));
  for (std::size_t j = 0; j < p; ++j) scale(static_cast<Eigen::Index>(j)) = problem.params[j].positive ? theta[j] : 1.0;
  const Matrix cov = scale.asDiagonal() * cov_u * scale.asDiagonal();
  for (std::size_t j = 0; j < p; ++j) {
    const auto jj = static_cast<Eigen::Index>(j);
    report.params.push_back({problem.params[j].name, theta[j], std::sqrt(std::max(0.0, cov(jj, jj)))});
  }
  for (Eigen::Index i = 0; i < cov.rows(); ++i) {
    for (Eigen::Index j = 0; j < cov.cols(); ++j) report.covariance.push_back(cov(i, j));
  }
}

/// The fit's status from the Jacobian's rank (of `p` parameters) and how the iteration stopped.
void set_outcome(Eigen::Index rank, std::size_t p, Eigen::LevenbergMarquardtSpace::Status status, FitReport& report) {
  if (rank < static_cast<Eigen::Index>(p)) {
    report.status = FitStatus::rank_deficient;
    report.message += "; the Jacobian has rank " + std::to_string(rank) + " < " + std::to_string(p) +
                      " parameters: the data cannot determine every parameter";
  } else if (status == Eigen::LevenbergMarquardtSpace::TooManyFunctionEvaluation) {
    report.status = FitStatus::max_iterations;
  } else if (status == Eigen::LevenbergMarquardtSpace::ImproperInputParameters) {
    report.status = FitStatus::invalid_input;
  } else {
    report.status = FitStatus::converged;
  }
}

}  // namespace

void fill_fit_statistics(const std::vector<double>& observed, const std::vector<double>& predicted, FitReport& report) {
  const std::size_t n = observed.size();
  report.residuals.assign(n, 0.0);
  double rss = 0.0;
  double mean = 0.0;
  double ape_sum = 0.0;
  int ape_count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double residual = observed[i] - predicted[i];
    report.residuals[i] = residual;
    rss += residual * residual;
    mean += observed[i];
    if (observed[i] != 0.0) {
      ape_sum += std::abs(residual / observed[i]);
      ++ape_count;
    }
  }
  mean = n > 0 ? mean / static_cast<double>(n) : 0.0;
  double tss = 0.0;
  for (double y : observed) tss += (y - mean) * (y - mean);
  report.num_points = static_cast<int>(n);
  report.rmse = n > 0 ? std::sqrt(rss / static_cast<double>(n)) : 0.0;
  report.mape = ape_count > 0 ? ape_sum / ape_count : 0.0;
  report.r2 = tss > 0.0 ? 1.0 - rss / tss : 1.0;
}

FitReport fit_nonlinear(const NonlinearProblem& problem) {
  FitReport report;
  const std::size_t n = problem.observed.size();
  const std::size_t p = problem.params.size();
  report.num_points = static_cast<int>(n);
  if (!check_problem(problem, report)) return report;
  Vector u = internal_start(problem);

  std::vector<double> predicted;
  Residuals residuals(problem, predicted);
  Eigen::LevenbergMarquardt<Residuals> lm(residuals);
  lm.setMaxfev(problem.max_evaluations);
  lm.setFtol(1e-12);
  lm.setXtol(1e-12);
  const auto status = lm.minimize(u);
  report.message =
      "Levenberg-Marquardt: " + stop_reason(status) + " after " + std::to_string(lm.iterations()) + " iterations";

  Vector r(static_cast<Eigen::Index>(n));
  residuals(u, r);
  const std::vector<double> theta = residuals.natural(u);
  if (!std::all_of(predicted.begin(), predicted.end(), [](double v) { return std::isfinite(v); })) {
    report.status = FitStatus::invalid_input;
    report.message += "; the model predicts NaN or infinity at the solution";
    return report;
  }
  fill_fit_statistics(problem.observed, predicted, report);

  Matrix jacobian(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(p));
  residuals.df(u, jacobian);
  Eigen::ColPivHouseholderQR<Matrix> qr(jacobian);
  qr.setThreshold(1e-10);
  // Covariance of u: σ² (JᵀJ)⁻¹ with σ² = ‖r‖² / (n − p); then the delta method to θ.
  const double sigma2 = n > p ? r.squaredNorm() / static_cast<double>(n - p) : 0.0;
  Matrix cov_u = Matrix::Zero(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(p));
  if (qr.rank() == static_cast<Eigen::Index>(p)) cov_u = sigma2 * (jacobian.transpose() * jacobian).inverse();
  fill_parameters(problem, theta, cov_u, report);
  set_outcome(qr.rank(), p, status, report);
  return report;
}

}  // namespace slicewise::calibration
