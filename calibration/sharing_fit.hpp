// Fits of the sharing constants from co-run measurements: each shared row is predicted by the
// simulator's own rate model (models/rate_model.hpp) from its dedicated baseline and its
// co-runners, so the fitted constant is exactly the one the simulator uses.
#pragma once

#include <string>
#include <vector>

#include "calibration/fit_report.hpp"
#include "calibration/measurement_row.hpp"
#include "models/rate_types.hpp"

namespace slicewise::calibration {

/// A constant of the rate model that co-run measurements determine.
enum class SharingConstant {
  time_slicing_efficiency,    ///< η of time_slicing (SharingParams::efficiency)
  mps_efficiency,             ///< interference of MPS beyond the split (concurrent_efficiency)
  mps_interference,           ///< κ of the MPS memory-pressure term (concurrent_interference)
  hami_launch_overhead_frac,  ///< HAMi interposer overhead (launch_overhead_frac)
};
std::string to_string(SharingConstant constant);
/// The strategy whose rows determine the constant.
models::StrategyKind strategy_of(SharingConstant constant);

/// True for a streaming kernel's row: alone at 90 % of the bandwidth or more, nothing said about its
/// compute (no compute_frac, no sm_occupancy_frac). It is bound by bandwidth, not compute: it fills
/// the SMs, and what it needs of them is to pull its bandwidth (SharingParams::bandwidth_sm_frac).
bool is_streaming(const Measurement& m);

/// One shared measurement, ready to predict: the contexts that ran together and which one it is.
struct CoRunPoint {
  const Measurement* row = nullptr;
  double baseline = 0.0;  ///< the same metric alone on a dedicated device
  std::vector<models::ContextDemand> contexts;
  std::vector<std::string> context_keys;  ///< workload key per context
  /// Per context: true when its burst is its run's input (workload parameter kernel_ms), false
  /// when it was derived from its solo request time or is unknown (ContextDemand::burst_s 0).
  std::vector<bool> burst_is_input;
  /// Per context: its offered_load (an open-loop server fed at that fraction of its solo capacity),
  /// or 0 for a closed loop that always has a request in service.
  std::vector<double> offered_load;
  std::size_t self = 0;  ///< index of the measured context in `contexts`
  /// The fraction of its GPU's SMs that saturate bandwidth (SharingParams::bandwidth_sm_frac) when a
  /// profile knows it for the row's GPU; 0 leaves the params' own.
  double bandwidth_sm_frac = 0.0;
};

/// The shared rows of `strategy` (means, medians and rates; p90/p99 are left out) that have a
/// dedicated baseline (same GPU, workload and parameters other than active_thread_pct, gpucores
/// and quantum_ms, metric), with their co-runners: the other rows of the same `run`, or n_contexts − 1
/// copies of itself when the run is empty. The contexts of a run are counted across metrics (a
/// training job may report its throughput and the server beside it its latency): each workload
/// counts as many times as it has rows of one metric. A context's burst is its kernel_ms; without
/// one, a closed-loop context whose workload has a dedicated time_mean gets that request's GPU time
/// (time_mean × gpu_duty_frac), as the simulator gives a generic tenant's request. Rows without a
/// baseline are listed in `skipped`, one sentence each; they still describe their context to the
/// others. Throws CalibrationError when a run's rows contradict its n_contexts.
std::vector<CoRunPoint> co_run_points(const std::vector<Measurement>& rows, models::StrategyKind strategy,
                                      std::vector<std::string>& skipped);

/// The model's prediction of one point under `params`: baseline / progress rate for times,
/// baseline × progress rate for throughput and bandwidth. An open-loop context (offered_load L,
/// requests of GPU duty d) is busy a fraction min(1, L / ρ) of the time, so it is in a GPU phase
/// with probability min(1, L / ρ) · (d / g) · ρ; the rate model is solved again with the duty that
/// gives the others that probability until it settles, and its own requests progress at ρ.
double predict_co_run(const CoRunPoint& point, const models::SharingParams& params);

/// SharingParams of the constant's strategy with `base` for everything else (η for HAMi).
models::SharingParams params_for(SharingConstant constant, double value, const models::SharingParams& base);

/// Fits one constant to the points (relative least squares, Levenberg–Marquardt). The report's
/// only parameter is the constant. `allow_exact` accepts a single point (no standard error), as
/// cross-validation folds need.
FitReport fit_sharing_constant(const std::vector<CoRunPoint>& points, SharingConstant constant,
                               const models::SharingParams& base = {}, bool allow_exact = false);

/// Fits the two MPS constants together (parameters "mps_efficiency", "mps_interference", in that
/// order), everything else from `base`: the flat efficiency and the memory pressure κ both slow
/// clients down, so fitted one after the other the first would take the whole slowdown.
FitReport fit_mps_constants(const std::vector<CoRunPoint>& points, const models::SharingParams& base = {},
                            bool allow_exact = false);

/// The time-slice model (docs/model.md §2, "Time slices and bursts") fitted to co-runs whose every
/// context's burst is known (workload parameter kernel_ms): the slice by a search (it enters
/// through a ceiling, so least squares has no gradient in it), with its standard error from the
/// profile of the squared error; at each slice the two switch costs by least squares.
struct TimeSliceFit {
  double slice_ms = 0.0;
  double slice_std_error_ms = 0.0;
  FitReport switches;  ///< parameters "yield_switch_ms", "preempt_switch_ms", at the best slice
};

/// True when the points, every context's burst known, can fit the time-slice model: enough of them,
/// and some co-run of unequal bursts, which alone measure the slice (identical bursts are cut alike
/// by a range of slices). `why` says what is missing otherwise.
bool time_slices_determined(const std::vector<CoRunPoint>& points, std::string& why);

/// Fits the model; the report is unusable when the switch costs could not be fitted at any slice.
TimeSliceFit fit_time_slices(const std::vector<CoRunPoint>& points, const models::SharingParams& base = {});

/// `base` as time slices of the fit.
models::SharingParams time_slice_params(const TimeSliceFit& fit, const models::SharingParams& base);

/// Fits the GPU duty of each workload (by workload key) that appears in the points, holding the
/// sharing constants of `params` fixed: the per-workload gpu_duty_frac a user would otherwise
/// read from DCGM. Parameters are named "gpu_duty_frac[<workload key>]".
FitReport fit_workload_duties(const std::vector<CoRunPoint>& points, const models::SharingParams& params);

}  // namespace slicewise::calibration
