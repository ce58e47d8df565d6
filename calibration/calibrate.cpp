// Collects the fits into a profile, cross-validates them, and validates a profile on rows.
#include "calibration/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "calibration/mig_fit.hpp"
#include "calibration/nonlinear_fit.hpp"
#include "calibration/sharing_defaults.hpp"
#include "calibration/sharing_fit.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"

namespace slicewise::calibration {

namespace {

/// The GPUs with MIG rows or green-context SM-scaling rows: what the roofline sharpness is fitted on.
std::set<std::string> mig_gpus(const std::vector<Measurement>& rows) {
  std::set<std::string> out;
  for (const auto& m : rows) {
    const bool green = m.facts().baseline && m.params.count("sm_count") != 0;
    if (m.alone_in_mig_instance() || green) out.insert(m.gpu);
  }
  return out;
}

/// The points of `gpu` that scale a workload's SMs: its MIG slices and its green contexts.
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
  base.concurrent_efficiency = value_in(profile, SharingConstant::mps_efficiency);
  base.concurrent_interference = value_in(profile, SharingConstant::mps_interference);
  return base;
}

/// A fitted value for the cross-validation report: 4 significant digits.
std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

/// Why leaving out `workload`, the only one of `rows` ("time_slicing"), predicts nothing.
std::string only_workload(const std::string& rows, const std::string& workload) {
  return "the " + rows + " rows are all of one workload (" + workload +
         "): leaving it out leaves no rows to fit on; measure a second workload";
}

/// Leave-one-workload-out: for each workload, `fit` on the other workloads' points gives the
/// parameters (and their description for the report) that predict this one's points, compared with
/// the uncalibrated parameters and the fair-share rule (time × n_contexts). Workloads whose training
/// set cannot be fitted are left out; when that leaves none, not_predicted says why.
CrossValidation cross_validate(
    const std::vector<CoRunPoint>& points, const std::string& constant, const std::string& protocol,
    const models::SharingParams& uncalibrated,
    const std::function<std::optional<std::pair<models::SharingParams, std::string>>(const std::vector<CoRunPoint>&)>&
        fit,
    std::vector<CvFold>& folds) {
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

/// Leave-one-workload-out of a co-run constant fitted alone (an exact solve is allowed).
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

/// The constants `report` fitted, as a profile entry (parameter `index` of the report).
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
  c.note = "measured on " + join({gpus.begin(), gpus.end()}, ", ") +
           "; applied to every GPU (the driver's scheduling, not the chip, sets it)";
  out.fits.push_back({c.name, "*", fit});
  store(c, out.profile);
  if (options.cross_validate)
    out.profile.validation.push_back(cross_validate_sharing(points, constant, base, out.folds));
}

// ---- Time slices and bursts: the slice and the two switch costs ----

/// The time-slice model's constants, from the time-slicing co-runs whose bursts are known (the
/// probes' kernel_ms, the co-location loops'); a note says why when the rows cannot fit it.
void fit_time_slices(const std::vector<Measurement>& rows, const CalibrateOptions& options, CalibrationOutcome& out) {
  std::vector<std::string> skipped;
  std::vector<CoRunPoint> points;
  for (auto& p : co_run_points(rows, models::StrategyKind::time_slicing, skipped)) {
    const bool known = std::all_of(p.contexts.begin(), p.contexts.end(), [](const auto& c) { return c.burst_s > 0.0; });
    if (known) points.push_back(std::move(p));
  }
  if (points.empty()) return;
  std::string why;
  if (!time_slices_determined(points, why)) {
    out.notes.push_back("time slices (timeslice_ms, yield_switch_ms, preempt_switch_ms): not fitted: " + why);
    return;
  }
  const models::SharingParams base = base_params(out.profile);
  const TimeSliceFit fit = fit_time_slices(points, base);
  require_usable(fit.switches, "the time slices' switch costs");
  std::vector<const Measurement*> used;
  std::set<std::string> gpus;
  for (const auto& p : points) {
    used.push_back(p.row);
    gpus.insert(p.row->gpu);
  }
  const std::string note = "measured on " + join({gpus.begin(), gpus.end()}, ", ") +
                           "; applied to every GPU (the driver's scheduling sets it)";
  CalibratedConstant slice = constant_from("timeslice_ms", "*", fit.switches, used);
  slice.value = fit.slice_ms;
  slice.std_error = fit.slice_std_error_ms;
  slice.note = note + "; searched from 0.5 to 10 ms";
  CalibratedConstant yield = constant_from("yield_switch_ms", fit.switches, 0, used);
  CalibratedConstant preempt = constant_from("preempt_switch_ms", fit.switches, 1, used);
  yield.note = preempt.note = note;
  out.fits.push_back({"time slices (slice " + short_number(fit.slice_ms) + " ms)", "*", fit.switches});
  for (auto* c : {&slice, &yield, &preempt}) store(*c, out.profile);
  if (!options.cross_validate) return;
  auto fit_fold =
      [&](const std::vector<CoRunPoint>& train) -> std::optional<std::pair<models::SharingParams, std::string>> {
    std::string ignored;
    if (!time_slices_determined(train, ignored)) return std::nullopt;
    const TimeSliceFit f = fit_time_slices(train, base);
    if (!f.switches.usable()) return std::nullopt;
    return std::pair{time_slice_params(f, base), short_number(f.slice_ms) + " / " +
                                                     short_number(f.switches.params[0].value) + " / " +
                                                     short_number(f.switches.params[1].value) + " ms"};
  };
  out.profile.validation.push_back(cross_validate(
      points, "timeslice_ms",
      "leave one workload out: fit the slice and both switch costs on the other workloads' time-slicing rows, "
      "predict this one's",
      params_for(SharingConstant::time_slicing_efficiency,
                 value_in(uncalibrated_profile(), SharingConstant::time_slicing_efficiency), base),
      fit_fold, out.folds));
}

// ---- MPS: the flat efficiency and the memory pressure κ, fitted together ----

/// One way of fitting the two MPS constants: which are free, their values, and the fit of the free ones.
struct MpsFit {
  bool efficiency_free = false;
  bool interference_free = false;
  models::SharingParams params;  ///< base with the two constants set
  FitReport report;              ///< of the free constants, in the order efficiency, interference
  double squared_error = 0.0;
};

double squared_error(const std::vector<CoRunPoint>& points, const models::SharingParams& params) {
  double sum = 0.0;
  for (const auto& p : points) {
    const double y = p.row->value;
    const double r = (y - predict_co_run(p, params)) / y;
    sum += r * r;
  }
  return sum;
}

/// The least-squares MPS constants within their ranges (efficiency in (0, 1], κ >= 0), by trying
/// each set of bounds as active: both constants free, one free with the other at its no-effect
/// edge (efficiency 1 or κ 0), both at the edge. A set counts when its fit converged (or, for
/// cross-validation folds, solved exactly) inside the ranges; the least squared error wins. The
/// edges always count, so when the rows run no slower than the split alone predicts, the answer is
/// the split alone: the unconstrained optimum would be an efficiency above 1 or a negative κ, with
/// no physical meaning.
MpsFit best_mps_fit(const std::vector<CoRunPoint>& points, const models::SharingParams& base, bool allow_exact) {
  models::SharingParams edges = base;
  edges.discipline = models::SharingDiscipline::concurrent;
  edges.concurrent_efficiency = 1.0;
  edges.concurrent_interference = 0.0;
  MpsFit best;
  best.params = edges;
  best.squared_error = squared_error(points, edges);
  const auto consider = [&](bool efficiency_free, bool interference_free, const FitReport& report) {
    if (report.params.empty() || !(report.usable() || allow_exact)) return;
    MpsFit fit;
    fit.efficiency_free = efficiency_free;
    fit.interference_free = interference_free;
    fit.params = edges;
    std::size_t k = 0;
    if (efficiency_free) fit.params.concurrent_efficiency = report.params[k++].value;
    if (interference_free) fit.params.concurrent_interference = report.params[k++].value;
    const double efficiency = fit.params.concurrent_efficiency;
    const double interference = fit.params.concurrent_interference;
    if (!(efficiency > 0.0 && efficiency <= 1.0 && interference >= 0.0 && std::isfinite(interference))) return;
    fit.report = report;
    fit.squared_error = squared_error(points, fit.params);
    // A real improvement, not a κ of 1e-12 that the solver left on its way to the edge.
    if (fit.squared_error < best.squared_error * (1.0 - 1e-9)) best = fit;
  };
  if (points.size() > 2 || (allow_exact && points.size() == 2)) {
    consider(true, true, fit_mps_constants(points, edges, allow_exact));
  }
  consider(false, true, fit_sharing_constant(points, SharingConstant::mps_interference, edges, allow_exact));
  consider(true, false, fit_sharing_constant(points, SharingConstant::mps_efficiency, edges, allow_exact));
  return best;
}

/// One green-context row of a streaming workload: the fraction f of the GPU's SMs it ran on and its
/// rate over the same workload's on every SM.
struct BandwidthPoint {
  const Measurement* row = nullptr;
  double sms = 0.0;
  double relative = 0.0;
};

/// Σ ((min(1, f / s) − y) / y)²: the hard limit's squared relative error at `s`.
double bandwidth_error(const std::vector<BandwidthPoint>& points, double s) {
  double sum = 0.0;
  for (const auto& p : points) {
    const double r = (std::min(1.0, p.sms / s) - p.relative) / p.relative;
    sum += r * r;
  }
  return sum;
}

/// The green-context rows (dedicated, sm_count) of streaming workloads (is_streaming) on `gpu`, of
/// metric mem_bandwidth when any, else throughput, each over its file's row of the same workload on
/// every SM.
std::vector<BandwidthPoint> bandwidth_points(const std::vector<Measurement>& rows, const models::GpuSpec& gpu) {
  const auto streaming = [&](const Measurement& m) {
    return m.gpu == gpu.id && m.facts().baseline && m.params.contains("sm_count") && is_streaming(m);
  };
  const bool any_bandwidth = std::any_of(rows.begin(), rows.end(), [&](const Measurement& m) {
    return streaming(m) && m.metric == Metric::mem_bandwidth;
  });
  const Metric metric = any_bandwidth ? Metric::mem_bandwidth : Metric::throughput;
  const auto key = [](const Measurement& m) {
    Measurement whole = m;
    whole.params.erase("sm_count");
    return m.file + "|" + whole.workload_key();
  };
  std::map<std::string, double> whole;  // file and workload -> the rate on every SM
  for (const auto& m : rows) {
    if (streaming(m) && m.metric == metric && m.param("sm_count", 0.0) >= gpu.num_sms) whole[key(m)] = m.value;
  }
  std::vector<BandwidthPoint> points;
  for (const auto& m : rows) {
    const double sms = m.param("sm_count", 0.0) / static_cast<double>(gpu.num_sms);
    const auto it = streaming(m) && m.metric == metric ? whole.find(key(m)) : whole.end();
    if (it == whole.end() || sms >= 1.0 || sms <= 0.0) continue;
    points.push_back({&m, sms, m.value / it->second});
  }
  return points;
}

/// The s of min(1, f / s) with the least squared relative error over `points` (a scan, then golden
/// section), and its std_error: half the interval over which that error stays within one residual
/// variance of its least (Δχ² = 1).
std::pair<double, double> fit_hard_limit(const std::vector<BandwidthPoint>& points) {
  double best = 1.0;
  for (int i = 1; i <= 1000; ++i) {
    const double s = i / 1000.0;
    if (bandwidth_error(points, s) < bandwidth_error(points, best)) best = s;
  }
  double low = std::max(1e-3, best - 1e-3);
  double high = std::min(1.0, best + 1e-3);
  for (int i = 0; i < 100; ++i) {  // golden section in the scan's bracket
    const double a = high - 0.618034 * (high - low);
    const double b = low + 0.618034 * (high - low);
    if (bandwidth_error(points, a) < bandwidth_error(points, b)) {
      high = b;
    } else {
      low = a;
    }
  }
  best = 0.5 * (low + high);
  const double least = bandwidth_error(points, best);
  const double variance = least / static_cast<double>(std::max<std::size_t>(1, points.size() - 1));
  const auto bound = [&](double inside, double outside) {  // where the error crosses least + variance
    for (int i = 0; i < 60; ++i) {
      const double mid = 0.5 * (inside + outside);
      (bandwidth_error(points, mid) - least < variance ? inside : outside) = mid;
    }
    return outside;
  };
  return {best, 0.5 * (bound(best, 1.0) - bound(best, 1e-3))};
}

/// bandwidth_sm_frac per GPU whose rows have green-context points of a streaming workload: the s
/// of the hard limit min(1, f / s) with the least squared relative error (a scan, then golden
/// section); its std_error half the interval over which that error stays within one residual
/// variance of its least (Δχ² = 1).
void fit_bandwidth_sms(const std::vector<Measurement>& rows, const models::GpuCatalog& gpus, CalibrationOutcome& out) {
  std::set<std::string> ids;
  for (const auto& m : rows) ids.insert(m.gpu);
  for (const auto& id : ids) {
    const auto* gpu = gpus.find(id);
    if (!gpu || gpu->num_sms <= 0) continue;
    const auto points = bandwidth_points(rows, *gpu);
    if (points.size() < 2) continue;
    const auto [best, std_error] = fit_hard_limit(points);
    std::vector<double> observed, predicted;
    std::vector<const Measurement*> used;
    for (const auto& p : points) {
      observed.push_back(p.relative);
      predicted.push_back(std::min(1.0, p.sms / best));
      used.push_back(p.row);
    }
    FitReport report;
    report.status = FitStatus::converged;
    report.message = "least squares over the SM fraction of min(1, f / s) (scan and golden section)";
    fill_fit_statistics(observed, predicted, report);
    CalibratedConstant c;
    c.name = "bandwidth_sm_frac";
    c.gpu = id;
    c.value = best;
    c.std_error = std_error;
    c.fitted = true;
    c.num_points = static_cast<int>(points.size());
    c.rmse = report.rmse;
    c.mape = report.mape;
    c.r2 = report.r2;
    c.fit_message = report.message;
    c.sources = sources_of(used);
    c.note =
        "a streaming kernel's bandwidth on green contexts of fewer SMs; applied to every GPU of its "
        "architecture (memory-bound MPS clients under a thread cap)";
    out.profile.constants.push_back(c);
    report.params.push_back({"bandwidth_sm_frac", best, c.std_error});
    out.fits.push_back({c.name, id, report});
  }
}

/// Each point's GPU's bandwidth_sm_frac in `defaults` (points of GPUs it does not know keep 0).
void attach_bandwidth_sms(std::vector<CoRunPoint>& points, const models::SharingDefaults& defaults) {
  for (auto& p : points) p.bandwidth_sm_frac = defaults.bandwidth_sm_frac_for(p.row->gpu);
}

/// How far into its range an MPS constant left at its no-effect edge (`at`) can move before the
/// squared error rises by one residual variance: the profile-likelihood 1σ bound (Δχ² = 1, with
/// the variance estimated from these rows' residuals). It is the one-sided std_error that
/// `--uncertainty` draws the constant with (sample_profile): the data cannot tell that step from
/// the edge. The whole range when the error never rises that much.
double edge_std_error(const std::vector<CoRunPoint>& points, const models::SharingParams& at,
                      SharingConstant constant) {
  const bool efficiency = constant == SharingConstant::mps_efficiency;
  const double base = squared_error(points, at);
  const double variance = base / static_cast<double>(std::max<std::size_t>(1, points.size() - 2));
  const auto rise = [&](double step) {
    models::SharingParams p = at;
    (efficiency ? p.concurrent_efficiency : p.concurrent_interference) = efficiency ? 1.0 - step : step;
    return squared_error(points, p) - base;
  };
  double low = 0.0;
  double high = efficiency ? 0.999 : 1e-3;  // an efficiency's step stops short of 0
  if (!efficiency) {
    while (rise(high) < variance && high < 1e3) {
      low = high;
      high *= 2.0;
    }
  }
  if (rise(high) < variance) return high;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (low + high);
    (rise(mid) < variance ? low : high) = mid;
  }
  return high;
}

