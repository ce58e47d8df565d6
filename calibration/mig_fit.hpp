// MIG slice scaling: how a workload's step time grows as its MIG instance shrinks. The model is the
// simulator's roofline (models/rate_model.hpp) with a fitted sharpness p per GPU:
//     t(w, k) = T_w · S_p(o_w / s_k, b_w / m_k) / S_p(o_w, b_w)
// where s_k = instance SMs / GPU SMs and m_k = memory slices / memory slots (catalog), T_w is the
// workload's time on the whole GPU, o_w its SM occupancy there (fitted) and b_w its bandwidth
// demand (the mem_bw_frac parameter, else 0: MIG memory slices track compute slices, so the data
// cannot separate the two; see docs/calibration.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calibration/fit_report.hpp"
#include "calibration/measurement_row.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"

namespace slicewise::calibration {

/// One MIG step time (or request time) of one workload instance on one profile.
struct MigPoint {
  const Measurement* row = nullptr;
  std::string instance;    ///< workload key ("resnet[batch_size=64]")
  double compute = 0.0;    ///< s_k, (0, 1]
  double memory = 0.0;     ///< m_k, (0, 1]
  double bw_demand = 0.0;  ///< b_w
  double observed = 0.0;   ///< seconds
};

/// The `mig` rows of `gpu` (n_contexts 1, metric time_median, else time_mean per instance).
std::vector<MigPoint> mig_points(const std::vector<Measurement>& rows, const std::string& gpu,
                                 const models::GpuCatalog& gpus, const models::MigCatalog& mig);

/// The dedicated rows of `gpu` on a green context of part of its SMs (workload parameter sm_count,
/// the probes' SM-scaling runs): the same roofline with s = sm_count / the GPU's SMs and the whole
/// memory system (m = 1: a green context partitions SMs, not bandwidth). Throughput rows, as the
/// time per item; the instance is the workload without its sm_count.
std::vector<MigPoint> sm_scaling_points(const std::vector<Measurement>& rows, const std::string& gpu,
                                        const models::GpuCatalog& gpus);

/// The model's time of a point for one instance's (T, o) and sharpness p (infinity: hard roofline).
double predict_mig(const MigPoint& point, double full_gpu_time_s, double occupancy, double sharpness);

/// Joint fit of the sharpness p (parameter 0, "roofline_sharpness") and each instance's T and o
/// ("T[<instance>]", "o[<instance>]"). With `fixed_sharpness` set, p is held there and only the
/// instances' parameters are fitted (then `allow_exact` accepts two points per instance).
FitReport fit_mig_scaling(const std::vector<MigPoint>& points, std::optional<double> fixed_sharpness = {},
                          bool allow_exact = false);

/// The instances whose occupancy ran off in a rank-deficient fit of fit_mig_scaling (fitted above
/// 1,000 GPUs' worth of SMs): their smaller slices are slower than the model makes even a workload
/// that fills every SM, so no occupancy fits them and the joint fit cannot determine it (MISO's
/// deepspeech2 at batch 4: 10.9 times slower on 1g.5gb than on 7g.40gb). Each comes with a
/// sentence naming it, its rows and its steepest slowdown against the SMs' ratio.
struct RunawayInstance {
  std::string instance;
  std::string why;
};
std::vector<RunawayInstance> runaway_instances(const std::vector<MigPoint>& points, const FitReport& fit);

/// Leave-one-workload-out cross-validation of one held-out workload (all its instances).
struct MigCvFold {
  std::string workload;
  double sharpness = 0.0;  ///< p fitted without this workload
  int num_predicted = 0;
  double mape_fitted = 0.0;        ///< mean |error| of the predicted points with the fitted p
  double mape_hard = 0.0;          ///< same protocol, hard roofline (p = infinity, the uncalibrated model)
  double mape_proportional = 0.0;  ///< same protocol, time ∝ 1 / s_k (the naive "a slice is its SMs")
};
struct MigCvReport {
  std::vector<MigCvFold> folds;
  std::vector<std::string> skipped;  ///< why each workload left out predicted nothing, one sentence each
  int num_predicted = 0;
  double mape_fitted = 0.0;  ///< over every predicted point
  double mape_hard = 0.0;
  double mape_proportional = 0.0;
};

/// For each workload W: fit p on every other workload; pin each instance of W by its two baseline
/// points (the largest and the smallest profile measured), then predict its other profiles. No
/// point of W is used to choose p, and a predicted point never helps pin its own instance.
MigCvReport cross_validate_mig(const std::vector<MigPoint>& points);

}  // namespace slicewise::calibration
