// The time-slice model's constants fitted to time-slicing co-runs (sharing_fit.hpp): the slice and
// the two switch costs, by a search over the slice with the costs solved at each.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "calibration/nonlinear_fit.hpp"
#include "calibration/sharing_fit.hpp"

namespace slicewise::calibration {

namespace {

/// Slices searched, in ms: the CUDA driver's are a few ms.
constexpr double kSliceLowMs = 0.5, kSliceHighMs = 10.0, kSliceCoarseMs = 0.05, kSliceFineMs = 0.005;

/// The points that share one co-run (the same contexts, the measured one the same): their progress
/// rates are one solve. A probe file repeats each run in several metrics and both runs repeat the
/// file, so 123 H200 points are 14 solves.
struct CoRunGroups {
  std::vector<std::size_t> representative;  ///< per point, the first point of its group
};

CoRunGroups group_co_runs(const std::vector<CoRunPoint>& points) {
  std::map<std::vector<std::uint64_t>, std::size_t> first;
  CoRunGroups groups;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    std::vector<std::uint64_t> key{p.self};
    for (std::size_t c = 0; c < p.contexts.size(); ++c) {
      const auto& d = p.contexts[c];
      for (const double x : {d.demand_sm, d.demand_bw, d.duty, d.weight, d.cap, d.ref_sm, d.ref_bw, d.burst_s,
                             p.offered_load[c], static_cast<double>(d.priority), d.active ? 1.0 : 0.0}) {
        key.push_back(std::bit_cast<std::uint64_t>(x));
      }
    }
    groups.representative.push_back(first.try_emplace(std::move(key), i).first->second);
  }
  return groups;
}

/// The switch costs fitted at slice `slice_ms`, and their relative squared error.
std::pair<FitReport, double> switches_at(const std::vector<CoRunPoint>& points, const CoRunGroups& groups,
                                         const models::SharingParams& base, double slice_ms) {
  NonlinearProblem problem;
  problem.params = {{"yield_switch_ms", 0.1, true}, {"preempt_switch_ms", 0.1, true}};
  for (const auto& point : points) problem.observed.push_back(point.row->value);
  std::vector<double> rho(points.size(), 0.0);  // each group's progress rate, at its representative
  problem.predict = [&](const std::vector<double>& theta, std::vector<double>& predicted) {
    models::SharingParams params = base;
    params.discipline = models::SharingDiscipline::time_sliced;
    params.set_time_slices(slice_ms, theta[0], theta[1]);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::size_t r = groups.representative[i];
      if (r == i) {
        const double y = predict_co_run(points[i], params);
        rho[i] = is_time(points[i].row->metric) ? points[i].baseline / y : y / points[i].baseline;
      }
      predicted[i] = is_time(points[i].row->metric) ? points[i].baseline / rho[r] : points[i].baseline * rho[r];
    }
  };
  FitReport report = fit_nonlinear(problem);
  double sse = std::numeric_limits<double>::infinity();
  if (report.usable()) {
    sse = 0.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double r = report.residuals[i] / points[i].row->value;
      sse += r * r;
    }
  }
  return {std::move(report), sse};
}

}  // namespace

bool time_slices_determined(const std::vector<CoRunPoint>& points, std::string& why) {
  if (points.size() < 4) {
    why =
        "needs at least 4 time-slicing co-run rows with known bursts (kernel_ms), got " + std::to_string(points.size());
    return false;
  }
  bool measures_slice = false;
  for (const auto& p : points) {
    double low = std::numeric_limits<double>::infinity(), high = 0.0;
    for (const auto& c : p.contexts) {
      low = std::min(low, c.burst_s);
      high = std::max(high, c.burst_s);
    }
    measures_slice = measures_slice || high > low * 1.01;
  }
  if (!measures_slice) {
    why = "no co-run of unequal bursts (kernel_ms), which alone measure the slice";
    return false;
  }
  return true;
}

TimeSliceFit fit_time_slices(const std::vector<CoRunPoint>& points, const models::SharingParams& base) {
  // Coarse, then fine around the best; the error profile over the fine grid gives the slice's
  // standard error: the slices whose squared error stays within s² = SSE_min / (n − 3) of the least.
  TimeSliceFit best;
  double best_sse = std::numeric_limits<double>::infinity();
  const CoRunGroups groups = group_co_runs(points);
  auto search = [&](double from, double to, double step, std::vector<std::pair<double, double>>* profile) {
    const auto steps = static_cast<int>(std::lround((to - from) / step));
    for (int k = 0; k <= steps; ++k) {
      const double slice = from + step * k;
      auto [report, sse] = switches_at(points, groups, base, slice);
      if (profile) profile->emplace_back(slice, sse);
      if (sse < best_sse) {
        best_sse = sse;
        best.slice_ms = slice;
        best.switches = std::move(report);
      }
    }
  };
  search(kSliceLowMs, kSliceHighMs, kSliceCoarseMs, nullptr);
  std::vector<std::pair<double, double>> profile;
  search(std::max(kSliceLowMs, best.slice_ms - kSliceCoarseMs), best.slice_ms + kSliceCoarseMs, kSliceFineMs, &profile);
  if (!best.switches.usable()) return best;
  const double n = static_cast<double>(points.size());
  const double s2 = best_sse / std::max(1.0, n - 3.0);
  double low = best.slice_ms, high = best.slice_ms;
  for (const auto& [slice, sse] : profile) {
    if (sse > best_sse + s2) continue;
    low = std::min(low, slice);
    high = std::max(high, slice);
  }
  best.slice_std_error_ms = std::max((high - low) / 2.0, kSliceFineMs / 2.0);
  return best;
}

models::SharingParams time_slice_params(const TimeSliceFit& fit, const models::SharingParams& base) {
  models::SharingParams p = base;
  p.discipline = models::SharingDiscipline::time_sliced;
  p.set_time_slices(fit.slice_ms, fit.switches.params[0].value, fit.switches.params[1].value);
  return p;
}

}  // namespace slicewise::calibration
