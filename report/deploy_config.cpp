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
#include <map>
#include <set>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_layout.hpp"
#include "report/k8s_text.hpp"
#include "report/text_table.hpp"
#include "scenario/layout_schedule.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

using models::StrategyKind;

namespace {

constexpr const char* kConfigName = "slicewise";
constexpr const char* kAllDisabled = "all-disabled";  // the GPU operator's default mig.config label

/// The tenant a context name "tenant#k" belongs to.
std::string tenant_of(const std::string& context) { return context.substr(0, context.rfind('#')); }

/// What the export needs to know of the placement.
struct Placed {
  std::string gpu;  ///< the strategy's GPU id ("" when nothing was placed)
  int num_gpus = 0;
  int most_contexts_per_gpu = 0;                 ///< over whole GPUs
  std::map<std::string, int> most_per_instance;  ///< MIG profile -> most contexts on one instance
  /// tenant -> MIG profile ("" for whole GPUs) -> contexts
  std::map<std::string, std::map<std::string, int>> contexts;
};

Placed placed_of(const scenario::StrategyResult& result) {
  Placed p;
  if (!result.devices.empty()) p.gpu = result.devices.front().gpu;
  p.num_gpus = result.num_gpus_used;
  std::map<int, int> per_gpu;
  for (const auto& d : result.devices) {
    per_gpu[d.gpu_index] += static_cast<int>(d.contexts.size());
    if (!d.mig_profile.empty()) {
      int& most = p.most_per_instance[d.mig_profile];
      most = std::max(most, static_cast<int>(d.contexts.size()));
    }
    for (const auto& c : d.contexts) p.contexts[tenant_of(c)][d.mig_profile]++;
  }
  for (const auto& [gpu, n] : per_gpu) p.most_contexts_per_gpu = std::max(p.most_contexts_per_gpu, n);
  return p;
}

/// The device plugin's config file (the text a ConfigMap key holds).
std::string device_plugin_config(const scenario::StrategySpec& spec, const Placed& placed) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
  const bool mig = scenario::policy_of(spec.kind).partitions_gpus();
  y << YAML::Key << "flags" << YAML::Value << YAML::BeginMap << YAML::Key << "migStrategy" << YAML::Value
    << (mig ? "mixed" : "none") << YAML::EndMap;
  if (spec.kind == StrategyKind::time_slicing || spec.kind == StrategyKind::mig_time_slicing ||
      spec.kind == StrategyKind::mps) {
    y << YAML::Key << "sharing" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << (spec.kind == StrategyKind::mps ? "mps" : "timeSlicing") << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "renameByDefault" << YAML::Value << false;
    y << YAML::Key << "failRequestsGreaterThanOne" << YAML::Value << true;
    y << YAML::Key << "resources" << YAML::Value << YAML::BeginSeq;
    if (mig) {
      for (const auto& [profile, most] : placed.most_per_instance) {
        y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "nvidia.com/mig-" + profile << YAML::Key
          << "replicas" << YAML::Value << std::max(2, most) << YAML::EndMap;
      }
    } else {
      y << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "nvidia.com/gpu" << YAML::Key << "replicas"
        << YAML::Value << scenario::device_plugin_replicas(spec, placed.most_contexts_per_gpu) << YAML::EndMap;
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

/// The MIG layout of the strategy, per profile, in catalog order of first appearance. For a layout
/// schedule, its first phase's layout: one mig-parted config per phase is not exported.
std::vector<std::pair<std::string, int>> layout_counts(const scenario::StrategySpec& spec) {
  std::string error;
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& profile : models::split_mig_layout(scenario::first_layout(spec), error)) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& e) { return e.first == profile; });
    if (it == counts.end()) {
      counts.emplace_back(profile, 1);
    } else {
      ++it->second;
    }
  }
  return counts;
}

