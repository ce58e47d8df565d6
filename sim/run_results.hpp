// The figures of a finished run, filled into a StrategyResult (engine.cpp calls these after
// SimGrid's run; they read only the device states and the tenants' statistics).
#pragma once

#include <memory>
#include <vector>

#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"
#include "sim/device_state.hpp"
#include "sim/placed_device.hpp"

namespace slicewise::sim {

using Devices = std::vector<std::unique_ptr<DeviceState>>;

/// Per-tenant figures in tenant order: counts (requests still in a device at the end count as SLA
/// violations), throughput over horizon − warm-up, latency, TTFT and TPOT summaries, SLA verdict.
/// A placed tenant to which no request arrived after the warm-up gets a note in `out.issues`.
void tenant_results(const scenario::Scenario& scenario, const Placement& placement, const Devices& devices,
                    const std::vector<TenantStats>& stats, scenario::StrategyResult& out);

/// Per-device busy and SM utilisation over the horizon and their time series, the tenants' queue
/// length series, and the fleet's averages over the GPUs used (a MIG slice weighted by its share of
/// its GPU's SMs: scenario/utilisation.hpp).
/// Most numbers of time series a result carries (about 100 MB of JSON): longer series are merged
/// over consecutive metrics intervals.
inline constexpr double kMaxResultSeriesValues = 5e6;

void device_results(const scenario::Scenario& scenario, const Devices& devices, const std::vector<TenantStats>& stats,
                    scenario::StrategyResult& out);

}  // namespace slicewise::sim
