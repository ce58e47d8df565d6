// The MPS constants `slicewise calibrate` fits: bandwidth_sm_frac per GPU (the share of a GPU's
// SMs that saturates its memory bandwidth, from green-context points of a streaming workload),
// then mps_efficiency and mps_interference together on the mps co-runs, each at its no-effect edge
// where that fits better. Internal to sw_calibration.
#pragma once

#include <vector>

#include "calibration/calibration_outcome.hpp"
#include "calibration/sharing_fit.hpp"
#include "models/gpu_catalog.hpp"
#include "models/sharing_defaults.hpp"

namespace slicewise::calibration::detail {

/// bandwidth_sm_frac per GPU whose rows have green-context points of a streaming workload: the s
/// of the hard limit min(1, f / s) with the least squared relative error (a scan, then golden
/// section); its std_error half the interval over which that error stays within one residual
/// variance of its least (Δχ² = 1).
void fit_bandwidth_sms(const std::vector<Measurement>& rows, const models::GpuCatalog& gpus, CalibrationOutcome& out);

/// Each point's GPU's bandwidth_sm_frac in `defaults` (points of GPUs it does not know keep 0).
void attach_bandwidth_sms(std::vector<CoRunPoint>& points, const models::SharingDefaults& defaults);

/// mps_efficiency and mps_interference from the mps co-runs (with each point's bandwidth SMs),
/// fitted together, cross-validated when `options` asks.
void fit_mps(const std::vector<Measurement>& rows, const CalibrateOptions& options, CalibrationOutcome& out);

}  // namespace slicewise::calibration::detail
