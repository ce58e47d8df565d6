// Sizing for SLA (docs/advisor.md): the search that finds, by simulation, the fewest contexts per
// tenant and the fewest GPUs with which every tenant of one strategy meets its SLA. Pure: it asks
// for runs (SizedRun) and is told their results; the caller simulates them, one process each, all
// with the scenario's seed so that two candidates differ by their configuration, not by noise.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/mig_catalog.hpp"
#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

/// "1 GPU", "3 GPUs".
std::string gpus_text(int num_gpus);

/// What one tenant's run did against its SLA, at the quantile its SLA allows (p95 when 5 % may
/// violate): the figure the shortfall messages and the advisor's margin speak of.
struct SlaMargin {
  std::string metric;    ///< "latency", "TTFT" or "TPOT"
  double level = 0.95;   ///< 1 - the allowed violation fraction
  double value_s = 0.0;  ///< the metric at that quantile
  double target_s = 0.0;
  /// (target - value) / target: > 0 with room to spare, < 0 when missed; -1 when nothing completed
  double relative = 0.0;
};

/// The margin of `result` (a tenant's figures) against `tenant`'s tightest target.
SlaMargin sla_margin(const Tenant& tenant, const TenantResult& result);

/// The tenant of a strategy's run nearest to (or furthest past) its SLA, and its relative margin
/// (-1 for a tenant with unplaced contexts): the advisor's risk axis. Empty name and 2 when the run
/// has no tenant of the scenario.
struct WorstTenant {
  std::string name;
  double margin = 2.0;
};
WorstTenant worst_tenant(const Scenario& scenario, const StrategyResult& result);

/// sla_shortfall of the tenant that misses worst (unplaced contexts first, then the least margin);
/// "" when every tenant met its SLA with every context placed.
std::string worst_shortfall(const Scenario& scenario, const StrategyResult& result);

/// "job-03: p95 latency 0.642 s against its 0.6 s target (misses by 42 ms; 7.9 % of requests over,
/// 5 % allowed)"; for a tenant with unplaced contexts, why they are unplaced.
std::string sla_shortfall(const Tenant& tenant, const TenantResult& result);

/// True when every tenant met its SLA, every context was placed and no device risks running out of
/// memory: what "meets every SLA" means for sizing and for the advisor.
bool meets_every_sla(const StrategyResult& result);

/// One simulation the search asks for: a fleet of `num_gpus` GPUs of the type the scenario's
/// strategies share, its reserved pools, and each tenant's number of contexts.
struct SizedRun {
  int num_gpus = 0;  ///< shared GPUs
  /// Place the contexts over all `num_gpus`, each on the device with the least load so far (by
  /// `context_load`), instead of the strategy's pack/spread: strategies whose devices are shared.
  bool balance = false;
  std::vector<int> contexts;         ///< per tenant (scenario order)
  std::vector<double> context_load;  ///< per tenant: one context's GPU demand; empty = all equal
  std::vector<SizedPool> pools;      ///< the reserved pools' GPUs (after the shared ones)
  /// The hour of day the run starts at, for every diurnal load (its start_hour); unset = the
  /// scenario's own.
  std::optional<double> start_hour;
  /// Without `balance`: the placement to use instead of the strategy's own (pack or spread).
  std::optional<PlacementPolicy> placement;
  /// Trace tenants' window_start_s to replay from instead of the scenario's (their busiest
  /// window), by tenant name.
  std::map<std::string, double> window_start_s;
  bool operator==(const SizedRun&) const = default;
};

/// The sized configuration of a record, to run again (under other constants, for example): at
/// the peak hour its result was run at, where it was sized over several.
SizedRun sized_run_of(const SizingRecord& record);

/// The hours of day (0 .. 23) at which a diurnal tenant's profile peaks, one per distinct hour,
/// in order (the first of equal maxima); empty without diurnal loads.
std::vector<double> peak_hours(const Scenario& scenario);

