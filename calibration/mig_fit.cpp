// MIG slice scaling fit and its leave-one-workload-out cross-validation.
#include "calibration/mig_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "calibration/nonlinear_fit.hpp"
#include "models/rate_model.hpp"

namespace slicewise::calibration {

namespace {

constexpr double kInitialSharpness = 4.0;
constexpr double kInitialOccupancy = 0.5;
const double kHard = std::numeric_limits<double>::infinity();

/// Instances in first-seen order, each with the indices of its points.
std::vector<std::pair<std::string, std::vector<std::size_t>>> group_by_instance(const std::vector<MigPoint>& points) {
  std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == points[i].instance; });
    if (it == groups.end()) {
      groups.push_back({points[i].instance, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(i);
  }
  return groups;
}

double abs_error(double predicted, double observed) { return std::abs(predicted - observed) / observed; }

/// A point's slice as the user wrote it: its MIG profile, or its green context's SMs.
std::string slice_name(const MigPoint& point) {
  if (!point.row->mig_profile.empty()) return point.row->mig_profile;
  char sms[48];
  std::snprintf(sms, sizeof sms, "%g SMs", point.row->param("sm_count", 0.0));
  return sms;
}

/// The workloads of `points`, in first-seen order.
std::vector<std::string> distinct_workloads(const std::vector<MigPoint>& points) {
  std::vector<std::string> workloads;
  for (const auto& point : points) {
    if (std::find(workloads.begin(), workloads.end(), point.row->workload) == workloads.end()) {
      workloads.push_back(point.row->workload);
    }
  }
  return workloads;
}

/// Adds to `fold` the summed errors of one held-out instance (its points `indices` in `held_out`):
/// pinned by its two baseline points, largest and smallest slice, its other slices are predicted
/// with the fold's sharpness, with the hard roofline and proportionally to the slice's SMs.
void add_instance_errors(const std::vector<MigPoint>& held_out, const std::vector<std::size_t>& indices,
                         MigCvFold& fold) {
  std::vector<std::size_t> order = indices;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return held_out[a].compute < held_out[b].compute; });
  if (order.size() < 3) return;
  const std::vector<MigPoint> pins = {held_out[order.front()], held_out[order.back()]};
  const MigPoint& largest = held_out[order.back()];
  for (const double p : {fold.sharpness, kHard}) {
    const FitReport pinned = fit_mig_scaling(pins, p, true);
    if (pinned.params.size() != 2) continue;
    for (std::size_t k = 1; k + 1 < order.size(); ++k) {
      const MigPoint& target = held_out[order[k]];
      const double error =
          abs_error(predict_mig(target, pinned.params[0].value, pinned.params[1].value, p), target.observed);
      (p == kHard ? fold.mape_hard : fold.mape_fitted) += error;
    }
  }
  for (std::size_t k = 1; k + 1 < order.size(); ++k) {
    const MigPoint& target = held_out[order[k]];
    fold.mape_proportional += abs_error(largest.observed * largest.compute / target.compute, target.observed);
    ++fold.num_predicted;
  }
}

}  // namespace

std::vector<MigPoint> mig_points(const std::vector<Measurement>& rows, const std::string& gpu,
                                 const models::GpuCatalog& gpus, const models::MigCatalog& mig) {
  const models::GpuSpec* spec = gpus.find(gpu);
  const models::MigGpu* mig_gpu = mig.find(gpu);
  if (spec == nullptr || mig_gpu == nullptr) return {};
  // Per instance, the median if any row has it, else the mean.
  std::set<std::string> with_median;
  for (const auto& m : rows) {
    if (m.gpu == gpu && m.alone_in_mig_instance() && m.metric == Metric::time_median) {
      with_median.insert(m.workload_key());
    }
  }
  std::vector<MigPoint> points;
  for (const auto& m : rows) {
    if (m.gpu != gpu || !m.alone_in_mig_instance()) continue;
    const Metric wanted = with_median.count(m.workload_key()) != 0 ? Metric::time_median : Metric::time_mean;
    if (m.metric != wanted) continue;
    const models::MigProfile* profile = mig_gpu->find(m.mig_profile);
    MigPoint point;
    point.row = &m;
    point.instance = m.workload_key();
    point.compute = static_cast<double>(profile->num_sms) / static_cast<double>(spec->num_sms);
    point.memory = static_cast<double>(profile->memory_slices) / static_cast<double>(mig_gpu->memory_slots);
    point.bw_demand = m.param("mem_bw_frac", 0.0);
    point.observed = m.value;
    points.push_back(point);
  }
  return points;
}

std::vector<MigPoint> sm_scaling_points(const std::vector<Measurement>& rows, const std::string& gpu,
                                        const models::GpuCatalog& gpus) {
  const models::GpuSpec* spec = gpus.find(gpu);
  if (spec == nullptr || spec->num_sms <= 0) return {};
  std::vector<MigPoint> points;
  for (const auto& m : rows) {
    if (m.gpu != gpu || !m.solo_on_whole_gpu() || m.metric != Metric::throughput || m.params.count("sm_count") == 0) {
      continue;
    }
    Measurement whole = m;
    whole.params.erase("sm_count");
    MigPoint point;
    point.row = &m;
    point.instance = "green:" + whole.workload_key();
    point.compute = std::min(1.0, m.param("sm_count", 0.0) / static_cast<double>(spec->num_sms));
    point.memory = 1.0;
    point.bw_demand = m.param("mem_bw_frac", 0.0);
    point.observed = 1.0 / m.value;
    if (point.compute > 0.0) points.push_back(point);
  }
  return points;
}

