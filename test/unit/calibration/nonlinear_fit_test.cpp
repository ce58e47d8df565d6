// Levenberg–Marquardt: known parameters recovered from seeded noisy data, agreement with the linear
// solver on a linear model, and refusals of fits the data cannot support.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "calibration/linear_fit.hpp"
#include "calibration/nonlinear_fit.hpp"

namespace slicewise::calibration {
namespace {

TEST(NonlinearFit, RecoversAnExponentialDecayWithinTwoStandardErrors) {
  // y = a · exp(−b x) · (1 + ε), ε ~ N(0, 2 %), a = 3, b = 0.7.
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::vector<double> x, y;
  for (int i = 0; i < 40; ++i) {
    x.push_back(0.1 * i);
    y.push_back(3.0 * std::exp(-0.7 * x.back()) * (1.0 + noise(rng)));
  }
  NonlinearProblem problem;
  problem.params = {{"a", 1.0, true}, {"b", 0.1, true}};
  problem.observed = y;
  problem.predict = [&](const std::vector<double>& p, std::vector<double>& out) {
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = p[0] * std::exp(-p[1] * x[i]);
  };
  const FitReport fit = fit_nonlinear(problem);
  ASSERT_TRUE(fit.usable()) << fit.message;
  ASSERT_EQ(fit.params.size(), 2u);
  EXPECT_LT(std::abs(fit.params[0].value - 3.0), 2 * fit.params[0].std_error);
  EXPECT_LT(std::abs(fit.params[1].value - 0.7), 2 * fit.params[1].std_error);
  EXPECT_GT(fit.params[0].std_error, 0.0);
  EXPECT_NEAR(fit.mape, 0.016, 0.006);  // mean |ε| of a 2 % normal is 1.6 %
  EXPECT_GT(fit.r2, 0.99);
  EXPECT_EQ(fit.residuals.size(), 40u);
  EXPECT_EQ(fit.covariance.size(), 4u);
}

TEST(NonlinearFit, AgreesWithLinearLeastSquaresOnALinearModel) {
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  for (int i = 1; i <= 12; ++i) {
    rows.push_back({1.0, static_cast<double>(i)});
    y.push_back(2.0 + 0.5 * i + ((i % 3) - 1) * 0.1);  // deterministic wiggle
  }
  const FitReport linear = fit_linear(rows, y, {"c", "m"});
  NonlinearProblem problem;
  problem.params = {{"c", 0.0, false}, {"m", 0.0, false}};
  problem.observed = y;
  problem.relative = false;
  problem.predict = [&](const std::vector<double>& p, std::vector<double>& out) {
    for (std::size_t i = 0; i < rows.size(); ++i) out[i] = p[0] + p[1] * rows[i][1];
  };
  const FitReport nonlinear = fit_nonlinear(problem);
  ASSERT_TRUE(linear.usable() && nonlinear.usable()) << nonlinear.message;
  for (std::size_t j = 0; j < 2; ++j) {
    EXPECT_NEAR(nonlinear.params[j].value, linear.params[j].value, 1e-7);
    EXPECT_NEAR(nonlinear.params[j].std_error, linear.params[j].std_error, 1e-6);
  }
  EXPECT_NEAR(nonlinear.rmse, linear.rmse, 1e-9);
}

TEST(NonlinearFit, RefusesTooFewPointsAndParametersTheDataCannotTellApart) {
  NonlinearProblem problem;
  problem.params = {{"a", 1.0, true}, {"b", 1.0, true}};
  problem.observed = {1.0, 2.0};
  problem.predict = [](const std::vector<double>& p, std::vector<double>& out) { out.assign(2, p[0] * p[1]); };
  FitReport fit = fit_nonlinear(problem);
  EXPECT_EQ(fit.status, FitStatus::too_few_points);
  EXPECT_EQ(fit.message, "2 points for 2 parameters; need at least 3 to estimate an error");

  // Only the product a·b enters the model: the Jacobian has rank 1.
  problem.observed = {1.0, 2.0, 3.0, 4.0};
  problem.predict = [](const std::vector<double>& p, std::vector<double>& out) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = p[0] * p[1] * static_cast<double>(i + 1);
  };
  fit = fit_nonlinear(problem);
  EXPECT_EQ(fit.status, FitStatus::rank_deficient);
  EXPECT_FALSE(fit.usable());
  EXPECT_NE(fit.message.find("rank 1 < 2"), std::string::npos) << fit.message;
}

TEST(NonlinearFit, AModelThatReturnsNaNIsReportedNotFitted) {
  NonlinearProblem problem;
  problem.params = {{"a", 1.0, false}};
  problem.observed = {1.0, 2.0, 3.0};
  problem.predict = [](const std::vector<double>&, std::vector<double>& out) { out.assign(3, std::nan("")); };
  const FitReport fit = fit_nonlinear(problem);
  EXPECT_FALSE(fit.usable());
  EXPECT_NE(fit.message.find("NaN"), std::string::npos) << fit.message;
}

}  // namespace
}  // namespace slicewise::calibration
