// Telemetry format and grouping names (telemetry_data.hpp).
#include "traces/telemetry_data.hpp"

#include <utility>

#include "core/error.hpp"

namespace slicewise::traces {

namespace {

constexpr std::pair<TelemetryFormat, std::string_view> kFormatNames[] = {
    {TelemetryFormat::dcgm_prometheus, "dcgm-prometheus"},
    {TelemetryFormat::dcgmi_dmon, "dcgmi-dmon"},
    {TelemetryFormat::pai_sensor, "pai-sensor"},
};

constexpr std::pair<TelemetryGrouping, std::string_view> kGroupingNames[] = {
    {TelemetryGrouping::container, "container"},
    {TelemetryGrouping::pod, "pod"},
    {TelemetryGrouping::kube_namespace, "namespace"},
    {TelemetryGrouping::gpu, "gpu"},
    {TelemetryGrouping::task, "task"},
    {TelemetryGrouping::job, "job"},
};

}  // namespace

std::string_view to_string(TelemetryFormat format) {
  for (const auto& [f, name] : kFormatNames) {
    if (f == format) return name;
  }
  return "?";
}

const std::vector<std::string>& telemetry_format_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& entry : kFormatNames) out.emplace_back(entry.second);
    return out;
  }();
  return names;
}

std::optional<TelemetryFormat> telemetry_format_from_string(std::string_view name) {
  for (const auto& [format, text] : kFormatNames) {
    if (text == name) return format;
  }
  return std::nullopt;
}

std::string_view to_string(TelemetryGrouping grouping) {
  for (const auto& [g, name] : kGroupingNames) {
    if (g == grouping) return name;
  }
  return "?";
}

std::optional<TelemetryGrouping> telemetry_grouping_from_string(std::string_view name) {
  for (const auto& [grouping, text] : kGroupingNames) {
    if (text == name) return grouping;
  }
  return std::nullopt;
}

const std::vector<TelemetryGrouping>& groupings_of(TelemetryFormat format) {
  using G = TelemetryGrouping;
  static const std::vector<G> prometheus = {G::container, G::pod, G::kube_namespace, G::gpu};
  static const std::vector<G> dmon = {G::gpu};
  static const std::vector<G> pai = {G::task, G::job};
  switch (format) {
    case TelemetryFormat::dcgm_prometheus: return prometheus;
    case TelemetryFormat::dcgmi_dmon: return dmon;
    case TelemetryFormat::pai_sensor: return pai;
  }
  SW_CHECK(false, "unhandled telemetry format");
}

}  // namespace slicewise::traces
