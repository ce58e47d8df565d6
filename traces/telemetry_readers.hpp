// Readers of GPU telemetry (docs/telemetry.md): NVIDIA dcgm-exporter scrapes (Prometheus text),
// `dcgmi dmon` output and the Alibaba PAI v2020 sensor table, turned into the samples of each
// workload that calibration/tenant_profile.hpp estimates a scenario tenant from. Files are streamed
// through LineReader (.gz and .zst read transparently); a bad line is `file:line: problem` and
// follows the BadRowPolicy, as in the trace readers.
#pragma once

#include <string>

#include "traces/telemetry_data.hpp"

namespace slicewise::traces {

/// Reads `path` in `format`. Throws TraceError for a file that cannot be read or is not in the
/// format (no dmon header, a missing PAI column, no sample at all), and for the first bad line
/// under BadRowPolicy::fail: `file:line: [column: ]problem`.
TelemetryData read_telemetry(const std::string& path, TelemetryFormat format, const TelemetryOptions& options = {});

}  // namespace slicewise::traces
