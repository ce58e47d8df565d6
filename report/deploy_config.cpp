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
#include "report/deploy_config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "models/mig_layout.hpp"
#include "report/k8s_text.hpp"
#include "report/text_table.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

using Sharer = scenario::DeploySharer;

namespace {

/// True when NVIDIA's device plugin shares the devices (its config then has a sharing section).
bool plugin_shares(Sharer sharer) {
  return sharer == Sharer::device_plugin_time_slicing || sharer == Sharer::device_plugin_mps;
}

constexpr const char* kConfigName = "slicewise";
constexpr const char* kAllDisabled = "all-disabled";              // the GPU operator's default mig.config label
constexpr const char* kMigConfigLabel = "nvidia.com/mig.config";  // node label: the MIG manager's config
constexpr const char* kGpuLabel = "slicewise.io/gpu";             // node label: the simulated GPU the node carries
constexpr const char* kPhaseLabel = "slicewise.io/phase";         // a Deployment's layout-schedule phase

/// A tenant's contexts that one Deployment runs: in one phase of a layout schedule, on one GPU
/// (where the strategy's placement must be kept), on one MIG profile.
struct Group {
  std::string phase;    ///< "" without a layout schedule
  int gpu = -1;         ///< the GPU its pods are pinned to; -1 = anywhere (exclusive devices)
  std::string profile;  ///< "" for whole GPUs
  int contexts = 0;
  std::string gpu_id;  ///< the GPU type its pods run on
  bool pool = false;   ///< on GPUs a fleet entry reserves for its tenant: whole, unshared
  /// With `layouts`: the mig-parted config of its GPU's layout, which its node must carry.
  std::string mig_config;
  bool operator<(const Group& o) const { return std::tie(phase, gpu, profile) < std::tie(o.phase, o.gpu, o.profile); }
};

/// What the export needs to know of the placement.
struct Placed {
  std::string gpu;  ///< the strategy's GPU id ("" when nothing was placed)
  int num_gpus = 0;
  int most_contexts_per_gpu = 0;                 ///< over whole GPUs
  std::map<std::string, int> most_per_instance;  ///< MIG profile -> most contexts on one instance
  /// tenant -> MIG profile ("" for whole GPUs) -> contexts
  std::map<std::string, std::map<std::string, int>> contexts;
  /// tenant -> its Deployments' groups
  std::map<std::string, std::vector<Group>> groups;
  bool pinned = false;          ///< Deployments keep the simulated co-location (a node label per GPU)
  std::set<int> unshared_gpus;  ///< GPUs a tenant needing a device of its own holds (no sharing config)
  std::set<int> pool_gpus;      ///< GPUs of reserved pools (their nodes get no sharing or MIG config)
  /// MIG profiles one tenant holds alone because it needs more isolation than the strategy's
  /// sharing gives (shares_by_profile): left out of the device plugin's sharing.
  std::set<std::string> unshared_profiles;
  /// With `layouts`: each MIG GPU's mig-parted config (its layout's).
  std::map<int, std::string> mig_configs;
};

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

/// The mig-parted config that a phase selects: "slicewise", or "slicewise-PHASE" for a layout
/// schedule's phase.
std::string mig_config_name(const std::string& phase) {
  return phase.empty() ? std::string(kConfigName) : std::string(kConfigName) + "-" + kubernetes_name(phase);
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

/// A Deployment's name: the tenant's, with what tells its groups apart (the phase, the GPU, the
/// MIG profile) where it has several, made unique among `used`, which it joins.
std::string deployment_name(const std::string& tenant, const std::vector<Group>& groups, const Group& group,
                            std::set<std::string>& used) {
  const auto varies = [&](auto field) {
    return std::any_of(groups.begin(), groups.end(), [&](const Group& g) { return field(g) != field(groups.front()); });
  };
  std::vector<std::string> parts;
  if (varies([](const Group& g) { return g.phase; })) parts.push_back(group.phase);
  if (varies([](const Group& g) { return g.gpu; })) parts.push_back("gpu" + std::to_string(group.gpu));
  if (varies([](const Group& g) { return g.profile; })) parts.push_back(group.profile);
  std::string name = kubernetes_name(tenant, join(parts, "-"));
  for (int n = 2; used.count(name) != 0; ++n) name = kubernetes_name(tenant, std::to_string(n));
  used.insert(name);
  return name;
}

/// Every Deployment's name, by tenant and group, in the scenario's tenant order.
std::map<std::string, std::vector<std::string>> deployment_names(const scenario::Scenario& scenario,
                                                                 const Placed& placed) {
  std::map<std::string, std::vector<std::string>> names;
  std::set<std::string> used;
  for (const auto& tenant : scenario.tenants) {
    const auto found = placed.groups.find(tenant.name);
    if (found == placed.groups.end()) continue;
    for (const auto& group : found->second) {
      names[tenant.name].push_back(deployment_name(tenant.name, found->second, group, used));
    }
  }
  return names;
}

/// The container's resource limits: one GPU or MIG instance, plus HAMi's memory, cores and priority.
/// `own` is the tenant's settings for the strategy (null when none).
void emit_limits(YAML::Emitter& y, const scenario::Tenant& tenant, const scenario::StrategySpec& spec,
                 const scenario::TenantStrategySettings* own, const std::string& profile, const std::string& gpu,
                 bool pool) {
  y << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "limits" << YAML::Value
    << YAML::BeginMap;
  // A tensor-parallel group asks for its GPUs (MIG instances never host one).
  const int gpus = profile.empty() ? scenario::tensor_parallel_of(tenant.workload) : 1;
  y << YAML::Key << (profile.empty() ? std::string("nvidia.com/gpu") : "nvidia.com/mig-" + profile) << YAML::Value
    << gpus;
  const bool hami = scenario::policy_of(spec.kind).deploy_sharer() == Sharer::hami;
  if (hami && pool) {
    // A pool's GPU is its pod's alone: HAMi admits a pod that reserves 100 % of the cores only on a
    // GPU no other pod holds, and keeps every other pod off it.
    const auto* spec_gpu = models::GpuCatalog::shipped().find(gpu);
    if (spec_gpu) {
      y << YAML::Key << "nvidia.com/gpumem" << YAML::Value
        << static_cast<long>(std::floor(spec_gpu->memory_gib * 1024.0 + 1e-9));
    }
    y << YAML::Key << "nvidia.com/gpucores" << YAML::Value << 100;
  } else if (hami) {
    // Unset, the memory the simulation reserved: the workload's, or an LLM engine's share of the GPU.
    const auto* spec_gpu = models::GpuCatalog::shipped().find(gpu);
    const double held = spec_gpu ? scenario::memory_on_gib(tenant.workload, gpu, spec_gpu->memory_gib)
                                 : scenario::memory_need_gib(tenant.workload);
    const double gib = own && own->gpumem_gib ? *own->gpumem_gib : spec.gpumem_gib.value_or(held);
    y << YAML::Key << "nvidia.com/gpumem" << YAML::Value << static_cast<long>(std::ceil(gib * 1024.0 - 1e-9));
    if (const auto cores = own && own->gpucores_pct ? own->gpucores_pct : spec.gpucores_pct) {
      y << YAML::Key << "nvidia.com/gpucores" << YAML::Value << static_cast<long>(std::lround(*cores));
    }
    y << YAML::Key << "nvidia.com/priority" << YAML::Value << (tenant.priority == scenario::Priority::high ? 0 : 1);
  }
  y << YAML::EndMap << YAML::EndMap;
}

/// The pod template's spec: the scheduler (HAMi) and the one container, with its MPS thread cap
/// and its limits.
void emit_pod_spec(YAML::Emitter& y, const scenario::Tenant& tenant, const scenario::StrategySpec& spec,
                   const scenario::TenantStrategySettings* own, const std::string& name, const Group& group,
                   const std::string& gpu) {
  const std::string& profile = group.profile;
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  const auto sharer = scenario::policy_of(spec.kind).deploy_sharer();
  if (sharer == Sharer::hami) y << YAML::Key << "schedulerName" << YAML::Value << "hami-scheduler";
  if (group.gpu >= 0) {
    // The node that carries the simulated GPU (the runbook labels it): the pods share what they shared.
    y << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap << YAML::Key << kGpuLabel << YAML::Value
      << YamlString{"gpu" + std::to_string(group.gpu)};
    // Of several layouts, its GPU's: the node must carry that mig-parted config.
    if (!group.mig_config.empty()) y << YAML::Key << kMigConfigLabel << YAML::Value << YamlString{group.mig_config};
    y << YAML::EndMap;
  }
  y << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << YamlString{name} << YAML::Key << "image" << YAML::Value
    << "REPLACE-WITH-YOUR-IMAGE";
  // The daemon gives every client the device plugin's share; a client's own setting (its tenant's,
  // the strategy's, a low-priority client's cap) is written only where it lowers that share.
  const double thread_pct = 100.0 * scenario::policy_of(spec.kind).context_cap(spec, own, tenant.priority);
  if (sharer == Sharer::device_plugin_mps && !group.pool &&
      thread_pct < scenario::device_plugin_thread_pct(spec.replicas)) {
    y << YAML::Key << "env" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name" << YAML::Value
      << "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE" << YAML::Key << "value"
      << YAML::Value
      // EnvVar.value is a string: a bare 50 is refused by the API server.
      << YAML::DoubleQuoted << format_number(thread_pct) << YAML::EndMap << YAML::EndSeq;
  }
  emit_limits(y, tenant, spec, own, profile, group.gpu_id.empty() ? gpu : group.gpu_id, group.pool);
  y << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
}

/// One Deployment document: `replicas` pods of the tenant's container named `name`, on `profile`.
/// Every Deployment of a tenant carries its name (app.kubernetes.io/name); each selects its own
/// pods by its instance label, so that two Deployments never select each other's.
void emit_deployment(YAML::Emitter& y, const scenario::Tenant& tenant, const scenario::StrategySpec& spec,
                     const scenario::TenantStrategySettings* own, const std::string& name, const Group& group,
                     const std::string& gpu) {
  const int replicas = group.contexts;
  const std::string tenant_label = kubernetes_name(tenant.name);
  const auto labels = [&](bool all) {
    y << YAML::BeginMap;
    if (all) y << YAML::Key << "app.kubernetes.io/name" << YAML::Value << YamlString{tenant_label};
    y << YAML::Key << "app.kubernetes.io/instance" << YAML::Value << YamlString{name};
    if (all) y << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "slicewise";
    if (all && !group.phase.empty()) y << YAML::Key << kPhaseLabel << YAML::Value << YamlString{group.phase};
    y << YAML::EndMap;
  };
  y << YAML::BeginDoc << YAML::BeginMap;
  y << YAML::Key << "apiVersion" << YAML::Value << "apps/v1" << YAML::Key << "kind" << YAML::Value << "Deployment";
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
    << YamlString{name} << YAML::Key << "labels" << YAML::Value;
  labels(true);
  y << YAML::EndMap;
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "replicas" << YAML::Value << replicas;
  y << YAML::Key << "selector" << YAML::Value << YAML::BeginMap << YAML::Key << "matchLabels" << YAML::Value;
  labels(false);
  y << YAML::EndMap;
  y << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "labels" << YAML::Value;
  labels(true);
  y << YAML::EndMap;
  emit_pod_spec(y, tenant, spec, own, name, group, gpu);
  y << YAML::EndMap << YAML::EndMap << YAML::EndMap;
}

/// One Deployment per tenant (per tenant and MIG profile when its contexts got several).
std::string deployments(const scenario::Scenario& scenario, const scenario::StrategySpec& spec, const Placed& placed) {
  YAML::Emitter y;
  const auto names = deployment_names(scenario, placed);
  bool first = true;
  for (const auto& tenant : scenario.tenants) {
    const auto found = placed.contexts.find(tenant.name);
    if (found == placed.contexts.end()) continue;
    const auto settings = spec.tenants.find(tenant.name);
    const auto* own = settings == spec.tenants.end() ? nullptr : &settings->second;
    const auto& groups = placed.groups.at(tenant.name);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (!first) y << YAML::Newline;
      first = false;
      emit_deployment(y, tenant, spec, own, names.at(tenant.name)[g], groups[g], placed.gpu);
    }
  }
  return std::string(y.c_str()) + "\n";
}

/// For a layout schedule: `switch-phase.sh PHASE` re-partitions the labelled nodes to the phase's
/// layout and scales each Deployment to its replicas in that phase (0 outside it).
std::string switch_phase_script(const scenario::Scenario& scenario, const scenario::StrategySpec& spec,
                                const Placed& placed) {
  const auto names = deployment_names(scenario, placed);
  std::string sh =
      "#!/bin/sh\n"
      "# Written by slicewise export-config: switches the GPUs to one phase of the layout schedule.\n"
      "# Usage: switch-phase.sh PHASE (one of:";
  for (const auto& phase : spec.layout_schedule->phases) sh += " " + kubernetes_name(phase.name);
  sh +=
      "); NODES='node-a node-b' names the GPU nodes (default: every node labelled\n"
      "# nvidia.com/mig.config). KUBECTL overrides the command. The MIG manager drains each node's GPU pods\n"
      "# while it re-partitions (docs/mig-schedule.md: the simulation counted repartition_s for it).\n"
      "set -eu\n"
      "kubectl=${KUBECTL:-kubectl}\n"
      "phase=${1:?usage: switch-phase.sh PHASE}\n"
      "nodes=${NODES:-$($kubectl get nodes -l nvidia.com/mig.config -o name)}\n"
      "case \"$phase\" in\n";
  for (const auto& phase : spec.layout_schedule->phases) {
    const std::string name = kubernetes_name(phase.name);
    sh += "  " + name + ")\n";
    sh += "    for node in $nodes; do $kubectl label \"$node\" nvidia.com/mig.config=" + mig_config_name(phase.name) +
          " --overwrite; done\n";
    for (const auto& [tenant, groups] : placed.groups) {
      for (std::size_t g = 0; g < groups.size(); ++g) {
        const int replicas = groups[g].phase == phase.name ? groups[g].contexts : 0;
        sh += "    $kubectl scale deployment " + names.at(tenant)[g] + " --replicas=" + std::to_string(replicas) + "\n";
      }
    }
    sh += "    ;;\n";
  }
  sh += "  *) echo \"unknown phase $phase\" >&2; exit 1 ;;\nesac\n";
  return sh;
}

/// A shell command in a Markdown code span.
std::string code(const std::string& command) { return "`" + command + "`"; }

constexpr const char* kPatch = "kubectl patch clusterpolicies.nvidia.com/cluster-policy --type merge -p ";

/// What the runbook says: which files the export has.
struct Runbook {
  bool mig = false;
  bool plugin = false;
  int hami_split = 0;                ///< HAMi's pods per GPU (deviceSplitCount) when the strategy is HAMi; 0 = not HAMi
  std::set<int> gpus;                ///< GPUs the Deployments are pinned to (node labels)
  std::set<int> unshared;            ///< of those, GPUs that keep the plugin's default
  std::set<int> pool;                ///< of those, GPUs of reserved pools (no MIG layout either)
  std::map<int, std::string> types;  ///< GPU -> its type, where the fleet mixes types
  std::vector<std::pair<std::string, double>> phases;  ///< a layout schedule's phases and their hours
  std::map<std::string, std::set<int>> layout_gpus;    ///< with `layouts`: mig-parted config -> its GPUs
};

/// "gpu0, gpu2 and gpu3"
std::string gpu_list(const std::set<int>& gpus) {
  std::vector<std::string> names;
  names.reserve(gpus.size());
  for (const int g : gpus) names.push_back("gpu" + std::to_string(g));
  if (names.size() < 2) return join(names, "");
  const std::string last = names.back();
  names.pop_back();
  return join(names, ", ") + " and " + last;
}

/// The step that labels each node with the simulated GPU it carries.
std::string node_label_step(const Runbook& book) {
  std::string types;
  if (!book.types.empty()) {
    std::vector<std::string> each;
    for (const int g : book.gpus) each.push_back("gpu" + std::to_string(g) + " " + book.types.at(g));
    types = "; the fleet mixes GPU types, so each label goes on a node with that GPU: " + join(each, ", ");
  }
  return code(std::string("kubectl label node NODE ") + kGpuLabel + "=gpuK --overwrite") +
         " on one node per simulated GPU (" + gpu_list(book.gpus) + types +
         "): each Deployment selects its GPU's node, so the pods that shared a GPU in the simulation share one "
         "here. On a node of several GPUs the device plugin, not slicewise, picks which GPU a pod gets.";
}

/// " on the nodes of A only (the nodes of B <why>)" for a node label that the nodes of
/// `keep_default` must not get; "" when every node gets it. `why` continues "the nodes of B".
std::string except_text(const Runbook& book, const std::set<int>& keep_default, const std::string& why) {
  if (keep_default.empty()) return "";
  std::set<int> shared;
  std::set_difference(book.gpus.begin(), book.gpus.end(), keep_default.begin(), keep_default.end(),
                      std::inserter(shared, shared.end()));
  return (shared.empty() ? " on every GPU node except those of " + gpu_list(keep_default) + " (they"
                         : " on the nodes of " + gpu_list(shared) + " only (the nodes of " + gpu_list(keep_default)) +
         why + ")";
}

/// HAMi's installation steps and its node labels.
void hami_steps(std::string& md, const Runbook& book, const std::function<void(const std::string&)>& item) {
  md += "## 1. HAMi\n\n";
  item(code(std::string(kPatch) + "'{\"spec\": {\"devicePlugin\": {\"enabled\": false}}}'") +
       ": HAMi brings its own device plugin, which the GPU operator's would contend with for the GPUs "
       "(Helm: `--set devicePlugin.enabled=false`).");
  item(code("kubectl label node NODE gpu=on") + ": the nodes HAMi manages.");
  if (!book.gpus.empty()) item(node_label_step(book));
  item(code("helm repo add hami-charts https://project-hami.github.io/HAMi/") + ", then " +
       code("helm install hami hami-charts/hami -n kube-system" +
            (book.hami_split != 10 ? " --set devicePlugin.deviceSplitCount=" + std::to_string(book.hami_split)
                                   : std::string())) +
       " (at most " + std::to_string(book.hami_split) + " pods share a GPU, as simulated). Check: " +
       code("kubectl get pods -n kube-system") + " shows `hami-scheduler` and `hami-device-plugin` Running, and " +
       code("kubectl describe node NODE") + " lists `nvidia.com/gpu` as " + std::to_string(book.hami_split) +
       " per GPU. HAMi's scheduler reserves each pod's `nvidia.com/gpucores` and `nvidia.com/gpumem` on the GPU "
       "it picks, so the pods fit as slicewise placed them.");
  md += "\n## 2. The workloads\n\n";
}

/// The step that switches a layout schedule's phases at their hours.
std::string schedule_step(const Runbook& book) {
  std::string hours;
  for (const auto& [phase, from] : book.phases) {
    const int minutes = static_cast<int>(std::lround(from * 60.0));
    hours += " " +
             code(std::to_string(minutes % 60) + " " + std::to_string(minutes / 60) +
                  " * * * /PATH/TO/switch-phase.sh " + kubernetes_name(phase)) +
             ",";
  }
  hours.back() = '.';
  return "The layouts change over the day: at each phase's hour run `switch-phase.sh PHASE`, which relabels the "
         "nodes to that phase's MIG layout and scales each Deployment to its replicas in that phase (0 outside it); "
         "from cron on a host with kubectl, in the cluster's time zone:" +
         hours + " Run it once now for the phase in force.";
}

/// The step that labels the nodes with their MIG config: the layout (a schedule's first phase's),
/// or with several layouts each GPU's.
std::string mig_label_step(const Runbook& book) {
  const std::string wait =
      code("kubectl get node NODE -o jsonpath='{.metadata.labels.nvidia\\.com/mig\\.config\\.state}'");
  if (!book.layout_gpus.empty()) {
    std::vector<std::string> each;
    for (const auto& [config, gpus] : book.layout_gpus) {
      each.push_back("`" + config + (gpus.size() == 1 ? "` on the node of " : "` on the nodes of ") + gpu_list(gpus));
    }
    return code(std::string("kubectl label node NODE nvidia.com/mig.config=CONFIG --overwrite")) +
           " with each GPU's layout: " + join(each, "; ") +
           " (each pod selects its node's config too), then wait until " + wait +
           " prints `success` on each (the MIG manager drains the node's GPU pods to re-partition it).";
  }
  const std::string first = book.phases.empty() ? std::string(kConfigName) : mig_config_name(book.phases.front().first);
  return code(std::string("kubectl label node NODE nvidia.com/mig.config=") + first + " --overwrite") +
         except_text(book, book.pool, " stay whole, `all-disabled`: their GPUs are reserved pools") +
         ", then wait until " + wait +
         " prints `success` (the MIG manager drains the node's GPU pods to re-partition it).";
}

/// Appends the numbered steps: the operator's settings, the nodes, the workloads.
void runbook_steps(std::string& md, const Runbook& book) {
  int step = 1;
  const auto item = [&](const std::string& text) { md += std::to_string(step++) + ". " + text + "\n"; };
  if (book.hami_split > 0) hami_steps(md, book, item);
  if (book.mig || book.plugin) md += "## 1. The GPU operator's settings\n\n";
  if (book.mig) {
    item("MIG strategy `mixed`, so that each instance profile is its own resource (`nvidia.com/mig-1g.10gb`): " +
         code(std::string(kPatch) + "'{\"spec\": {\"mig\": {\"strategy\": \"mixed\"}}}'") +
         " (Helm: `--set mig.strategy=mixed`). The operator's default, `single`, refuses a layout of several "
         "profiles and advertises none of them. Check: " +
         code("kubectl get clusterpolicies.nvidia.com/cluster-policy -o jsonpath='{.spec.mig.strategy}'") +
         " prints `mixed`.");
    item(code("kubectl apply -f mig-config.yaml") + ", then point the MIG manager at it: " +
         code(std::string(kPatch) +
              "'{\"spec\": {\"migManager\": {\"config\": {\"name\": \"slicewise-mig-config\"}}}}'") +
         " (Helm: `--set migManager.config.name=slicewise-mig-config`). Its `all-disabled` entry is the one the "
         "operator labels every GPU node with, so MIG managers on the other nodes keep working.");
  }
  if (book.plugin) {
    item(code("kubectl apply -f device-plugin-config.yaml") + ", then let the device plugin read it: " +
         code(std::string(kPatch) +
              "'{\"spec\": {\"devicePlugin\": {\"config\": {\"name\": \"slicewise-device-plugin\"}}}}'") +
         " (Helm: `--set devicePlugin.config.name=slicewise-device-plugin`). No default is set: only the nodes "
         "labelled below use it; every other GPU node keeps its own.");
  }
  if (book.mig || book.plugin) md += "\n## 2. The nodes\n\n";
  if (!book.gpus.empty()) item(node_label_step(book));
  if (book.mig) item(mig_label_step(book));
  if (book.plugin) {
    const std::string which = except_text(book, book.unshared,
                                          " keep the plugin's default, whole and unshared GPUs, as the tenants "
                                          "there need a GPU of their own");
    item(code(std::string("kubectl label node NODE nvidia.com/device-plugin.config=") + kConfigName + " --overwrite") +
         which + ". Check: " + code("kubectl describe node NODE") +
         " lists under Allocatable the resources of `device-plugin-config.yaml`, each with its replicas times the "
         "devices that carry it.");
  }
  if (book.mig || book.plugin) {
    md += "\n## 3. The workloads\n\n";
  } else if (book.hami_split == 0) {
    md += "## Apply\n\n";
  }
  item("Set each container's image in `deployments.yaml`, then " + code("kubectl apply -f deployments.yaml") +
       ". Check: " + code("kubectl get pods -l app.kubernetes.io/managed-by=slicewise -o wide") +
       " shows every pod Running.");
  if (!book.phases.empty()) item(schedule_step(book));
  md += "\n## Roll back\n\n- " + code("kubectl delete -f deployments.yaml") + ".\n";
  if (book.plugin) {
    md += "- " + code("kubectl label node NODE nvidia.com/device-plugin.config-") + ", then " +
          code(std::string(kPatch) + "'{\"spec\": {\"devicePlugin\": {\"config\": {\"name\": \"\"}}}}'") + " and " +
          code("kubectl delete -f device-plugin-config.yaml") + ".\n";
  }
  if (book.hami_split > 0) {
    md += "- " + code("helm uninstall hami -n kube-system") + ", " + code("kubectl label node NODE gpu-") + ", then " +
          code(std::string(kPatch) + "'{\"spec\": {\"devicePlugin\": {\"enabled\": true}}}'") + ".\n";
  }
  if (book.mig) {
    md += "- " + code(std::string("kubectl label node NODE nvidia.com/mig.config=") + kAllDisabled + " --overwrite") +
          " (wait for `success`), then the operator's previous `migManager.config.name` and `mig.strategy`.\n";
  }
}

/// "3 L40S GPUs", "1 L40S GPU and 2 H100-SXM-80GB GPUs in a pool reserved for llm-70b".
std::string fleet_text(const scenario::StrategyResult& strategy) {
  std::map<std::pair<bool, std::string>, std::set<int>> gpus;  // (pool, type) -> GPUs
  std::map<std::string, std::set<std::string>> pool_tenants;   // type -> tenants of its pools
  for (const auto& d : strategy.devices) {
    for (int g = d.gpu_index; g < d.gpu_index + d.gpu_count; ++g) gpus[{d.reserved, d.gpu}].insert(g);
    if (d.reserved) {
      for (const auto& c : d.contexts) pool_tenants[d.gpu].insert(markdown_text(scenario::tenant_of_context(c)));
    }
  }
  std::vector<std::string> parts;
  for (const auto& [key, set] : gpus) {
    const auto n = set.size();
    std::string part = std::to_string(n) + " " + key.second + " GPU" + (n == 1 ? "" : "s");
    if (key.first) {
      const auto& names = pool_tenants[key.second];
      part += " in a pool reserved for " + join(std::vector<std::string>(names.begin(), names.end()), ", ");
    }
    parts.push_back(part);
  }
  if (parts.empty()) return "no GPU";
  const std::string last = parts.back();
  parts.pop_back();
  return parts.empty() ? last : join(parts, ", ") + " and " + last;
}

}  // namespace

