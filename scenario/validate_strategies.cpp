// The strategy checks of validate_scenario: keys set for another kind, per-tenant settings (known
// tenant, key applies), MIG (capable fleet, valid layout, tenants fit their instances), MPS client
// limits, vGPU fixed_share and the sidecars' instance types.
#include <algorithm>

#include "core/spell.hpp"
#include "models/mig_catalog.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/scenario_checker.hpp"

namespace slicewise::scenario::detail {

using models::StrategyKind;

namespace {

constexpr int kMaxMpsClients = 48;  // CUDA MPS clients per GPU (Volta and later)

bool is_mig(StrategyKind kind) { return kind == StrategyKind::mig || kind == StrategyKind::mig_time_slicing; }

/// The JSON keys of the fields that `is_set` marks, in table order.
std::vector<std::string> set_keys(const std::vector<std::pair<std::string, bool>>& is_set) {
  std::vector<std::string> set;
  for (const auto& [key, set_here] : is_set) {
    if (set_here) set.push_back(key);
  }
  return set;
}

/// The StrategySpec fields that differ from their defaults, by JSON key.
std::vector<std::string> set_strategy_fields(const StrategySpec& s) {
  return set_keys({{"replicas", s.replicas != 0},
                   {"quantum_ms", s.quantum_ms.has_value()},
                   {"switch_cost_ms", s.switch_cost_ms.has_value()},
                   {"exact", s.exact},
                   {"active_thread_pct", s.active_thread_pct.has_value()},
                   {"pinned_memory_limit_gib", s.pinned_memory_limit_gib.has_value()},
                   {"layout", !s.layout.empty()},
                   {"gpucores_pct", s.gpucores_pct.has_value()},
                   {"gpumem_gib", s.gpumem_gib.has_value()},
                   {"vgpu_scheduler", s.vgpu_scheduler != VgpuScheduler::best_effort},
                   {"timeslice_ms", s.timeslice_ms.has_value()}});
}

/// The TenantStrategySettings fields that are set, by JSON key.
std::vector<std::string> set_setting_fields(const TenantStrategySettings& t) {
  return set_keys({{"mig_profile", !t.mig_profile.empty()},
                   {"active_thread_pct", t.active_thread_pct.has_value()},
                   {"gpucores_pct", t.gpucores_pct.has_value()},
                   {"gpumem_gib", t.gpumem_gib.has_value()},
                   {"weight", t.weight.has_value()}});
}

}  // namespace

void ScenarioChecker::strategy(std::size_t j) {
  const auto& st = s_.strategies[j];
  const std::string pointer = "/strategies/" + std::to_string(j);
  unused_strategy_fields(st, pointer);
  tenant_settings(st, pointer);
  if (is_mig(st.kind)) mig(st, pointer);
  if (st.kind == StrategyKind::mps) mps(st, pointer);
  if (st.kind == StrategyKind::vgpu && st.vgpu_scheduler == VgpuScheduler::fixed_share && st.replicas <= 0) {
    add(pointer + "/replicas",
        "vgpu_scheduler fixed_share needs the number of vGPUs per GPU of the vGPU profile (got 0)");
  }
  for (std::size_t k = 0; k < st.sidecars.size(); ++k) {
    const std::string at = pointer + "/sidecars/" + std::to_string(k) + "/instance_type";
    instance(st.sidecars[k].instance_type, at);
  }
}

/// Fields set on a strategy whose kind does not use them (an in-memory scenario can have them).
void ScenarioChecker::unused_strategy_fields(const StrategySpec& st, const std::string& pointer) {
  const std::string kind = models::to_string(st.kind);
  for (const auto& key : set_strategy_fields(st)) {
    if (!uses(strategy_keys(), key, st.kind)) {
      add(pointer + "/" + key, "set, but not used by strategy kind \"" + kind + "\" (applies to " +
                                   kinds_using(strategy_keys(), key, models::strategy_kind_table()) + ")");
    }
  }
}

/// Each per-tenant entry names a tenant, and each of its settings applies to the strategy.
void ScenarioChecker::tenant_settings(const StrategySpec& st, const std::string& pointer) {
  std::vector<std::string> names;
  for (const auto& t : s_.tenants) names.push_back(t.name);
  const std::string kind = models::to_string(st.kind);
  for (const auto& [name, settings] : st.tenants) {
    const std::string at = pointer + "/tenants/" + json_pointer_token(name);
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      const auto hint = did_you_mean_suffix(name, names);
      add(at, "unknown tenant \"" + name + "\"" + (hint.empty() ? "; tenants: " + join(names, ", ") : hint));
    }
    for (const auto& key : set_setting_fields(settings)) {
      if (!uses(tenant_setting_keys(), key, st.kind)) {
        add(at + "/" + key, "does not apply to strategy kind \"" + kind + "\" (applies to " +
                                kinds_using(tenant_setting_keys(), key, models::strategy_kind_table()) + ")");
      } else if (key == "weight" && st.kind == StrategyKind::vgpu &&
                 st.vgpu_scheduler != VgpuScheduler::fixed_share) {
        add(at + "/weight", "applies to vgpu only with vgpu_scheduler fixed_share (got " +
                                name_of(vgpu_scheduler_table(), st.vgpu_scheduler) + ")");
      }
    }
  }
}