/// "mps_efficiency 0.91, mps_interference 0 (edge)".
std::string describe(const MpsFit& fit) {
  return "mps_efficiency " + short_number(fit.params.concurrent_efficiency) + (fit.efficiency_free ? "" : " (edge)") +
         ", mps_interference " + short_number(fit.params.concurrent_interference) +
         (fit.interference_free ? "" : " (edge)");
}

void fit_mps(const std::vector<Measurement>& rows, const CalibrateOptions& options, CalibrationOutcome& out) {
  std::vector<std::string> skipped;
  auto points = co_run_points(rows, models::StrategyKind::mps, skipped);
  out.notes.insert(out.notes.end(), skipped.begin(), skipped.end());
  if (points.empty()) return;
  attach_bandwidth_sms(points, sharing_defaults(out.profile));
  const models::SharingParams base = base_params(out.profile);
  const MpsFit fit = best_mps_fit(points, base, false);
  std::vector<const Measurement*> used;
  std::set<std::string> gpus;
  for (const auto& p : points) {
    used.push_back(p.row);
    gpus.insert(p.row->gpu);
  }
  const std::string where = join({gpus.begin(), gpus.end()}, ", ");
  // The split's error on these rows with the chosen constants, for the entries left at their edge.
  FitReport chosen;
  {
    std::vector<double> observed, predicted;
    for (const auto& p : points) {
      observed.push_back(p.row->value);
      predicted.push_back(predict_co_run(p, fit.params));
    }
    fill_fit_statistics(observed, predicted, chosen);
  }
  std::size_t index = 0;
  for (const SharingConstant constant : {SharingConstant::mps_efficiency, SharingConstant::mps_interference}) {
    const bool free = constant == SharingConstant::mps_efficiency ? fit.efficiency_free : fit.interference_free;
    const std::string name = to_string(constant);
    CalibratedConstant c;
    if (free) {
      c = constant_from(name, fit.report, index++, used);
      c.note = "measured on " + where + ", fitted with the other MPS constant" +
               (fit.efficiency_free && fit.interference_free ? "" : " at its no-effect edge") +
               "; applied to every GPU";
      out.fits.push_back({name, "*", fit.report});
    } else {
      // Not fitted: a step into the allowed range does not lower the error. Keep the no-effect
      // default and say how the model does on these rows, so the profile shows its error there.
      c.name = name;
      c.value = constant == SharingConstant::mps_efficiency ? 1.0 : 0.0;
      c.num_points = static_cast<int>(points.size());
      c.rmse = chosen.rmse;
      c.mape = chosen.mape;
      c.r2 = chosen.r2;
      c.sources = sources_of(used);
      c.fit_message = "not fitted: the least-squares optimum is the edge " + name + " = " + format_number(c.value) +
                      " (no value inside the allowed range lowers the squared error)";
      c.std_error = edge_std_error(points, fit.params, constant);
      c.note = "on the " + std::to_string(points.size()) + " mps rows (" + where +
               ") no value inside its range fits better than this one, where it has no effect; one-sided std_error: "
               "the step into its range at which the squared error has risen by one residual variance";
      char mape[32];
      std::snprintf(mape, sizeof mape, "%.1f", 100.0 * chosen.mape);
      out.notes.push_back(name + ": " + c.fit_message + "; keeps its default " + format_number(c.value) +
                          " (in-sample MAPE " + mape + " % on " + std::to_string(points.size()) +
                          " mps rows), within " + format_number(c.std_error) +
                          " of which the rows cannot tell it apart");
    }
    store(c, out.profile);
  }
  if (!options.cross_validate) return;
  models::SharingParams uncalibrated = base;
  uncalibrated.discipline = models::SharingDiscipline::concurrent;
  uncalibrated.concurrent_efficiency = value_in(uncalibrated_profile(), SharingConstant::mps_efficiency);
  uncalibrated.concurrent_interference = value_in(uncalibrated_profile(), SharingConstant::mps_interference);
  const auto refit =
      [&](const std::vector<CoRunPoint>& train) -> std::optional<std::pair<models::SharingParams, std::string>> {
    const MpsFit f = best_mps_fit(train, base, true);
    return std::pair{f.params, describe(f)};
  };
  out.profile.validation.push_back(
      cross_validate(points, "mps_interference",
                     "leave one workload out: mps_efficiency and mps_interference refitted together on the other "
                     "workloads' mps rows (each at its no-effect edge where that fits better), this one's rows "
                     "predicted from its baseline; uncalibrated: the kernel turns alone",
                     uncalibrated, refit, out.folds));
}

