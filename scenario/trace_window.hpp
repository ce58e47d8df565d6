// The busiest stretch of a trace tenant's load, where sizing for SLA runs it (docs/scenario-format.md,
// "Sizing for SLA"): a run replays horizon_s of trace time (times time_compression), usually a small
// part of the trace; the part with the most arrivals is the one a fleet must carry.
#pragma once

#include <vector>

#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

/// For each trace tenant whose trace runs on past what one run replays: the window_start_s from
/// which the run's measured span (horizon − warm-up, in trace time) holds the most of its rows,
/// within the load's own [window_start_s, window_end_s) (the first such start; the warm-up's span
/// before it, no earlier than the load's own start). Tenants that replay one file with the same
/// window, compression and split column share its clock: their window is the busiest for their
/// rows together. Tenants of different files each get their own, so their peaks coincide: the
/// worst case. Rows are counted as replayed at multiplier 1 without sampling. In tenant order;
/// empty when every trace tenant's run already replays all of its trace. Reads each file once
/// per process (the answer is kept by path, size and modification time).
std::vector<TraceWindow> busiest_trace_windows(const Scenario& scenario);

}  // namespace slicewise::scenario