/// The most MIG instances, and memory in them, that one GPU of the strategy has: a layout
/// schedule's first phase's layout; of layouts the GPUs take in turn, the most of any (so that a
/// lower bound stays one).
std::pair<int, double> most_mig_per_gpu(const models::MigGpu& geometry, const StrategySpec& spec);

/// The hours of day grouped by their diurnal loads: hours at which every diurnal tenant's profile
/// has the same value share one group (one sizing serves them all), groups in order of their first
/// hour; empty without diurnal loads.
std::vector<std::vector<int>> hour_groups(const Scenario& scenario);

/// The search for one strategy (StrategySpec::sizing == sla, or any strategy the advisor sizes).
///
/// 1. Contexts: every context runs alone on a device (a GPU; under MIG its own instance), so
///    tenants do not meet and each is sized on its own: a tenant that misses its SLA gets more
///    contexts (doubling, then bisecting), all tenants in the same runs. A tenant needs more than
///    one context when its load exceeds what one device serves.
/// 2. GPUs, for strategies whose devices are shared: with those contexts, the fewest GPUs, from a
///    lower bound (memory, contexts per device) up (start, +1, +3, +7, ...) then bisecting, the
///    contexts placed by the load each carried in step 1. Dedicated and MIG need no step 2: each
///    context owns its device, so the contexts decide the GPUs.
///
/// Tenants of a pool reserved for them (FleetEntry::tenants) run alone on its GPUs: a pool has one
/// GPU per context (a tensor-parallel group: its GPUs) in every run; step 2 sizes the shared GPUs.
///
/// The whole day: with diurnal loads, every configuration is run once per peak hour (each diurnal
/// tenant's busiest hour of its profile, all loads at that hour of day) and meets every SLA only
/// when it does at each; the run that decides (the one that missed, or the least margin) is the
/// one the search goes on with, and the record says which hours were sized.
///
/// Placements: step 2 balances contexts by load. Once it has its answer n, the same contexts are
/// tried on n - 1 GPUs spread round robin and packed first-fit (by memory), which pair tenants
/// otherwise; while one passes, one GPU fewer. The record says which placement the answer has and
/// whether it is minimal: the lower bound (memory, contexts per device), or only the fewest found.
///
/// Stopping rule: the answer n passes and n - 1 fails under every placement tried (or n is the
/// lower bound) in runs with the same seed. The search assumes that more contexts or GPUs never
/// hurt; with one seed that holds for every scenario tried, but it is not proven.
class SizingSearch {
 public:
  /// `max_gpus`: the most GPUs the sized fleet may have, pools included. The scenario must have
  /// passed validate_scenario; the GPUs its strategies share must be of one type.
  /// `hours`: the hours of day to size at instead of the diurnal loads' peaks (one hour of an
  /// autoscaled fleet); empty = the peaks.
  SizingSearch(const Scenario& scenario, std::size_t strategy, int max_gpus, const Catalogs& catalogs,
               std::vector<double> hours = {});

  /// The run the search needs next; nullopt once done().
  std::optional<SizedRun> next() const;
  /// The result of the run next() gave.
  void feed(const StrategyResult& result);
  bool done() const { return phase_ == Phase::done; }

  const SizingRecord& record() const { return record_; }
  /// The sized configuration's run (the closest one when not feasible); valid once done().
  const StrategyResult& result() const { return *final_; }

 private:
  /// The smallest passing value of a monotone test, found by galloping up from a start and
  /// bisecting back.
  struct Bracket {
    int fail = 0;            ///< the largest value known to fail
    int pass = 0;            ///< the smallest value known to pass; 0 = none yet
    int max = 0;             ///< the largest value allowed
    int probe = 0;           ///< the value to test next
    int step = 1;            ///< the next gallop's stride
    bool first = true;       ///< probe is the start
    bool exhausted = false;  ///< max failed
    void feed(bool met);
    bool done() const { return exhausted || (pass > 0 && pass - fail <= 1); }
  };

  enum class Phase { contexts, gpus, placements, done };