void fit_mig(const std::vector<Measurement>& rows, const CalibrateOptions& options, const models::GpuCatalog& gpus,
             const models::MigCatalog& mig, CalibrationOutcome& out) {
  for (const auto& gpu : mig_gpus(rows)) {
    const auto points = scaling_points(rows, gpu, gpus, mig);
    const FitReport fit = fit_mig_scaling(points);
    require_usable(fit, "roofline_sharpness on " + gpu);
    require_in_range("roofline_sharpness", fit, "roofline_sharpness on " + gpu);
    std::vector<const Measurement*> used;
    used.reserve(points.size());
    for (const auto& p : points) used.push_back(p.row);
    CalibratedConstant c = constant_from("roofline_sharpness", gpu, fit, used);
    const bool green =
        std::any_of(points.begin(), points.end(), [](const MigPoint& p) { return p.instance.starts_with("green:"); });
    c.note = std::string(green ? "SM scaling on green contexts" : "MIG slice scaling") +
             "; fitted jointly with each workload's whole-GPU time and SM occupancy (" +
             std::to_string(fit.params.size() - 1) + " nuisance parameters)";
    out.profile.constants.push_back(c);
    out.fits.push_back({c.name, gpu, fit});
    if (!options.cross_validate) continue;
    const MigCvReport report = cross_validate_mig(points);
    CrossValidation cv;
    cv.constant = "roofline_sharpness";
    cv.gpu = gpu;
    cv.protocol =
        "leave one workload out: sharpness fitted on the other workloads; each instance of the held-out "
        "workload pinned by its largest and smallest profile, its other profiles predicted";
    cv.num_predicted = report.num_predicted;
    cv.mape = report.mape_fitted;
    cv.mape_uncalibrated = report.mape_hard;
    cv.mape_naive = report.mape_proportional;
    if (report.num_predicted == 0) cv.not_predicted = join(report.skipped, "; ");
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
  fit_time_slices(rows, options, out);
  // MPS: the SMs that saturate bandwidth (a thread cap's limit on a memory-bound client), then the
  // flat efficiency and the memory-pressure κ, together (both slow clients down).
  fit_bandwidth_sms(rows, gpus, out);
  fit_mps(rows, options, out);
  fit_sharing(rows, SharingConstant::hami_launch_overhead_frac, options, out);
  fit_mig(rows, options, gpus, mig, out);
  for (const auto& c : out.profile.constants) {
    if (!c.fitted && c.num_points == 0) {
      out.notes.push_back(c.name + ": no measurements; keeps its uncalibrated default " + std::to_string(c.value));
    }
  }
  return out;
}

namespace {

/// What the simulator shares a GPU with for `constant`'s strategy under `profile`: its time slices,
/// when it has them, for time-slicing (named "timeslice_ms" then in `name`).
models::SharingParams validation_params(const CalibrationProfile& profile, SharingConstant constant,
                                        const models::SharingParams& base, std::string& name) {
  models::SharingParams params = params_for(constant, value_in(profile, constant), base);
  name = to_string(constant);
  if (constant != SharingConstant::time_slicing_efficiency) return params;
  const auto defaults = sharing_defaults(profile);
  if (!defaults.time_slices) return params;
  params.set_time_slices(defaults.quantum_ms, defaults.yield_switch_ms, defaults.preempt_switch_ms);
  name = "timeslice_ms";
  return params;
}

}  // namespace

namespace {

/// A predicted time in seconds as `row`'s metric: itself for a time, its inverse for a rate.
double in_row_metric(double seconds, const Measurement& row) { return is_time(row.metric) ? seconds : 1.0 / seconds; }

}  // namespace

ModelValidation validate_model(const std::vector<Measurement>& rows, const CalibrationProfile& profile,
                               const models::GpuCatalog& gpus, const models::MigCatalog& mig) {
  ModelValidation out;
  double sum = 0.0;
  const models::SharingParams base = base_params(profile);
  const auto defaults = sharing_defaults(profile);
  for (const auto constant : {SharingConstant::time_slicing_efficiency, SharingConstant::mps_efficiency,
                              SharingConstant::hami_launch_overhead_frac}) {
    auto points = co_run_points(rows, strategy_of(constant), out.notes);
    attach_bandwidth_sms(points, defaults);
    std::string name;
    const models::SharingParams params = validation_params(profile, constant, base, name);
    for (const auto& p : points) {
      ValidationRow v{p.row, name, false, 0.0, 0.0};
      v.predicted = predict_co_run(p, params);
      v.error = (v.predicted - p.row->value) / p.row->value;
      sum += std::abs(v.error);
      ++out.num_predicted;
      out.rows.push_back(v);
    }
  }
  for (const auto& gpu : mig_gpus(rows)) {
    const auto* sharpness = profile.find("roofline_sharpness", gpu);
    const double p = sharpness ? sharpness->value : std::numeric_limits<double>::infinity();
    const auto points = scaling_points(rows, gpu, gpus, mig);
    std::map<std::string, std::vector<const MigPoint*>> instances;
    for (const auto& point : points) instances[point.instance].push_back(&point);
    for (auto& [instance, members] : instances) {
      std::sort(members.begin(), members.end(),
                [](const MigPoint* a, const MigPoint* b) { return a->compute < b->compute; });
      if (members.size() < 3) {
        std::string note = gpu;
        note.append(" ").append(instance).append(": fewer than 3 MIG profiles; nothing to predict");
        out.notes.push_back(std::move(note));
        continue;
      }
      const FitReport pinned = fit_mig_scaling({*members.front(), *members.back()}, p, true);
      for (std::size_t k = 0; k < members.size(); ++k) {
        const MigPoint& point = *members[k];
        ValidationRow v{point.row, "roofline_sharpness", k == 0 || k + 1 == members.size(), 0.0, 0.0};
        // The scaling fit works in seconds; a rate row (throughput) is shown and scored as a rate.
        v.predicted = in_row_metric(predict_mig(point, pinned.params[0].value, pinned.params[1].value, p), *point.row);
        v.error = (v.predicted - point.row->value) / point.row->value;
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
    const double z = normal(rng);      // drawn for every constant, so one's draw does not shift another's
    if (c.std_error <= 0.0) continue;  // uncalibrated: kept
    if (!c.fitted) {
      // Left at its no-effect edge with a one-sided bound (edge_std_error): half-normal into the range.
      if (c.name == "mps_efficiency" && c.value == 1.0) c.value = std::max(1e-3, 1.0 - std::abs(z) * c.std_error);
      if (c.name == "mps_interference" && c.value == 0.0) c.value = std::abs(z) * c.std_error;
      continue;
    }
    if (c.value <= 0.0) continue;  // log-normal needs a positive median
    c.value *= std::exp(z * c.std_error / c.value);
    if (c.name == "time_slicing_efficiency" || c.name == "mps_efficiency") c.value = std::min(1.0, c.value);
  }
  return sampled;
}

}  // namespace slicewise::calibration
