// The child side of one sweep point (docs/sweeps.md): it simulates every strategy of the point's
// scenario, prices the result and writes DIR/points/<id>.json atomically, sending its progress to
// the parent as JSON lines on a pipe.
#pragma once

#include <filesystem>
#include <string>

#include "calibration/calibration_profile.hpp"
#include "report/sweep_results.hpp"
#include "scenario/sweep.hpp"

namespace slicewise::cli {

/// The record of `point` without figures: its id, index, values and their labels.
report::SweepPointRecord point_record(const scenario::SweepPoint& point);

/// In the child: runs `point` with `profile`'s constants, writes its point file (record and result,
/// tagged with `fingerprint`) into `folder`, and ends the process: exit 0 when done, 1 on a failure
/// (its message on stderr), or death by the signal that interrupted it. Progress goes to
/// `progress_fd` as JSON lines.
[[noreturn]] void run_point_child(const scenario::Sweep& sweep, const scenario::SweepPoint& point,
                                  const calibration::CalibrationProfile& profile, const std::string& fingerprint,
                                  const std::filesystem::path& folder, int progress_fd);

}  // namespace slicewise::cli
