// The slots placement puts contexts on, and whether one admits a context (see placement_slots.hpp).
#include "sim/placement_slots.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "models/mig_layout.hpp"
#include "scenario/layout_schedule.hpp"

namespace slicewise::sim {

double compute_capacity(const models::GpuSpec& gpu, bool& in_sms) {
  const auto tflops = gpu.bf16_dense_tflops ? gpu.bf16_dense_tflops : gpu.fp16_dense_tflops;
  in_sms = !tflops.has_value();
  return tflops ? *tflops : static_cast<double>(gpu.num_sms);
}

}  // namespace slicewise::sim

namespace slicewise::sim::detail {

namespace {

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

}  // namespace

std::string gib(double value) { return format_number(std::round(value * 10.0) / 10.0); }

const scenario::TenantStrategySettings* settings_of(const StrategySpec& strategy, const std::string& tenant_name) {
  const auto found = strategy.tenants.find(tenant_name);
  return found == strategy.tenants.end() ? nullptr : &found->second;
}

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

double client_memory_gib(const PlacedDevice& device, const StrategySpec& strategy, const StrategyPolicy& policy,
                         const scenario::TenantStrategySettings* settings) {
  if (device.reserved) return device.memory_gib;
  const auto rule = policy.memory_rule(strategy, settings, 0.0, device.memory_gib);
  return rule.isolated && rule.client_sees_limit && rule.limit_gib > 0.0 ? std::min(rule.limit_gib, device.memory_gib)
                                                                         : device.memory_gib;
}

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

bool in_its_pool(const Slot& slot, const SlotRequest& request) {
  if (slot.device.reserved != request.pooled) return false;
  return !slot.device.reserved ||
         std::find(slot.pool.begin(), slot.pool.end(), request.context.tenant) != slot.pool.end();
}

double reservation(const Slot& slot, const SlotRequest& request, const StrategySpec& strategy) {
  const double need = request.need(slot);
  if (!slot.isolated_memory) return need;
  return std::max(need, request.policy.memory_rule(strategy, request.settings, need, slot.device.memory_gib).limit_gib);
}

std::optional<scenario::MemoryRule> limit_below_need(const Slot& slot, const SlotRequest& request,
                                                     const StrategySpec& strategy) {
  if (!slot.isolated_memory) return std::nullopt;
  const double need = request.need(slot);
  auto rule = request.policy.memory_rule(strategy, request.settings, need, slot.device.memory_gib);
  if (rule.limit_gib > 0.0 && need > rule.limit_gib + 1e-9) return rule;
  return std::nullopt;
}

bool cores_admit(const Slot& slot, const SlotRequest& request) {
  if (slot.device.reserved) return true;
  const double cores = request.policy.core_reservation(request.strategy, request.settings);
  if (cores <= 0.0) return slot.reserved_cores < 1.0 - 1e-9 || slot.device.contexts.empty();
  if (cores >= 1.0 - 1e-9 && !slot.device.contexts.empty()) return false;
  return slot.reserved_cores + cores <= 1.0 + 1e-9;
}

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

}  // namespace slicewise::sim::detail
