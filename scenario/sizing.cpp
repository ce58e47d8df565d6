// Sizing for SLA: the search of sizing.hpp (the margin of a run against the tenants' SLAs is
// sla_margin.cpp's, what the search starts from sizing_inputs.cpp's).
#include "scenario/sizing.hpp"
#include "scenario/llm_serving.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/error.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/trace_window.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario {

namespace {

const char* placement_name(PlacementPolicy p) { return p == PlacementPolicy::spread ? "spread" : "pack"; }

/// Why a tenant with a context that fits no device fails: the run's issue about it, else its SLA shortfall.
std::string unplaced_shortfall(const Tenant& tenant, const TenantResult& tr, const std::vector<std::string>& issues) {
  std::string why = sla_shortfall(tenant, tr);
  for (const auto& issue : issues) {
    if (issue.rfind(tenant.name + "#", 0) == 0) {
      why = issue;
      break;
    }
  }
  return why;
}

}  // namespace

// --- The search ---------------------------------------------------------------------------------

void SizingSearch::Bracket::feed(bool met) {
  const bool was_first = first;
  first = false;
  if (met) {
    pass = probe;
  } else {
    fail = probe;
    if (probe >= max && pass == 0) exhausted = true;
  }
  if (done()) return;
  if (pass == 0) {  // gallop up: start, +1, +3, +7, ...
    probe = std::min(max, fail + step);
    step *= 2;
  } else if (was_first && met) {  // a start that passes is usually tight
    probe = pass - 1;
  } else {
    probe = fail + (pass - fail) / 2;
  }
}

SizingSearch::SizingSearch(const Scenario& scenario, std::size_t strategy, int max_gpus, const Catalogs& catalogs,
                           std::vector<double> hours)
    : scenario_(scenario), strategy_(strategy) {
  SW_CHECK(strategy < scenario.strategies.size() && !scenario.fleet.empty(), "sizing: bad strategy or empty fleet");
  const StrategySpec& spec = scenario.strategies[strategy];
  const StrategyPolicy& policy = policy_of(spec.kind);
  per_device_limit_ = policy.context_limit(spec);
  partitions_ = policy.partitions_gpus();
  read_pools(catalogs);
  peak_hours_ = hours.empty() ? peak_hours(scenario) : std::move(hours);
  record_.peak_hours = peak_hours_;
  record_.trace_windows = busiest_trace_windows(scenario);
  // Only the GPUs the strategy shares are searched; a fleet of pools only has nothing to share.
  shared_devices_ = per_device_limit_ != 1 && std::find(pooled_.begin(), pooled_.end(), false) != pooled_.end();
  const auto shared_entry =
      std::find_if(scenario.fleet.begin(), scenario.fleet.end(), [](const FleetEntry& e) { return !reserved(e); });
  const auto* gpu = catalogs.gpus->find(
      fleet_gpu_id(shared_entry != scenario.fleet.end() ? *shared_entry : scenario.fleet.front(), scenario, catalogs));
  SW_CHECK(gpu != nullptr, "sizing: fleet GPU unknown (validate first)");
  instance_memory_gib_ = gpu->memory_gib;
  gpu_id_ = gpu->id;
  if (partitions_) {
    const auto* geometry = catalogs.mig->find(gpu->id);
    SW_CHECK(geometry != nullptr, "sizing: no MIG geometry (validate first)");
    std::tie(instances_per_gpu_, instance_memory_gib_) = most_mig_per_gpu(*geometry, spec);
  }
  record_.max_gpus = max_gpus;
  // A tenant gets at most as many contexts as the largest fleet has devices.
  const int most_contexts = std::max(1, max_gpus * instances_per_gpu_);
  for (const auto& tenant : scenario.tenants) {
    Bracket b;
    b.fail = tenant.num_contexts - 1;
    b.probe = tenant.num_contexts;
    b.max = std::max(most_contexts, tenant.num_contexts);
    tenants_.push_back(b);
  }
  last_miss_.resize(tenants_.size());
}

int SizingSearch::total(const std::vector<int>& contexts) const {
  return std::accumulate(contexts.begin(), contexts.end(), 0);
}

std::vector<int> SizingSearch::current_contexts() const {
  std::vector<int> contexts;
  for (const auto& b : tenants_) contexts.push_back(b.done() && b.pass > 0 ? b.pass : b.probe);
  return contexts;
}

void SizingSearch::read_pools(const Catalogs& catalogs) {
  for (const auto& tenant : scenario_.tenants) pooled_.push_back(in_reserved_pool(scenario_, tenant.name));
  for (const auto& entry : scenario_.fleet) {
    if (reserved(entry)) pools_.push_back({fleet_gpu_id(entry, scenario_, catalogs), 0, entry.tenants});
  }
}

