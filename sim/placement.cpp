// Placement of contexts on devices per strategy: slots (whole GPUs or MIG instances of the layout),
// contexts largest first, first-fit-decreasing (pack) or round robin (spread), then how each used
// device shares itself. What differs between strategies is asked of their policies
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
#include "models/mig_layout.hpp"
#include "scenario/layout_schedule.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::sim {

using scenario::policy_of;
using scenario::Scenario;
using scenario::StrategyPolicy;
using scenario::StrategySpec;

double compute_capacity(const models::GpuSpec& gpu, bool& in_sms) {
  const auto tflops = gpu.bf16_dense_tflops ? gpu.bf16_dense_tflops : gpu.fp16_dense_tflops;
  in_sms = !tflops.has_value();
  return tflops ? *tflops : static_cast<double>(gpu.num_sms);
}

namespace {

/// GiB in a message, to 0.1 GiB: "39.7", "24", "11.2".
std::string gib(double value) { return format_number(std::round(value * 10.0) / 10.0); }

/// The tenants on the instances of one MIG profile, and the tenant that holds it alone.
struct ProfileUse {
  std::set<std::size_t> tenants;
  std::optional<std::size_t> owner;
};

/// A slot contexts can go to: a whole GPU or one MIG instance.
struct Slot {
  PlacedDevice device;
  std::optional<std::size_t> owner_tenant;  ///< set when a tenant needing isolation the strategy lacks took it
  bool isolated_memory = false;
  double reserved_gib = 0.0;    ///< memory promised to contexts (limits where memory is isolated)
  double reserved_cores = 0.0;  ///< cores its contexts reserved at admission (HAMi's gpucores), fraction
  int max_contexts = 0;         ///< 0 = no limit
  /// Where the device plugin shares a profile's instances alike (shares_by_profile): the tenants on
  /// any instance of this slot's profile, and the one that holds the profile alone; shared by them.
  std::shared_ptr<ProfileUse> profile_use;
  std::vector<std::size_t> pool;  ///< a reserved GPU's tenants (device.reserved)
  std::size_t position = 0;       ///< its GPU's place in its fleet entry (FleetGpu::position)
  std::size_t node_gpus = 8;      ///< GPUs of its node (FleetGpu::node_gpus)
};

/// The strategy's settings for the tenant named `tenant_name`, or nullptr when it has none.
const scenario::TenantStrategySettings* settings_of(const StrategySpec& strategy, const std::string& tenant_name) {
  const auto found = strategy.tenants.find(tenant_name);
  return found == strategy.tenants.end() ? nullptr : &found->second;
}

/// Whole GPU `g` of the fleet as a device: all its compute, bandwidth and memory.
PlacedDevice whole_gpu_device(const models::GpuSpec& gpu, std::size_t g) {
  bool in_sms = false;
  const double compute = compute_capacity(gpu, in_sms);
  return PlacedDevice{
      "gpu" + std::to_string(g), gpu.id,         "", g,     compute, in_sms, static_cast<double>(gpu.num_sms),
      gpu.memory_bandwidth_gbps, gpu.memory_gib, {}, false, {}};
}

/// The slot of a whole GPU: as many contexts and as much memory isolation as the policy says.
Slot whole_gpu_slot(const StrategySpec& strategy, const StrategyPolicy& policy, const models::GpuSpec& gpu,
                    std::size_t g) {
  Slot slot;
  slot.device = whole_gpu_device(gpu, g);
  slot.max_contexts = policy.context_limit(strategy);
  slot.isolated_memory = policy.memory_rule(strategy, nullptr, 0.0, gpu.memory_gib).isolated;
  return slot;
}

/// One slot per MIG instance of `layout` on GPU `g`, with its share of the GPU's compute (by SMs)
/// and bandwidth (by memory slices).
void add_mig_slots(const StrategySpec& strategy, const std::string& layout, const StrategyPolicy& policy,
                   const models::GpuSpec& gpu, std::size_t g, const models::MigCatalog& mig, std::vector<Slot>& slots) {
  bool in_sms = false;
  const double compute = compute_capacity(gpu, in_sms);
  const std::string gpu_name = "gpu" + std::to_string(g);
  const auto* geometry = mig.find(gpu.id);
  SW_CHECK(geometry != nullptr, gpu.id + " has no MIG geometry (validate first)");
  const auto placement = models::place_mig_layout(*geometry, layout);
  SW_CHECK(placement.valid, "invalid layout (validate first): " + placement.reason);
  for (const auto& instance : placement.instances) {
    Slot slot;
    const double sm_frac = static_cast<double>(instance.num_sms) / gpu.num_sms;
    const double bw_frac = static_cast<double>(instance.memory_slices) / geometry->memory_slots;
    slot.device = PlacedDevice{gpu_name + "/" + instance.profile + "@" + std::to_string(instance.start_slot),
                               gpu.id,
                               instance.profile,
                               g,
                               compute * sm_frac,
                               in_sms,
                               static_cast<double>(instance.num_sms),
                               gpu.memory_bandwidth_gbps * bw_frac,
                               instance.memory_gib,
                               {},
                               false,
                               {}};
    slot.max_contexts = policy.context_limit(strategy);
    slot.isolated_memory = policy.memory_rule(strategy, nullptr, 0.0, instance.memory_gib).isolated;
    slots.push_back(std::move(slot));
  }
}

/// The slot of a GPU reserved for the tenants `pool`: whole, one context, memory and compute its own.
Slot reserved_slot(const models::GpuSpec& gpu, std::size_t g, std::vector<std::size_t> pool) {
  Slot slot;
  slot.device = whole_gpu_device(gpu, g);
  slot.device.reserved = true;
  slot.max_contexts = 1;
  slot.pool = std::move(pool);
  return slot;
}

/// The indices of the tenants named in `names`.
std::vector<std::size_t> tenant_indices(const Scenario& scenario, const std::vector<std::string>& names) {
  std::vector<std::size_t> out;
  for (std::size_t t = 0; t < scenario.tenants.size(); ++t) {
    if (std::find(names.begin(), names.end(), scenario.tenants[t].name) != names.end()) out.push_back(t);
  }
  return out;
}

/// Slots: one per GPU, or one per MIG instance of the layout on every GPU the strategy shares; one
/// whole slot per reserved GPU.
std::vector<Slot> make_slots(const Scenario& scenario, const StrategySpec& strategy, const StrategyPolicy& policy,
                             const std::vector<FleetGpu>& fleet, const models::GpuCatalog& gpus,
                             const models::MigCatalog& mig) {
  std::vector<Slot> slots;
  std::size_t shared = 0;  // shared GPUs so far: each takes its layout of the strategy's in turn
  for (std::size_t g = 0; g < fleet.size(); ++g) {
    const auto* gpu = gpus.find(fleet[g].id);
    SW_CHECK(gpu != nullptr, "fleet GPU " + fleet[g].id + " not in the catalog (validate first)");
    if (!fleet[g].pool.empty()) {
      slots.push_back(reserved_slot(*gpu, g, tenant_indices(scenario, fleet[g].pool)));
    } else if (policy.partitions_gpus()) {
      add_mig_slots(strategy, layout_of_gpu(strategy, shared++), policy, *gpu, g, mig, slots);
    } else {
      slots.push_back(whole_gpu_slot(strategy, policy, *gpu, g));
    }
    if (slots.back().device.mig_profile.empty()) {
      slots.back().position = fleet[g].position;
      slots.back().node_gpus = fleet[g].node_gpus;
    }
  }
  if (policy.shares_by_profile()) {
    std::map<std::string, std::shared_ptr<ProfileUse>> uses;
    for (auto& slot : slots) {
      if (slot.device.reserved) continue;
      auto& use = uses[slot.device.mig_profile];
      if (!use) use = std::make_shared<ProfileUse>();
      slot.profile_use = use;
    }
  }
  return slots;
}

/// Every context of every tenant, largest memory first (stable: ties keep tenant order) for
/// first-fit-decreasing; with `loads`, heaviest first (then largest memory) for balancing.
std::vector<PlacedContext> make_contexts(const Scenario& scenario, const StrategySpec& strategy,
                                         const StrategyPolicy& policy, const std::vector<double>* loads) {
  std::vector<PlacedContext> contexts;
  for (std::size_t t = 0; t < scenario.tenants.size(); ++t) {
    const auto& tenant = scenario.tenants[t];
    const auto* settings = settings_of(strategy, tenant.name);
    const bool pooled = scenario::in_reserved_pool(scenario, tenant.name);  // alone on its GPUs: no share to set
    for (int r = 0; r < tenant.num_contexts; ++r) {
      PlacedContext c;
      c.tenant = t;
      c.replica = r;
      c.memory_gib = scenario::memory_need_gib(tenant.workload);
      if (!pooled) {
        c.weight = policy.context_weight(strategy, settings);
        c.cap = policy.context_cap(strategy, settings, tenant.priority);
        if (policy.schedules_by_priority(strategy)) c.priority = static_cast<int>(tenant.priority);
      }
      contexts.push_back(c);
    }
  }
  // Tensor-parallel groups first, widest first: they need runs of free whole GPUs, which contexts
  // placed before them could break up.
  auto tp = [&](const PlacedContext& c) { return scenario::tensor_parallel_of(scenario.tenants[c.tenant].workload); };
  if (loads) {
    auto load = [&](const PlacedContext& c) { return (*loads)[c.tenant]; };
    std::stable_sort(contexts.begin(), contexts.end(), [&](const PlacedContext& a, const PlacedContext& b) {
      if (tp(a) != tp(b)) return tp(a) > tp(b);
      return load(a) != load(b) ? load(a) > load(b) : a.memory_gib > b.memory_gib;
    });
  } else {
    std::stable_sort(contexts.begin(), contexts.end(), [&](const PlacedContext& a, const PlacedContext& b) {
      return tp(a) != tp(b) ? tp(a) > tp(b) : a.memory_gib > b.memory_gib;
    });
  }
  return contexts;
}

/// The memory a context's CUDA reports as its GPU's on `device`: the device's, or the limit the
/// strategy pins it to where the client sees that limit (MPS's per-replica share).
double client_memory_gib(const PlacedDevice& device, const StrategySpec& strategy, const StrategyPolicy& policy,
                         const scenario::TenantStrategySettings* settings) {
  if (device.reserved) return device.memory_gib;
  const auto rule = policy.memory_rule(strategy, settings, 0.0, device.memory_gib);
  return rule.isolated && rule.client_sees_limit && rule.limit_gib > 0.0 ? std::min(rule.limit_gib, device.memory_gib)
                                                                         : device.memory_gib;
}

/// What placing one context asks of a slot.
struct SlotRequest {
  const PlacedContext& context;
  const scenario::Workload& workload;
  const StrategySpec& strategy;
  const StrategyPolicy& policy;                      ///< the strategy's rules
  const scenario::TenantStrategySettings* settings;  ///< the strategy's settings for its tenant, or nullptr
  bool needs_own_device;                             ///< the tenant needs more isolation than the strategy gives
  std::string wanted_profile;                        ///< MIG profile the tenant asked for; "" = any
  bool pooled;                                       ///< the tenant runs on reserved GPUs of its pool only

