// Deployable configs (deploy_config.hpp), written with yaml-cpp. Formats, as documented upstream:
// - NVIDIA k8s-device-plugin config file, `version: v1`, `flags.migStrategy`, `sharing.timeSlicing`
//   / `sharing.mps` with `renameByDefault`, `failRequestsGreaterThanOne` and `resources[]` of `name`
//   and `replicas` (github.com/NVIDIA/k8s-device-plugin, README "Shared Access to GPUs"); the GPU
//   operator reads it from a ConfigMap key named by `devicePlugin.config` (docs.nvidia.com,
//   gpu-operator "Time-Slicing GPUs in Kubernetes").
// - nvidia-mig-parted config, `version: v1`, `mig-configs.NAME[]` of `devices`, `mig-enabled`,
//   `mig-devices` (profile -> count) (github.com/NVIDIA/mig-parted, examples/config.yaml); the GPU
//   operator's MIG manager applies the one named by the node label `nvidia.com/mig.config`.
// - HAMi container limits `nvidia.com/gpu`, `nvidia.com/gpumem` (MiB), `nvidia.com/gpucores` (%),
//   `nvidia.com/priority` (0 high, 1 low) and `schedulerName: hami-scheduler`
//   (github.com/Project-HAMi/HAMi, README and docs/config.md).
#include "report/deploy_parts.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.hpp"
#include "core/spell.hpp"
#include "models/mig_catalog.hpp"
#include "models/mig_layout.hpp"
#include "report/k8s_text.hpp"
#include "report/text_table.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report::deploy {

/// The mig-parted config that a phase selects: "slicewise", or "slicewise-PHASE" for a layout
/// schedule's phase.
std::string mig_config_name(const std::string& phase) {
  return phase.empty() ? std::string(kConfigName) : std::string(kConfigName) + "-" + kubernetes_name(phase);
}

}  // namespace slicewise::report::deploy

