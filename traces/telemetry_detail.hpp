// The parts the telemetry readers share (internal to sw_traces; use read_telemetry): where samples
// go, the field parsers, and the Prometheus line parser (declared here for its unit tests).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "traces/fields.hpp"
#include "traces/line_reader.hpp"
#include "traces/telemetry_data.hpp"

namespace slicewise::traces::detail {

/// Collects a reader's samples by workload name and applies the bad-row policy.
class TelemetryCollector {
 public:
  TelemetryCollector(std::string path, TelemetryFormat format, const TelemetryOptions& options);

  /// The workload named `name`, created on first use; the one pooled workload when
  /// TelemetryOptions::name is set.
  WorkloadSamples& workload(const std::string& name);
  /// Rethrows `error` under BadRowPolicy::fail or when it is about the whole file (line 0); counts
  /// it and keeps the first five messages under skip.
  void bad_row(const TraceError& error);
  TelemetryGrouping group_by() const { return data_.group_by; }
  const std::string& path() const { return data_.path; }
  void set_time_span(double seconds) { data_.time_span_s = seconds; }
  void count_incomplete() { ++data_.num_incomplete; }
  /// The data read, workloads sorted by name. Throws TraceError(path, 0, "", `nothing_read`) when
  /// no workload has a sample.
  TelemetryData finish(const std::string& nothing_read);

 private:
  TelemetryData data_;
  BadRowPolicy on_bad_row_;
  std::string pooled_name_;
  std::map<std::string, WorkloadSamples> workloads_;
};

/// `file:line: problem` for a line that is not in the format.
[[noreturn]] void bad_line(const FieldContext& at, const std::string& problem);
/// A DCGM profiling field: a ratio in [0, 1] ("must be in [0, 1] (got 45.3): DCGM's profiling
/// fields are ratios, not percentages").
double parse_ratio(std::string_view text, std::string_view column, const FieldContext& at);
/// DCGM_FI_DEV_FB_USED: MiB (NVML's "MB" are 2^20 bytes), >= 0, given back in GiB.
double parse_fb_used_gib(std::string_view text, std::string_view column, const FieldContext& at);
/// `name` with each control character replaced by '_': a scenario's tenant names carry none.
std::string printable_name(std::string_view name);

/// One sample line of the Prometheus text exposition format:
/// `metric{label="value",...} value [timestamp_ms]`. Label values are unescaped (\\, \", \n).
struct PrometheusLine {
  std::string_view metric;
  std::vector<std::pair<std::string_view, std::string>> labels;
  std::string_view value;
  std::optional<std::int64_t> timestamp_ms;

  /// The value of label `name`; "" when the line has no such label.
  std::string_view label(std::string_view name) const;
};

/// Parses one line into `out` (whose views point into `line`); false for a blank line or a comment
/// (`# HELP`, `# TYPE`, any `#`). Throws TraceError (`file:line: problem`) for anything else that
/// is not a sample line.
bool parse_prometheus_line(std::string_view line, PrometheusLine& out, const FieldContext& at);

/// The three readers; each reads the whole file into `out`.
void read_dcgm_prometheus(LineReader& lines, TelemetryCollector& out);
void read_dcgmi_dmon(LineReader& lines, TelemetryCollector& out);
void read_pai_sensor(LineReader& lines, TelemetryCollector& out);

}  // namespace slicewise::traces::detail
