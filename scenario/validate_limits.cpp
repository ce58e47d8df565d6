// The run-size checks of validate_scenario: bounds on the work one run may take (fleet GPUs,
// contexts, time-series samples, expected requests, MMPP state changes, exact quanta, expected
// faults), so that a
// slip of the keyboard (a rate of 1e308, a metrics interval of a microsecond) is refused at once
// instead of running out of memory or never ending.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "scenario/scenario_checker.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario::detail {

namespace {

constexpr double kMaxSeriesSamples = 100000;  // metrics intervals per time series
constexpr double kMaxEvents = 1000000000;     // expected arrivals per tenant; MMPP switches; exact quanta
// Placement tries every context on every device, and each placed device is a simulated actor.
constexpr std::int64_t kMaxFleetGpus = 10000;
constexpr std::int64_t kMaxContexts = 10000;
constexpr double kNoLimit = std::numeric_limits<double>::infinity();
/// Memory the time series and latency histograms of one run may take (a fixed bound, so that
/// validation does not depend on the machine): 8 GiB.
constexpr double kMaxRunBytes = 8.0 * 1024 * 1024 * 1024;
/// Most MIG instances one GPU holds (compute slices of every MIG geometry).
constexpr double kMaxMigInstances = 7.0;
/// A tenant's latency, queue, TTFT and TPOT histograms (about 0.47 MiB, docs/benchmarks.md).
constexpr double kTenantStatsBytes = 0.5 * 1024 * 1024;

/// A count as digits ("100000", not "1e+05"); beyond 10^15 in shortest form ("6e+301", "inf").
std::string count_text(double value) {
  if (!(std::abs(value) < 1e15)) return format_number(value);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", std::round(value));
  return text;
}

}  // namespace

/// Fleet GPUs and contexts, time series length, expected requests per tenant, MMPP state changes,
/// exact quanta and expected faults, in that order.
void ScenarioChecker::limits() {
  fleet_limits();
  series_limit();
  for (std::size_t i = 0; i < s_.tenants.size(); ++i) load_limits(i);
  for (std::size_t j = 0; j < s_.strategies.size(); ++j) quanta_limit(j);
  fault_limits();
}

std::int64_t ScenarioChecker::total_contexts() const {
  std::int64_t contexts = 0;
  for (const auto& t : s_.tenants) contexts += t.num_contexts;
  return contexts;
}

/// The fleet's GPUs and the tenants' contexts that placement has to try.
void ScenarioChecker::fleet_limits() {
  if (num_gpus_ > kMaxFleetGpus) {
    add("/fleet", "the fleet has " + std::to_string(num_gpus_) + " GPUs; at most " + std::to_string(kMaxFleetGpus) +
                      " can be simulated");
  }
  const std::int64_t contexts = total_contexts();
  if (contexts > kMaxContexts) {
    add("/tenants", "the tenants' num_contexts add up to " + std::to_string(contexts) + " contexts; at most " +
                        std::to_string(kMaxContexts) + " can be placed");
  }
}

/// Samples per time series: horizon_s / metrics_interval_s.
void ScenarioChecker::series_limit() {
  const double horizon = s_.horizon_s;
  const double samples = std::ceil(horizon / s_.metrics_interval_s);
  if (samples > kMaxSeriesSamples) {
    add("/metrics_interval_s", "horizon_s / metrics_interval_s gives " + count_text(samples) +
                                   " samples per time series; at most " + count_text(kMaxSeriesSamples) + " (got " +
                                   format_number(s_.metrics_interval_s) + "; horizon_s is " + format_number(horizon) +
                                   ")");
    return;
  }
  // Each limit alone is fine, their product need not be: every device keeps two series and every
  // tenant one, in memory for the whole run. Bounded from above (a MIG GPU may carry 7 devices).
  const double contexts = static_cast<double>(total_contexts());
  double devices = 0.0;
  for (const auto& strategy : s_.strategies) {
    const double per_gpu = policy_of(strategy.kind).partitions_gpus() ? kMaxMigInstances : 1.0;
    devices = std::max(devices, std::min(contexts, static_cast<double>(num_gpus_) * per_gpu));
  }
  const double bytes = (2.0 * devices + static_cast<double>(s_.tenants.size())) * samples * sizeof(double) +
                       static_cast<double>(s_.tenants.size()) * kTenantStatsBytes;
  if (bytes > kMaxRunBytes) {
    add("/metrics_interval_s", "this run would hold about " + format_number(std::round(bytes / (1 << 20))) +
                                   " MiB of metrics (" + count_text(devices) + " devices x 2 and " +
                                   std::to_string(s_.tenants.size()) + " tenants x " + count_text(samples) +
                                   " samples); at most " + count_text(kMaxRunBytes / (1 << 20)) +
                                   " MiB: use a longer metrics_interval_s, or fewer contexts");
  }
}

