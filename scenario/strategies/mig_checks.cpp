// MIG layout checks (see mig_checks.hpp).
#include "scenario/strategies/mig_checks.hpp"

#include <algorithm>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/mig_layout.hpp"
#include "scenario/scenario_checker.hpp"

namespace slicewise::scenario {

namespace {

using detail::gib;

/// True when every fleet GPU can be partitioned; otherwise false after naming the ones that can.
bool fleet_is_mig_capable(const StrategySpec& spec, const StrategyCheck& c) {
  std::vector<std::string> not_capable;
  for (const auto* gpu : c.fleet_gpus) {
    if (!gpu->mig_capable || !c.catalogs.mig->find(gpu->id)) not_capable.push_back(gpu->id);
  }
  if (not_capable.empty()) return true;
  std::vector<std::string> capable;
  for (const auto& gpu : c.catalogs.gpus->gpus()) {
    if (gpu.mig_capable && c.catalogs.mig->find(gpu.id)) capable.push_back(gpu.id);
  }
  c.add(c.pointer + "/kind", models::to_string(spec.kind) + " needs a MIG-capable GPU, but the fleet has " +
                                 join(not_capable, ", ") + " (MIG-capable: " + join(capable, ", ") + ")");
  return false;
}

/// Per-tenant profiles must be in the layout; each tenant must fit its instance (or, without a
/// profile, the layout's largest instance).
void check_fit(const StrategySpec& spec, const StrategyCheck& c, const models::GpuSpec& gpu,
               const models::MigPlacement& placed) {
  const models::MigInstance* largest = nullptr;
  std::vector<std::string> profiles;
  for (const auto& instance : placed.instances) {
    if (!largest || instance.memory_gib > largest->memory_gib) largest = &instance;
    if (std::find(profiles.begin(), profiles.end(), instance.profile) == profiles.end()) {
      profiles.push_back(instance.profile);
    }
  }
  const std::string on = c.fleet_gpus.size() > 1 ? " on " + gpu.id : "";
  const auto& tenants = c.scenario.tenants;
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    const auto& t = tenants[i];
    if (c.tenants_too_big.count(i)) continue;
    const auto found = spec.tenants.find(t.name);
    const std::string profile = found == spec.tenants.end() ? "" : found->second.mig_profile;
    if (profile.empty()) {
      if (largest && t.workload.memory_gib > largest->memory_gib) {
        c.add(c.pointer + "/layout", "tenant \"" + t.name + "\" needs " + gib(t.workload.memory_gib) +
                                         "; the largest instance of this layout" + on + ", " + largest->profile +
                                         ", has " + gib(largest->memory_gib));
      }
      continue;
    }
    const std::string at = c.pointer + "/tenants/" + json_pointer_token(t.name) + "/mig_profile";
    const auto it = std::find_if(placed.instances.begin(), placed.instances.end(),
                                 [&](const models::MigInstance& m) { return m.profile == profile; });
    if (it == placed.instances.end()) {
      std::string message = "\"" + profile + "\" is not an instance of the layout";
      message += on;
      message += "; expected " + join(profiles, "|");
      if (profiles.size() > 1) message += did_you_mean_suffix(profile, profiles);
      c.add(at, std::move(message));
    } else if (t.workload.memory_gib > it->memory_gib) {
      std::string message = "tenant \"" + t.name + "\" needs " + gib(t.workload.memory_gib) + "; ";
      message += profile;
      message += on;
      message += " has " + gib(it->memory_gib);
      c.add(at, std::move(message));
    }
  }
}

}  // namespace

void check_mig_layout(const StrategySpec& spec, const StrategyCheck& c) {
  if (spec.layout.empty()) {
    c.add(c.pointer + "/layout",
          "missing MIG layout (required for strategy kind \"" + models::to_string(spec.kind) + "\")");
    return;
  }
  if (!fleet_is_mig_capable(spec, c)) return;
  for (const auto* gpu : c.fleet_gpus) {
    const auto placed = models::place_mig_layout(*c.catalogs.mig->find(gpu->id), spec.layout);
    if (!placed.valid) {
      c.add(c.pointer + "/layout", "invalid MIG layout for " + gpu->id + ": " + placed.reason);
      continue;
    }
    check_fit(spec, c, *gpu, placed);
  }
}

}  // namespace slicewise::scenario
