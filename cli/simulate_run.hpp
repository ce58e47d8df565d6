// The parts of `slicewise simulate` that `slicewise sweep` reuses: running a scenario's strategies
// as child processes, and the record of the calibration profile they ran with.
#pragma once

#include <optional>
#include <vector>

#include "calibration/calibration_profile.hpp"
#include "cli/commands.hpp"
#include "models/sharing_defaults.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::cli {

/// Runs the selected strategies as child processes, `options.jobs` at a time, with progress on
/// io.err; nullopt when one failed (its message is already on stderr). Throws Interrupted
/// (cli/child_pool.hpp), every child gone and the temporary folder removed, on SIGINT or SIGTERM.
std::optional<scenario::SimResult> simulate_strategies(const scenario::Scenario& scenario,
                                                       const std::vector<std::size_t>& selected,
                                                       const models::SharingDefaults& defaults,
                                                       const SimulateOptions& options, Io io);

/// What a result records about the profile it was simulated with.
scenario::CalibrationRecord record_of(const calibration::CalibrationProfile& profile);

}  // namespace slicewise::cli
