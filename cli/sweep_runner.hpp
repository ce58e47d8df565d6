// Running a sweep's remaining points (docs/sweeps.md): each point in its own child process, N at a
// time, while the parent shows their progress on stderr and keeps the reason of every failure.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "calibration/calibration_profile.hpp"
#include "cli/commands.hpp"
#include "scenario/sweep.hpp"

namespace slicewise::cli {

/// What a run of points needs; the references must outlive the run.
struct SweepRunSetup {
  const scenario::Sweep& sweep;
  const calibration::CalibrationProfile& profile;
  const std::string& fingerprint;                 ///< written into every point file
  const std::filesystem::path& folder;            ///< the sweep folder
  const std::vector<scenario::SweepPoint>& todo;  ///< the points to run, in order
  std::size_t num_done_before = 0;                ///< points of the shard done by earlier runs
  std::size_t num_in_shard = 0;                   ///< points of the shard, done or not
  int max_running = 1;                            ///< points run at once
  ProgressMode progress = ProgressMode::none;     ///< bar, json or none (never automatic)
};

/// What a run of points left behind (the points that succeeded are in the folder).
struct SweepRunOutcome {
  std::map<std::size_t, std::string> failures;  ///< point index -> why its child failed
  int interrupted = 0;                          ///< the signal that stopped the run; 0 when none did
};

/// Runs every point of setup.todo in a child process that writes DIR/points/<id>.json (its
/// stderr going to DIR/points/<id>.log, removed when the point succeeds), with progress on io.err
/// as a bar or JSON lines. SIGINT or SIGTERM stops the run, every child killed.
SweepRunOutcome run_sweep_points(const SweepRunSetup& setup, Io io);

}  // namespace slicewise::cli