/// Expected requests of tenant `i`'s load at its peak rate, and its MMPP state changes.
void ScenarioChecker::load_limits(std::size_t i) {
  const double horizon = s_.horizon_s;
  const auto& load = s_.tenants[i].load;
  const std::string pointer = "/tenants/" + std::to_string(i) + "/load";
  double peak_rate = 0.0;
  if (load.kind == LoadKind::poisson || load.kind == LoadKind::diurnal) peak_rate = load.rate_per_s;
  double shortest_state_s = kNoLimit;
  for (const auto& state : load.states) {
    peak_rate = std::max(peak_rate, state.rate_per_s);
    shortest_state_s = std::min(shortest_state_s, state.mean_duration_s);
  }
  const double requests = peak_rate * load.multiplier * horizon;
  if (requests > kMaxEvents) {
    add(pointer, std::string(load.kind == LoadKind::mmpp ? "the fastest state's rate_per_s" : "rate_per_s") +
                     " x multiplier x horizon_s gives " + count_text(requests) + " expected requests; at most " +
                     count_text(kMaxEvents) + " per tenant (lower the rate, the multiplier or horizon_s)");
  }
  if (shortest_state_s < kNoLimit && horizon / shortest_state_s > kMaxEvents) {
    add(pointer + "/states", "horizon_s / the shortest mean_duration_s gives " +
                                 count_text(horizon / shortest_state_s) + " expected state changes; at most " +
                                 count_text(kMaxEvents) + " (got " + format_number(shortest_state_s) +
                                 " s; horizon_s is " + format_number(horizon) + ")");
  }
}

/// Quanta per device of exact time slicing on strategy `j`.
void ScenarioChecker::quanta_limit(std::size_t j) {
  const auto& st = s_.strategies[j];
  if (!st.exact || !st.quantum_ms) return;
  const double quanta = s_.horizon_s / (*st.quantum_ms / 1000.0);
  if (quanta > kMaxEvents) {
    add("/strategies/" + std::to_string(j) + "/quantum_ms",
        "exact time slicing steps horizon_s / quantum_ms = " + count_text(quanta) + " quanta per device; at most " +
            count_text(kMaxEvents) + " (use a longer quantum, or \"exact\": false for the fluid model)");
  }
}

/// Expected faults of each random rate over the run: rate x the fleet's GPUs (or the tenants'
/// contexts) x horizon_s in hours. Each fault is an event and may restart contexts and re-send
/// requests. Rates out of range are reported by faults().
void ScenarioChecker::fault_limits() {
  if (!s_.faults || !s_.faults->random) return;
  const FaultSpec& f = *s_.faults;
  const double hours = s_.horizon_s / 3600.0;
  const double gpus = static_cast<double>(num_gpus_);
  const double contexts = static_cast<double>(total_contexts());
  const std::string on_gpus = "the fleet's " + count_text(gpus) + " GPU(s)";
  const std::string on_contexts = "the tenants' " + count_text(contexts) + " context(s)";
  struct Rate {
    const char* key;
    double per_hour;
    double exposed;
    const std::string& what;
  };
  const Rate rates[] = {{"gpu_failure_per_gpu_hour", f.gpu_failure_per_gpu_hour.value_or(0.0), gpus, on_gpus},
                        {"driver_reset_per_gpu_hour", f.driver_reset_per_gpu_hour, gpus, on_gpus},
                        {"tenant_crash_per_context_hour", f.tenant_crash_per_context_hour, contexts, on_contexts},
                        {"mps_server_fault_per_gpu_hour", f.mps_server_fault_per_gpu_hour, gpus, on_gpus}};
  for (const auto& rate : rates) {
    const double expected = rate.per_hour * rate.exposed * hours;
    if (!std::isfinite(rate.per_hour) || !(expected > kMaxEvents)) continue;
    add(std::string("/faults/") + rate.key, "this rate on " + rate.what + " for horizon_s (" + format_number(hours) +
                                                " h) gives " + count_text(expected) + " expected faults; at most " +
                                                count_text(kMaxEvents) + " (lower the rate or horizon_s)");
  }
}

}  // namespace slicewise::scenario::detail
