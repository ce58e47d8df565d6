// A tenant's open-loop request stream, as the simulator replays it: the generator or trace reader
// of its load, seeded from the scenario's seed and the tenant's position. The engine and the GUI's
// arrival preview both take their arrivals from here, so the preview shows what the run sees.
#pragma once

#include <cstddef>
#include <memory>

#include "scenario/scenario.hpp"
#include "traces/request_source.hpp"

namespace slicewise::sim {

/// The request a generator emits for `tenant` (the LLM's mean prompt and output lengths; zeros for
/// a generic workload); traces carry their own lengths.
traces::RequestRecord typical_request(const scenario::Tenant& tenant);

/// The seeded request stream of tenant `index`'s open-loop load (poisson, diurnal, mmpp, trace),
/// with its multiplier applied and ending at the horizon. Throws TraceError when a trace cannot be
/// opened. A closed-loop load has no such stream: its arrivals depend on the replies; the caller
/// must not ask (SW_CHECK).
std::shared_ptr<traces::RequestSource> open_loop_source_of(const scenario::Scenario& scenario, std::size_t index);

}  // namespace slicewise::sim
