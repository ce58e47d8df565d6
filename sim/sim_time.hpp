// Simulated time: seconds since the run began, and the instant that never comes.
#pragma once

#include <limits>

namespace slicewise::sim {

/// The time of an event that is not pending (no completion due, no quantum running).
inline constexpr double kNever = std::numeric_limits<double>::infinity();

}  // namespace slicewise::sim