namespace slicewise::report {

using namespace deploy;  // the parts' names (deploy_parts.hpp)

namespace {

/// The mig-parted config of the strategy's k-th layout (`layouts`): "slicewise-layout1", ...
std::string layout_config_name(std::size_t k) { return std::string(kConfigName) + "-layout" + std::to_string(k + 1); }

/// With `layouts`: which of them each MIG GPU of `result` has, as its mig-parted config: the first
/// whose instances include every instance (profile and slot) that its devices use.
std::map<int, std::string> gpu_mig_configs(const scenario::StrategyResult& result, const scenario::StrategySpec& spec) {
  std::map<int, std::set<std::pair<std::string, int>>> used;  // GPU -> (profile, start slot)
  for (const auto& d : result.devices) {
    if (d.mig_profile.empty() || d.reserved) continue;
    used[d.gpu_index].insert({d.mig_profile, scenario::mig_start_slot(d)});
  }
  std::map<int, std::string> out;
  for (const auto& [index, instances] : used) {
    const int g = index;
    const auto gpu = std::find_if(result.devices.begin(), result.devices.end(),
                                  [g](const scenario::DeviceResult& d) { return d.gpu_index == g; });
    const auto* geometry = models::MigCatalog::shipped().find(gpu->gpu);
    for (std::size_t k = 0; geometry && k < spec.layouts.size() && !out.count(g); ++k) {
      const auto placed = models::place_mig_layout(*geometry, spec.layouts[k]);
      std::set<std::pair<std::string, int>> offered;
      for (const auto& m : placed.instances) offered.insert({m.profile, m.start_slot});
      if (std::includes(offered.begin(), offered.end(), instances.begin(), instances.end())) {
        out[g] = layout_config_name(k);
      }
    }
  }
  return out;
}

/// Whether the Deployments keep the simulated GPU of each pod. Where devices are shared, which
/// contexts share one is the simulation's result; on a fleet of several GPU types (or with reserved
/// pools) every pod must land on a node of the type it was simulated on; with several MIG layouts,
/// on a node of its GPU's layout.
bool pinned(const scenario::StrategyResult& result, const scenario::StrategySpec& spec) {
  const bool mixed = std::any_of(result.devices.begin(), result.devices.end(), [&](const scenario::DeviceResult& d) {
    return d.reserved || d.gpu != result.devices.front().gpu;
  });
  const auto sharer = scenario::policy_of(spec.kind).deploy_sharer();
  return mixed || !spec.layouts.empty() || sharer == Sharer::device_plugin_time_slicing ||
         sharer == Sharer::device_plugin_mps || sharer == Sharer::hami;
}

/// A pool's GPU: its tenant's own, on the node that carries it, with no sharing config there.
void add_pool_gpu(const scenario::DeviceResult& d, Placed& p, std::map<std::string, std::map<Group, int>>& grouped) {
  for (const auto& c : d.contexts) {
    p.contexts[scenario::tenant_of_context(c)][""]++;
    grouped[scenario::tenant_of_context(c)][Group{d.phase, d.gpu_index, "", 0, d.gpu, true, ""}]++;
  }
  p.unshared_gpus.insert(d.gpu_index);
  p.pool_gpus.insert(d.gpu_index);
}

Placed placed_of(const scenario::StrategyResult& result, const scenario::Scenario& scenario,
                 const scenario::StrategySpec& spec) {
  Placed p;
  const auto& policy = scenario::policy_of(spec.kind);
  p.pinned = pinned(result, spec);
  if (!spec.layouts.empty()) p.mig_configs = gpu_mig_configs(result, spec);
  std::map<std::string, std::map<Group, int>> grouped;
  if (!result.devices.empty()) p.gpu = result.devices.front().gpu;
  const auto shared = std::find_if(result.devices.begin(), result.devices.end(),
                                   [](const scenario::DeviceResult& d) { return !d.reserved; });
  if (shared != result.devices.end()) p.gpu = shared->gpu;
  p.num_gpus = result.num_gpus_used;
  std::map<int, int> per_gpu;
  for (const auto& d : result.devices) {
    if (d.reserved) {
      add_pool_gpu(d, p, grouped);
      continue;
    }
    per_gpu[d.gpu_index] += static_cast<int>(d.contexts.size());
    if (!d.mig_profile.empty()) {
      int& most = p.most_per_instance[d.mig_profile];
      most = std::max(most, static_cast<int>(d.contexts.size()));
    }
    for (const auto& c : d.contexts) {
      p.contexts[scenario::tenant_of_context(c)][d.mig_profile]++;
      const auto config = p.mig_configs.find(d.gpu_index);
      grouped[scenario::tenant_of_context(c)][Group{d.phase, p.pinned ? d.gpu_index : -1, d.mig_profile, 0, d.gpu,
                                                    false, config == p.mig_configs.end() ? "" : config->second}]++;
      const auto* tenant = scenario::find_tenant(scenario, scenario::tenant_of_context(c));
      if (p.pinned && !policy.partitions_gpus() && tenant && tenant->isolation > policy.isolation()) {
        p.unshared_gpus.insert(d.gpu_index);
      }
    }
  }
  for (auto& [tenant, groups] : grouped) {
    for (const auto& [group, n] : groups) {
      p.groups[tenant].push_back(group);
      p.groups[tenant].back().contexts = n;
    }
  }
  for (const auto& [gpu, n] : per_gpu) p.most_contexts_per_gpu = std::max(p.most_contexts_per_gpu, n);
  return p;
}

/// The profiles of `placed` that a tenant needing more isolation than `spec` gives holds alone.
std::set<std::string> unshared_profiles(const scenario::Scenario& scenario, const scenario::StrategySpec& spec,
                                        const Placed& placed) {
  std::set<std::string> out;
  const auto& policy = scenario::policy_of(spec.kind);
  if (!policy.shares_by_profile()) return out;
  for (const auto& [profile, most] : placed.most_per_instance) {
    std::vector<std::string> on;
    for (const auto& [tenant, profiles] : placed.contexts) {
      if (profiles.count(profile)) on.push_back(tenant);
    }
    const auto* tenant = on.size() == 1 ? scenario::find_tenant(scenario, on.front()) : nullptr;
    if (tenant && tenant->isolation > policy.isolation()) out.insert(profile);
  }
  return out;
}

/// Why the device plugin cannot deploy the placement ("" when it can): a tenant that needs an
/// instance of its own on a MIG profile whose other instances other tenants use (it shares every
/// instance of a profile alike; slicewise's placement has kept to that since 2026-11-29).
std::string undeployable(const scenario::Scenario& scenario, const scenario::StrategySpec& spec, const Placed& placed) {
  const auto& policy = scenario::policy_of(spec.kind);
  if (!policy.shares_by_profile()) return "";
  for (const auto& tenant : scenario.tenants) {
    if (tenant.isolation <= policy.isolation()) continue;
    const auto found = placed.contexts.find(tenant.name);
    if (found == placed.contexts.end()) continue;
    for (const auto& [profile, n] : found->second) {
      if (!placed.unshared_profiles.count(profile)) {
        return markdown_text(tenant.name) + " needs an instance of its own, but other tenants use other " + profile +
               " instances, and the device plugin shares all instances of a profile alike";
      }
    }
  }
  return "";
}

/// The device plugin's config file (the text a ConfigMap key holds).
std::string device_plugin_config(const scenario::StrategySpec& spec, const Placed& placed) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
  const auto& policy = scenario::policy_of(spec.kind);
  const bool mig = policy.partitions_gpus();
  const auto sharer = policy.deploy_sharer();
  y << YAML::Key << "flags" << YAML::Value << YAML::BeginMap << YAML::Key << "migStrategy" << YAML::Value
    << (mig ? "mixed" : "none") << YAML::EndMap;
  // The shared resources and their replicas: per MIG profile (not one a tenant holds alone), or
  // the whole GPU.
  std::vector<std::pair<std::string, int>> shared;
  if (plugin_shares(sharer)) {
    if (mig) {
      for (const auto& [profile, most] : placed.most_per_instance) {
        if (!placed.unshared_profiles.count(profile))
          shared.emplace_back("nvidia.com/mig-" + profile, std::max(2, most));
      }
    } else {
      // Under MPS the R the simulation split each GPU by; time-slicing replicas only bound packing,
      // so the most contexts on one GPU, as simulated.
      shared.emplace_back("nvidia.com/gpu", policy.splits_by_replicas(spec)
                                                ? scenario::device_plugin_replicas(spec, placed.most_contexts_per_gpu)
                                                : std::max(2, placed.most_contexts_per_gpu));
    }
  }
  if (!shared.empty()) {
    y << YAML::Key << "sharing" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << (sharer == Sharer::device_plugin_mps ? "mps" : "timeSlicing") << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "renameByDefault" << YAML::Value << false;
    y << YAML::Key << "failRequestsGreaterThanOne" << YAML::Value << true;
    y << YAML::Key << "resources" << YAML::Value << YAML::BeginSeq;
    for (const auto& [name, replicas] : shared) {
      y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name << YAML::Key << "replicas" << YAML::Value
        << replicas << YAML::EndMap;
    }
    y << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
  }
  y << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

std::string config_map(const std::string& name, const std::string& ns, const std::string& key,
                       const std::string& text) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << "v1" << YAML::Key << "kind" << YAML::Value
    << "ConfigMap";
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
    << YamlString{name} << YAML::Key << "namespace" << YAML::Value << YamlString{ns} << YAML::EndMap;
  y << YAML::Key << "data" << YAML::Value << YAML::BeginMap << YAML::Key << key << YAML::Value << YAML::Literal << text
    << YAML::EndMap << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

/// A MIG layout per profile, in the order of first appearance: "3g+1g+1g" -> {3g: 1, 1g: 2}.
std::vector<std::pair<std::string, int>> layout_counts(const std::string& layout) {
  std::string error;
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& profile : models::split_mig_layout(layout, error)) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& e) { return e.first == profile; });
    if (it == counts.end()) {
      counts.emplace_back(profile, 1);
    } else {
      ++it->second;
    }
  }
  return counts;
}