  /// The run of the current probe, before its peak hour is set.
  std::optional<SizedRun> probe_run() const;
  /// Of the current probe's runs, one per peak hour, the one that decides: the first that missed
  /// every SLA, else the one with the least margin.
  const StrategyResult& deciding_run() const;
  void feed_probe(const StrategyResult& result);
  /// After step 2: try the other placements on one GPU fewer (Phase::placements), or finish.
  void try_other_placements();
  void feed_placement(const StrategyResult& result, bool met);
  void feed_contexts(const StrategyResult& result);
  /// Step 1 for tenant `t`, run with `contexts` contexts; true when its outcome ends the search.
  bool feed_tenant_contexts(const StrategyResult& result, std::size_t t, int contexts);
  void start_gpus(const StrategyResult& isolated);
  void finish(const StrategyResult& result, bool feasible, const std::string& shortfall);
  int total(const std::vector<int>& contexts) const;
  /// Step 1's contexts per tenant: the answer where a tenant has one, else its next probe.
  std::vector<int> current_contexts() const;
  /// What `result`, a run that failed, missed: the worst tenant's shortfall, else its OOM issue.
  std::string shortfall_of(const StrategyResult& result) const;
  SizedRun contexts_run(const std::vector<int>& contexts) const;
  SizedRun gpus_run(int num_gpus) const;
  /// Which tenants run in reserved pools, and the pools' GPUs (pooled_, pools_).
  void read_pools(const Catalogs& catalogs);
  /// The reserved pools' GPUs for `contexts`: one per context, a tensor-parallel group its GPUs.
  std::vector<SizedPool> pools_for(const std::vector<int>& contexts) const;
  /// The whole GPUs that tensor-parallel groups of shared tenants take, for `contexts`.
  int group_gpus(const std::vector<int>& contexts) const;
  int pool_gpus(const std::vector<int>& contexts) const;
  /// The GPUs that memory and the per-device context limit require at least.
  int lower_bound(const std::vector<int>& contexts) const;

  const Scenario& scenario_;
  std::size_t strategy_;
  bool shared_devices_ = false;  ///< contexts of different tenants may share a device
  bool partitions_ = false;      ///< devices are MIG instances
  int instances_per_gpu_ = 1;
  double instance_memory_gib_ = 0.0;  ///< per GPU: whole memory or the layout's instances' sum
  std::string gpu_id_;                ///< the GPU type the strategy shares
  std::vector<bool> pooled_;          ///< per tenant: runs in a reserved pool
  std::vector<SizedPool> pools_;      ///< the fleet's reserved entries (GPU, tenants), count 0
  int per_device_limit_ = 0;          ///< contexts per device (0 = no limit)
  Phase phase_ = Phase::contexts;
  std::vector<Bracket> tenants_;  ///< step 1, per tenant
  /// Step 1, per tenant: throughput and margin of its last run that missed.
  std::vector<std::optional<std::pair<double, double>>> last_miss_;
  Bracket gpus_;                                ///< step 2
  std::vector<int> contexts_;                   ///< step 2's contexts
  std::vector<double> loads_;                   ///< step 2's per-context loads
  std::optional<StrategyResult> isolated_;      ///< step 1's run at the sized contexts
  std::optional<StrategyResult> best_passing_;  ///< step 2's passing run with the fewest GPUs
  std::optional<StrategyResult> best_failing_;  ///< step 2's failing run with the most GPUs, for the shortfall
  std::optional<StrategyResult> final_;
  SizingRecord record_;
  std::vector<double> peak_hours_;                 ///< the diurnal tenants' busiest hours; empty without diurnal load
  std::vector<PlacementPolicy> other_placements_;  ///< what the placements phase tries, in order
  std::size_t placement_ = 0;                      ///< the one it tries next
  int placement_gpus_ = 0;                         ///< on this many GPUs
  int shared_lower_ = 1;                           ///< step 2's lower bound (shared GPUs)
  int answer_gpus_ = 0;                            ///< step 2's answer (shared GPUs) so far
  std::vector<StrategyResult> at_hour_;            ///< the current probe's runs so far, one per peak hour
};

}  // namespace slicewise::scenario
