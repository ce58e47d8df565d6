// SimResult: the output of a simulation, per strategy. Plain aggregates; JSON in result_json.hpp.
// docs/metrics.md defines every metric with its formula.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// Distribution summary of a latency-like quantity, seconds. Percentiles come from a log-bucketed
/// histogram with 0.1 % relative resolution; mean and max are exact.
struct Distribution {
  std::int64_t count = 0;
  double mean = 0.0;
  double p50 = 0.0;
  double p90 = 0.0;
  double p95 = 0.0;
  double p99 = 0.0;
  double max = 0.0;
  bool operator==(const Distribution&) const = default;
};

/// Quantile levels of TenantResult::latency_cdf_s (the report's latency CDF).
inline constexpr std::array<double, 22> kLatencyCdfLevels = {0.01, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35,
                                                             0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75,
                                                             0.80, 0.85, 0.90, 0.95, 0.99, 0.999};

struct TenantResult {
  std::string name;
  int num_contexts = 0;           ///< contexts placed
  int num_contexts_unplaced = 0;  ///< contexts that found no device (see StrategyResult::issues)
  std::int64_t num_arrived = 0;   ///< measured arrivals (after warm-up)
  std::int64_t num_completed = 0;
  std::int64_t num_dropped = 0;       ///< arrived for a tenant with no placed context, or refused by its LLM engine
  std::int64_t num_unfinished = 0;    ///< still queued or in service when the run stopped
  double throughput_per_s = 0.0;      ///< completed / measured window
  double gpu_work_s = 0.0;            ///< solo GPU seconds of the completed requests (reference GPU): chargeback weight
  Distribution latency_s;             ///< arrival -> completion
  std::vector<double> latency_cdf_s;  ///< latency at each of kLatencyCdfLevels; empty when nothing completed
  Distribution queue_delay_s;         ///< arrival -> start of service
  Distribution ttft_s;                ///< LLM: arrival -> end of prefill
  Distribution tpot_s;                ///< LLM: decode time / output tokens
  Distribution slowdown;              ///< latency / the request's solo time (docs/metrics.md)
  std::int64_t sla_violations = 0;    ///< requests over a target, plus dropped and unfinished ones
  double sla_violation_frac = 0.0;    ///< sla_violations / (arrived)
  double sla_max_violation_frac = 0.0;  ///< the tenant's allowed fraction
  bool sla_met = true;
  // Faults and re-partitions (docs/faults.md); all 0 (availability 1) in a run without them.
  /// Lost for good (SLA violations): their context went down and they were not re-sent, or they
  /// were shed or timed out (num_shed, num_timed_out).
  std::int64_t num_failed = 0;
  std::int64_t num_retried = 0;        ///< re-sent after their context went down
  std::int64_t num_interruptions = 0;  ///< times one of its contexts went down
  double downtime_s = 0.0;             ///< measured time with none of its contexts up
  double availability = 1.0;           ///< 1 − downtime / (horizon − warm-up)
  /// LLM with prefix caching and a trace of block hashes: the share of its measured requests'
  /// prompt tokens that its engines' prefix caches served; absent otherwise.
  std::optional<double> prefix_cache_hit_frac;
  // Overload (docs/overload.md), in num_failed too; written only when not 0.
  std::int64_t num_shed = 0;       ///< refused on arrival: the context's queue was full
  std::int64_t num_timed_out = 0;  ///< not done within the client's timeout (dropped waiting, or late)
  bool operator==(const TenantResult&) const = default;
};

struct DeviceResult {
  std::string name;                   ///< "gpu0", "gpu0/3g.40gb@4"
  std::string gpu;                    ///< GPU id
  std::string mig_profile;            ///< "" for a whole GPU
  int gpu_index = 0;                  ///< which physical GPU of the strategy's fleet
  std::vector<std::string> contexts;  ///< "tenant#k"
  double busy_frac = 0.0;             ///< time-average of P(some context has GPU work)
  double sm_util_frac = 0.0;          ///< time-average SM-weighted utilisation
  double memory_allocated_gib = 0.0;
  double memory_capacity_gib = 0.0;
  bool oom_risk = false;        ///< contexts' memory exceeds the device and nothing isolates it
  std::string phase;            ///< the layout schedule's phase it belongs to; "" without a schedule
  double down_s = 0.0;          ///< time it was off while its layout phase was in force (faults)
  double out_of_phase_s = 0.0;  ///< time its layout phase was not in force (another phase, re-partitioning)
  /// GPUs it spans: a tensor-parallel group's, gpu_index onwards (written only when above 1).
  int gpu_count = 1;
  /// On GPUs a fleet entry reserves for named tenants: whole, unshared (written only when true).
  bool reserved = false;
  bool operator==(const DeviceResult&) const = default;
};