  bool llm() const { return workload.kind == scenario::WorkloadKind::llm && workload.engine.has_value(); }
  /// Its engine on `slot`, sized on the memory its CUDA sees there.
  scenario::EngineOnDevice engine_on(const Slot& slot) const {
    return scenario::engine_on_device(workload, slot.device.gpu_id,
                                      client_memory_gib(slot.device, strategy, policy, settings));
  }
  /// The memory the context holds on `slot`: its need, or its engine's share of that device.
  double need(const Slot& slot) const { return llm() ? engine_on(slot).held_gib : context.memory_gib; }
  /// Why its engine would not start on `slot` ("" when it would, or for a generic workload).
  std::string engine_problem(const Slot& slot) const { return llm() ? engine_on(slot).problem : ""; }
};

SlotRequest request_for(const Scenario& scenario, const PlacedContext& context, const scenario::Tenant& tenant,
                        const StrategySpec& strategy, const StrategyPolicy& policy) {
  const auto* settings = settings_of(strategy, tenant.name);
  const bool pooled = scenario::in_reserved_pool(scenario, tenant.name);
  return SlotRequest{context,
                     tenant.workload,
                     strategy,
                     policy,
                     settings,
                     !pooled && tenant.isolation > policy.isolation(),
                     pooled || !settings ? std::string() : settings->mig_profile,
                     pooled};
}

/// True when `slot` is one the request's tenant may run on: a GPU of its pool, or one the strategy
/// shares for a tenant in no pool.
bool in_its_pool(const Slot& slot, const SlotRequest& request) {
  if (slot.device.reserved != request.pooled) return false;
  return !slot.device.reserved ||
         std::find(slot.pool.begin(), slot.pool.end(), request.context.tenant) != slot.pool.end();
}

/// Memory the context reserves on `slot`: its need, or more where the slot isolates memory.
double reservation(const Slot& slot, const SlotRequest& request, const StrategySpec& strategy) {
  const double need = request.need(slot);
  if (!slot.isolated_memory) return need;
  return std::max(need, request.policy.memory_rule(strategy, request.settings, need, slot.device.memory_gib).limit_gib);
}

/// The memory rule of the context on the slot, when it enforces a limit below the context's need
/// (a vGPU framebuffer, a HAMi gpumem or MPS pinned limit): the context cannot run there.
std::optional<scenario::MemoryRule> limit_below_need(const Slot& slot, const SlotRequest& request,
                                                     const StrategySpec& strategy) {
  if (!slot.isolated_memory) return std::nullopt;
  const double need = request.need(slot);
  auto rule = request.policy.memory_rule(strategy, request.settings, need, slot.device.memory_gib);
  if (rule.limit_gib > 0.0 && need > rule.limit_gib + 1e-9) return rule;
  return std::nullopt;
}

/// True when the slot's core reservations admit the context, as HAMi's scheduler does: the sum
/// within 100 %, a 100 % context only alone, and no 0 % context on a fully reserved device.
bool cores_admit(const Slot& slot, const SlotRequest& request) {
  if (slot.device.reserved) return true;
  const double cores = request.policy.core_reservation(request.strategy, request.settings);
  if (cores <= 0.0) return slot.reserved_cores < 1.0 - 1e-9 || slot.device.contexts.empty();
  if (cores >= 1.0 - 1e-9 && !slot.device.contexts.empty()) return false;
  return slot.reserved_cores + cores <= 1.0 + 1e-9;
}

/// True when the slot can take the context; `allow_overcommit` lets memory that is not isolated
/// be promised beyond the device's.
bool admissible(const Slot& slot, const SlotRequest& request, const StrategySpec& strategy, bool allow_overcommit) {
  const PlacedContext& context = request.context;
  if (!in_its_pool(slot, request)) return false;
  if (slot.max_contexts > 0 && static_cast<int>(slot.device.contexts.size()) >= slot.max_contexts) return false;
  if (slot.owner_tenant && slot.owner_tenant != context.tenant) return false;
  if (const auto& use = slot.profile_use) {
    // The device plugin cannot keep a tenant alone on one instance of a shared profile: it holds
    // the whole profile or shares it.
    if (use->owner && use->owner != context.tenant) return false;
    if (request.needs_own_device &&
        std::any_of(use->tenants.begin(), use->tenants.end(), [&](std::size_t t) { return t != context.tenant; })) {
      return false;
    }
  }
  if (request.needs_own_device && !slot.device.contexts.empty() &&
      std::any_of(slot.device.contexts.begin(), slot.device.contexts.end(),
                  [&](const PlacedContext& c) { return c.tenant != context.tenant; })) {
    return false;
  }
  if (!request.wanted_profile.empty() && slot.device.mig_profile != request.wanted_profile) return false;
  if (!cores_admit(slot, request)) return false;
  const double device_gib = slot.device.memory_gib;
  const double need = request.need(slot);
  if (need > device_gib + 1e-9 || !request.engine_problem(slot).empty()) return false;
  if (limit_below_need(slot, request, strategy)) return false;
  if (slot.isolated_memory) return slot.reserved_gib + reservation(slot, request, strategy) <= device_gib + 1e-9;
  return allow_overcommit || slot.reserved_gib + need <= device_gib + 1e-9;
}

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
