// Scenario format v1: the input of every simulation. Plain aggregates with in-class defaults;
// loading and validation live in scenario/json_io.hpp and scenario/validate.hpp.
// docs/scenario-format.md documents every field, unit and default.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/strategy_kind.hpp"
#include "pricing/price_table.hpp"
#include "traces/trace_format.hpp"

namespace slicewise::scenario {

/// GPUs available to the strategies. Give either `gpu` (a GPU catalog id; `count` GPUs) or
/// `instance_type` (a priced instance; `count` instances, each with the table's GPU and GPU count).
/// `count` is the most the strategies may use; each strategy places contexts on as few (pack) or
/// as many (spread) of them as its placement policy says.
///
/// A fleet may mix GPU types. An entry with `tenants` is a pool reserved for them: each of their
/// contexts runs there alone on whole GPUs (a tensor-parallel group on several), unshared, as under
/// dedicated, whatever the strategy; those tenants run nowhere else, and no other tenant runs there.
/// The strategy shares (or partitions) only the entries without `tenants`.
struct FleetEntry {
  std::string gpu;                   ///< GPU catalog id; filled from the price table when instance_type is set
  std::string instance_type;         ///< empty when the fleet is given by GPU
  int count = 1;                     ///< GPUs (by gpu) or instances (by instance_type), >= 1
  std::vector<std::string> tenants;  ///< a pool reserved for these tenants; empty = shared by the strategy
  bool operator==(const FleetEntry&) const = default;
};

enum class WorkloadKind { generic, llm };

/// Distribution of a generic request's solo time around solo_latency_s (its mean).
enum class ServiceDistribution { fixed, exponential };

/// What an LLM tenant serves (docs/scenario-format.md, "LLM tenants"): a model of the catalog
/// (data/models.json) in a weight format; the roofline of each engine step follows from its shapes.
struct LlmSpec {
  std::string model;           ///< catalog id or alias ("Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct")
  std::string dtype = "bf16";  ///< weights: fp32 | fp16 | bf16 | fp8 | int8 | int4
  double prompt_tokens = 0.0;  ///< mean prompt length for generated load (traces carry their own)
  double output_tokens = 0.0;  ///< mean output length for generated load
  /// A result written before LLM tenants named a model: the parameters it gave instead (model
  /// then empty, no engine; its hand-typed figures are the workload's). Never in a scenario file.
  std::optional<double> legacy_params_b;
  bool operator==(const LlmSpec&) const = default;
};

/// The serving engines slicewise schedules as they do (docs/model.md, "LLM serving").
enum class ServingEngine { vllm, sglang, tgi };

/// An LLM tenant's engine and its settings, under each engine's own names. A setting left out
/// takes the engine's documented default on the device the context is placed on
/// (scenario/llm_serving.hpp says which and why).
struct EngineSpec {
  ServingEngine name = ServingEngine::vllm;
  // vllm, sglang (SGLang: max_running_requests, chunked_prefill_size, mem_fraction_static, context_length)
  std::optional<int> max_num_seqs;               ///< sequences batched at once, >= 1
  std::optional<int> max_num_batched_tokens;     ///< tokens one step batches (chunked prefill budget), >= 16
  std::optional<double> gpu_memory_utilization;  ///< share of the device's memory the engine takes, (0, 1]
  std::optional<int> max_model_len;              ///< longest request (prompt + output), >= 16
  // tgi
  std::optional<int> max_batch_prefill_tokens;  ///< prompt tokens one prefill step batches
  std::optional<int> max_total_tokens;          ///< longest request (prompt + output)
  std::optional<int> max_input_length;          ///< longest prompt
  std::optional<double> cuda_memory_fraction;   ///< share of the device's memory the server takes, (0, 1]
  std::optional<int> max_concurrent_requests;   ///< requests in the server at once; more are refused
  // every engine
  std::string kv_cache_dtype = "auto";  ///< auto (the weights' 16-bit type) | bf16 | fp16 | fp8
  /// Reuse of cached prompt prefixes (vLLM enable_prefix_caching, SGLang's radix cache, TGI's
  /// PREFIX_CACHING); absent: the engine's default (on for vllm and sglang, off for tgi 2.x).
  std::optional<bool> prefix_caching;
  int tensor_parallel = 1;  ///< GPUs one context spans: 1, 2, 4 or 8 whole GPUs of one node
  bool operator==(const EngineSpec&) const = default;
};

/// How one request of a tenant uses a GPU, measured on `reference_gpu` (docs/design.md §3).
struct Workload {
  WorkloadKind kind = WorkloadKind::generic;
  std::optional<double> solo_latency_s;  ///< one request alone at concurrency 1; required for generic
  std::string reference_gpu;             ///< GPU id the figures were measured on; "" = the fleet's GPU
  double gpu_duty_frac = 1.0;            ///< fraction of a request's time the GPU is busy, (0, 1]
  double sm_occupancy_frac = 1.0;        ///< fraction of SMs kept busy while running, (0, 1]
  double mem_bw_frac = 0.0;              ///< fraction of HBM bandwidth used while running, [0, 1]
  /// Duration of one of its kernels on reference_gpu, ms (MPS: clients whose kernels want the same
  /// SMs take turns kernel by kernel); unset = the model's default (docs/model.md §2).
  std::optional<double> kernel_ms;
  double memory_gib = 0.0;     ///< device memory one context holds (weights + KV/activations), > 0
  int max_concurrency = 1;     ///< requests served at once inside one context (batching), >= 1
  std::optional<LlmSpec> llm;  ///< required when kind == llm, absent otherwise
  /// kind llm: the serving engine (defaults when the scenario gives none); absent otherwise. An
  /// LLM tenant's memory, concurrency and demands follow from its model and engine: its
  /// memory_gib is then derived (scenario/llm_serving.hpp, engine_min_memory_gib), not read.
  std::optional<EngineSpec> engine;
  ServiceDistribution service_dist = ServiceDistribution::fixed;  ///< generic: fixed or exponential solo times
  /// Where these figures come from, free text ("" = given by hand); `profile import` writes the
  /// telemetry file, format, samples and each figure's spread here, and the report shows it.
  std::string source;
  bool operator==(const Workload&) const = default;
};

enum class LoadKind { poisson, closed_loop, trace, diurnal, mmpp };

using traces::BadRowPolicy;

/// One state of an MMPP load (traces/generators.hpp).
struct MmppStateSpec {
  double rate_per_s = 0.0;       ///< arrivals per second in this state, >= 0
  double mean_duration_s = 0.0;  ///< mean (exponential) time in this state, > 0
  bool operator==(const MmppStateSpec&) const = default;
};

/// Where a tenant's requests come from. docs/trace-formats.md explains the trace mapping.
struct LoadSpec {
  LoadKind kind = LoadKind::poisson;
  double rate_per_s = 0.0;                ///< poisson: mean arrivals per second; diurnal: daily mean; > 0
  int num_users = 0;                      ///< closed_loop: concurrent users, >= 1
  double think_time_s = 0.0;              ///< closed_loop: mean think time between a reply and the next request
  std::string trace_file;                 ///< trace: path, relative to the scenario file's folder
  std::string trace_format;               ///< trace: reader name (azure-llm, mooncake, native, ...); "" = detect
  std::string split_column;               ///< trace: column whose value picks this tenant's rows ("" = every row)
  std::vector<std::string> split_values;  ///< trace: the values of split_column this tenant takes
  double window_start_s = 0.0;            ///< trace: replay from this trace time (first row = 0), >= 0
  std::optional<double> window_end_s;     ///< trace: ... up to this trace time (> window_start_s)
  double time_compression = 1.0;          ///< trace: > 0; 2 replays the trace twice as fast
  double sample_frac = 1.0;               ///< trace: keep each row with this probability, (0, 1]
  bool spread_ties = false;               ///< trace: rows sharing one time spread evenly up to the next time
  /// trace, generic workloads only: a row's GPU share g (gpu_frac > 0) sets the request's SM demand
  /// to g of the reference GPU (bandwidth scaled by the same ratio) instead of sm_occupancy_frac
  bool gpu_frac_demand = false;
  BadRowPolicy on_bad_row = BadRowPolicy::fail;  ///< trace: fail on the first bad row, or skip (counted)
  std::vector<double> hourly_profile;            ///< diurnal: 24 relative rates, hour 0 first (>= 0, mean > 0)
  double start_hour = 0.0;                       ///< diurnal: hour of day at simulated time 0, [0, 24)
  std::vector<MmppStateSpec> states;             ///< mmpp: at least two states
  double multiplier = 1.0;                       ///< scales the arrival rate (> 0)
  bool operator==(const LoadSpec&) const = default;
};

/// Where a tenant runs, which shapes how much SLA slack it gets (docs/design.md).
enum class Environment { development, batch, internal, customer_facing };

/// Per-request latency targets; a request violates the SLA when any given target is exceeded.
struct SlaTargets {
  std::optional<double> latency_s;  ///< end-to-end latency target per request
  std::optional<double> ttft_s;     ///< LLM time to first token target
  std::optional<double> tpot_s;     ///< LLM time per output token target
  Environment environment = Environment::internal;
  /// Allowed fraction of violating requests; default from the environment: development 0.2,
  /// batch 0.05, internal 0.05, customer_facing 0.01.
  std::optional<double> max_violation_frac;
  bool operator==(const SlaTargets&) const = default;
};

enum class RouterPolicy { round_robin, least_loaded };

/// What a tenant's service does when its load outruns its contexts (docs/overload.md): a server
/// queue that refuses arrivals once full, and clients that give up on a request not done in time.
/// Absent values take the defaults below; 0 means none (Triton's convention for both).
struct OverloadSpec {
  std::optional<int> queue_limit;   ///< requests waiting per context (beyond those in service), >= 0
  std::optional<double> timeout_s;  ///< the client's timeout from arrival, >= 0
  bool operator==(const OverloadSpec&) const = default;
};

/// Requests one context holds waiting by default: Slurm's MaxJobCount (10,000 jobs), the one
/// scheduler among those we model that bounds its queue by default (vLLM, Triton and Ray Serve
/// do not; TorchServe holds 100).
inline constexpr int kDefaultQueueLimit = 10000;
/// A client's timeout by default: the OpenAI and Anthropic Python clients' 600 s. Batch jobs wait
/// for their turn however long: none.
inline constexpr double kDefaultTimeoutS = 600.0;

/// How urgently a tenant's work runs next to others' (Orion/REEF-style co-location of a
/// latency-critical tenant with a best-effort one). Strategies that schedule by priority: the
/// time-sliced ones (a higher class preempts at the next quantum boundary) and MPS (a low-priority
/// client runs under low_priority_thread_pct).
enum class Priority { high, normal, low };

/// One service or job stream.
struct Tenant {
  std::string name;  ///< unique, non-empty
  Workload workload;
  LoadSpec load;
  SlaTargets sla;
  models::IsolationLevel isolation = models::IsolationLevel::none;  ///< what the tenant requires
  int num_contexts = 1;                                             ///< server processes / pods, >= 1
  RouterPolicy router = RouterPolicy::round_robin;
  Priority priority = Priority::normal;
  /// Whether its latency puts revenue at risk (the business view): unset, every tenant but batch and
  /// development ones (revenue_bearing()).
  std::optional<bool> revenue_bearing;
  OverloadSpec overload;
  bool operator==(const Tenant&) const = default;
};

/// The tenant's queue limit per context; 0 = none.
inline int queue_limit(const Tenant& t) { return t.overload.queue_limit.value_or(kDefaultQueueLimit); }

/// The tenant's client timeout in seconds; 0 = none (the default of a batch tenant).
inline double timeout_s(const Tenant& t) {
  return t.overload.timeout_s.value_or(t.sla.environment == Environment::batch ? 0.0 : kDefaultTimeoutS);
}

/// True when the tenant's latency counts in the revenue at risk: as set, else all but batch and
/// development tenants (a nightly fine-tune's slower run loses no customer).
inline bool revenue_bearing(const Tenant& t) {
  return t.revenue_bearing.value_or(t.sla.environment != Environment::batch &&
                                    t.sla.environment != Environment::development);
}

/// Per-tenant settings inside one strategy.
struct TenantStrategySettings {
  std::string mig_profile;                  ///< mig / mig_time_slicing: profile the tenant's contexts get
  std::optional<double> active_thread_pct;  ///< mps: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, (0, 100]
  std::optional<double> gpucores_pct;       ///< hami: core cap, (0, 100]
  std::optional<double> gpumem_gib;         ///< hami: memory limit, > 0
  std::optional<double> weight;             ///< time_slicing / vgpu fixed_share: relative share, > 0
  bool operator==(const TenantStrategySettings&) const = default;
};

/// Extra CPU instances a strategy needs and pays for (the seed's 2 × t3.large).
struct Sidecar {
  std::string instance_type;
  int count = 1;
  bool operator==(const Sidecar&) const = default;
};

enum class PlacementPolicy { pack, spread };

/// How a strategy's fleet is sized: as the fleet and tenants say, or by simulation to the fewest
/// GPUs (and contexts) for which every tenant meets its SLA (docs/advisor.md).
enum class Sizing { as_given, sla };
enum class VgpuScheduler { best_effort, equal_share, fixed_share };

/// Who runs a GPU's MPS control daemon: NVIDIA's device plugin, which splits each GPU's memory and
/// threads equally among the replicas it advertises, or one of your own (no split; export-config
/// cannot deploy it).
enum class MpsDaemon { device_plugin, own };

/// What one tenant gets in one phase of a MIG layout schedule.
struct PhaseTenant {
  std::string mig_profile;  ///< the profile its contexts get in this phase (required)
  int num_contexts = 0;     ///< contexts in this phase, >= 1; 0 = the tenant's num_contexts
  bool operator==(const PhaseTenant&) const = default;
};

/// One layout of a MIG schedule, in force from `from_hour` until the next phase's hour.
struct LayoutPhase {
  std::string name;                            ///< label, unique in the schedule ("day", "night")
  double from_hour = 0.0;                      ///< hour of day it starts, [0, 24)
  std::string layout;                          ///< per GPU, as StrategySpec::layout
  std::map<std::string, PhaseTenant> tenants;  ///< tenants served in this phase; the others wait
  bool operator==(const LayoutPhase&) const = default;
};

/// MIG re-partitioning over the day (docs/mig-schedule.md): the GPUs switch layout at each phase's
/// hour; a GPU re-partitioning serves nothing for `repartition_s` (drain, destroy and create the
/// instances, restart the pods), and what it held is re-sent to the tenant's other contexts or
/// waits for the new ones.
struct LayoutSchedule {
  double start_hour = 0.0;          ///< hour of day at simulated time 0, [0, 24)
  double repartition_s = 60.0;      ///< one GPU's re-partition, >= 0 (an assumption: docs/mig-schedule.md)
  bool rolling = false;             ///< GPUs re-partition one after another instead of all at once
  std::vector<LayoutPhase> phases;  ///< at least two, by from_hour
  bool operator==(const LayoutSchedule&) const = default;
};

/// One strategy to compare. Constants left unset take the calibration profile's values.
struct StrategySpec {
  std::string name;  ///< unique label; defaults to the kind's name
  models::StrategyKind kind = models::StrategyKind::dedicated;
  PlacementPolicy placement = PlacementPolicy::pack;
  /// sla: the fleet's count is the most GPUs the search may use, tenants' num_contexts the fewest
  /// contexts; placement is then by load over the sized GPUs.
  Sizing sizing = Sizing::as_given;
  // time_slicing, mig_time_slicing, hami, vgpu
  int replicas = 0;                      ///< contexts per device (device-plugin replicas); 0 = no limit
  std::optional<double> quantum_ms;      ///< time slice
  std::optional<double> switch_cost_ms;  ///< context-switch cost per slice
  bool exact = false;                    ///< exact quantum events instead of the fluid model
  // mps
  std::optional<double> active_thread_pct;  ///< default for every context, (0, 100]
  std::optional<double> pinned_memory_limit_gib;
  std::optional<double> low_priority_thread_pct;    ///< thread cap of low-priority clients, (0, 100]; default 50
  MpsDaemon mps_daemon = MpsDaemon::device_plugin;  ///< the device plugin's split by replicas, or your own daemon
  // mig, mig_time_slicing
  std::string layout;  ///< e.g. "3g.40gb+2g.20gb+1g.10gb+1g.10gb", per GPU
  /// Layouts per GPU instead of one `layout` (then empty): the shared GPUs take them in turn,
  /// GPU i the (i mod n)-th; at least two.
  std::vector<std::string> layouts;
  /// Layouts by time of day instead of one `layout` (then empty).
  std::optional<LayoutSchedule> layout_schedule;
  // hami
  std::optional<double> gpucores_pct;  ///< default core cap per context
  std::optional<double> gpumem_gib;    ///< default memory limit per context
  // vgpu
  VgpuScheduler vgpu_scheduler = VgpuScheduler::best_effort;
  std::optional<double> timeslice_ms;                     ///< vGPU time slice; default 2 ms up to 8 vGPUs, 1 ms above
  std::map<std::string, TenantStrategySettings> tenants;  ///< per-tenant overrides, by tenant name
  std::vector<Sidecar> sidecars;
  bool operator==(const StrategySpec&) const = default;
};

/// Which prices to use.
struct PricingSpec {
  std::string table = "aws";  ///< a shipped table name (aws, gcp, azure) or a path to a table file
  std::string region;         ///< "" = the table's first region that lists the instance
  pricing::PurchaseOption option = pricing::PurchaseOption::on_demand;
  /// Business view (docs/design.md): monthly revenue exposed to latency; 0 = not evaluated.
  double monthly_revenue_usd = 0.0;
  /// Share of users lost per 100 ms of added p95 latency (the seed's default 1 %).
  double abandonment_per_100ms_frac = 0.01;
  bool operator==(const PricingSpec&) const = default;
};

/// The faults a run injects (docs/faults.md).
enum class FaultKind {
  gpu_failure,       ///< the GPU fails: everything on it stops until it is repaired or replaced
  driver_reset,      ///< a GPU reset (uncontained error): every context on the GPU restarts
  tenant_crash,      ///< one context's fatal error (illegal address, out of memory)
  mps_server_fault,  ///< the MPS control daemon or server dies: every client on the GPU (MPS only)
};

/// A fault at a given time: a test's exact answer, or a drill.
struct ScheduledFault {
  double at_s = 0.0;  ///< simulated time, [0, horizon)
  FaultKind kind = FaultKind::gpu_failure;
  int gpu = 0;         ///< gpu_failure, driver_reset, mps_server_fault: index in the strategy's fleet
  std::string tenant;  ///< tenant_crash: the tenant whose context fails
  int replica = 0;     ///< tenant_crash: which of its contexts (0 .. num_contexts − 1)
  bool operator==(const ScheduledFault&) const = default;
};

/// Fault rates and recovery times. Rates are per hour of exposure: a GPU in use (gpu_failure,
/// driver_reset, mps_server_fault on MPS GPUs) or a context (tenant_crash). What a fault takes down
/// follows what the strategy isolates (docs/faults.md).
struct FaultSpec {
  /// Per GPU-hour; default: the GPU failures of Meta's Llama 3 run (models/fault_rates.hpp).
  std::optional<double> gpu_failure_per_gpu_hour;
  double driver_reset_per_gpu_hour = 0.0;      ///< no public per-GPU figure: your own, from Xid logs
  double tenant_crash_per_context_hour = 0.0;  ///< likewise
  double mps_server_fault_per_gpu_hour = 0.0;  ///< likewise; MPS strategies only
  double gpu_repair_s = 3600.0;                ///< a failed GPU is back (repaired, or its work moved) after this
  double driver_reset_s = 60.0;                ///< a reset GPU is back after this; its contexts then restart
  double context_restart_s = 30.0;             ///< a context that died serves again after this (process and model load)
  /// Time-sliced sharing (time_slicing, hami; mig_time_slicing inside one instance): the chance that
  /// a co-tenant's context dies with the one that crashed. 1 = no fault isolation, as NVIDIA's
  /// device plugin documents for time-slicing replicas.
  double co_tenant_kill_frac = 1.0;
  int max_retries = 1;  ///< a request lost to a fault is re-sent up to this many times; 0 = it fails
  bool random = true;   ///< draw faults from the rates during the run; false = the schedule only
  std::vector<ScheduledFault> schedule;
  bool operator==(const FaultSpec&) const = default;
};

struct Scenario {
  int schema_version = 1;
  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  double horizon_s = 3600.0;             ///< simulated time, > 0
  double warmup_s = 0.0;                 ///< requests arriving before this are not measured, [0, horizon)
  double metrics_interval_s = 60.0;      ///< time-series sampling interval, > 0
  std::vector<FleetEntry> fleet;         ///< at least one entry
  std::vector<Tenant> tenants;           ///< at least one tenant
  std::vector<StrategySpec> strategies;  ///< at least one strategy
  PricingSpec pricing;
  std::optional<FaultSpec> faults;    ///< absent = no faults
  std::filesystem::path source_file;  ///< set by the loader (not part of the JSON); "" in memory
  bool operator==(const Scenario&) const = default;
};

/// True when fleet entry `entry` is a pool reserved for named tenants.
inline bool reserved(const FleetEntry& entry) { return !entry.tenants.empty(); }

/// True when `tenant` runs in a reserved pool of the scenario's fleet (and only there).
inline bool in_reserved_pool(const Scenario& scenario, const std::string& tenant) {
  for (const auto& entry : scenario.fleet) {
    for (const auto& name : entry.tenants) {
      if (name == tenant) return true;
    }
  }
  return false;
}

/// The strategy named `name`, or nullptr when the scenario has none.
inline const StrategySpec* find_strategy(const Scenario& scenario, const std::string& name) {
  for (const auto& spec : scenario.strategies) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

/// The tenant named `name`, or nullptr when the scenario has none.
inline const Tenant* find_tenant(const Scenario& scenario, const std::string& name) {
  for (const auto& tenant : scenario.tenants) {
    if (tenant.name == name) return &tenant;
  }
  return nullptr;
}

}  // namespace slicewise::scenario
