// Running a scenario's strategies as child processes, which `simulate`, `sweep` and `advise` share:
// the nominal run, the record of the calibration profile it ran with, and the uncertainty samples.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "calibration/calibration_profile.hpp"
#include "cli/commands.hpp"
#include "models/sharing_defaults.hpp"
#include "pricing/price_table.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::cli {

/// Runs the selected strategies as child processes, `options.jobs` at a time, with progress on
/// io.err (and, when given, the whole run's fraction done to `observer`); nullopt when one failed (its message is
/// already on stderr). Throws Interrupted (cli/child_pool.hpp), every child gone and the temporary folder removed, on
/// SIGINT or SIGTERM.
std::optional<scenario::SimResult> simulate_strategies(const scenario::Scenario& scenario,
                                                       const std::vector<std::size_t>& selected,
                                                       const models::SharingDefaults& defaults,
                                                       const SimulateOptions& options, Io io,
                                                       const std::function<void(double)>& observer = {});

/// What a result records about the profile it was simulated with.
scenario::CalibrationRecord record_of(const calibration::CalibrationProfile& profile);

/// `--uncertainty N`: re-runs the selected strategies N times with the profile's fitted constants
/// drawn from their errors (seeded by the scenario's seed), prices each run, and gives each
/// strategy's savings, SLA-violation rate and GPUs as a median and 90 % interval. A strategy sized
/// for SLA is re-sized per sample, and `nominal`'s fleet is run under the same draw. Empty when a
/// run failed (its message already on stderr).
std::vector<scenario::UncertaintyBand> sample_uncertainty(const scenario::Scenario& scenario,
                                                          const std::vector<std::size_t>& selected,
                                                          const scenario::SimResult& nominal,
                                                          const calibration::CalibrationProfile& profile,
                                                          const pricing::PriceTable& price_table,
                                                          const SimulateOptions& options, Io io);

}  // namespace slicewise::cli