double predict_mig(const MigPoint& point, double full_gpu_time_s, double occupancy, double sharpness) {
  using models::RateModel;
  const double slowdown =
      RateModel::roofline_slowdown(occupancy / point.compute, point.bw_demand / point.memory, sharpness) /
      RateModel::roofline_slowdown(occupancy, point.bw_demand, sharpness);
  return full_gpu_time_s * slowdown;
}

FitReport fit_mig_scaling(const std::vector<MigPoint>& points, std::optional<double> fixed_sharpness,
                          bool allow_exact) {
  const auto groups = group_by_instance(points);
  NonlinearProblem problem;
  problem.allow_exact = allow_exact;
  const std::size_t first = fixed_sharpness ? 0 : 1;
  if (!fixed_sharpness) problem.params.push_back({"roofline_sharpness", kInitialSharpness, true});
  std::vector<std::size_t> group_of(points.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    double fastest = HUGE_VAL;
    for (std::size_t i : groups[g].second) {
      fastest = std::min(fastest, points[i].observed);
      group_of[i] = g;
    }
    problem.params.push_back({"T[" + groups[g].first + "]", fastest, true});
    problem.params.push_back({"o[" + groups[g].first + "]", kInitialOccupancy, true});
  }
  for (const auto& point : points) problem.observed.push_back(point.observed);
  problem.predict = [&](const std::vector<double>& theta, std::vector<double>& predicted) {
    const double p = fixed_sharpness ? *fixed_sharpness : theta[0];
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::size_t at = first + 2 * group_of[i];
      predicted[i] = predict_mig(points[i], theta[at], theta[at + 1], p);
    }
  };
  return fit_nonlinear(problem);
}

std::vector<RunawayInstance> runaway_instances(const std::vector<MigPoint>& points, const FitReport& fit) {
  constexpr double kRunaway = 1e3;  // a fitted occupancy (a share of the GPU's SMs) past any meaning
  std::vector<RunawayInstance> runaways;
  if (fit.status != FitStatus::rank_deficient) return runaways;
  for (const auto& group : group_by_instance(points)) {
    const std::string& instance = group.first;
    const std::string occupancy_name = "o[" + instance + "]";
    const auto occupancy = std::find_if(fit.params.begin(), fit.params.end(),
                                        [&](const FitParameter& p) { return p.name == occupancy_name; });
    if (occupancy == fit.params.end() || !(occupancy->value > kRunaway)) continue;
    // Its largest slice, and the point that slows most beyond the ratio of the SMs.
    const MigPoint* largest = &points[group.second.front()];
    for (std::size_t i : group.second) {
      if (points[i].compute > largest->compute) largest = &points[i];
    }
    const MigPoint* steepest = largest;
    double beyond = 0.0;
    for (std::size_t i : group.second) {
      const double excess = (points[i].observed / largest->observed) / (largest->compute / points[i].compute);
      if (&points[i] != largest && excess > beyond) {
        beyond = excess;
        steepest = &points[i];
      }
    }
    std::string why = largest->row->file + " lines ";
    for (std::size_t i : group.second) {
      if (i != group.second.front()) why += ", ";
      why += std::to_string(points[i].row->line);
    }
    char ratio[160];
    std::snprintf(ratio, sizeof ratio, "on %s, %.1f times its time on %s, where it has %.1f times the SMs",
                  slice_name(*steepest).c_str(), steepest->observed / largest->observed, slice_name(*largest).c_str(),
                  largest->compute / steepest->compute);
    why.append(": ").append(instance);
    why.append(" is left out of the roofline_sharpness fit: its smaller slices are slower than even a workload ");
    why.append("filling every SM would be (").append(ratio).append("), so no SM occupancy fits it; check those rows");
    runaways.push_back({instance, std::move(why)});
  }
  return runaways;
}

MigCvReport cross_validate_mig(const std::vector<MigPoint>& points) {
  const std::vector<std::string> workloads = distinct_workloads(points);
  MigCvReport report;
  double sum_fitted = 0.0, sum_hard = 0.0, sum_prop = 0.0;
  for (const auto& workload : workloads) {
    std::vector<MigPoint> train, held_out;
    for (const auto& point : points) (point.row->workload == workload ? held_out : train).push_back(point);
    if (train.empty()) {
      report.skipped.push_back("the mig rows are all of one workload (" + workload +
                               "): leaving it out leaves no rows to fit on; measure a second workload");
      continue;
    }
    const FitReport family = fit_mig_scaling(train);
    if (!family.usable()) {
      report.skipped.push_back("the fit without " + workload + " failed: " + family.message);
      continue;
    }
    MigCvFold fold;
    fold.workload = workload;
    fold.sharpness = family.params[0].value;
    for (const auto& group : group_by_instance(held_out)) add_instance_errors(held_out, group.second, fold);
    if (fold.num_predicted == 0) {
      report.skipped.push_back("no instance of " + workload +
                               " was measured on 3 profiles or more (its largest and smallest pin it; only those "
                               "between are predicted)");
      continue;
    }
    sum_fitted += fold.mape_fitted;
    sum_hard += fold.mape_hard;
    sum_prop += fold.mape_proportional;
    report.num_predicted += fold.num_predicted;
    fold.mape_fitted /= fold.num_predicted;
    fold.mape_hard /= fold.num_predicted;
    fold.mape_proportional /= fold.num_predicted;
    report.folds.push_back(fold);
  }
  if (report.num_predicted > 0) {
    report.mape_fitted = sum_fitted / report.num_predicted;
    report.mape_hard = sum_hard / report.num_predicted;
    report.mape_proportional = sum_prop / report.num_predicted;
  }
  return report;
}

}  // namespace slicewise::calibration
