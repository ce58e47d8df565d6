// The README of export-config: the runbook, its files and its assumptions (deploy_parts.hpp).
#include "report/deploy_parts.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "report/k8s_text.hpp"
#include "report/text_table.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report::deploy {

namespace {

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

}  // namespace

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

}  // namespace slicewise::report::deploy

namespace slicewise::report {

std::string config_file_purpose(const std::string& name, const std::string& ns) {
  if (name == "device-plugin-config.yaml") return "the NVIDIA device plugin's config (namespace " + ns + ")";
  if (name == "mig-config.yaml") return "the MIG layout as the operator's MIG manager reads it (namespace " + ns + ")";
  if (name == "mig-parted-config.yaml") {
    return "the same layouts for `nvidia-mig-parted apply -f mig-parted-config.yaml -c " +
           std::string(deploy::kConfigName) + "` (`-c " + deploy::kConfigName +
           "-PHASE` for a phase of a layout schedule, `-c " + deploy::kConfigName +
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

}  // namespace slicewise::report
