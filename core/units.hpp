// Units and calendar constants used across slicewise. Quantities carry their unit in their name
// (`_s`, `_gib`, `_usd_per_hour`, `_frac`); these are the only conversion factors.
#pragma once

namespace slicewise {

inline constexpr double kHoursPerMonth = 730.0;  ///< the cloud billing month (8,760 h / 12)
inline constexpr double kMonthsPerYear = 12.0;
inline constexpr double kSecondsPerHour = 3600.0;
inline constexpr double kSecondsPerMinute = 60.0;
inline constexpr double kMsPerSecond = 1000.0;
inline constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kBytesPerGb = 1e9;

}  // namespace slicewise
