// Format names and detection from a file's first line.
#include "traces/trace_format.hpp"

#include <filesystem>

#include "core/error.hpp"
#include "traces/line_reader.hpp"

namespace slicewise::traces {

namespace {

struct FormatName {
  TraceFormat format;
  std::string_view name;
};

constexpr FormatName kNames[] = {
    {TraceFormat::azure_llm, "azure-llm"},     {TraceFormat::mooncake, "mooncake"},
    {TraceFormat::burstgpt, "burstgpt"},       {TraceFormat::openb_pods, "openb-pods"},
    {TraceFormat::openb_nodes, "openb-nodes"}, {TraceFormat::pai_task, "pai-task"},
    {TraceFormat::pai_sensor, "pai-sensor"},   {TraceFormat::genai_2026, "genai-2026"},
    {TraceFormat::philly, "philly"},           {TraceFormat::native, "native"},
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

std::string_view to_string(TraceFormat format) {
  for (const auto& n : kNames) {
    if (n.format == format) return n.name;
  }
  return "?";
}

const std::vector<std::string>& trace_format_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& n : kNames) out.emplace_back(n.name);
    return out;
  }();
  return names;
}

const std::vector<std::pair<std::string, BadRowPolicy>>& bad_row_policy_table() {
  static const std::vector<std::pair<std::string, BadRowPolicy>> table = {{"fail", BadRowPolicy::fail},
                                                                          {"skip", BadRowPolicy::skip}};
  return table;
}

std::vector<std::string> bad_row_policy_names() {
  std::vector<std::string> names;
  for (const auto& entry : bad_row_policy_table()) names.push_back(entry.first);
  return names;
}

std::optional<BadRowPolicy> bad_row_policy_from_string(std::string_view name) {
  for (const auto& [text, policy] : bad_row_policy_table()) {
    if (text == name) return policy;
  }
  return std::nullopt;
}

std::optional<TraceFormat> trace_format_from_string(std::string_view name) {
  for (const auto& n : kNames) {
    if (n.name == name) return n.format;
  }
  return std::nullopt;
}

bool formats_sorted(TraceFormat format) {
  return format != TraceFormat::openb_pods && format != TraceFormat::pai_task && format != TraceFormat::philly;
}

bool carries_load(TraceFormat format) {
  return format != TraceFormat::openb_nodes && format != TraceFormat::pai_sensor;
}

TraceFormat detect_format(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  LineReader reader(path);
  std::string_view first;
  if (!reader.next(first)) throw TraceError(path, 1, "", "empty file: no header or rows to read");
  if (name.find("pai_task_table") != std::string::npos) return TraceFormat::pai_task;
  if (name.find("pai_sensor_table") != std::string::npos) return TraceFormat::pai_sensor;
  if (starts_with(first, "TIMESTAMP,")) return TraceFormat::azure_llm;
  if (starts_with(first, "{")) return TraceFormat::mooncake;
  if (starts_with(first, "[")) return TraceFormat::philly;
  if (starts_with(first, "Timestamp,") && first.find("Request tokens") != std::string_view::npos) {
    return TraceFormat::burstgpt;
  }
  if (starts_with(first, "name,cpu_milli,memory_mib,num_gpu,gpu_milli")) return TraceFormat::openb_pods;
  if (starts_with(first, "sn,cpu_milli,memory_mib,gpu,model")) return TraceFormat::openb_nodes;
  if (starts_with(first, "gmt_create,")) return TraceFormat::genai_2026;
  if (starts_with(first, "arrived_at_s")) return TraceFormat::native;
  std::string allowed;
  for (const auto& n : trace_format_names()) allowed += (allowed.empty() ? "" : "|") + n;
  throw TraceError(path, 1, "",
                   "cannot tell the trace format from this header; give it with --format or \"trace_format\" (one of " +
                       allowed + ")");
}

}  // namespace slicewise::traces