/// How a tenant's SLA reads in a table: "met", "missed", or "no requests" when none arrived in the
/// measured window (its figures are empty, not good: nothing was judged).
inline std::string sla_word(bool met, std::int64_t num_arrived) {
  if (num_arrived == 0) return "no requests";
  return met ? "met" : "missed";
}

/// The tenant of a device's context entry "tenant#k".
inline std::string tenant_of_context(const std::string& context) { return context.substr(0, context.rfind('#')); }

/// A MIG instance's first memory slot, from its name "gpu0/3g.40gb@4" (0 when it names none).
inline int mig_start_slot(const DeviceResult& device) {
  const auto at = device.name.rfind('@');
  return at == std::string::npos ? 0 : std::atoi(device.name.c_str() + at + 1);
}

/// Sampled every metrics_interval_s: per device busy and SM utilisation, per tenant mean queue length.
struct TimeSeries {
  double interval_s = 0.0;
  std::vector<std::vector<double>> device_busy_frac;  ///< [device][interval]
  std::vector<std::vector<double>> device_sm_util_frac;
  std::vector<std::vector<double>> tenant_queue_length;  ///< [tenant][interval], time-averaged waiting requests
  bool operator==(const TimeSeries&) const = default;
};

/// One run of the search, as the record keeps it.
struct SizingStep {
  /// "contexts" (each context alone on a device), "gpus" (balanced by load), or "spread" / "pack"
  /// (one GPU fewer, placed otherwise)
  std::string phase;
  int num_gpus = 0;      ///< GPUs the run used
  int num_contexts = 0;  ///< contexts over all tenants
  bool met = false;      ///< every tenant met its SLA
  bool operator==(const SizingStep&) const = default;
};

/// GPUs of a pool reserved for named tenants in a sized fleet: one per context (a tensor-parallel
/// group: its GPUs).
struct SizedPool {
  std::string gpu;  ///< GPU catalog id
  int count = 0;    ///< GPUs
  std::vector<std::string> tenants;
  bool operator==(const SizedPool&) const = default;
};

/// The fleet sized for one hour of day (SizingRecord::hourly): the strategy's runs made at that
/// hour of every diurnal load.
struct HourFleet {
  int hour = 0;               ///< 0 .. 23
  int num_gpus = 0;           ///< pools included
  std::vector<int> contexts;  ///< per tenant
  std::vector<SizedPool> pools;
  /// False when no fleet up to the peak's met every SLA at this hour (the peak's fleet is kept).
  bool feasible = true;
  bool operator==(const HourFleet&) const = default;
};

/// A trace tenant's busiest window, at which sizing ran it (scenario/trace_window.hpp).
struct TraceWindow {
  std::string tenant;
  double window_start_s = 0.0;         ///< trace time the sized runs replay from
  std::int64_t arrivals = 0;           ///< rows in the measured span from there
  std::int64_t arrivals_as_given = 0;  ///< ... from the load's own window_start_s
  bool operator==(const TraceWindow&) const = default;
};