std::string mig_parted_config(const scenario::StrategySpec& spec) {
  YAML::Emitter y;
  y << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
  y << YAML::Key << "mig-configs" << YAML::Value << YAML::BeginMap << YAML::Key << kConfigName << YAML::Value
    << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "devices" << YAML::Value << "all" << YAML::Key << "mig-enabled" << YAML::Value << true;
  y << YAML::Key << "mig-devices" << YAML::Value << YAML::BeginMap;
  for (const auto& [profile, count] : layout_counts(spec)) y << YAML::Key << profile << YAML::Value << count;
  y << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  // The GPU operator labels every GPU node nvidia.com/mig.config=all-disabled until told otherwise,
  // and a MIG manager whose config lacks the label's entry fails ("selected mig-config not present").
  y << YAML::Key << kAllDisabled << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "devices"
    << YAML::Value << "all" << YAML::Key << "mig-enabled" << YAML::Value << false << YAML::EndMap << YAML::EndSeq;
  y << YAML::EndMap << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

/// A Deployment's name: the tenant's (with the MIG profile when its contexts got several), made
/// unique among `used`, which it joins.
std::string deployment_name(const std::string& tenant, const std::string& profile, bool several_profiles,
                            std::set<std::string>& used) {
  std::string name = kubernetes_name(tenant, several_profiles ? profile : "");
  for (int n = 2; used.count(name) != 0; ++n) name = kubernetes_name(tenant, std::to_string(n));
  used.insert(name);
  return name;
}

/// The container's resource limits: one GPU or MIG instance, plus HAMi's memory, cores and priority.
/// `own` is the tenant's settings for the strategy (null when none).
void emit_limits(YAML::Emitter& y, const scenario::Tenant& tenant, const scenario::StrategySpec& spec,
                 const scenario::TenantStrategySettings* own, const std::string& profile, const std::string& gpu) {
  y << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "limits" << YAML::Value
    << YAML::BeginMap;
  // A tensor-parallel group asks for its GPUs (MIG instances never host one).
  const int gpus = profile.empty() ? scenario::tensor_parallel_of(tenant.workload) : 1;
  y << YAML::Key << (profile.empty() ? std::string("nvidia.com/gpu") : "nvidia.com/mig-" + profile) << YAML::Value
    << gpus;
  if (spec.kind == StrategyKind::hami) {
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
                   const scenario::TenantStrategySettings* own, const std::string& name, const std::string& profile,
                   const std::string& gpu) {
  y << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  if (spec.kind == StrategyKind::hami) y << YAML::Key << "schedulerName" << YAML::Value << "hami-scheduler";
  y << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << YamlString{name} << YAML::Key << "image" << YAML::Value
    << "REPLACE-WITH-YOUR-IMAGE";
  // The daemon gives every client the device plugin's share; a client's own setting (its tenant's,
  // the strategy's, a low-priority client's cap) is written only where it lowers that share.
  const double thread_pct = 100.0 * scenario::policy_of(spec.kind).context_cap(spec, own, tenant.priority);
  if (spec.kind == StrategyKind::mps && thread_pct < std::floor(100.0 / std::max(1, spec.replicas))) {
    y << YAML::Key << "env" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name" << YAML::Value
      << "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE" << YAML::Key << "value"
      << YAML::Value
      // EnvVar.value is a string: a bare 50 is refused by the API server.
      << YAML::DoubleQuoted << format_number(thread_pct) << YAML::EndMap << YAML::EndSeq;
  }
  emit_limits(y, tenant, spec, own, profile, gpu);
  y << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
}

/// One Deployment document: `replicas` pods of the tenant's container named `name`, on `profile`.
/// Every Deployment of a tenant carries its name (app.kubernetes.io/name); each selects its own
/// pods by its instance label, so that two Deployments never select each other's.
void emit_deployment(YAML::Emitter& y, const scenario::Tenant& tenant, const scenario::StrategySpec& spec,
                     const scenario::TenantStrategySettings* own, const std::string& name, const std::string& profile,
                     int replicas, const std::string& gpu) {
  const std::string tenant_label = kubernetes_name(tenant.name);
  const auto labels = [&](bool all) {
    y << YAML::BeginMap;
    if (all) y << YAML::Key << "app.kubernetes.io/name" << YAML::Value << YamlString{tenant_label};
    y << YAML::Key << "app.kubernetes.io/instance" << YAML::Value << YamlString{name};
    if (all) y << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "slicewise";
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
  emit_pod_spec(y, tenant, spec, own, name, profile, gpu);
  y << YAML::EndMap << YAML::EndMap << YAML::EndMap;
}

/// One Deployment per tenant (per tenant and MIG profile when its contexts got several).
std::string deployments(const scenario::Scenario& scenario, const scenario::StrategySpec& spec, const Placed& placed) {
  YAML::Emitter y;
  std::set<std::string> used;
  bool first = true;
  for (const auto& tenant : scenario.tenants) {
    const auto found = placed.contexts.find(tenant.name);
    if (found == placed.contexts.end()) continue;
    const auto settings = spec.tenants.find(tenant.name);
    const auto* own = settings == spec.tenants.end() ? nullptr : &settings->second;
    for (const auto& [profile, replicas] : found->second) {
      const std::string name = deployment_name(tenant.name, profile, found->second.size() > 1, used);
      if (!first) y << YAML::Newline;
      first = false;
      emit_deployment(y, tenant, spec, own, name, profile, replicas, placed.gpu);
    }
  }
  return std::string(y.c_str()) + "\n";
}

/// A shell command in a Markdown code span.
std::string code(const std::string& command) { return "`" + command + "`"; }

constexpr const char* kPatch = "kubectl patch clusterpolicies.nvidia.com/cluster-policy --type merge -p ";

/// What the runbook says: which files the export has.
struct Runbook {
  bool mig = false;
  bool plugin = false;
  int hami_split = 0;  ///< HAMi's pods per GPU (deviceSplitCount) when the strategy is HAMi; 0 = not HAMi
};

/// Appends the numbered steps: the operator's settings, the nodes, the workloads.
void runbook_steps(std::string& md, const Runbook& book) {
  int step = 1;
  const auto item = [&](const std::string& text) { md += std::to_string(step++) + ". " + text + "\n"; };
  if (book.hami_split > 0) {
    md += "## 1. HAMi\n\n";
    item(code(std::string(kPatch) + "'{\"spec\": {\"devicePlugin\": {\"enabled\": false}}}'") +
         ": HAMi brings its own device plugin, which the GPU operator's would contend with for the GPUs "
         "(Helm: `--set devicePlugin.enabled=false`).");
    item(code("kubectl label node NODE gpu=on") + ": the nodes HAMi manages.");
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
  if (book.mig) {
    item(code(std::string("kubectl label node NODE nvidia.com/mig.config=") + kConfigName + " --overwrite") +
         ", then wait until " +
         code("kubectl get node NODE -o jsonpath='{.metadata.labels.nvidia\\.com/mig\\.config\\.state}'") +
         " prints `success` (the MIG manager drains the node's GPU pods to re-partition it).");
  }
  if (book.plugin) {
    item(code(std::string("kubectl label node NODE nvidia.com/device-plugin.config=") + kConfigName + " --overwrite") +
         ". Check: " + code("kubectl describe node NODE") +
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

/// What each file is, for the runbook's list.
std::string file_purpose(const std::string& name, const std::string& ns) {
  if (name == "device-plugin-config.yaml") return "the NVIDIA device plugin's config (namespace " + ns + ")";
  if (name == "mig-config.yaml") return "the MIG layout as the operator's MIG manager reads it (namespace " + ns + ")";
  if (name == "mig-parted-config.yaml") {
    return "the same layout for `nvidia-mig-parted apply -f mig-parted-config.yaml -c " + std::string(kConfigName) +
           "` on a node without the operator";
  }
  if (name == "deployments.yaml") {
    return "one Deployment per tenant (per tenant and MIG profile where it got several), asking for the resource "
           "that lands it on its share";
  }
  return "";
}

/// The clients whose thread share the Deployments lower below the device plugin's (their tenant's,
/// the strategy's or a low-priority cap), for the runbook: "a 25 %, b 10 %"; "" when none.
std::string mps_caps(const scenario::SimResult& result, const scenario::StrategySpec& spec) {
  const double split = std::floor(100.0 / std::max(1, spec.replicas));
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
  if (spec.kind == StrategyKind::time_slicing) {
    md += "- At most " + std::to_string(placed.most_contexts_per_gpu) +
          " contexts share one GPU in the simulation; the device plugin advertises that many replicas per GPU (2 at "
          "least), and the scheduler, not slicewise, decides which pods share.\n";
  }
  if (spec.kind == StrategyKind::mps) {
    const auto* catalog_gpu = models::GpuCatalog::shipped().find(gpu);
    const std::string memory =
        catalog_gpu ? " (" + format_number(catalog_gpu->memory_gib / spec.replicas) + " GiB of " + gpu + ")" : "";
    md += "- The device plugin advertises each GPU as " + std::to_string(spec.replicas) +
          " replicas, and its MPS daemon gives every client 1/" + std::to_string(spec.replicas) +
          " of the GPU's memory" + memory + " and " + format_number(std::floor(100.0 / spec.replicas)) +
          " % of its threads, as slicewise simulated; a client's `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` can only "
          "lower its share" +
          (mps_caps(result, spec).empty() ? std::string(".")
                                          : ", and the Deployments lower it for " + mps_caps(result, spec) + ".") +
          "\n";
  }
  if (spec.kind == StrategyKind::hami) {
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
  if (spec.kind == StrategyKind::vgpu) {
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
  const std::string gpu = strategy.devices.empty() ? "" : strategy.devices.front().gpu;
  // Names from the scenario are shown as written, never read as Markdown's HTML.
  std::string md = "# Deploying " + markdown_text(spec.name) + " (" + models::to_string(spec.kind) + ") for " +
                   markdown_text(result.scenario) + "\n\n";
  md += "Written by `slicewise export-config` from a simulated result. slicewise simulated " +
        std::to_string(placed.num_gpus) + " " + gpu + " GPU" + (placed.num_gpus == 1 ? "" : "s") +
        (strategy.sizing ? ", sized for SLA" : ", as given") +
        "; this runbook sets up that configuration on a Kubernetes cluster with the NVIDIA GPU operator, "
        "step by step, each with the check that it took effect. NODE stands for each GPU node that is to run "
        "it.\n\n";
  runbook_steps(md, Runbook{has("mig-config.yaml"), has("device-plugin-config.yaml"),
                            spec.kind == StrategyKind::hami ? scenario::policy_of(spec.kind).context_limit(spec) : 0});
  md += "\n## Files\n\n";
  for (const auto& f : files) {
    if (f.name != "README.md") md += "- `" + f.name + "`: " + file_purpose(f.name, ns) + "\n";
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
  const Placed placed = placed_of(*run_it);
  // The spec as simulated: under the device plugin's MPS, the replicas it advertises per GPU.
  scenario::StrategySpec spec = *spec_it;
  if (spec.kind == StrategyKind::mps) {
    if (spec.mps_daemon == scenario::MpsDaemon::own) {
      throw ConfigError("--strategy", "",
                        "\"" + one_line(strategy) +
                            "\" was simulated under an MPS daemon of your own (mps_daemon own): NVIDIA's device plugin "
                            "cannot deploy that, as it splits each GPU's memory and threads among its replicas. Run "
                            "the daemon yourself, or simulate mps_daemon device_plugin (the default) and export that");
    }
    spec.replicas = scenario::device_plugin_replicas(spec, placed.most_contexts_per_gpu);
  }
  std::vector<ConfigFile> files;
  if (scenario::policy_of(spec.kind).partitions_gpus()) {
    const std::string parted = mig_parted_config(spec);
    files.push_back({"mig-parted-config.yaml", parted});
    files.push_back({"mig-config.yaml", config_map("slicewise-mig-config", namespace_name, "config.yaml", parted)});
  }
  if (spec.kind == StrategyKind::time_slicing || spec.kind == StrategyKind::mps ||
      scenario::policy_of(spec.kind).partitions_gpus()) {
    files.push_back({"device-plugin-config.yaml", config_map("slicewise-device-plugin", namespace_name, kConfigName,
                                                             device_plugin_config(spec, placed))});
  }
  files.push_back({"deployments.yaml", deployments(result.input, spec, placed)});
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
