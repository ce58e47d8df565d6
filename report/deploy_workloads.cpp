// The Deployments of export-config and a layout schedule's phase switch (deploy_parts.hpp).
#include "report/deploy_parts.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "report/k8s_text.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report::deploy {

namespace {

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

}  // namespace

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

}  // namespace slicewise::report::deploy
