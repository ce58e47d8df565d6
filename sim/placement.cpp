// Placement of contexts on devices per strategy.
#include "sim/placement.hpp"

#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "models/mig_layout.hpp"

namespace slicewise::sim {

using models::IsolationLevel;
using models::StrategyKind;
using scenario::Scenario;
using scenario::StrategySpec;

double compute_capacity(const models::GpuSpec& gpu, bool& in_sms) {
  const auto tflops = gpu.bf16_dense_tflops ? gpu.bf16_dense_tflops : gpu.fp16_dense_tflops;
  in_sms = !tflops.has_value();
  return tflops ? *tflops : static_cast<double>(gpu.num_sms);
}

namespace {

/// A slot contexts can go to: a whole GPU or one MIG instance.
struct Slot {
  PlacedDevice device;
  int owner_tenant = -1;     ///< set when a tenant needing isolation the strategy lacks took it
  bool isolated_memory = false;
  double reserved_gib = 0.0; ///< memory promised to contexts (limits where memory is isolated)
  int max_contexts = 0;      ///< 0 = no limit
};

models::SharingParams sharing_for(const StrategySpec& s, const SharingDefaults& d, int contexts_on_device) {
  models::SharingParams p;
  const double quantum = s.quantum_ms.value_or(d.quantum_ms);
  const double switch_cost = s.switch_cost_ms.value_or(d.switch_cost_ms);
  switch (s.kind) {
    case StrategyKind::dedicated:
    case StrategyKind::mig:
      p.discipline = models::SharingDiscipline::exclusive;
      p.efficiency = quantum / (quantum + switch_cost);
      break;
    case StrategyKind::time_slicing:
    case StrategyKind::mig_time_slicing:
      p.discipline = models::SharingDiscipline::time_sliced;
      p.efficiency = quantum / (quantum + switch_cost);
      break;
    case StrategyKind::mps:
      p.discipline = models::SharingDiscipline::concurrent;
      p.concurrent_efficiency = d.mps_efficiency;
      break;
    case StrategyKind::hami:
      p.discipline = models::SharingDiscipline::time_sliced;
      p.efficiency = quantum / (quantum + switch_cost);
      p.launch_overhead_frac = d.hami_launch_overhead_frac;
      break;
    case StrategyKind::vgpu: {
      const double timeslice = s.timeslice_ms.value_or(contexts_on_device > 8 ? 1.0 : 2.0);
      p.efficiency = timeslice / (timeslice + switch_cost);
      if (s.vgpu_scheduler == scenario::VgpuScheduler::best_effort) {
        p.discipline = models::SharingDiscipline::time_sliced;
      } else {
        p.discipline = models::SharingDiscipline::fixed_share;
        // equal_share: every powered-on vGPU; fixed_share: the profile's vGPUs per GPU.
        p.total_placed_weight = s.vgpu_scheduler == scenario::VgpuScheduler::fixed_share && s.replicas > 0
                                    ? static_cast<double>(s.replicas)
                                    : static_cast<double>(contexts_on_device);
      }
      break;
    }
  }
  return p;
}

bool is_mig(StrategyKind kind) { return kind == StrategyKind::mig || kind == StrategyKind::mig_time_slicing; }

/// Most contexts one device may carry under the strategy (0 = no limit).
int context_limit(const StrategySpec& s) {
  switch (s.kind) {
    case StrategyKind::dedicated:
    case StrategyKind::mig: return 1;
    case StrategyKind::mps: return s.replicas > 0 ? std::min(s.replicas, 48) : 48;
    default: return s.replicas;
  }
}

/// Memory a context reserves where memory is isolated; 0 where it is not.
double memory_limit(const StrategySpec& s, const scenario::TenantStrategySettings* t, double need, double device_gib) {
  switch (s.kind) {
    case StrategyKind::mps:
      return s.pinned_memory_limit_gib.value_or(0.0);
    case StrategyKind::hami:
      return (t && t->gpumem_gib) ? *t->gpumem_gib : s.gpumem_gib.value_or(need);
    case StrategyKind::vgpu:
      return s.replicas > 0 ? device_gib / s.replicas : need;  // framebuffer of one vGPU
    default:
      return 0.0;
  }
}

}  // namespace

Placement place_contexts(const Scenario& scenario, const StrategySpec& strategy,
                         const std::vector<std::string>& fleet_gpu_ids, const models::GpuCatalog& gpus,
                         const models::MigCatalog& mig, const SharingDefaults& defaults) {
  Placement result;
  result.num_unplaced.assign(scenario.tenants.size(), 0);
  const StrategyKind kind = strategy.kind;
  const IsolationLevel provided = models::isolation_of(kind);
  const int limit = context_limit(strategy);

  // Slots: one per GPU, or one per MIG instance of the layout on every GPU.
  std::vector<Slot> slots;
  for (std::size_t g = 0; g < fleet_gpu_ids.size(); ++g) {
    const auto* gpu = gpus.find(fleet_gpu_ids[g]);
    SW_CHECK(gpu != nullptr, "fleet GPU " + fleet_gpu_ids[g] + " not in the catalog (validate first)");
    bool in_sms = false;
    const double compute = compute_capacity(*gpu, in_sms);
    const std::string gpu_name = "gpu" + std::to_string(g);
    if (!is_mig(kind)) {
      Slot slot;
      slot.device = PlacedDevice{gpu_name, gpu->id, "", static_cast<int>(g), compute, in_sms,
                                 static_cast<double>(gpu->num_sms), gpu->memory_bandwidth_gbps, gpu->memory_gib, {}, false, {}};
      slot.max_contexts = limit;
      slot.isolated_memory = kind == StrategyKind::dedicated || kind == StrategyKind::hami ||
                             kind == StrategyKind::vgpu ||
                             (kind == StrategyKind::mps && strategy.pinned_memory_limit_gib.has_value());
      slots.push_back(std::move(slot));
      continue;
    }
    const auto* geometry = mig.find(gpu->id);
    SW_CHECK(geometry != nullptr, gpu->id + " has no MIG geometry (validate first)");
    const auto placement = models::place_mig_layout(*geometry, strategy.layout);
    SW_CHECK(placement.valid, "invalid layout (validate first): " + placement.reason);
    for (const auto& instance : placement.instances) {
      Slot slot;
      const double sm_frac = static_cast<double>(instance.num_sms) / gpu->num_sms;
      const double bw_frac = static_cast<double>(instance.memory_slices) / geometry->memory_slots;
      slot.device = PlacedDevice{gpu_name + "/" + instance.profile + "@" + std::to_string(instance.start_slot),
                                 gpu->id, instance.profile, static_cast<int>(g), compute * sm_frac, in_sms,
                                 static_cast<double>(instance.num_sms), gpu->memory_bandwidth_gbps * bw_frac, instance.memory_gib, {}, false, {}};
      slot.max_contexts = kind == StrategyKind::mig ? 1 : strategy.replicas;
      slot.isolated_memory = kind == StrategyKind::mig;
      slots.push_back(std::move(slot));
    }
  }

  // Contexts, largest memory first (stable: ties keep tenant order) for first-fit-decreasing.
  std::vector<PlacedContext> contexts;
  for (std::size_t t = 0; t < scenario.tenants.size(); ++t) {
    const auto& tenant = scenario.tenants[t];
    const auto found = strategy.tenants.find(tenant.name);
    const auto* settings = found == strategy.tenants.end() ? nullptr : &found->second;
    for (int r = 0; r < tenant.num_contexts; ++r) {
      PlacedContext c;
      c.tenant = static_cast<int>(t);
      c.replica = r;
      c.memory_gib = tenant.workload.memory_gib;
      c.weight = settings && settings->weight ? *settings->weight : 1.0;
      if (kind == StrategyKind::mps) {
        const auto pct = settings && settings->active_thread_pct ? settings->active_thread_pct : strategy.active_thread_pct;
        c.cap = pct.value_or(100.0) / 100.0;
      } else if (kind == StrategyKind::hami) {
        const auto pct = settings && settings->gpucores_pct ? settings->gpucores_pct : strategy.gpucores_pct;
        c.cap = pct.value_or(100.0) / 100.0;
      }
      contexts.push_back(c);
    }
  }
  std::stable_sort(contexts.begin(), contexts.end(),
                   [](const PlacedContext& a, const PlacedContext& b) { return a.memory_gib > b.memory_gib; });

  std::size_t spread_cursor = 0;
  for (const auto& context : contexts) {
    const auto& tenant = scenario.tenants[static_cast<std::size_t>(context.tenant)];
    const auto found = strategy.tenants.find(tenant.name);
    const auto* settings = found == strategy.tenants.end() ? nullptr : &found->second;
    const bool needs_own_device = tenant.isolation > provided;
    const std::string wanted_profile = settings ? settings->mig_profile : std::string();

    auto admissible = [&](const Slot& slot, bool allow_overcommit) {
      if (slot.max_contexts > 0 && static_cast<int>(slot.device.contexts.size()) >= slot.max_contexts) return false;
      if (slot.owner_tenant >= 0 && slot.owner_tenant != context.tenant) return false;
      if (needs_own_device && !slot.device.contexts.empty() &&
          std::any_of(slot.device.contexts.begin(), slot.device.contexts.end(),
                      [&](const PlacedContext& c) { return c.tenant != context.tenant; })) {
        return false;
      }
      if (!wanted_profile.empty() && slot.device.mig_profile != wanted_profile) return false;
      const double device_gib = slot.device.memory_gib;
      if (context.memory_gib > device_gib) return false;
      if (slot.isolated_memory) {
        const double reserve = std::max(context.memory_gib,
                                        memory_limit(strategy, settings, context.memory_gib, device_gib));
        return slot.reserved_gib + reserve <= device_gib + 1e-9;
      }
      return allow_overcommit || slot.reserved_gib + context.memory_gib <= device_gib + 1e-9;
    };

    std::optional<std::size_t> chosen;
    if (strategy.placement == scenario::PlacementPolicy::spread && !is_mig(kind)) {
      for (std::size_t step = 0; step < slots.size() && !chosen; ++step) {
        const std::size_t s = (spread_cursor + step) % slots.size();
        if (admissible(slots[s], true)) chosen = s;
      }
      if (chosen) spread_cursor = *chosen + 1;
    } else {
      // 1) a used slot where it fits, 2) an unused slot (best fit by memory for MIG), 3) overcommit.
      for (std::size_t s = 0; s < slots.size() && !chosen; ++s) {
        if (!slots[s].device.contexts.empty() && admissible(slots[s], false)) chosen = s;
      }
      if (!chosen) {
        for (std::size_t s = 0; s < slots.size(); ++s) {
          if (!slots[s].device.contexts.empty() || !admissible(slots[s], false)) continue;
          if (!chosen || slots[s].device.memory_gib < slots[*chosen].device.memory_gib) chosen = s;
          if (!is_mig(kind)) break;
        }
      }
      if (!chosen) {
        for (std::size_t s = 0; s < slots.size() && !chosen; ++s) {
          if (!slots[s].device.contexts.empty() && admissible(slots[s], true)) chosen = s;
        }
      }
    }

    const std::string who = tenant.name + "#" + std::to_string(context.replica);
    if (!chosen) {
      result.num_unplaced[static_cast<std::size_t>(context.tenant)]++;
      std::string why = "no device left that can take it";
      if (!wanted_profile.empty()) why = "no free " + wanted_profile + " instance";
      else if (needs_own_device) {
        why = "it needs " + models::to_string(tenant.isolation) + " isolation, which " + strategy.name +
              " gives only on a device of its own, and none is free";
      }
      result.issues.push_back(who + " (" + format_number(context.memory_gib) + " GiB) is unplaceable: " + why);
      continue;
    }
    Slot& slot = slots[*chosen];
    const double reserve = slot.isolated_memory
                               ? std::max(context.memory_gib, memory_limit(strategy, settings, context.memory_gib,
                                                                           slot.device.memory_gib))
                               : context.memory_gib;
    slot.reserved_gib += reserve;
    if (needs_own_device) slot.owner_tenant = context.tenant;
    slot.device.contexts.push_back(context);
  }

  std::vector<bool> gpu_used(fleet_gpu_ids.size(), false);
  for (auto& slot : slots) {
    if (slot.device.contexts.empty()) continue;
    auto& device = slot.device;
    // Keep contexts in tenant order on each device: deterministic and readable.
    std::stable_sort(device.contexts.begin(), device.contexts.end(), [](const PlacedContext& a, const PlacedContext& b) {
      return a.tenant != b.tenant ? a.tenant < b.tenant : a.replica < b.replica;
    });
    device.sharing = sharing_for(strategy, defaults, static_cast<int>(device.contexts.size()));
    device.sharing.roofline_sharpness = defaults.roofline_sharpness_for(device.gpu_id);
    if (strategy.exact && device.sharing.discipline == models::SharingDiscipline::time_sliced) {
      device.exact_quanta = true;
      const double quantum_ms = kind == StrategyKind::vgpu
                                    ? strategy.timeslice_ms.value_or(device.contexts.size() > 8 ? 1.0 : 2.0)
                                    : strategy.quantum_ms.value_or(defaults.quantum_ms);
      device.quantum_s = quantum_ms / 1000.0;
      device.switch_cost_s = strategy.switch_cost_ms.value_or(defaults.switch_cost_ms) / 1000.0;
    }
    if (!slot.isolated_memory && slot.reserved_gib > device.memory_gib + 1e-9) {
      device.oom_risk = true;
      result.issues.push_back(device.name + ": out-of-memory risk: contexts hold " + format_number(slot.reserved_gib) +
                              " GiB of " + format_number(device.memory_gib) + " GiB and " + strategy.name +
                              " does not isolate memory");
    }
    gpu_used[static_cast<std::size_t>(device.gpu_index)] = true;
    result.devices.push_back(std::move(device));
  }
  result.num_gpus_used = static_cast<int>(std::count(gpu_used.begin(), gpu_used.end(), true));
  return result;
}

}  // namespace slicewise::sim
