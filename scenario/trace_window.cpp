// Busiest trace windows.
#include "scenario/trace_window.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include "core/json_reader.hpp"
#include "scenario/validate.hpp"
#include "traces/trace_source.hpp"

namespace slicewise::scenario {

namespace {

/// What identifies the rows a tenant replays (not its multiplier or sampling).
std::string replay_key(const Scenario& scenario, const LoadSpec& load) {
  const auto path = resolve_relative_path(scenario, load.trace_file);
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  const auto written = std::filesystem::last_write_time(path, error).time_since_epoch().count();
  return path.string() + "|" + std::to_string(size) + "|" + std::to_string(written) + "|" + load.trace_format + "|" +
         format_number(load.window_start_s) + "|" + (load.window_end_s ? format_number(*load.window_end_s) : "") + "|" +
         format_number(load.time_compression) + "|" + load.split_column + "|" +
         std::to_string(static_cast<int>(load.on_bad_row));
}

/// The trace times of the rows `load` replays, ascending.
std::vector<double> replayed_times(const Scenario& scenario, const LoadSpec& load) {
  traces::TraceMapping mapping;
  mapping.window_start_s = load.window_start_s;
  mapping.window_end_s = load.window_end_s;
  mapping.select = load.split_values;
  mapping.horizon_s = std::numeric_limits<double>::max();
  traces::TraceSource source(open_load_trace(scenario, load), std::move(mapping));
  std::vector<double> times;
  traces::RequestRecord record;
  while (source.next(record)) times.push_back(record.arrived_at_s + load.window_start_s);
  return times;
}

/// Each distinct replay's times, read once per process.
const std::vector<double>& cached_times(const Scenario& scenario, const LoadSpec& load) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<double>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  std::string key = replay_key(scenario, load);
  for (const auto& value : load.split_values) key += "|" + value;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, replayed_times(scenario, load)).first;
  return it->second;
}

/// Rows of sorted `times` in [from, from + span).
std::int64_t count_in(const std::vector<double>& times, double from, double span) {
  return std::lower_bound(times.begin(), times.end(), from + span) - std::lower_bound(times.begin(), times.end(), from);
}

/// The first start t_i with the most of `times` in [t_i, t_i + span).
double busiest_start(const std::vector<double>& times, double span) {
  std::size_t best = 0;
  std::size_t best_count = 0;
  std::size_t end = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    while (end < times.size() && times[end] < times[i] + span) ++end;
    if (end - i > best_count) {
      best_count = end - i;
      best = i;
    }
  }
  return times.empty() ? 0.0 : times[best];
}

}  // namespace

std::vector<TraceWindow> busiest_trace_windows(const Scenario& scenario) {
  // The rows of every tenant of a replay (file, window, compression, split column), together.
  std::map<std::string, std::vector<double>> replays;
  for (const auto& t : scenario.tenants) {
    if (t.load.kind != LoadKind::trace) continue;
    const auto& times = cached_times(scenario, t.load);
    auto& all = replays[replay_key(scenario, t.load)];
    all.insert(all.end(), times.begin(), times.end());
  }
  for (auto& [key, times] : replays) std::sort(times.begin(), times.end());

  std::vector<TraceWindow> out;
  for (const auto& t : scenario.tenants) {
    if (t.load.kind != LoadKind::trace) continue;
    const auto& load = t.load;
    const double lead = std::min(scenario.warmup_s, scenario.horizon_s) * load.time_compression;
    const double span = (scenario.horizon_s - std::min(scenario.warmup_s, scenario.horizon_s)) * load.time_compression;
    const auto& all = replays[replay_key(scenario, load)];
    if (all.empty() || all.back() < load.window_start_s + lead + span) continue;  // one run replays it all
    const double start = std::max(load.window_start_s, busiest_start(all, span) - lead);
    const auto& own = cached_times(scenario, load);
    out.push_back({t.name, start, count_in(own, start + lead, span), count_in(own, load.window_start_s + lead, span)});
  }
  return out;
}

}  // namespace slicewise::scenario