std::vector<SizedPool> SizingSearch::pools_for(const std::vector<int>& contexts) const {
  std::vector<SizedPool> pools;
  for (const auto& entry : pools_) {
    SizedPool pool = entry;
    for (std::size_t t = 0; t < contexts.size(); ++t) {
      const auto& tenant = scenario_.tenants[t];
      // A tenant in several pools runs in the first one that lists it.
      const bool first = std::any_of(pools.begin(), pools.end(), [&](const SizedPool& p) {
        return std::find(p.tenants.begin(), p.tenants.end(), tenant.name) != p.tenants.end();
      });
      if (!first && std::find(entry.tenants.begin(), entry.tenants.end(), tenant.name) != entry.tenants.end()) {
        pool.count += contexts[t] * tensor_parallel_of(tenant.workload);
      }
    }
    pools.push_back(std::move(pool));
  }
  return pools;
}

int SizingSearch::pool_gpus(const std::vector<int>& contexts) const {
  int gpus = 0;
  for (const auto& pool : pools_for(contexts)) gpus += pool.count;
  return gpus;
}

int SizingSearch::group_gpus(const std::vector<int>& contexts) const {
  int gpus = 0;
  for (std::size_t t = 0; t < contexts.size(); ++t) {
    const int tp = tensor_parallel_of(scenario_.tenants[t].workload);
    if (!pooled_[t] && tp > 1) gpus += contexts[t] * tp;
  }
  return gpus;
}

SizedRun SizingSearch::contexts_run(const std::vector<int>& contexts) const {
  // Every context alone on a device: as many GPUs as contexts, a tensor-parallel group its GPUs
  // (own-device strategies pack them, which under MIG puts several on one GPU's instances; shared
  // ones get one each by balance); pooled tenants in their pools.
  int shared = group_gpus(contexts);
  for (std::size_t t = 0; t < contexts.size(); ++t) {
    if (!pooled_[t] && tensor_parallel_of(scenario_.tenants[t].workload) == 1) shared += contexts[t];
  }
  return SizedRun{shared, shared_devices_, contexts, {}, pools_for(contexts), std::nullopt, std::nullopt, {}};
}

SizedRun SizingSearch::gpus_run(int num_gpus) const {
  return SizedRun{num_gpus, true, contexts_, loads_, pools_for(contexts_), std::nullopt, std::nullopt, {}};
}

