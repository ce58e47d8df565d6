// The sample collector and the field parsers the telemetry readers share (telemetry_detail.hpp).
#include "traces/telemetry_detail.hpp"

#include <algorithm>

namespace slicewise::traces {

namespace detail {

TelemetryCollector::TelemetryCollector(std::string path, TelemetryFormat format, const TelemetryOptions& options)
    : on_bad_row_(options.on_bad_row), pooled_name_(printable_name(options.name)) {
  data_.path = std::move(path);
  data_.format = format;
  const auto& allowed = groupings_of(format);
  data_.group_by = options.group_by.value_or(allowed.front());
  SW_CHECK(
      std::find(allowed.begin(), allowed.end(), data_.group_by) != allowed.end(),
      std::string("grouping ") + std::string(to_string(data_.group_by)) + " for " + std::string(to_string(format)));
}

WorkloadSamples& TelemetryCollector::workload(const std::string& name) {
  const std::string& key = pooled_name_.empty() ? name : pooled_name_;
  auto [it, inserted] = workloads_.try_emplace(key);
  if (inserted) it->second.name = key;
  return it->second;
}

void TelemetryCollector::bad_row(const TraceError& error) {
  if (on_bad_row_ == BadRowPolicy::fail || error.line() <= 0) throw error;
  ++data_.num_bad_rows;
  if (data_.bad_rows.size() < 5) data_.bad_rows.emplace_back(error.what());
}

TelemetryData TelemetryCollector::finish(const std::string& nothing_read) {
  for (auto& [name, workload] : workloads_) {
    data_.num_samples += static_cast<std::int64_t>(workload.samples.size());
    data_.workloads.push_back(std::move(workload));
  }
  workloads_.clear();
  if (data_.num_samples == 0) throw TraceError(data_.path, 0, "", nothing_read);
  return std::move(data_);
}

void bad_line(const FieldContext& at, const std::string& problem) {
  throw TraceError(at.file != nullptr ? *at.file : std::string(), at.line, "", problem);
}

double parse_ratio(std::string_view text, std::string_view column, const FieldContext& at) {
  const double value = parse_number(text, column, at);
  if (value < 0.0 || value > 1.0) {
    throw TraceError(
        *at.file, at.line, std::string(column),
        "must be in [0, 1] (got " + std::string(trim(text)) + "): DCGM's profiling fields are ratios, not percentages");
  }
  return value;
}

double parse_fb_used_gib(std::string_view text, std::string_view column, const FieldContext& at) {
  constexpr double kMaxMib = 1e9;  // a thousand TiB: far above any device, far below overflow
  return parse_non_negative(text, column, at, kMaxMib) / 1024.0;
}

std::string printable_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) c = '_';
  }
  return out;
}

}  // namespace detail

}  // namespace slicewise::traces
