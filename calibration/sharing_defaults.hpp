// A calibration profile's constants as the simulator's sharing defaults.
#pragma once

#include "calibration/calibration_profile.hpp"
#include "models/sharing_defaults.hpp"

namespace slicewise::calibration {

/// The sharing constants of `profile`; constants it lacks keep the uncalibrated defaults. The
/// fitted time-slicing efficiency η becomes the switch cost at the default quantum, c = q (1/η − 1).
/// A roofline sharpness fitted on one GPU applies to every catalog GPU of its architecture.
models::SharingDefaults sharing_defaults(const CalibrationProfile& profile);

}  // namespace slicewise::calibration
