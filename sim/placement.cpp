// Placement of contexts on devices per strategy: slots (whole GPUs or MIG instances of the layout)
// and contexts largest first (placement_slots.cpp, which also says whether a slot admits one), then
// first-fit-decreasing (pack), round robin (spread) or by load (balance), then how each used device
// shares itself. What differs between strategies is asked of their policies
// (scenario/strategies/).
#include "sim/placement.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/strategies/policy.hpp"
#include "sim/placement_slots.hpp"

namespace slicewise::sim {

using scenario::policy_of;
using scenario::Scenario;
using scenario::StrategyPolicy;
using scenario::StrategySpec;
using namespace detail;  // the slots and their admission (placement_slots.hpp)

namespace {

/// Spread: the next admissible slot after the last one chosen, round robin.
std::optional<std::size_t> choose_spread(const std::vector<Slot>& slots, const SlotRequest& request,
                                         const StrategySpec& strategy, std::size_t& spread_cursor) {
  std::optional<std::size_t> chosen;
  for (std::size_t step = 0; step < slots.size() && !chosen; ++step) {
    const std::size_t s = (spread_cursor + step) % slots.size();
    if (admissible(slots[s], request, strategy, true)) chosen = s;
  }
  if (chosen) spread_cursor = *chosen + 1;
  return chosen;
}

/// Balance: the admissible slot with the least load per SM once the context is on it (ties: the
/// first), without overcommitting memory if any slot can; `slot_load` is each slot's load so far.
std::optional<std::size_t> choose_balanced(const std::vector<Slot>& slots, const SlotRequest& request,
                                           const StrategySpec& strategy, const std::vector<double>& slot_load,
                                           double load) {
  for (const bool allow_overcommit : {false, true}) {
    std::optional<std::size_t> chosen;
    double best = 0.0;
    for (std::size_t s = 0; s < slots.size(); ++s) {
      if (!admissible(slots[s], request, strategy, allow_overcommit)) continue;
      const double after = (slot_load[s] + load) / std::max(1.0, slots[s].device.num_sms);
      if (!chosen || after < best) {
        chosen = s;
        best = after;
      }
    }
    if (chosen) return chosen;
  }
  return std::nullopt;
}

/// Contexts per SM of a slot: how loaded a MIG instance is relative to its size.
double load_per_sm(const Slot& slot) {
  return static_cast<double>(slot.device.contexts.size()) / std::max(1.0, slot.device.num_sms);
}

/// True when `a` is a better choice than `b` among instances of GPUs in use: less loaded, then the
/// smaller memory (best fit), then the first.
bool better_instance(const Slot& a, const Slot& b) {
  const double la = load_per_sm(a);
  const double lb = load_per_sm(b);
  if (la != lb) return la < lb;
  return a.device.memory_gib < b.device.memory_gib;
}

/// Pack on MIG instances: 1) the least-loaded instance of a GPU already in use where the context
/// fits (so that contexts spread over a paid GPU's instances and none sits idle while another
/// carries two), 2) the best-fitting instance of a GPU not yet used, 3) the least-loaded instance
/// of a GPU in use, overcommitting memory the instance does not isolate.
std::optional<std::size_t> choose_pack_instance(const std::vector<Slot>& slots, const SlotRequest& request,
                                                const StrategySpec& strategy, const std::vector<bool>& gpu_in_use) {
  auto in_use = [&](const Slot& slot) { return gpu_in_use[slot.device.gpu_index]; };
  auto least_loaded = [&](bool allow_overcommit) {
    std::optional<std::size_t> chosen;
    for (std::size_t s = 0; s < slots.size(); ++s) {
      if (!in_use(slots[s]) || !admissible(slots[s], request, strategy, allow_overcommit)) continue;
      if (!chosen || better_instance(slots[s], slots[*chosen])) chosen = s;
    }
    return chosen;
  };
  if (auto chosen = least_loaded(false)) return chosen;
  std::optional<std::size_t> chosen;
  for (std::size_t s = 0; s < slots.size(); ++s) {
    if (in_use(slots[s]) || !admissible(slots[s], request, strategy, false)) continue;
    if (chosen && slots[s].device.gpu_index != slots[*chosen].device.gpu_index) break;  // the first new GPU only
    if (!chosen || slots[s].device.memory_gib < slots[*chosen].device.memory_gib) chosen = s;
  }
  if (chosen) return chosen;
  return least_loaded(true);
}

/// Pack on whole GPUs: 1) a used GPU where it fits, 2) an unused GPU, 3) a used GPU,
/// overcommitting memory that is not isolated.
std::optional<std::size_t> choose_pack(const std::vector<Slot>& slots, const SlotRequest& request,
                                       const StrategySpec& strategy) {
  std::optional<std::size_t> chosen;
  for (std::size_t s = 0; s < slots.size() && !chosen; ++s) {
    if (!slots[s].device.contexts.empty() && admissible(slots[s], request, strategy, false)) chosen = s;
  }
  if (!chosen) {
    for (std::size_t s = 0; s < slots.size(); ++s) {
      if (!slots[s].device.contexts.empty() || !admissible(slots[s], request, strategy, false)) continue;
      chosen = s;
      break;
    }
  }
  if (!chosen) {
    for (std::size_t s = 0; s < slots.size() && !chosen; ++s) {
      if (!slots[s].device.contexts.empty() && admissible(slots[s], request, strategy, true)) chosen = s;
    }
  }
  return chosen;
}

/// Counts the context as unplaced and says why in the issues.
void record_unplaced(const SlotRequest& request, const scenario::Tenant& tenant, const StrategySpec& strategy,
                     const std::vector<Slot>& slots, Placement& result) {
  const PlacedContext& context = request.context;
  const std::string who = tenant.name + "#" + std::to_string(context.replica);
  result.num_unplaced[context.tenant]++;
  std::string why = request.pooled ? "no GPU of its pool (the fleet entries reserved for it) left"
                                   : "no device left that can take it";
  // A limit below the need on every device: the strategy's own setting makes it impossible.
  std::optional<scenario::MemoryRule> limit;
  const bool every_slot_limited = !slots.empty() && std::all_of(slots.begin(), slots.end(), [&](const Slot& slot) {
    auto rule = limit_below_need(slot, request, strategy);
    if (rule && (!limit || rule->limit_gib > limit->limit_gib)) limit = rule;
    return rule.has_value();
  });
  if (every_slot_limited) {
    why = "it needs " + gib(context.memory_gib) + " GiB, more than its " + limit->limit_name + " of " +
          gib(limit->limit_gib) + " GiB";
  } else if (request.llm() && std::all_of(slots.begin(), slots.end(),
                                          [&](const Slot& slot) { return !request.engine_problem(slot).empty(); })) {
    why = "its engine starts on no device: " + request.engine_problem(slots.front());
  } else if (request.pooled) {
    // said above
  } else if (!request.wanted_profile.empty()) {
    why = "no free " + request.wanted_profile + " instance";
  } else if (request.needs_own_device) {
    why = "it needs " + models::to_string(tenant.isolation) + " isolation, which " + strategy.name +
          " gives only on a device of its own, and none is free";
  } else if (const auto owned = std::find_if(slots.begin(), slots.end(),
                                             [&](const Slot& slot) {
                                               return slot.profile_use && slot.profile_use->owner &&
                                                      slot.profile_use->owner != context.tenant;
                                             });
             owned != slots.end() && std::all_of(slots.begin(), slots.end(), [&](const Slot& slot) {
               return !slot.profile_use || (slot.profile_use->owner && slot.profile_use->owner != context.tenant) ||
                      (request.needs_own_device && !slot.profile_use->tenants.empty());
             })) {
    why =
        "every instance it could take is of a profile that a tenant needing an instance of its own holds alone (the "
        "device plugin shares all instances of a profile alike, so such a tenant keeps its whole profile; give the "
        "layout a profile for the others)";
  } else if (const double cores = request.policy.core_reservation(strategy, request.settings);
             cores > 0.0 &&
             std::none_of(slots.begin(), slots.end(), [&](const Slot& slot) { return cores_admit(slot, request); })) {
    why = "no GPU has " + format_number(100.0 * cores) +
          " % of its cores unreserved (HAMi admits a pod only while the gpucores it reserves on a GPU add up to "
          "100 % at most)";
  }
  result.issues.push_back(who + " (" + gib(context.memory_gib) + " GiB) is unplaceable: " + why);
}

/// Puts the context on the slot, reserving its memory (and the slot, for a tenant that needs a
/// device of its own).
void assign(Slot& slot, const SlotRequest& request, const StrategySpec& strategy) {
  slot.reserved_gib += reservation(slot, request, strategy);
  if (!slot.device.reserved) slot.reserved_cores += request.policy.core_reservation(strategy, request.settings);
  if (request.needs_own_device) slot.owner_tenant = request.context.tenant;
  if (slot.profile_use) {
    slot.profile_use->tenants.insert(request.context.tenant);
    if (request.needs_own_device) slot.profile_use->owner = request.context.tenant;
  }
  slot.device.contexts.push_back(request.context);
  slot.device.contexts.back().memory_gib = request.need(slot);
}

/// A tensor-parallel context takes `tp` whole GPUs of one node to itself: the first run of that
/// many free whole GPUs of one fleet entry, consecutive and starting at a multiple of `tp`, where the
/// tenant may run (its pool's, or the shared ones) and its engine starts. The group is one device
/// (the first GPU's slot, spanning `tp`); the other GPUs' slots are taken by it.
void place_group(std::vector<Slot>& slots, const SlotRequest& request, const scenario::Tenant& tenant,
                 const StrategySpec& strategy, const StrategyPolicy& policy, int tp, std::vector<bool>& gpu_in_use,
                 Placement& result) {
  const std::string who = tenant.name + "#" + std::to_string(request.context.replica);
  auto unplaced = [&](const std::string& why) {
    result.num_unplaced[request.context.tenant]++;
    result.issues.push_back(who + " (tensor_parallel " + std::to_string(tp) + ") is unplaceable: " + why);
  };
  if (policy.partitions_gpus() && !request.pooled) {
    unplaced("MIG instances never host a tensor-parallel group; " + strategy.name +
             " has only instances (reserve whole GPUs for it: a fleet entry with \"tenants\")");
    return;
  }
  const auto size = static_cast<std::size_t>(tp);
  auto free_slot = [&](const Slot& slot) {
    return slot.device.mig_profile.empty() && slot.device.contexts.empty() && !slot.owner_tenant &&
           in_its_pool(slot, request);
  };
  for (std::size_t first = 0; first + size <= slots.size(); ++first) {
    // A node: an instance's GPUs, or 8 of an entry given by GPU; a group starts at a multiple of its size.
    const std::size_t p0 = slots[first].position;
    const std::size_t node = slots[first].node_gpus;
    if (size > node || p0 % size != 0 || p0 / node != (p0 + size - 1) / node) continue;
    bool fits = true;
    for (std::size_t k = first; k < first + size && fits; ++k) {
      fits = free_slot(slots[k]) && slots[k].position == p0 + (k - first) &&
             slots[k].device.gpu_index == slots[first].device.gpu_index + (k - first) &&
             slots[k].device.gpu_id == slots[first].device.gpu_id;
    }
    if (!fits || !request.engine_problem(slots[first]).empty()) continue;
    for (std::size_t k = first; k < first + size; ++k) {
      slots[k].owner_tenant = request.context.tenant;
      slots[k].reserved_gib = request.need(slots[k]);
      gpu_in_use[slots[k].device.gpu_index] = true;
    }
    slots[first].device.gpu_count = tp;
    slots[first].device.contexts.push_back(request.context);
    slots[first].device.contexts.back().memory_gib = request.need(slots[first]);
    return;
  }
  const bool nodes_too_small = std::all_of(slots.begin(), slots.end(), [&](const Slot& slot) {
    return !in_its_pool(slot, request) || !slot.device.mig_profile.empty() || slot.node_gpus < size;
  });
  unplaced(nodes_too_small ? "no node of its GPUs has " + std::to_string(tp) + " GPUs (its instances have fewer)"
           : slots.empty() || request.engine_problem(slots.front()).empty()
               ? "no " + std::to_string(tp) + " free GPUs of one node left" +
                     (request.pooled ? " in its pool" : std::string())
               : "its engine starts on no group: " + request.engine_problem(slots.front()));
}

/// Orders a used device's contexts and sets how it shares itself: sharing parameters, roofline
/// sharpness and, for exact time slicing, its quantum and switch cost.
void configure_device(PlacedDevice& device, const StrategySpec& strategy, const StrategyPolicy& shared_policy,
                      const models::SharingDefaults& defaults) {
  // A reserved GPU runs its one context as a dedicated one does, whatever the strategy.
  const StrategyPolicy& policy = device.reserved ? policy_of(models::StrategyKind::dedicated) : shared_policy;
  // Keep contexts in tenant order on each device: deterministic and readable.
  std::stable_sort(device.contexts.begin(), device.contexts.end(), [](const PlacedContext& a, const PlacedContext& b) {
    return a.tenant != b.tenant ? a.tenant < b.tenant : a.replica < b.replica;
  });
  const int num_contexts = static_cast<int>(device.contexts.size());
  const double client_memory = client_memory_gib(device, strategy, policy, nullptr);
  if (client_memory < device.memory_gib) device.client_memory_gib = client_memory;
  device.sharing = policy.sharing(strategy, defaults, num_contexts);
  device.sharing.roofline_sharpness = defaults.roofline_sharpness_for(device.gpu_id);
  device.sharing.bandwidth_sm_frac = defaults.bandwidth_sm_frac_for(device.gpu_id);
  if (num_contexts > 1) device.round_s = policy.scheduling_round_ms(strategy, defaults, num_contexts) / 1000.0;
  if (const auto quanta = policy.exact_quanta(strategy, defaults, num_contexts)) {
    device.exact_quanta = true;
    device.quantum_s = quanta->quantum_ms / 1000.0;
    device.switch_cost_s = quanta->switch_cost_ms / 1000.0;
  }
}

/// A MIG instance whose contexts hold more than this share of its memory is flagged: an instance
/// has no spare memory to grow into, and no public data says how running that close slows a job.
constexpr double kTightMigMemoryFrac = 0.9;

/// Moves the used slots' devices into `result`, configured, with an out-of-memory issue where
/// memory is overcommitted and not isolated, a note where a MIG instance is nearly full, and
/// counts the GPUs they use.
void collect_devices(std::vector<Slot>& slots, const StrategySpec& strategy, const StrategyPolicy& policy,
                     const models::SharingDefaults& defaults, std::size_t num_fleet_gpus, Placement& result) {
  std::vector<bool> gpu_used(num_fleet_gpus, false);
  for (auto& slot : slots) {
    if (slot.device.contexts.empty()) continue;
    auto& device = slot.device;
    configure_device(device, strategy, policy, defaults);
    if (!device.mig_profile.empty() && slot.reserved_gib <= device.memory_gib + 1e-9 &&
        slot.reserved_gib > kTightMigMemoryFrac * device.memory_gib) {
      result.issues.push_back(device.name + ": contexts hold " + gib(slot.reserved_gib) + " GiB of the instance's " +
                              gib(device.memory_gib) + " GiB (over " + format_number(100.0 * kTightMigMemoryFrac) +
                              " %): little room for activations, KV cache and allocator fragmentation, which the "
                              "simulation does not model");
    }
    if (!slot.isolated_memory && slot.reserved_gib > device.memory_gib + 1e-9) {
      device.oom_risk = true;
      result.issues.push_back(device.name + ": out-of-memory risk: contexts hold " + gib(slot.reserved_gib) +
                              " GiB of " + gib(device.memory_gib) + " GiB and " + strategy.name +
                              " does not isolate memory");
    }
    for (std::size_t g = device.gpu_index; g < gpu_end(device); ++g) gpu_used[g] = true;
    result.devices.push_back(std::move(device));
  }
  result.num_gpus_used = static_cast<int>(std::count(gpu_used.begin(), gpu_used.end(), true));
}

/// What the simulation gives that no cluster can, for the strategy's result: priorities or weights
/// between contexts of a strategy whose Kubernetes components have none.
std::optional<std::string> undeployable_priorities(const Scenario& scenario, const StrategySpec& strategy,
                                                   const StrategyPolicy& policy) {
  const auto set = scenario::tenants_with_undeployable_priority(scenario, strategy);
  if (set.empty()) return std::nullopt;
  return "not deployable as simulated: " + join(set, ", ") + (set.size() == 1 ? " has" : " have") +
         " a priority or weight, and " + policy.priority_not_deployable() + "; the figures show what they would buy";
}

/// Where one placement is: the slots, and what the choosers remember between contexts.
struct PlacementState {
  std::vector<Slot> slots;
  std::vector<bool> gpu_in_use;   ///< per fleet GPU
  std::vector<double> slot_load;  ///< per slot, under balancing
  std::size_t spread_cursor = 0;
};

/// The slot for one (single-GPU) context: its pool's, or as the strategy places (balanced by
/// `load` when balancing).
std::optional<std::size_t> choose_slot(PlacementState& st, const SlotRequest& request, const StrategySpec& strategy,
                                       bool balance, double load) {
  if (request.pooled) return choose_pack(st.slots, request, strategy);
  if (balance) return choose_balanced(st.slots, request, strategy, st.slot_load, load);
  if (strategy.placement == scenario::PlacementPolicy::spread && !request.policy.partitions_gpus()) {
    return choose_spread(st.slots, request, strategy, st.spread_cursor);
  }
  if (request.policy.partitions_gpus()) return choose_pack_instance(st.slots, request, strategy, st.gpu_in_use);
  return choose_pack(st.slots, request, strategy);
}

/// One placement of every context with the strategy's settings as given.
Placement place_once(const Scenario& scenario, const StrategySpec& strategy, const std::vector<FleetGpu>& fleet,
                     const models::GpuCatalog& gpus, const models::MigCatalog& mig,
                     const models::SharingDefaults& defaults, const std::vector<double>* balance_loads) {
  const StrategyPolicy& policy = policy_of(strategy.kind);
  Placement result;
  result.num_unplaced.assign(scenario.tenants.size(), 0);
  if (auto note = undeployable_priorities(scenario, strategy, policy)) result.issues.push_back(std::move(*note));
  PlacementState st;
  st.slots = make_slots(scenario, strategy, policy, fleet, gpus, mig);
  SW_CHECK(!balance_loads || balance_loads->size() == scenario.tenants.size(), "one balance load per tenant");
  st.gpu_in_use.assign(fleet.size(), false);
  st.slot_load.assign(st.slots.size(), 0.0);
  for (const auto& context : make_contexts(scenario, strategy, policy, balance_loads)) {
    const auto& tenant = scenario.tenants[context.tenant];
    const SlotRequest request = request_for(scenario, context, tenant, strategy, policy);
    if (const int tp = scenario::tensor_parallel_of(tenant.workload); tp > 1) {
      place_group(st.slots, request, tenant, strategy, policy, tp, st.gpu_in_use, result);
      continue;
    }
    const double load = balance_loads ? (*balance_loads)[context.tenant] : 0.0;
    if (const auto chosen = choose_slot(st, request, strategy, balance_loads != nullptr, load)) {
      st.slot_load[*chosen] += load;
      assign(st.slots[*chosen], request, strategy);
      st.gpu_in_use[st.slots[*chosen].device.gpu_index] = true;
    } else {
      record_unplaced(request, tenant, strategy, st.slots, result);
    }
  }
  collect_devices(st.slots, strategy, policy, defaults, fleet.size(), result);
  return result;
}

int total_unplaced(const Placement& p) { return std::accumulate(p.num_unplaced.begin(), p.num_unplaced.end(), 0); }

/// Most contexts on one whole GPU the strategy shares.
int most_contexts_per_gpu(const Placement& p) {
  std::size_t most = 0;
  for (const auto& d : p.devices) {
    if (!d.reserved) most = std::max(most, d.contexts.size());
  }
  return static_cast<int>(most);
}

}  // namespace

Placement place_contexts(const Scenario& scenario, const StrategySpec& strategy, const std::vector<FleetGpu>& fleet,
                         const models::GpuCatalog& gpus, const models::MigCatalog& mig,
                         const models::SharingDefaults& defaults, const std::vector<double>* balance_loads) {
  if (!policy_of(strategy.kind).splits_by_replicas(strategy) || strategy.replicas > 0) {
    return place_once(scenario, strategy, fleet, gpus, mig, defaults, balance_loads);
  }
  // The device plugin splits each GPU's memory and threads among its replicas (MPS), which the
  // strategy leaves to slicewise: as many as the contexts want to share a GPU (placed without the
  // split), fewer while that leaves more contexts unplaced (each then gets more memory), and
  // finally exactly the most any GPU carries, 2 at least, which is what export-config advertises.
  const Placement unsplit = place_once(scenario, strategy, fleet, gpus, mig, defaults, balance_loads);
  StrategySpec split = strategy;
  std::optional<Placement> best;
  int best_replicas = 0;  // the replicas `best` was placed with
  for (int r = scenario::device_plugin_replicas(strategy, most_contexts_per_gpu(unsplit)); r >= 2; --r) {
    split.replicas = r;
    Placement p = place_once(scenario, split, fleet, gpus, mig, defaults, balance_loads);
    if (!best || total_unplaced(p) < total_unplaced(*best)) {
      best = std::move(p);
      best_replicas = r;
    }
    if (total_unplaced(*best) == 0) break;
  }
  const int replicas = scenario::device_plugin_replicas(strategy, most_contexts_per_gpu(*best));
  if (replicas == best_replicas) return std::move(*best);
  split.replicas = replicas;
  return place_once(scenario, split, fleet, gpus, mig, defaults, balance_loads);
}

}  // namespace slicewise::sim