/// A MIG strategy needs a layout, a MIG-capable fleet, and a layout valid on every fleet GPU.
void ScenarioChecker::mig(const StrategySpec& st, const std::string& pointer) {
  if (st.layout.empty()) {
    add(pointer + "/layout", "missing MIG layout (required for strategy kind \"" + models::to_string(st.kind) + "\")");
    return;
  }
  if (!fleet_is_mig_capable(st, pointer)) return;
  for (const auto* gpu : fleet_gpus_) {
    const auto placed = models::place_mig_layout(*c_.mig->find(gpu->id), st.layout);
    if (!placed.valid) {
      add(pointer + "/layout", "invalid MIG layout for " + gpu->id + ": " + placed.reason);
      continue;
    }
    mig_fit(st, pointer, *gpu, placed);
  }
}

/// True when every fleet GPU can be partitioned; otherwise false after naming the ones that can.
bool ScenarioChecker::fleet_is_mig_capable(const StrategySpec& st, const std::string& pointer) {
  std::vector<std::string> not_capable;
  for (const auto* gpu : fleet_gpus_) {
    if (!gpu->mig_capable || !c_.mig->find(gpu->id)) not_capable.push_back(gpu->id);
  }
  if (not_capable.empty()) return true;
  std::vector<std::string> capable;
  for (const auto& gpu : c_.gpus->gpus()) {
    if (gpu.mig_capable && c_.mig->find(gpu.id)) capable.push_back(gpu.id);
  }
  add(pointer + "/kind", models::to_string(st.kind) + " needs a MIG-capable GPU, but the fleet has " +
                             join(not_capable, ", ") + " (MIG-capable: " + join(capable, ", ") + ")");
  return false;
}

/// Per-tenant profiles must be in the layout; each tenant must fit its instance (or, without a
/// profile, the layout's largest instance).
void ScenarioChecker::mig_fit(const StrategySpec& st, const std::string& pointer, const models::GpuSpec& gpu,
                              const models::MigPlacement& placed) {
  const models::MigInstance* largest = nullptr;
  std::vector<std::string> profiles;
  for (const auto& instance : placed.instances) {
    if (!largest || instance.memory_gib > largest->memory_gib) largest = &instance;
    if (std::find(profiles.begin(), profiles.end(), instance.profile) == profiles.end()) {
      profiles.push_back(instance.profile);
    }
  }
  const std::string on = fleet_gpus_.size() > 1 ? " on " + gpu.id : "";
  for (std::size_t i = 0; i < s_.tenants.size(); ++i) {
    const auto& t = s_.tenants[i];
    if (too_big_.count(i)) continue;
    const auto found = st.tenants.find(t.name);
    const std::string profile = found == st.tenants.end() ? "" : found->second.mig_profile;
    if (profile.empty()) {
      if (largest && t.workload.memory_gib > largest->memory_gib) {
        add(pointer + "/layout", "tenant \"" + t.name + "\" needs " + gib(t.workload.memory_gib) +
                                     "; the largest instance of this layout" + on + ", " + largest->profile +
                                     ", has " + gib(largest->memory_gib));
      }
      continue;
    }
    const std::string at = pointer + "/tenants/" + json_pointer_token(t.name) + "/mig_profile";
    const auto it = std::find_if(placed.instances.begin(), placed.instances.end(),
                                 [&](const models::MigInstance& m) { return m.profile == profile; });
    if (it == placed.instances.end()) {
      add(at, "\"" + profile + "\" is not an instance of the layout" + on + "; expected " + join(profiles, "|") +
                  (profiles.size() > 1 ? did_you_mean_suffix(profile, profiles) : ""));
    } else if (t.workload.memory_gib > it->memory_gib) {
      add(at, "tenant \"" + t.name + "\" needs " + gib(t.workload.memory_gib) + "; " + profile + on + " has " +
                  gib(it->memory_gib));
    }
  }
}

/// MPS serves at most kMaxMpsClients clients per GPU: per replica count and over the fleet.
void ScenarioChecker::mps(const StrategySpec& st, const std::string& pointer) {
  if (st.replicas > kMaxMpsClients) {
    add(pointer + "/replicas", "MPS serves at most " + std::to_string(kMaxMpsClients) + " clients per GPU (got " +
                                   std::to_string(st.replicas) + ")");
  }
  const std::int64_t contexts = total_contexts();
  if (num_gpus_ > 0 && contexts > kMaxMpsClients * num_gpus_) {
    add(pointer, std::to_string(contexts) + " contexts need more than " + std::to_string(kMaxMpsClients) +
                     " MPS clients per GPU on the fleet's " + std::to_string(num_gpus_) + " GPU(s)");
  }
}

}  // namespace slicewise::scenario::detail
