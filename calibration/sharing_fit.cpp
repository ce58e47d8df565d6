// Co-run fits through the rate model.
#include "calibration/sharing_fit.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <tuple>

#include "calibration/nonlinear_fit.hpp"
#include "core/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/rate_model.hpp"

namespace slicewise::calibration {

namespace {

/// A workload that alone moves this fraction of the bandwidth or more is bandwidth-bound.
constexpr double kStreamingBwFrac = 0.9;

}  // namespace

bool is_streaming(const Measurement& m) {
  return m.param("mem_bw_frac", 0.0) >= kStreamingBwFrac && !m.params.contains("compute_frac") &&
         !m.params.contains("sm_occupancy_frac");
}

namespace {

using models::StrategyKind;

models::ContextDemand demand_of(const Measurement& m) {
  models::ContextDemand c;
  c.active = true;  // a probe or load test keeps every context busy for the whole window
  c.duty = m.param("gpu_duty_frac", 1.0);
  // A loop's share of the GPU's compute (its kernels still fill the SMs), else the SMs it occupies;
  // a streaming kernel fills them and computes next to nothing.
  const bool streaming = is_streaming(m);
  c.demand_sm = m.param("compute_frac", m.param("sm_occupancy_frac", streaming ? 0.0 : 1.0));
  if (m.params.contains("compute_frac") || streaming) c.occupancy = 1.0;
  c.demand_bw = m.param("mem_bw_frac", 0.0);
  c.ref_sm = c.demand_sm;
  c.ref_bw = c.demand_bw;
  c.cap = m.cap_pct() / 100.0;
  c.burst_s = m.param("kernel_ms", 0.0) * 1e-3;  // a probe or loop that synchronises after each kernel
  c.kernel_s = c.burst_s;
  return c;
}

/// How many contexts of each workload a run has: as many as the workload's rows of its
/// most-reported metric (a context may report several metrics, one row each).
std::map<std::string, int> contexts_per_workload(const std::vector<const Measurement*>& members) {
  std::map<std::string, std::map<Metric, int>> rows;  // workload key -> metric -> rows
  for (const Measurement* m : members) ++rows[m->workload_key()][m->metric];
  std::map<std::string, int> contexts;
  for (const auto& [key, per_metric] : rows) {
    int& most = contexts[key];
    for (const auto& [metric, n] : per_metric) most = std::max(most, n);
  }
  return contexts;
}

/// The duty a closed-loop context would need to be in a GPU phase with probability x at GPU rate g:
/// x = (d / g) ρ with ρ = 1 / ((1 − d) + d / g) solves to d = x / (x + (1 − x) / g).
double duty_for_phase(double x, double g) { return x / (x + (1.0 - x) / g); }

std::string where(const Measurement& m) { return m.file + ":" + std::to_string(m.line); }

/// The workload without the sharing settings of its run (MPS thread %, HAMi cores, quantum), so a
/// shared row finds the dedicated baseline of the same workload. A green context of every SM of
/// the GPU (sm_count = its SMs) is the workload on the whole GPU.
std::string baseline_key(const Measurement& m) {
  Measurement plain = m;
  for (const char* key : {"active_thread_pct", "gpucores", "quantum_ms"}) plain.params.erase(key);
  const auto sms = plain.params.find("sm_count");
  if (sms != plain.params.end()) {
    const auto* gpu = models::GpuCatalog::shipped().find(m.gpu);
    if (gpu && sms->second == static_cast<double>(gpu->num_sms)) plain.params.erase(sms);
  }
  return plain.workload_key();
}

/// Tail percentiles under sharing depend on the quantum, not on the mean slowdown the rate model
/// predicts; only means, medians and rates enter these fits.
bool fits_mean_field(Metric metric) { return metric != Metric::time_p90 && metric != Metric::time_p99; }

// A run's name is its file's: two files (two probe runs) may both name a run "timeslice-k0.5-n2".
using BaselineKey = std::tuple<std::string, std::string, std::string, Metric>;  // file, gpu, workload, metric
using Baselines = std::map<BaselineKey, const Measurement*>;
using RunKey = std::tuple<std::string, std::string, std::string>;  // file, gpu, run
using Runs = std::map<RunKey, std::vector<const Measurement*>>;    // every metric

/// The dedicated single-context rows, by file, GPU, workload (without sharing settings) and
/// metric; the first row of each, also under file "" (any file's).
Baselines dedicated_baselines(const std::vector<Measurement>& rows) {
  Baselines baselines;
  for (const auto& m : rows) {
    if (m.solo_on_whole_gpu()) {
      baselines.emplace(BaselineKey{m.file, m.gpu, baseline_key(m), m.metric}, &m);
      baselines.emplace(BaselineKey{"", m.gpu, baseline_key(m), m.metric}, &m);
    }
  }
  return baselines;
}

/// The baseline of `m`'s workload in `metric`: its own file's, else another file's of the same GPU.
const Measurement* baseline_of(const Baselines& baselines, const Measurement& m, Metric metric) {
  for (const std::string& file : {m.file, std::string()}) {
    const auto it = baselines.find(BaselineKey{file, m.gpu, baseline_key(m), metric});
    if (it != baselines.end()) return it->second;
  }
  return nullptr;
}

/// A context of a run, with the row that describes it. Its burst is its kernel_ms, the run's input;
/// else, for a closed loop (one request in service at a time, each followed by the next), the GPU
/// time of one request alone: the simulator's burst of a generic tenant (solo latency × duty). An
/// open-loop server's dedicated time_mean holds queueing as well, so its burst stays unknown.
void add_context(CoRunPoint& point, const Measurement& m, const Baselines& baselines) {
  models::ContextDemand demand = demand_of(m);
  const double load = m.param("offered_load", 0.0);
  point.burst_is_input.push_back(demand.burst_s > 0.0);
  if (demand.burst_s <= 0.0 && load <= 0.0) {
    if (const Measurement* solo = baseline_of(baselines, m, Metric::time_mean))
      demand.burst_s = solo->value * demand.duty;
  }
  point.contexts.push_back(demand);
  point.context_keys.push_back(m.workload_key());
  point.offered_load.push_back(load);
}

/// The rows of each named run of `strategy`, in file order.
Runs runs_of(const std::vector<Measurement>& rows, StrategyKind strategy) {
  Runs runs;
  for (const auto& m : rows) {
    if (m.strategy == strategy && !m.run.empty()) runs[{m.file, m.gpu, m.run}].push_back(&m);
  }
  return runs;
}

/// The contexts of the run of row `m` (its rows `members`). The rows of m's metric first, in file
/// order (m's own one is point.self); then the contexts that reported only other metrics, each
/// described by its first such row. Throws when the rows do not describe n_contexts contexts.
void add_run_contexts(CoRunPoint& point, const Measurement& m, const std::vector<const Measurement*>& members,
                      const Baselines& baselines) {
  std::map<std::string, int> missing = contexts_per_workload(members);  // contexts not yet described
  int contexts = 0;
  for (const auto& [key, n] : missing) contexts += n;
  if (contexts != m.n_contexts) {
    throw CalibrationError(where(m) + ": run \"" + m.run + "\" has rows for " + std::to_string(contexts) +
                           (contexts == 1 ? " context" : " contexts") +
                           " but n_contexts = " + std::to_string(m.n_contexts) +
                           "; give each context of the run a row (a workload run twice needs two rows of one "
                           "metric)");
  }
  for (const Measurement* member : members) {
    if (member->metric != m.metric) continue;
    if (member == &m) point.self = point.contexts.size();
    add_context(point, *member, baselines);
    --missing[member->workload_key()];
  }
  for (const Measurement* member : members) {
    int& n = missing[member->workload_key()];
    if (member->metric == m.metric || n <= 0) continue;
    add_context(point, *member, baselines);
    --n;
  }
}

}  // namespace

std::string to_string(SharingConstant constant) {
  switch (constant) {
    case SharingConstant::time_slicing_efficiency: return "time_slicing_efficiency";
    case SharingConstant::mps_efficiency: return "mps_efficiency";
    case SharingConstant::mps_interference: return "mps_interference";
    case SharingConstant::hami_launch_overhead_frac: return "hami_launch_overhead_frac";
  }
  return "unknown";
}

StrategyKind strategy_of(SharingConstant constant) {
  switch (constant) {
    case SharingConstant::time_slicing_efficiency: return StrategyKind::time_slicing;
    case SharingConstant::mps_efficiency:
    case SharingConstant::mps_interference: return StrategyKind::mps;
    case SharingConstant::hami_launch_overhead_frac: return StrategyKind::hami;
  }
  return StrategyKind::time_slicing;
}

std::vector<CoRunPoint> co_run_points(const std::vector<Measurement>& rows, StrategyKind strategy,
                                      std::vector<std::string>& skipped) {
  const Baselines baselines = dedicated_baselines(rows);
  const Runs runs = runs_of(rows, strategy);
  std::vector<CoRunPoint> points;
  for (const auto& m : rows) {
    if (m.strategy != strategy || !fits_mean_field(m.metric)) continue;
    const Measurement* base = baseline_of(baselines, m, m.metric);
    if (!base) {
      skipped.push_back(where(m) + ": no dedicated baseline for " + m.workload_key() + " " + to_string(m.metric) +
                        " on " + m.gpu);
      continue;
    }
    CoRunPoint point;
    point.row = &m;
    point.baseline = base->value;
    if (m.run.empty()) {
      for (int i = 0; i < m.n_contexts; ++i) add_context(point, m, baselines);
    } else {
      add_run_contexts(point, m, runs.at({m.file, m.gpu, m.run}), baselines);
    }
    points.push_back(std::move(point));
  }
  return points;
}

double predict_co_run(const CoRunPoint& point, const models::SharingParams& given) {
  models::SharingParams params = given;
  if (point.bandwidth_sm_frac > 0.0) params.bandwidth_sm_frac = point.bandwidth_sm_frac;
  models::RateModel model(params);
  std::vector<models::ContextRate> rates;
  const bool open_loop =
      std::any_of(point.offered_load.begin(), point.offered_load.end(), [](double load) { return load > 0.0; });
  if (!open_loop) {
    model.compute(point.contexts, rates);
  } else {
    // An open-loop server is not always busy: at load L it starts with duty L·d, and the others see
    // it in a GPU phase as often as its slowed requests keep it busy. Iterate on that probability.
    std::vector<models::ContextDemand> contexts = point.contexts;
    for (std::size_t c = 0; c < contexts.size(); ++c) {
      if (point.offered_load[c] > 0.0) contexts[c].duty = point.offered_load[c] * point.contexts[c].duty;
    }
    constexpr int kMaxRounds = 200;
    for (int round = 0; round < kMaxRounds; ++round) {
      model.compute(contexts, rates);
      double change = 0.0;
      for (std::size_t c = 0; c < contexts.size(); ++c) {
        const double load = point.offered_load[c];
        const double g = rates[c].gpu_rate;
        if (load <= 0.0 || g <= 0.0) continue;
        const double d = point.contexts[c].duty;
        const double rho = models::RateModel::progress_rate(d, g);
        const double phase = std::min(1.0, std::min(1.0, load / rho) * d / g * rho);
        const double duty = std::min(1.0, duty_for_phase(phase, g));
        change = std::max(change, std::abs(duty - contexts[c].duty));
        contexts[c].duty = duty;
      }
      if (change < 1e-10) break;
    }
    // The server's own requests have the request duty, whatever its busy fraction.
    const auto& self = point.contexts[point.self];
    if (point.offered_load[point.self] > 0.0) {
      rates[point.self].progress_rate = models::RateModel::progress_rate(self.duty, rates[point.self].gpu_rate);
    }
  }
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
    case SharingConstant::mps_interference:
      p.discipline = models::SharingDiscipline::concurrent;
      p.concurrent_interference = value;
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
  const double initial = constant == SharingConstant::hami_launch_overhead_frac ? 0.02
                         : constant == SharingConstant::mps_interference        ? 0.1
                                                                                : 0.9;
  problem.params = {{to_string(constant), initial, true}};
  for (const auto& point : points) problem.observed.push_back(point.row->value);
  problem.predict = [&](const std::vector<double>& theta, std::vector<double>& predicted) {
    const models::SharingParams params = params_for(constant, theta[0], base);
    for (std::size_t i = 0; i < points.size(); ++i) predicted[i] = predict_co_run(points[i], params);
  };
  return fit_nonlinear(problem);
}

FitReport fit_mps_constants(const std::vector<CoRunPoint>& points, const models::SharingParams& base,
                            bool allow_exact) {
  NonlinearProblem problem;
  problem.allow_exact = allow_exact;
  problem.params = {{to_string(SharingConstant::mps_efficiency), 0.9, true},
                    {to_string(SharingConstant::mps_interference), 0.1, true}};
  for (const auto& point : points) problem.observed.push_back(point.row->value);
  problem.predict = [&](const std::vector<double>& theta, std::vector<double>& predicted) {
    models::SharingParams params = params_for(SharingConstant::mps_efficiency, theta[0], base);
    params.concurrent_interference = theta[1];
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
