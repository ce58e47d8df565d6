// What `slicewise simulate` prints after a run, as text any front end can show: the per-tenant
// table, the money, the sizing searches, the uncertainty bands and the calibration in use.
#pragma once

#include <string>

#include "report/costing.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// "sized for SLA in 5 simulations: 3 GPUs (lower bound 1, at most 10); contexts: job-03 x2, the
/// others as given".
std::string sizing_text(const scenario::SizingRecord& record, const scenario::Scenario& scenario);

/// "Faults and availability" of every strategy that has a FaultRecord ("" when none has): per
/// tenant its interruptions, failed and retried requests, downtime and availability in the run and
/// its expected interruptions, outage hours and availability per month; per strategy the blast
/// radius (run and expected) and re-partitions; the devices in a layout phase or down; and each
/// strategy's first 20 events. For `simulate` and `roi`.
std::string faults_text(const scenario::SimResult& result);

/// The whole summary of `result` (simulated from `scenario`, priced as `costs`): the strategy and
/// tenant table, the money table and business figures, the energy table (report/energy_summary.hpp,
/// at the shipped on-prem table's electricity price), faults and availability (faults_text), each strategy's issues and
/// sizing, the uncertainty bands when sampled, and the calibration line.
std::string simulate_text(const scenario::SimResult& result, const scenario::Scenario& scenario,
                          const CostReport& costs);

}  // namespace slicewise::report