/// What sizing for SLA found (scenario/sizing.hpp); kept in StrategyResult::sizing.
struct SizingRecord {
  int num_gpus = 0;           ///< the sized fleet's GPUs (the closest run's when not feasible), pools included
  int lower_bound_gpus = 0;   ///< what memory and the per-device context limit allow at least
  int max_gpus = 0;           ///< the most the search could use
  std::vector<int> contexts;  ///< per tenant, the sized number of contexts
  /// Per tenant, one context's load that placement balanced (empty when the strategy's own
  /// placement was used: dedicated, MIG): with num_gpus and contexts, the sized run again.
  std::vector<double> context_load;
  bool feasible = true;           ///< false: no fleet within max_gpus meets every SLA
  std::string shortfall;          ///< when not feasible: what the closest run missed
  std::vector<SizingStep> steps;  ///< every simulation, in order
  /// The pools reserved for named tenants (FleetEntry::tenants), sized beside the shared GPUs;
  /// empty without them (and then not written).
  std::vector<SizedPool> pools;
  /// With diurnal loads: the hours of day every configuration was run at (each diurnal tenant's
  /// busiest), and the one whose run the result is; empty (and not written) without.
  std::vector<double> peak_hours;
  double result_hour = 0.0;
  /// With trace loads longer than the run: each trace tenant's busiest window, which every
  /// configuration was run at; empty (and not written) without.
  std::vector<TraceWindow> trace_windows;
  /// With diurnal loads, once sized for every hour (`simulate`, the advisor's answer): the fleet
  /// each hour of day needs, 24 entries from 00:00, for an autoscaled fleet; empty (and not
  /// written) otherwise.
  std::vector<HourFleet> hourly;
  /// How the sized fleet's contexts were placed: "balanced" (by load), "spread" or "pack"; "" for
  /// a strategy whose contexts own their devices (and then not written).
  std::string placement;
  /// True when num_gpus is the lower bound (no fleet can be smaller); false when it is the fewest
  /// found: one GPU fewer missed under every placement tried.
  bool minimal = false;
  bool operator==(const SizingRecord&) const = default;
};

/// One used GPU's power and energy over the run (scenario/energy.hpp).
struct GpuEnergy {
  int gpu_index = 0;            ///< as DeviceResult::gpu_index
  std::string gpu;              ///< GPU id
  double util_frac = 0.0;       ///< SM utilisation of the whole GPU: its devices' by their share of its SMs
  double idle_w = 0.0;          ///< power at rest (catalog)
  double max_w = 0.0;           ///< power at full utilisation: the catalog's TDP
  bool idle_estimated = false;  ///< idle_w estimated from the catalog's measured GPUs, not measured
  double mean_power_w = 0.0;    ///< idle_w + (max_w − idle_w) × util_frac
  double kwh = 0.0;             ///< mean_power_w × the run's hours / 1000
  bool operator==(const GpuEnergy&) const = default;
};

/// A strategy's GPU energy (docs/energy.md): the GPUs it used, each on its linear power curve at
/// its mean SM utilisation. GPUs of the fleet it left without work are not counted (the bill does
/// not count them either): unused_gpus and unused_idle_w say what they would add left powered.
struct EnergyRecord {
  double hours = 0.0;              ///< the run's horizon, h
  double gpu_kwh = 0.0;            ///< Σ per_gpu kwh
  double mean_power_w = 0.0;       ///< Σ per_gpu mean_power_w: the used GPUs together
  double monthly_kwh = 0.0;        ///< mean_power_w × 730 h / 1000
  int unused_gpus = 0;             ///< GPUs of the strategy's fleet with no device
  double unused_idle_w = 0.0;      ///< their idle power together, not in the figures above
  std::vector<GpuEnergy> per_gpu;  ///< by gpu_index
  bool operator==(const EnergyRecord&) const = default;
};

/// One fault or re-partition of the run, and what it took down.
struct FaultEvent {
  double at_s = 0.0;
  std::string kind;        ///< gpu_failure | driver_reset | tenant_crash | mps_server_fault | repartition
  int gpu_index = 0;       ///< the GPU it struck (a tenant crash: its context's GPU)
  std::string origin;      ///< tenant_crash: "tenant#k" that crashed; repartition: "day -> night"; else ""
  bool scheduled = false;  ///< from the scenario's schedule (or the layout schedule), not drawn
  std::vector<std::string> contexts_hit;  ///< "tenant#k" taken down
  int tenants_hit = 0;                    ///< distinct tenants among contexts_hit
  double outage_s = 0.0;                  ///< until what it took down serves again
  bool operator==(const FaultEvent&) const = default;
};

/// One kind of fault as expected from its rate over the strategy's placement (no drawing).
struct FaultExposure {
  std::string kind;
  double per_month = 0.0;     ///< expected faults per month (730 h) over the GPUs or contexts exposed
  double tenants_hit = 0.0;   ///< blast radius: expected tenants hit per fault
  double contexts_hit = 0.0;  ///< expected contexts taken down per fault
  double outage_s = 0.0;      ///< how long what it hits is down
  bool operator==(const FaultExposure&) const = default;
};