std::optional<SizedRun> SizingSearch::probe_run() const {
  switch (phase_) {
    case Phase::contexts: return contexts_run(current_contexts());
    case Phase::gpus: return gpus_run(gpus_.probe);
    case Phase::placements: {
      auto run = gpus_run(placement_gpus_);
      run.balance = false;
      run.placement = other_placements_[placement_];
      return run;
    }
    case Phase::done: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<SizedRun> SizingSearch::next() const {
  auto run = probe_run();
  if (run && !peak_hours_.empty()) run->start_hour = peak_hours_[at_hour_.size()];
  if (run) {
    for (const auto& w : record_.trace_windows) run->window_start_s[w.tenant] = w.window_start_s;
  }
  return run;
}

const StrategyResult& SizingSearch::deciding_run() const {
  const StrategyResult* deciding = nullptr;
  double least = 0.0;
  for (const auto& r : at_hour_) {
    const bool met = meets_every_sla(r);
    const double margin = worst_tenant(scenario_, r).margin;
    if (!deciding || (!met && meets_every_sla(*deciding)) || (met == meets_every_sla(*deciding) && margin < least)) {
      deciding = &r;
      least = margin;
    }
  }
  return *deciding;
}

void SizingSearch::feed(const StrategyResult& result) {
  SW_CHECK(phase_ != Phase::done, "sizing: fed after done");
  if (peak_hours_.empty()) {
    feed_probe(result);
    return;
  }
  at_hour_.push_back(result);
  if (at_hour_.size() < peak_hours_.size()) return;  // the same configuration at the next peak hour
  const StrategyResult* deciding = &deciding_run();
  record_.result_hour = peak_hours_[static_cast<std::size_t>(deciding - at_hour_.data())];
  const StrategyResult run = *deciding;
  at_hour_.clear();
  feed_probe(run);
}

int SizingSearch::lower_bound(const std::vector<int>& contexts) const {
  const StrategySpec& spec = scenario_.strategies[strategy_];
  const StrategyPolicy& policy = policy_of(spec.kind);
  // Tensor-parallel groups take whole GPUs; the other contexts share the rest.
  double memory = 0.0;
  int sharing = 0;  // contexts that share GPUs
  for (std::size_t t = 0; t < contexts.size(); ++t) {
    const auto& tenant = scenario_.tenants[t];
    if (pooled_[t] || tensor_parallel_of(tenant.workload) > 1) continue;
    const auto found = spec.tenants.find(tenant.name);
    const TenantStrategySettings* settings = found == spec.tenants.end() ? nullptr : &found->second;
    // Per device: an LLM engine holds its share of the device.
    const double need = memory_on_gib(tenant.workload, gpu_id_, instance_memory_gib_ / instances_per_gpu_);
    const auto rule = policy.memory_rule(spec, settings, need, instance_memory_gib_ / instances_per_gpu_);
    memory += contexts[t] * (rule.isolated ? std::max(need, rule.limit_gib) : need);
    sharing += contexts[t];
  }
  int bound = sharing > 0 ? std::max(1, static_cast<int>(std::ceil(memory / instance_memory_gib_ - 1e-9))) : 0;
  if (per_device_limit_ > 0) {
    const int per_gpu = per_device_limit_ * instances_per_gpu_;
    bound = std::max(bound, (sharing + per_gpu - 1) / per_gpu);
  }
  return std::max(1, group_gpus(contexts) + bound);
}

void SizingSearch::feed_probe(const StrategyResult& result) {
  const bool met = meets_every_sla(result);
  const auto requested = probe_run();
  const std::string step = phase_ == Phase::contexts     ? "contexts"
                           : phase_ == Phase::placements ? placement_name(other_placements_[placement_])
                                                         : "gpus";
  record_.steps.push_back(SizingStep{step, result.num_gpus_used, total(requested->contexts), met});
  if (phase_ == Phase::contexts) {
    feed_contexts(result);
    return;
  }
  if (phase_ == Phase::placements) {
    feed_placement(result, met);
    return;
  }
  if (met) {
    best_passing_ = result;
  } else if (!best_failing_ || result.num_gpus_used >= best_failing_->num_gpus_used) {
    best_failing_ = result;
  }
  gpus_.feed(met);
  if (!gpus_.done()) return;
  if (gpus_.exhausted) {
    finish(*best_failing_, false,
           "the closest (" + gpus_text(best_failing_->num_gpus_used) + ") misses " + shortfall_of(*best_failing_));
  } else {
    try_other_placements();
  }
}

void SizingSearch::try_other_placements() {
  record_.placement = "balanced";
  answer_gpus_ = gpus_.pass;
  // MIG instances are packed (spread does not apply to them).
  other_placements_ = partitions_ ? std::vector<PlacementPolicy>{PlacementPolicy::pack}
                                  : std::vector<PlacementPolicy>{PlacementPolicy::spread, PlacementPolicy::pack};
  placement_ = 0;
  placement_gpus_ = answer_gpus_ - 1;
  if (placement_gpus_ < shared_lower_) {
    finish(*best_passing_, true, "");
    return;
  }
  phase_ = Phase::placements;
}

void SizingSearch::feed_placement(const StrategyResult& result, bool met) {
  if (met) {
    // One GPU fewer than balancing found: go on from there, every placement again.
    best_passing_ = result;
    record_.placement = placement_name(other_placements_[placement_]);
    answer_gpus_ = placement_gpus_;
    placement_ = 0;
    if (--placement_gpus_ < shared_lower_) finish(*best_passing_, true, "");
    return;
  }
  if (++placement_ >= other_placements_.size()) finish(*best_passing_, true, "");
}

std::string SizingSearch::shortfall_of(const StrategyResult& result) const {
  if (auto missing = worst_shortfall(scenario_, result); !missing.empty()) return missing;
  for (const auto& issue : result.issues) {
    if (issue.find("out-of-memory") != std::string::npos) return issue;
  }
  return "its SLA";
}

bool SizingSearch::feed_tenant_contexts(const StrategyResult& result, std::size_t t, int contexts) {
  const auto& tr = result.tenants[t];
  const auto& tenant = scenario_.tenants[t];
  if (tr.num_contexts_unplaced > 0) {  // more contexts cannot help a context that fits no device
    finish(result, false, unplaced_shortfall(tenant, tr, result.issues));
    return true;
  }
  if (!tr.sla_met && last_miss_[t]) {
    // More contexts shorten queues; they cannot make a request run faster. A tenant whose
    // throughput and margin did not move when its contexts grew misses by its service time.
    const double margin = sla_margin(tenant, tr).relative;
    if (tr.throughput_per_s < 1.05 * last_miss_[t]->first && margin - last_miss_[t]->second < 0.02) {
      finish(result, false,
             "more contexts do not help (" + std::to_string(contexts) + " gave the same as " +
                 std::to_string(tenants_[t].fail) + "): its requests are too slow on this device; " +
                 sla_shortfall(tenant, tr));
      return true;
    }
  }
  if (!tr.sla_met) last_miss_[t] = std::make_pair(tr.throughput_per_s, sla_margin(tenant, tr).relative);
  tenants_[t].feed(tr.sla_met);
  if (tenants_[t].exhausted) {
    finish(result, false,
           "even with " + std::to_string(contexts) + " contexts, each alone on a device, " + sla_shortfall(tenant, tr));
    return true;
  }
  return false;
}

void SizingSearch::feed_contexts(const StrategyResult& result) {
  const auto contexts = current_contexts();
  for (std::size_t t = 0; t < tenants_.size(); ++t) {
    if (!tenants_[t].done() && feed_tenant_contexts(result, t, contexts[t])) return;
  }
  if (!std::all_of(tenants_.begin(), tenants_.end(), [](const Bracket& b) { return b.done(); })) return;
  if (current_contexts() != contexts) return;  // one more run, with every tenant at its answer
  if (!shared_devices_) {
    if (result.num_gpus_used > record_.max_gpus) {
      finish(result, false, "the smallest fleet that does has " + gpus_text(result.num_gpus_used));
    } else {
      record_.lower_bound_gpus = result.num_gpus_used;
      finish(result, true, "");
    }
    return;
  }
  start_gpus(result);
}

void SizingSearch::start_gpus(const StrategyResult& isolated) {
  contexts_ = current_contexts();
  record_.contexts = contexts_;
  // Each context's share of its tenant's GPU work in the isolated run: what balancing weighs.
  const double window = std::max(1e-9, scenario_.horizon_s - scenario_.warmup_s);
  loads_.clear();
  for (std::size_t t = 0; t < contexts_.size(); ++t) {
    loads_.push_back(std::max(1e-9, isolated.tenants[t].gpu_work_s / window / contexts_[t]));
  }
  record_.context_load = loads_;
  const int lower = lower_bound(contexts_);
  shared_lower_ = lower;
  const int pools = pool_gpus(contexts_);
  record_.lower_bound_gpus = lower + pools;
  const int num_contexts = contexts_run(contexts_).num_gpus;  // the isolated run's shared GPUs
  const int most = record_.max_gpus - pools;
  if (lower > most) {
    finish(isolated, false,
           "memory and the contexts per device need at least " + gpus_text(lower + pools) +
               (pools > 0 ? " (" + std::to_string(pools) + " of them in reserved pools)" : std::string()));
    return;
  }
  // Where to start: the isolated devices' busy time (time-sliced devices add their contexts' busy
  // times; concurrent ones their SM use). An estimate, not a bound: the search checks below it.
  const StrategySpec& spec = scenario_.strategies[strategy_];
  const auto discipline = policy_of(spec.kind).sharing(spec, models::SharingDefaults{}, 2).discipline;
  double demand = 0.0;
  if (!partitions_) {
    for (const auto& d : isolated.devices) {
      if (d.reserved) continue;  // a pool's GPUs are not searched
      if (d.gpu_count > 1) {
        demand += d.gpu_count;  // a tensor-parallel group holds its GPUs whole
      } else {
        demand += discipline == models::SharingDiscipline::concurrent ? d.sm_util_frac : d.busy_frac;
      }
    }
  }
  const int start = std::clamp(static_cast<int>(std::ceil(demand - 0.02)), lower, most);
  gpus_ = Bracket{};
  gpus_.fail = lower - 1;
  gpus_.max = most;
  if (num_contexts <= most) {  // the isolated run is the balanced one with a GPU per context
    gpus_.pass = num_contexts;
    best_passing_ = isolated;
  }
  phase_ = Phase::gpus;
  if (gpus_.done()) {
    try_other_placements();
    return;
  }
  gpus_.probe = gpus_.pass == 0 || start < gpus_.pass ? start : gpus_.fail + (gpus_.pass - gpus_.fail) / 2;
}

void SizingSearch::finish(const StrategyResult& result, bool feasible, const std::string& shortfall) {
  phase_ = Phase::done;
  if (record_.contexts.empty()) record_.contexts = current_contexts();
  record_.pools = pools_for(record_.contexts);
  record_.num_gpus = result.num_gpus_used;
  record_.minimal = feasible && !record_.placement.empty() && answer_gpus_ <= shared_lower_;
  record_.feasible = feasible;
  record_.shortfall =
      feasible ? "" : "no configuration within " + gpus_text(record_.max_gpus) + " meets every SLA: " + shortfall;
  final_ = result;
  final_->sizing = record_;
}

}  // namespace slicewise::scenario
