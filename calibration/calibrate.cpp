// Collects the fits into a profile, cross-validates them, and validates a profile on rows.
#include "calibration/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "calibration/mig_fit.hpp"
#include "calibration/sharing_fit.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"

namespace slicewise::calibration {

namespace {

/// GPUs with MIG rows, sorted.
std::set<std::string> mig_gpus(const std::vector<Measurement>& rows) {
  std::set<std::string> out;
  for (const auto& m : rows) {
    if (m.strategy == models::StrategyKind::mig) out.insert(m.gpu);
  }
  return out;
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

/// A fitted constant outside constant_range() would give a profile that does not load.
void require_in_range(const std::string& name, const FitReport& fit, const std::string& what) {
  const double value = fit.params[0].value;
  if (const auto problem = constant_range(name).violation(value); !problem.empty()) {
    throw CalibrationError("cannot calibrate " + what + ": the best fit is " + format_number(value) + ", but it " +
                           problem + "; the measurements are not what the model can explain (check them)");
  }
}

/// The value of a sharing constant in `profile` (its uncalibrated default when absent).
double value_in(const CalibrationProfile& profile, SharingConstant constant) {
  if (const auto* c = profile.find(to_string(constant))) return c->value;
  return uncalibrated_profile().find(to_string(constant))->value;
}

models::SharingParams base_params(const CalibrationProfile& profile) {
  models::SharingParams base;
  base.efficiency = value_in(profile, SharingConstant::time_slicing_efficiency);
  return base;
}

/// Leave-one-workload-out of a co-run constant: fit it without the workload's points (an exact
/// solve is allowed), predict them; the same with the uncalibrated default and the fair-share rule
/// (time × n_contexts).
CrossValidation cross_validate_sharing(const std::vector<CoRunPoint>& points, SharingConstant constant,
                                       const models::SharingParams& base) {
  CrossValidation cv;
  cv.constant = to_string(constant);
  cv.gpu = "*";
  cv.protocol = "leave one workload out: fit on the other workloads' shared rows, predict this one's from its baseline";
  const double uncalibrated = value_in(uncalibrated_profile(), constant);
  std::set<std::string> workloads;
  for (const auto& p : points) workloads.insert(p.row->workload);
  for (const auto& workload : workloads) {
    std::vector<CoRunPoint> train, test;
    for (const auto& p : points) (p.row->workload == workload ? test : train).push_back(p);
    if (train.empty()) continue;
    const FitReport fit = fit_sharing_constant(train, constant, base, true);
    if (fit.params.empty()) continue;
    for (const auto& p : test) {
      const double y = p.row->value;
      cv.mape += std::abs(predict_co_run(p, params_for(constant, fit.params[0].value, base)) - y) / y;
      cv.mape_uncalibrated += std::abs(predict_co_run(p, params_for(constant, uncalibrated, base)) - y) / y;
      const double n = static_cast<double>(p.contexts.size());
      const double fair = is_time(p.row->metric) ? p.baseline * n : p.baseline / n;
      cv.mape_naive += std::abs(fair - y) / y;
      ++cv.num_predicted;
    }
  }
  if (cv.num_predicted > 0) {
    cv.mape /= cv.num_predicted;
    cv.mape_uncalibrated /= cv.num_predicted;
    cv.mape_naive /= cv.num_predicted;
  }
  return cv;
}

void fit_sharing(const std::vector<Measurement>& rows, SharingConstant constant, const CalibrateOptions& options,
                 CalibrationOutcome& out) {
  std::vector<std::string> skipped;
  const auto points = co_run_points(rows, strategy_of(constant), skipped);
  out.notes.insert(out.notes.end(), skipped.begin(), skipped.end());
  if (points.empty()) return;
  const models::SharingParams base = base_params(out.profile);
  const FitReport fit = fit_sharing_constant(points, constant, base);
  require_usable(fit, to_string(constant));
  require_in_range(to_string(constant), fit, to_string(constant));
  std::vector<const Measurement*> used;
  std::set<std::string> gpus;
  for (const auto& p : points) {
    used.push_back(p.row);
    gpus.insert(p.row->gpu);
  }
  CalibratedConstant c = constant_from(to_string(constant), "*", fit, used);
  c.note = "measured on " + join({gpus.begin(), gpus.end()}, ", ") + "; applied to every GPU (the driver's scheduling, not the chip, sets it)";
  auto& constants = out.profile.constants;
  const auto slot = std::find_if(constants.begin(), constants.end(), [&](const auto& e) { return e.name == c.name; });
  if (slot == constants.end()) {
    constants.push_back(c);
  } else {
    *slot = c;  // the fitted value replaces the default, in place
  }
  out.fits.push_back({c.name, "*", fit});
  if (options.cross_validate) out.profile.validation.push_back(cross_validate_sharing(points, constant, base));
}

void fit_mig(const std::vector<Measurement>& rows, const CalibrateOptions& options, const models::GpuCatalog& gpus,
             const models::MigCatalog& mig, CalibrationOutcome& out) {
  for (const auto& gpu : mig_gpus(rows)) {
    const auto points = mig_points(rows, gpu, gpus, mig);
    const FitReport fit = fit_mig_scaling(points);
    require_usable(fit, "roofline_sharpness on " + gpu);
    require_in_range("roofline_sharpness", fit, "roofline_sharpness on " + gpu);
    std::vector<const Measurement*> used;
    for (const auto& p : points) used.push_back(p.row);
    CalibratedConstant c = constant_from("roofline_sharpness", gpu, fit, used);
    c.note = "MIG slice scaling; fitted jointly with each workload's whole-GPU time and SM occupancy (" +
             std::to_string(fit.params.size() - 1) + " nuisance parameters)";
    out.profile.constants.push_back(c);
    out.fits.push_back({c.name, gpu, fit});
    if (!options.cross_validate) continue;
    const MigCvReport report = cross_validate_mig(points);
    CrossValidation cv;
    cv.constant = "roofline_sharpness";
    cv.gpu = gpu;
    cv.protocol = "leave one workload out: sharpness fitted on the other workloads; each instance of the held-out "
                  "workload pinned by its largest and smallest profile, its other profiles predicted";
    cv.num_predicted = report.num_predicted;
    cv.mape = report.mape_fitted;
    cv.mape_uncalibrated = report.mape_hard;
    cv.mape_naive = report.mape_proportional;
    out.profile.validation.push_back(cv);
  }
}

}  // namespace

CalibrationOutcome calibrate(const std::vector<Measurement>& rows, const std::vector<std::string>& files,
                             const CalibrateOptions& options, const models::GpuCatalog& gpus,
                             const models::MigCatalog& mig) {
  CalibrationOutcome out;
  out.profile = uncalibrated_profile();
  out.profile.created = options.created;
  out.profile.id = options.id.empty() ? "calibrated-" + options.created : options.id;
  out.profile.description = "Fitted by slicewise calibrate from " + std::to_string(rows.size()) + " measurements.";
  out.profile.data_files = files;
  // Time-slicing first: HAMi's overhead is fitted with the efficiency held at its fitted value.
  fit_sharing(rows, SharingConstant::time_slicing_efficiency, options, out);
  fit_sharing(rows, SharingConstant::mps_efficiency, options, out);
  fit_sharing(rows, SharingConstant::hami_launch_overhead_frac, options, out);
  fit_mig(rows, options, gpus, mig, out);
  for (const auto& c : out.profile.constants) {
    if (!c.fitted) out.notes.push_back(c.name + ": no measurements; keeps its uncalibrated default " + std::to_string(c.value));
  }
  return out;
}

ModelValidation validate_model(const std::vector<Measurement>& rows, const CalibrationProfile& profile,
                               const models::GpuCatalog& gpus, const models::MigCatalog& mig) {
  ModelValidation out;
  double sum = 0.0;
  const models::SharingParams base = base_params(profile);
  for (const auto constant : {SharingConstant::time_slicing_efficiency, SharingConstant::mps_efficiency,
                              SharingConstant::hami_launch_overhead_frac}) {
    const auto points = co_run_points(rows, strategy_of(constant), out.notes);
    for (const auto& p : points) {
      ValidationRow v{p.row, to_string(constant), false, 0.0, 0.0};
      v.predicted = predict_co_run(p, params_for(constant, value_in(profile, constant), base));
      v.error = (v.predicted - p.row->value) / p.row->value;
      sum += std::abs(v.error);
      ++out.num_predicted;
      out.rows.push_back(v);
    }
  }
  for (const auto& gpu : mig_gpus(rows)) {
    const auto* sharpness = profile.find("roofline_sharpness", gpu);
    const double p = sharpness ? sharpness->value : std::numeric_limits<double>::infinity();
    const auto points = mig_points(rows, gpu, gpus, mig);
    std::map<std::string, std::vector<const MigPoint*>> instances;
    for (const auto& point : points) instances[point.instance].push_back(&point);
    for (auto& [instance, members] : instances) {
      std::sort(members.begin(), members.end(), [](const MigPoint* a, const MigPoint* b) { return a->compute < b->compute; });
      if (members.size() < 3) {
        out.notes.push_back(gpu + " " + instance + ": fewer than 3 MIG profiles; nothing to predict");
        continue;
      }
      const FitReport pinned = fit_mig_scaling({*members.front(), *members.back()}, p, true);
      for (std::size_t k = 0; k < members.size(); ++k) {
        const MigPoint& point = *members[k];
        ValidationRow v{point.row, "roofline_sharpness", k == 0 || k + 1 == members.size(), 0.0, 0.0};
        v.predicted = predict_mig(point, pinned.params[0].value, pinned.params[1].value, p);
        v.error = (v.predicted - point.observed) / point.observed;
        if (!v.baseline) {
          sum += std::abs(v.error);
          ++out.num_predicted;
        }
        out.rows.push_back(v);
      }
    }
  }
  out.mape = out.num_predicted > 0 ? sum / out.num_predicted : 0.0;
  return out;
}

CalibrationProfile sample_profile(const CalibrationProfile& profile, std::uint64_t seed) {
  CalibrationProfile sampled = profile;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (auto& c : sampled.constants) {
    const double z = normal(rng);  // drawn for every constant, so one's draw does not shift another's
    if (!c.fitted || c.std_error <= 0.0) continue;
    c.value *= std::exp(z * c.std_error / c.value);
    if (c.name == "time_slicing_efficiency" || c.name == "mps_efficiency") c.value = std::min(1.0, c.value);
  }
  return sampled;
}

}  // namespace slicewise::calibration