/// The strategy's mig-parted config: its layout, or one entry per phase of its layout schedule,
/// and the operator's all-disabled.
std::string mig_parted_config(const scenario::StrategySpec& spec) {
  std::vector<std::pair<std::string, std::string>> layouts;  // config name, layout
  if (spec.layout_schedule) {
    for (const auto& phase : spec.layout_schedule->phases)
      layouts.emplace_back(mig_config_name(phase.name), phase.layout);
  } else if (!spec.layouts.empty()) {
    for (std::size_t k = 0; k < spec.layouts.size(); ++k) layouts.emplace_back(layout_config_name(k), spec.layouts[k]);
  } else {
    layouts.emplace_back(kConfigName, spec.layout);
  }
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
  y << YAML::Key << "mig-configs" << YAML::Value << YAML::BeginMap;
  for (const auto& [name, layout] : layouts) {
    y << YAML::Key << name << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    y << YAML::Key << "devices" << YAML::Value << "all" << YAML::Key << "mig-enabled" << YAML::Value << true;
    y << YAML::Key << "mig-devices" << YAML::Value << YAML::BeginMap;
    for (const auto& [profile, count] : layout_counts(layout)) y << YAML::Key << profile << YAML::Value << count;
    y << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  }
  // The GPU operator labels every GPU node nvidia.com/mig.config=all-disabled until told otherwise,
  // and a MIG manager whose config lacks the label's entry fails ("selected mig-config not present").
  y << YAML::Key << kAllDisabled << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "devices"
    << YAML::Value << "all" << YAML::Key << "mig-enabled" << YAML::Value << false << YAML::EndMap << YAML::EndSeq;
  y << YAML::EndMap << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

}  // namespace

