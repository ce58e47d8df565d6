// The figures of a finished run: per tenant (latency, throughput, SLA) and per device and fleet
// (utilisation and time series), from the device states and tenant statistics the actors filled.
#include "sim/run_results.hpp"

#include <algorithm>
#include <cmath>

#include "core/json_reader.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/utilisation.hpp"

namespace slicewise::sim {

using scenario::LoadKind;
using scenario::Scenario;

namespace {

/// The note on a placed tenant to which no request arrived after the warm-up: its SLA is met only
/// because nothing was measured. Empty otherwise.
std::string nothing_arrived_issue(const Scenario& scenario, const scenario::Tenant& tenant,
                                  const scenario::TenantResult& r) {
  if (r.num_arrived > 0 || r.num_contexts == 0) return {};
  std::string text = "tenant " + tenant.name + ": no request arrived in the measured window (" +
                     format_number(scenario.warmup_s) + " s to " + format_number(scenario.horizon_s) +
                     " s), so its latency and SLA figures are empty";
  if (tenant.load.kind == LoadKind::trace) {
    text += "; the trace has no row there (check the file, window_start_s, window_end_s, select and sample_frac)";
  }
  return text;
}

/// A distribution of x × factor (factor > 0): every order statistic scales with it.
scenario::Distribution scaled(scenario::Distribution d, double factor) {
  d.mean *= factor;
  d.p50 *= factor;
  d.p90 *= factor;
  d.p95 *= factor;
  d.p99 *= factor;
  d.max *= factor;
  return d;
}

/// An LLM tenant whose engines refused or preempted measured requests: how many and why.
std::string engine_issue(const scenario::Tenant& tenant, const TenantStats& stats) {
  if (stats.num_refused == 0 && stats.num_preempted == 0) return "";
  std::string text = tenant.name + ": ";
  if (stats.num_refused > 0) {
    text += std::to_string(stats.num_refused) +
            " requests refused by its engine (longer than it takes, more KV blocks than its pool, or the server "
            "full), counted dropped";
  }
  if (stats.num_preempted > 0) {
    text += std::string(stats.num_refused > 0 ? "; " : "") + std::to_string(stats.num_preempted) +
            " preemptions (its KV cache was full: the newest sequence gave its blocks back and was recomputed)";
  }
  return text;
}

/// A tenant whose load outran its contexts: how many requests were shed or timed out, and why.
std::string overload_issue(const scenario::Tenant& tenant, const TenantStats& stats) {
  if (stats.num_shed == 0 && stats.num_timed_out == 0) return "";
  std::string text = tenant.name + ": ";
  if (stats.num_shed > 0) {
    text += std::to_string(stats.num_shed) + " requests shed (a context's queue held its limit of " +
            std::to_string(scenario::queue_limit(tenant)) + ")";
  }
  if (stats.num_timed_out > 0) {
    text += std::string(stats.num_shed > 0 ? ", " : "") + std::to_string(stats.num_timed_out) +
            " timed out (not done within its clients' " + format_number(scenario::timeout_s(tenant)) + " s)";
  }
  return text + ": its load outruns its contexts; counted failed and SLA violations (docs/overload.md)";
}

}  // namespace

void tenant_results(const Scenario& scenario, const Placement& placement, const Devices& devices,
                    const std::vector<TenantStats>& stats_of, scenario::StrategyResult& out) {
  std::vector<std::int64_t> unfinished(scenario.tenants.size(), 0);
  for (const auto& device : devices) device->count_in_system(unfinished);
  const double window_s = scenario.horizon_s - scenario.warmup_s;
  for (std::size_t t = 0; t < scenario.tenants.size(); ++t) {
    const auto& tenant = scenario.tenants[t];
    const auto& stats = stats_of[t];
    scenario::TenantResult r;
    r.name = tenant.name;
    r.num_contexts_unplaced = placement.num_unplaced[t];
    r.num_contexts = tenant.num_contexts - r.num_contexts_unplaced;
    r.num_arrived = stats.num_arrived;
    r.num_completed = stats.num_completed;
    r.num_dropped = stats.num_dropped;
    r.num_unfinished = unfinished[t] + stats.num_held;  // still on a device, or waiting for one to come up
    r.throughput_per_s = window_s > 0.0 ? static_cast<double>(stats.num_completed) / window_s : 0.0;
    r.gpu_work_s = stats.gpu_work_s;
    r.num_failed = stats.num_failed;
    r.num_shed = stats.num_shed;
    r.num_timed_out = stats.num_timed_out;
    if (stats.prefix_prompt_tokens > 0.0)
      r.prefix_cache_hit_frac = stats.prefix_cached_tokens / stats.prefix_prompt_tokens;
    r.latency_s = stats.latency.summary();
    if (stats.latency.count() > 0) {
      for (const double level : scenario::kLatencyCdfLevels) r.latency_cdf_s.push_back(stats.latency.quantile(level));
    }
    r.queue_delay_s = stats.queue_delay.summary();
    r.ttft_s = stats.ttft.summary();
    r.tpot_s = stats.tpot.summary();
    r.slowdown = stats.solo_s > 0.0 ? scaled(r.latency_s, 1.0 / stats.solo_s) : stats.slowdown.summary();
    r.sla_violations = stats.sla_violations + r.num_unfinished;
    r.sla_violation_frac = r.num_arrived > 0 ? static_cast<double>(r.sla_violations) / r.num_arrived : 0.0;
    r.sla_max_violation_frac =
        tenant.sla.max_violation_frac.value_or(scenario::default_max_violation_frac(tenant.sla.environment));
    r.sla_met = r.sla_violation_frac <= r.sla_max_violation_frac && r.num_contexts_unplaced == 0;
    if (auto issue = nothing_arrived_issue(scenario, tenant, r); !issue.empty()) out.issues.push_back(issue);
    if (auto issue = engine_issue(tenant, stats); !issue.empty()) out.issues.push_back(issue);
    if (auto issue = overload_issue(tenant, stats); !issue.empty()) out.issues.push_back(issue);
    out.tenants.push_back(std::move(r));
  }
}

void device_results(const Scenario& scenario, const Devices& devices, const std::vector<TenantStats>& stats_of,
                    scenario::StrategyResult& out) {
  // The result keeps at most kMaxResultSeriesValues numbers of time series, so that what simulate
  // writes roi and report can read: beyond that, `group` consecutive metrics intervals become one
  // sample of the result (the series' interval_s says so).
  const std::size_t intervals = devices.empty() ? 0 : devices.front()->busy_series().size();
  const double values = static_cast<double>(2 * devices.size() + stats_of.size()) * static_cast<double>(intervals);
  const auto group = static_cast<std::size_t>(std::max(1.0, std::ceil(values / kMaxResultSeriesValues)));
  out.series.interval_s = scenario.metrics_interval_s * static_cast<double>(group);
  auto per_interval = [&](const std::vector<double>& integral) {
    std::vector<double> series((integral.size() + group - 1) / group);
    for (std::size_t i = 0; i < series.size(); ++i) {
      double sum = 0.0;
      for (std::size_t k = i * group; k < std::min(integral.size(), (i + 1) * group); ++k) sum += integral[k];
      const double start = static_cast<double>(i) * out.series.interval_s;
      series[i] = sum / (std::min(scenario.horizon_s, start + out.series.interval_s) - start);
    }
    return series;
  };
  for (const auto& device : devices) {
    const auto& placed = device->placed();
    scenario::DeviceResult r;
    r.name = placed.name;
    r.gpu = placed.gpu_id;
    r.mig_profile = placed.mig_profile;
    r.gpu_index = static_cast<int>(placed.gpu_index);
    r.gpu_count = placed.gpu_count;
    r.reserved = placed.reserved;
    for (const auto& c : placed.contexts) {
      r.contexts.push_back(scenario.tenants[c.tenant].name + "#" + std::to_string(c.replica));
      r.memory_allocated_gib += c.memory_gib;
    }
    r.memory_capacity_gib = placed.memory_gib;
    r.oom_risk = placed.oom_risk;
    double busy = 0.0;
    double sm = 0.0;
    for (double x : device->busy_series()) busy += x;
    for (double x : device->sm_series()) sm += x;
    r.busy_frac = busy / scenario.horizon_s;
    r.sm_util_frac = sm / scenario.horizon_s;
    out.series.device_busy_frac.push_back(per_interval(device->busy_series()));
    out.series.device_sm_util_frac.push_back(per_interval(device->sm_series()));
    out.devices.push_back(std::move(r));
  }
  for (const auto& stats : stats_of)
    out.series.tenant_queue_length.push_back(per_interval(stats.queue_length_integral));
  // One definition of GPU and fleet utilisation for the result, the report and its chart.
  out.fleet_busy_frac = scenario::fleet_mean(out, [&](std::size_t d) { return out.devices[d].busy_frac; });
  out.fleet_sm_util_frac = scenario::fleet_mean(out, [&](std::size_t d) { return out.devices[d].sm_util_frac; });
}

}  // namespace slicewise::sim
