// How a strategy's devices add up to its GPUs' utilisation: one definition for the result's
// fleet_busy_frac / fleet_sm_util_frac (sim/run_results), the report's tables and its utilisation
// chart, so that they cannot disagree (docs/metrics.md).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

/// A device's share of its GPU's compute: 1 for a whole GPU; for a MIG instance, its SMs over the
/// GPU's SMs in the shipped catalogs (so the instances of an A100 add up to 98/108: the SMs MIG
/// leaves unused never count as busy).
double gpu_share(const DeviceResult& device);

/// The mean over the strategy's used GPUs of Σ over each GPU's devices of gpu_share × value(d),
/// where d indexes `strategy.devices`; 0 without a used GPU.
double fleet_mean(const StrategyResult& strategy, const std::function<double(std::size_t)>& value);

/// fleet_mean of each device's busy fraction, per metrics interval of `strategy.series`. Its mean
/// over time, weighted by the intervals' lengths, is `fleet_busy_frac`.
std::vector<double> fleet_busy_series(const StrategyResult& strategy);

}  // namespace slicewise::scenario