std::string config_file_purpose(const std::string& name, const std::string& ns) {
  if (name == "device-plugin-config.yaml") return "the NVIDIA device plugin's config (namespace " + ns + ")";
  if (name == "mig-config.yaml") return "the MIG layout as the operator's MIG manager reads it (namespace " + ns + ")";
  if (name == "mig-parted-config.yaml") {
    return "the same layouts for `nvidia-mig-parted apply -f mig-parted-config.yaml -c " + std::string(kConfigName) +
           "` (`-c " + kConfigName + "-PHASE` for a phase of a layout schedule, `-c " + kConfigName +
           "-layoutK` for a GPU of the K-th of several layouts) on a node without the operator";
  }
  if (name == "switch-phase.sh") {
    return "re-partitions the nodes to one phase of the layout schedule and scales the Deployments to it";
  }
  if (name == "deployments.yaml") {
    return "one Deployment per tenant (per tenant and MIG profile where it got several), asking for the resource "
           "that lands it on its share";
  }
  if (name == "README.md") return "the runbook: the order to apply the files, how to roll back, what slicewise assumed";
  return "";
}

namespace {

/// The clients whose thread share the Deployments lower below the device plugin's (their tenant's,
/// the strategy's or a low-priority cap), for the runbook: "a 25 %, b 10 %"; "" when none.
std::string mps_caps(const scenario::SimResult& result, const scenario::StrategySpec& spec) {
  const double split = scenario::device_plugin_thread_pct(spec.replicas);
  std::vector<std::string> lowered;
  for (const auto& tenant : result.input.tenants) {
    const auto found = spec.tenants.find(tenant.name);
    const auto* own = found == spec.tenants.end() ? nullptr : &found->second;
    const double pct = 100.0 * scenario::policy_of(spec.kind).context_cap(spec, own, tenant.priority);
    if (pct < split) lowered.push_back(markdown_text(tenant.name) + " " + format_number(pct) + " %");
  }
  return join(lowered, ", ");
}

/// The runbook's last section: what the export takes for granted.
std::string assumptions(const scenario::SimResult& result, const scenario::StrategySpec& spec,
                        const scenario::StrategyResult& strategy, const Placed& placed, const std::string& gpu) {
  std::string md = "\n## What slicewise assumed\n\n";
  md += "- " + std::to_string(placed.num_gpus) + " " + gpu + (placed.num_gpus == 1 ? " GPU" : " GPUs") +
        "; the Deployments' replicas are the tenants' contexts:";
  for (const auto& t : strategy.tenants) md += " " + markdown_text(t.name) + " " + std::to_string(t.num_contexts) + ",";
  md.back() = '.';
  md += "\n";
  const auto& policy = scenario::policy_of(spec.kind);
  const auto sharer = policy.deploy_sharer();
  if (sharer == Sharer::device_plugin_time_slicing && !policy.partitions_gpus()) {
    md += "- At most " + std::to_string(placed.most_contexts_per_gpu) +
          " contexts share one GPU in the simulation; the device plugin advertises that many replicas per GPU (2 at "
          "least), and the scheduler, not slicewise, decides which pods share.\n";
  }
  if (sharer == Sharer::device_plugin_mps) {
    const auto* catalog_gpu = models::GpuCatalog::shipped().find(gpu);
    const std::string memory =
        catalog_gpu ? " (" + format_number(catalog_gpu->memory_gib / spec.replicas) + " GiB of " + gpu + ")" : "";
    md += "- The device plugin advertises each GPU as " + std::to_string(spec.replicas) +
          " replicas, and its MPS daemon gives every client 1/" + std::to_string(spec.replicas) +
          " of the GPU's memory" + memory + " and " + format_number(scenario::device_plugin_thread_pct(spec.replicas)) +
          " % of its threads, as slicewise simulated; a client's `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` can only "
          "lower its share" +
          (mps_caps(result, spec).empty() ? std::string(".")
                                          : ", and the Deployments lower it for " + mps_caps(result, spec) + ".") +
          "\n";
  }
  if (sharer == Sharer::hami) {
    md +=
        "- HAMi's `nvidia.com/gpumem` is each tenant's memory in MiB (its `gpumem_gib` where set), "
        "`nvidia.com/gpucores` its core cap, which HAMi's scheduler also reserves (at most 100 % a GPU), "
        "`nvidia.com/priority` 0 for high-priority tenants and 1 otherwise.\n";
    const bool llm = std::any_of(result.input.tenants.begin(), result.input.tenants.end(), [](const auto& t) {
      return t.workload.kind == scenario::WorkloadKind::llm && t.workload.engine.has_value();
    });
    if (llm) {
      md +=
          "- HAMi reports a pod's `nvidia.com/gpumem` to its CUDA as the GPU's memory, and an LLM engine's memory "
          "fraction applies to what it sees: set it to about 0.95 (vLLM `--gpu-memory-utilization`, SGLang "
          "`--mem-fraction-static`, TGI `--cuda-memory-fraction`) so that the engine holds the memory slicewise "
          "simulated (its fraction of the whole GPU), which `nvidia.com/gpumem` is.\n";
    }
  }
  if (sharer == Sharer::hypervisor_vgpu) {
    md += "- vGPU profiles are created on the hypervisor, not in Kubernetes: " + std::to_string(spec.replicas) +
          " vGPUs per GPU, one per VM node; each VM needs an NVIDIA AI Enterprise licence.\n";
  }
  md +=
      "- Names are the tenants' names as Kubernetes names (lower case, '-' for other characters, at most 63); "
      "images, the workloads' namespace and node selectors are yours to set.\n";
  return md;
}

std::string readme(const scenario::SimResult& result, const scenario::StrategySpec& spec,
                   const scenario::StrategyResult& strategy, const Placed& placed, const std::vector<ConfigFile>& files,
                   const std::string& ns) {
  const auto has = [&](const std::string& name) {
    return std::any_of(files.begin(), files.end(), [&](const ConfigFile& f) { return f.name == name; });
  };
  const std::string gpu = placed.gpu;
  // Names from the scenario are shown as written, never read as Markdown's HTML.
  std::string md = "# Deploying " + markdown_text(spec.name) + " (" + models::to_string(spec.kind) + ") for " +
                   markdown_text(result.scenario) + "\n\n";
  md += "Written by `slicewise export-config` from a simulated result. slicewise simulated " + fleet_text(strategy) +
        (strategy.sizing ? ", sized for SLA" : ", as given") +
        "; this runbook sets up that configuration on a Kubernetes cluster with the NVIDIA GPU operator, "
        "step by step, each with the check that it took effect. NODE stands for each GPU node that is to run "
        "it.\n\n";
  const auto& policy = scenario::policy_of(spec.kind);
  Runbook book{has("mig-config.yaml"),
               has("device-plugin-config.yaml"),
               policy.deploy_sharer() == Sharer::hami ? policy.context_limit(spec) : 0,
               {},
               {},
               {},
               {},
               {},
               {}};
  for (const auto& [g, config] : placed.mig_configs) book.layout_gpus[config].insert(g);
  for (const auto& [tenant, groups] : placed.groups) {
    for (const auto& group : groups) {
      if (group.gpu >= 0) book.gpus.insert(group.gpu);
    }
  }
  book.unshared = placed.unshared_gpus;
  book.pool = placed.pool_gpus;
  for (const auto& d : strategy.devices) {
    if (d.gpu != gpu) {  // a mixed fleet: every label names its GPU's type
      for (const auto& e : strategy.devices) book.types[e.gpu_index] = e.gpu;
      break;
    }
  }
  if (spec.layout_schedule) {
    for (const auto& phase : spec.layout_schedule->phases) book.phases.emplace_back(phase.name, phase.from_hour);
  }
  runbook_steps(md, book);
  md += "\n## Files\n\n";
  for (const auto& f : files) {
    if (f.name != "README.md") md += "- `" + f.name + "`: " + config_file_purpose(f.name, ns) + "\n";
  }
  return md + assumptions(result, spec, strategy, placed, gpu);
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
