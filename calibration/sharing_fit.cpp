// Co-run fits through the rate model.
#include "calibration/sharing_fit.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "calibration/nonlinear_fit.hpp"
#include "core/error.hpp"

namespace slicewise::calibration {

namespace {

using models::StrategyKind;

models::ContextDemand demand_of(const Measurement& m) {
  models::ContextDemand c;
  c.active = true;  // a probe or load test keeps every context busy for the whole window
  c.duty = m.param("gpu_duty_frac", 1.0);
  c.demand_sm = m.param("sm_occupancy_frac", 1.0);
  c.demand_bw = m.param("mem_bw_frac", 0.0);
  c.ref_sm = c.demand_sm;
  c.ref_bw = c.demand_bw;
  const double cap_pct = m.strategy == StrategyKind::mps ? m.param("active_thread_pct", 100.0) : m.param("gpucores", 100.0);
  c.cap = cap_pct / 100.0;
  return c;
}

std::string where(const Measurement& m) { return m.file + ":" + std::to_string(m.line); }

/// The workload without the sharing settings of its run (MPS thread %, HAMi cores, quantum), so a
/// shared row finds the dedicated baseline of the same workload.
std::string baseline_key(const Measurement& m) {
  Measurement plain = m;
  for (const char* key : {"active_thread_pct", "gpucores", "quantum_ms"}) plain.params.erase(key);
  return plain.workload_key();
}

/// Tail percentiles under sharing depend on the quantum, not on the mean slowdown the rate model
/// predicts; only means, medians and rates enter these fits.
bool fits_mean_field(Metric metric) { return metric != Metric::time_p90 && metric != Metric::time_p99; }

}  // namespace

std::string to_string(SharingConstant constant) {
  switch (constant) {
    case SharingConstant::time_slicing_efficiency: return "time_slicing_efficiency";
    case SharingConstant::mps_efficiency: return "mps_efficiency";
    case SharingConstant::hami_launch_overhead_frac: return "hami_launch_overhead_frac";
  }
  return "unknown";
}

StrategyKind strategy_of(SharingConstant constant) {
  switch (constant) {
    case SharingConstant::time_slicing_efficiency: return StrategyKind::time_slicing;
    case SharingConstant::mps_efficiency: return StrategyKind::mps;
    case SharingConstant::hami_launch_overhead_frac: return StrategyKind::hami;
  }
  return StrategyKind::time_slicing;
}

std::vector<CoRunPoint> co_run_points(const std::vector<Measurement>& rows, StrategyKind strategy,
                                      std::vector<std::string>& skipped) {
  using Key = std::tuple<std::string, std::string, Metric>;  // gpu, workload key, metric
  std::map<Key, const Measurement*> baselines;
  std::map<std::tuple<std::string, std::string, Metric>, std::vector<const Measurement*>> runs;  // gpu, run, metric
  for (const auto& m : rows) {
    if (m.strategy == StrategyKind::dedicated && m.n_contexts == 1) {
      baselines.emplace(Key{m.gpu, baseline_key(m), m.metric}, &m);
    }
    if (m.strategy == strategy && !m.run.empty()) runs[{m.gpu, m.run, m.metric}].push_back(&m);
  }
  std::vector<CoRunPoint> points;
  for (const auto& m : rows) {
    if (m.strategy != strategy || !fits_mean_field(m.metric)) continue;
    const auto base = baselines.find(Key{m.gpu, baseline_key(m), m.metric});
    if (base == baselines.end()) {
      skipped.push_back(where(m) + ": no dedicated baseline for " + m.workload_key() + " " + to_string(m.metric) +
                        " on " + m.gpu);
      continue;
    }
    CoRunPoint point;
    point.row = &m;
    point.baseline = base->second->value;
    if (m.run.empty()) {
      for (int i = 0; i < m.n_contexts; ++i) {
        point.contexts.push_back(demand_of(m));
        point.context_keys.push_back(m.workload_key());
      }
    } else {
      const auto& members = runs.at({m.gpu, m.run, m.metric});
      if (static_cast<int>(members.size()) != m.n_contexts) {
        throw CalibrationError(where(m) + ": run \"" + m.run + "\" has " + std::to_string(members.size()) + " " +
                               to_string(m.metric) + " rows but n_contexts = " + std::to_string(m.n_contexts) +
                               "; give one row per context of the run");
      }
      for (const Measurement* member : members) {
        if (member == &m) point.self = point.contexts.size();
        point.contexts.push_back(demand_of(*member));
        point.context_keys.push_back(member->workload_key());
      }
    }
    points.push_back(std::move(point));
  }
  return points;
}

double predict_co_run(const CoRunPoint& point, const models::SharingParams& params) {
  models::RateModel model(params);
  std::vector<models::ContextRate> rates;
  model.compute(point.contexts, rates);
  const double rho = rates[point.self].progress_rate;
  return is_time(point.row->metric) ? point.baseline / rho : point.baseline * rho;
}

models::SharingParams params_for(SharingConstant constant, double value, const models::SharingParams& base) {
  models::SharingParams p = base;
  switch (constant) {
    case SharingConstant::time_slicing_efficiency:
      p.discipline = models::SharingDiscipline::time_sliced;
      p.efficiency = value;
      break;
    case SharingConstant::mps_efficiency:
      p.discipline = models::SharingDiscipline::concurrent;
      p.concurrent_efficiency = value;
      break;
    case SharingConstant::hami_launch_overhead_frac:
      p.discipline = models::SharingDiscipline::time_sliced;
      p.launch_overhead_frac = value;
      break;
  }
  return p;
}

FitReport fit_sharing_constant(const std::vector<CoRunPoint>& points, SharingConstant constant,
                               const models::SharingParams& base, bool allow_exact) {
  NonlinearProblem problem;
  problem.allow_exact = allow_exact;
  const double initial = constant == SharingConstant::hami_launch_overhead_frac ? 0.02 : 0.9;
  problem.params = {{to_string(constant), initial, true}};
  for (const auto& point : points) problem.observed.push_back(point.row->value);
  problem.predict = [&](const std::vector<double>& theta, std::vector<double>& predicted) {
    const models::SharingParams params = params_for(constant, theta[0], base);
    for (std::size_t i = 0; i < points.size(); ++i) predicted[i] = predict_co_run(points[i], params);
  };
  return fit_nonlinear(problem);
}

FitReport fit_workload_duties(const std::vector<CoRunPoint>& points, const models::SharingParams& params) {
  std::vector<std::string> keys;
  for (const auto& point : points) {
    for (const auto& key : point.context_keys) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  NonlinearProblem problem;
  for (const auto& key : keys) problem.params.push_back({"gpu_duty_frac[" + key + "]", 0.8, true});
  for (const auto& point : points) problem.observed.push_back(point.row->value);
  problem.allow_exact = true;
  problem.predict = [&](const std::vector<double>& theta, std::vector<double>& predicted) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      CoRunPoint point = points[i];
      for (std::size_t c = 0; c < point.contexts.size(); ++c) {
        const auto at = std::find(keys.begin(), keys.end(), point.context_keys[c]) - keys.begin();
        point.contexts[c].duty = std::min(1.0, theta[static_cast<std::size_t>(at)]);
      }
      predicted[i] = predict_co_run(point, params);
    }
  };
  return fit_nonlinear(problem);
}

}  // namespace slicewise::calibration
