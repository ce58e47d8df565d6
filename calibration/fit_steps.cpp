// The steps every constant's fit shares (see fit_steps.hpp).
#include "calibration/fit_steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/spell.hpp"

namespace slicewise::calibration::detail {

namespace {

/// Why leaving out `workload`, the only one of `rows` ("time_slicing"), predicts nothing.
std::string only_workload(const std::string& rows, const std::string& workload) {
  return "the " + rows + " rows are all of one workload (" + workload +
         "): leaving it out leaves no rows to fit on; measure a second workload";
}

}  // namespace

std::set<std::string> mig_gpus(const std::vector<Measurement>& rows) {
  std::set<std::string> out;
  for (const auto& m : rows) {
    const bool green = m.facts().baseline && m.params.count("sm_count") != 0;
    if (m.alone_in_mig_instance() || green) out.insert(m.gpu);
  }
  return out;
}

std::vector<MigPoint> scaling_points(const std::vector<Measurement>& rows, const std::string& gpu,
                                     const models::GpuCatalog& gpus, const models::MigCatalog& mig) {
  auto points = mig_points(rows, gpu, gpus, mig);
  const auto green = sm_scaling_points(rows, gpu, gpus);
  points.insert(points.end(), green.begin(), green.end());
  return points;
}

std::vector<std::string> sources_of(const std::vector<const Measurement*>& rows) {
  std::set<std::string> out;
  for (const auto* m : rows) out.insert(m->source + " (" + m->date + ")");
  return {out.begin(), out.end()};
}

CalibratedConstant constant_from(const std::string& name, const std::string& gpu, const FitReport& fit,
                                 const std::vector<const Measurement*>& rows) {
  CalibratedConstant c;
  c.name = name;
  c.gpu = gpu;
  c.value = fit.params[0].value;
  c.std_error = fit.params[0].std_error;
  c.fitted = true;
  c.num_points = fit.num_points;
  c.rmse = fit.rmse;
  c.mape = fit.mape;
  c.r2 = fit.r2;
  c.fit_message = fit.message;
  c.sources = sources_of(rows);
  return c;
}

void require_usable(const FitReport& fit, const std::string& what) {
  if (!fit.usable()) {
    throw CalibrationError("cannot calibrate " + what + ": " + to_string(fit.status) + ": " + fit.message);
  }
}

void require_in_range(const std::string& name, const FitReport& fit, const std::string& what) {
  const double value = fit.params[0].value;
  if (const auto problem = constant_range(name).violation(value); !problem.empty()) {
    throw CalibrationError("cannot calibrate " + what + ": the best fit is " + format_number(value) + ", but it " +
                           problem + "; the measurements are not what the model can explain (check them)");
  }
}

double value_in(const CalibrationProfile& profile, SharingConstant constant) {
  if (const auto* c = profile.find(to_string(constant))) return c->value;
  return uncalibrated_profile().find(to_string(constant))->value;
}

models::SharingParams base_params(const CalibrationProfile& profile) {
  models::SharingParams base;
  base.efficiency = value_in(profile, SharingConstant::time_slicing_efficiency);
  base.concurrent_efficiency = value_in(profile, SharingConstant::mps_efficiency);
  base.concurrent_interference = value_in(profile, SharingConstant::mps_interference);
  return base;
}

std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

CrossValidation cross_validate(const std::vector<CoRunPoint>& points, const std::string& constant,
                               const std::string& protocol, const models::SharingParams& uncalibrated,
                               const RefitFn& fit, std::vector<CvFold>& folds) {
  CrossValidation cv;
  cv.constant = constant;
  cv.gpu = "*";
  cv.protocol = protocol;
  std::set<std::string> workloads;
  for (const auto& p : points) workloads.insert(p.row->workload);
  std::vector<std::string> skipped;  // why each left-out workload predicted nothing
  for (const auto& workload : workloads) {
    std::vector<CoRunPoint> train, test;
    for (const auto& p : points) (p.row->workload == workload ? test : train).push_back(p);
    if (train.empty()) {
      skipped.push_back(only_workload(models::to_string(points.front().row->strategy), workload));
      continue;
    }
    const auto fitted = fit(train);
    if (!fitted) {
      skipped.push_back("the fit without " + workload + " failed");
      continue;
    }
    CvFold fold;
    fold.constant = constant;
    fold.workload = workload;
    fold.fitted = fitted->second;
    for (const auto& p : test) {
      const double y = p.row->value;
      const double n = static_cast<double>(p.contexts.size());
      const double fair = is_time(p.row->metric) ? p.baseline * n : p.baseline / n;
      fold.mape += std::abs(predict_co_run(p, fitted->first) - y) / y;
      fold.mape_uncalibrated += std::abs(predict_co_run(p, uncalibrated) - y) / y;
      fold.mape_naive += std::abs(fair - y) / y;
      ++fold.num_predicted;
    }
    cv.mape += fold.mape;
    cv.mape_uncalibrated += fold.mape_uncalibrated;
    cv.mape_naive += fold.mape_naive;
    cv.num_predicted += fold.num_predicted;
    fold.mape /= fold.num_predicted;
    fold.mape_uncalibrated /= fold.num_predicted;
    fold.mape_naive /= fold.num_predicted;
    folds.push_back(fold);
  }
  if (cv.num_predicted > 0) {
    cv.mape /= cv.num_predicted;
    cv.mape_uncalibrated /= cv.num_predicted;
    cv.mape_naive /= cv.num_predicted;
  } else {
    cv.not_predicted = join(skipped, "; ");
  }
  return cv;
}

CrossValidation cross_validate_sharing(const std::vector<CoRunPoint>& points, SharingConstant constant,
                                       const models::SharingParams& base, std::vector<CvFold>& folds) {
  const auto fit =
      [&](const std::vector<CoRunPoint>& train) -> std::optional<std::pair<models::SharingParams, std::string>> {
    const FitReport report = fit_sharing_constant(train, constant, base, true);
    if (report.params.empty()) return std::nullopt;
    return std::pair{params_for(constant, report.params[0].value, base), short_number(report.params[0].value)};
  };
  return cross_validate(points, to_string(constant),
                        "leave one workload out: fit on the other workloads' shared rows, predict this one's from "
                        "its baseline",
                        params_for(constant, value_in(uncalibrated_profile(), constant), base), fit, folds);
}

CalibratedConstant constant_from(const std::string& name, const FitReport& fit, std::size_t index,
                                 const std::vector<const Measurement*>& rows) {
  CalibratedConstant c = constant_from(name, "*", fit, rows);
  c.value = fit.params[index].value;
  c.std_error = fit.params[index].std_error;
  return c;
}

void store(CalibratedConstant c, CalibrationProfile& profile) {
  auto& constants = profile.constants;
  const auto slot = std::find_if(constants.begin(), constants.end(), [&](const auto& e) { return e.name == c.name; });
  if (slot == constants.end()) {
    constants.push_back(std::move(c));
  } else {
    *slot = std::move(c);  // the fitted value replaces the default, in place
  }
}

}  // namespace slicewise::calibration::detail
