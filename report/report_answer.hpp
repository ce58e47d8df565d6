// The ROI report's answer in one sentence a reader can repeat (docs/reports.md "The answer"): the
// configuration, its monthly cost, its saving against the baseline on the same prices, its SLA
// risk and how far the model behind it is calibrated.
#pragma once

#include <string>

#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

struct RoiReport;

/// A strategy as its mechanism and the settings that define it: "MPS with 50 % active threads",
/// "MIG 3g.40gb+3g.40gb", "time-slicing, 4 replicas per GPU", "dedicated GPUs".
std::string configuration_text(const scenario::StrategySpec& spec);

/// How far the constants that strategy kind `kind` runs on are calibrated: "fitted
/// (time_slicing_efficiency 0.8366 ± 0.0058; profile worst fit 6.6 % MAPE)", "uncalibrated:
/// mps_efficiency and mps_interference are defaults", or, for whole GPUs and MIG instances, "no
/// sharing constant applies (...)".
std::string model_confidence_text(const scenario::CalibrationRecord& calibration, const std::string& kind);

/// The answer sentence of `report` (its recommendation, costs and SLA risk already set).
std::string answer_sentence(const RoiReport& report, const scenario::SimResult& result);

}  // namespace slicewise::report
