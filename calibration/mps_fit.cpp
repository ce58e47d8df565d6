// The MPS constants `slicewise calibrate` fits (see mps_fit.hpp): the SMs that saturate a GPU's
// bandwidth, then the flat efficiency and the memory pressure κ, together.
#include "calibration/mps_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "calibration/fit_steps.hpp"
#include "calibration/nonlinear_fit.hpp"
#include "calibration/sharing_defaults.hpp"
#include "core/spell.hpp"

namespace slicewise::calibration::detail {

namespace {

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

}  // namespace

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

void attach_bandwidth_sms(std::vector<CoRunPoint>& points, const models::SharingDefaults& defaults) {
  for (auto& p : points) p.bandwidth_sm_frac = defaults.bandwidth_sm_frac_for(p.row->gpu);
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

}  // namespace slicewise::calibration::detail