/// One tenant's expected interruptions and outage per month, from the rates and the placement.
struct TenantExposure {
  std::string name;
  double interruptions_per_month = 0.0;  ///< faults per month that take down one of its contexts
  double outage_hours_per_month = 0.0;   ///< expected hours per month with none of its contexts up
  double availability = 1.0;             ///< 1 − outage / 730 h
  bool operator==(const TenantExposure&) const = default;
};

/// Faults and re-partitions of a strategy: what happened in the run, and what the rates make
/// expected per month (the run is usually far shorter than a fault's mean time).
struct FaultRecord {
  std::vector<FaultEvent> events;       ///< in time order
  double blast_radius_tenants = 0.0;    ///< mean tenants_hit over the run's faults (re-partitions aside)
  std::vector<FaultExposure> expected;  ///< per fault kind with a rate > 0
  double expected_blast_radius = 0.0;   ///< tenants hit per fault, weighted by the kinds' rates
  std::vector<TenantExposure> tenants;  ///< in tenant order
  int num_repartitions = 0;             ///< GPU re-partitions in the run
  bool operator==(const FaultRecord&) const = default;
};

struct StrategyResult {
  std::string name;
  std::string kind;
  int num_gpus_used = 0;            ///< physical GPUs with at least one context
  double fleet_busy_frac = 0.0;     ///< mean busy_frac over used GPUs
  double fleet_sm_util_frac = 0.0;  ///< mean SM utilisation over used GPUs
  std::vector<std::string> issues;  ///< unplaceable contexts, OOM risks, isolation conflicts
  std::vector<TenantResult> tenants;
  std::vector<DeviceResult> devices;
  TimeSeries series;
  double simulated_s = 0.0;     ///< simulated time at the end of the run
  std::int64_t num_events = 0;  ///< device wake-ups processed
  /// Set when the strategy was sized for SLA; absent when its fleet is as given.
  std::optional<SizingRecord> sizing;
  /// Absent from results written before energy was modelled, and when a GPU of the fleet has no
  /// TDP in the catalog (scenario/energy.hpp).
  std::optional<EnergyRecord> energy;
  /// Present when the scenario has faults or the strategy a layout schedule.
  std::optional<FaultRecord> faults;
  bool operator==(const StrategyResult&) const = default;
};

/// The calibration profile a result was simulated with (docs/calibration.md).
struct CalibrationRecord {
  std::string profile_id;
  double fit_mape = 0.0;               ///< worst in-sample MAPE of its fitted constants
  std::vector<std::string> constants;  ///< "time_slicing_efficiency (*) = 0.978 ± 0.149, fitted" per constant
  std::vector<std::string> sources;    ///< data sources of the fitted constants
  bool operator==(const CalibrationRecord&) const = default;
};

/// A strategy's figures over samples of the fitted constants (`simulate --uncertainty N`).
struct UncertaintyBand {
  std::string strategy;
  int num_samples = 0;
  double monthly_savings_p05_usd = 0.0;
  double monthly_savings_p50_usd = 0.0;
  double monthly_savings_p95_usd = 0.0;
  double sla_violation_p05_frac = 0.0;  ///< violations / arrivals over all tenants
  double sla_violation_p50_frac = 0.0;
  double sla_violation_p95_frac = 0.0;
  /// The GPUs of the strategy's fleet per sample: re-sized per sample when sized for SLA, else
  /// the same every time.
  double num_gpus_p05 = 0.0;
  double num_gpus_p50 = 0.0;
  double num_gpus_p95 = 0.0;
  /// Share of samples in which the nominal fleet (the one the result recommends, sized with the
  /// calibrated constants) met every SLA.
  double fleet_meets_sla_frac = 0.0;
  bool operator==(const UncertaintyBand&) const = default;
};

struct SimResult {
  int schema_version = 1;
  std::string scenario;
  Scenario input;  ///< the scenario simulated, so that a result can be re-priced on its own
  std::uint64_t seed = 0;
  double horizon_s = 0.0;
  std::vector<StrategyResult> strategies;
  CalibrationRecord calibration;
  std::vector<UncertaintyBand> uncertainty;  ///< empty unless sampled
  /// Where its first strategy comes from when it is not the scenario's as given: `slicewise advise`
  /// writes what it searched ("advise: the cheapest of 396 configurations ..."); "" (and not
  /// written) for `simulate`'s comparison of the strategies as given.
  std::string origin;
  bool operator==(const SimResult&) const = default;
};

}  // namespace slicewise::scenario