std::vector<ConfigFile> deploy_configs(const scenario::SimResult& result, const std::string& strategy,
                                       const std::string& namespace_name) {
  const auto spec_it = std::find_if(result.input.strategies.begin(), result.input.strategies.end(),
                                    [&](const scenario::StrategySpec& s) { return s.name == strategy; });
  const auto run_it = std::find_if(result.strategies.begin(), result.strategies.end(),
                                   [&](const scenario::StrategyResult& s) { return s.name == strategy; });
  if (spec_it == result.input.strategies.end() || run_it == result.strategies.end()) {
    std::vector<std::string> names;
    for (const auto& s : result.strategies) names.push_back(s.name);
    throw ConfigError("--strategy", "", "the result has no strategy \"" + strategy + "\"; it has " + join(names, "|"));
  }
  if (const auto problem = namespace_problem(namespace_name); !problem.empty()) {
    throw ConfigError("--namespace", "", "\"" + one_line(namespace_name) + "\" " + problem);
  }
  Placed placed = placed_of(*run_it, result.input, *spec_it);
  placed.unshared_profiles = unshared_profiles(result.input, *spec_it, placed);
  if (const auto problem = undeployable(result.input, *spec_it, placed); !problem.empty()) {
    throw ConfigError("--strategy", "",
                      "\"" + one_line(strategy) + "\" cannot be deployed as simulated: " + problem +
                          ". Simulate it again with this slicewise, whose placement follows the device plugin");
  }
  // The spec as simulated: under the device plugin's MPS, the replicas it advertises per GPU.
  scenario::StrategySpec spec = *spec_it;
  const auto& policy = scenario::policy_of(spec.kind);
  if (const auto problem = policy.not_deployable(spec); !problem.empty()) {
    throw ConfigError("--strategy", "", "\"" + one_line(strategy) + "\" " + problem);
  }
  if (policy.splits_by_replicas(spec)) {
    spec.replicas = scenario::device_plugin_replicas(spec, placed.most_contexts_per_gpu);
  }
  std::vector<ConfigFile> files;
  if (policy.partitions_gpus()) {
    const std::string parted = mig_parted_config(spec);
    files.push_back({"mig-parted-config.yaml", parted});
    files.push_back({"mig-config.yaml", config_map("slicewise-mig-config", namespace_name, "config.yaml", parted)});
  }
  if (plugin_shares(policy.deploy_sharer()) || policy.partitions_gpus()) {
    files.push_back({"device-plugin-config.yaml", config_map("slicewise-device-plugin", namespace_name, kConfigName,
                                                             device_plugin_config(spec, placed))});
  }
  files.push_back({"deployments.yaml", deployments(result.input, spec, placed)});
  if (spec.layout_schedule) files.push_back({"switch-phase.sh", switch_phase_script(result.input, spec, placed)});
  files.insert(files.begin(), ConfigFile{"README.md", ""});
  files.front().text = readme(result, spec, *run_it, placed, files, namespace_name);
  return files;
}

std::vector<std::pair<std::string, int>> read_mig_parted_config(const std::string& yaml_text,
                                                                const std::string& config) {
  try {
    const YAML::Node root = YAML::Load(yaml_text);
    if (!root["version"] || root["version"].as<std::string>() != "v1" || !root["mig-configs"].IsMap()) {
      throw ConfigError("mig-parted config", "", "not a v1 mig-parted config (version: v1, mig-configs)");
    }
    YAML::Node chosen;
    for (const auto& entry : root["mig-configs"]) {
      if (config.empty() || entry.first.as<std::string>() == config) {
        chosen = entry.second;
        break;
      }
    }
    if (!chosen || !chosen.IsSequence() || chosen.size() == 0) {
      throw ConfigError("mig-parted config", "", "no mig-config named \"" + config + "\"");
    }
    std::vector<std::pair<std::string, int>> counts;
    for (const auto& device : chosen[0]["mig-devices"])
      counts.emplace_back(device.first.as<std::string>(), device.second.as<int>());
    return counts;
  } catch (const YAML::Exception& e) {
    throw ConfigError("mig-parted config", "", std::string("malformed YAML: ") + e.what());
  }
}

}  // namespace slicewise::report
