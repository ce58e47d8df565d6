// What reads export-config's files, as tests: each check reads a document the way its consumer does
// and returns what that consumer would refuse or misread ("" when nothing).
//  - kubectl and the API server: YAML 1.1 typing (yes/on/0123/1e3 are not strings there), names
//    and label values as RFC 1123 labels, EnvVar.value a string, a Deployment's selector matching
//    its pods' labels;
//  - the NVIDIA device plugin: api/config/v1 (Config, Flags, Sharing, ReplicatedResources,
//    ReplicatedResource), strict: unknown fields fail, replicas >= 2, MPS not with MIG;
//  - nvidia-mig-parted: api/spec/v1 (Spec, MigConfigSpec), strict, with the GPU operator's
//    all-disabled entry;
//  - cross-file: every MIG profile a pod asks for is in the layout, every shared resource a pod
//    asks for is advertised.
// The YAML 1.1 resolver here is written from yaml.org/type (bool, int, float, null, timestamp),
// independently of report::yaml_plain_is_string.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "report/deploy_config.hpp"
#include "report/k8s_text.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report::test {

/// True when a plain scalar of this text is not a string under YAML 1.1 or 1.2's core schema.
inline bool yaml11_plain_is_not_string(const std::string& s) {
  static const std::regex kNotString(
      // bool (1.1)
      "y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
      // null
      "|~|null|Null|NULL|"
      // int (1.1): binary, octal, decimal, hex, sexagesimal
      "|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+"
      // float (1.1), then 1.2's (1e3 without a sign or dot)
      "|[-+]?([0-9][0-9_]*)?\\.[0-9.]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*"
      "|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)|[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|0o[0-7]+"
      // timestamp
      "|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?"
      // merge, value
      "|<<|=");
  return std::regex_match(s, kNotString);
}

/// "" when `node` is a scalar that kubectl reads as the string `want` (when given) or as a string.
inline std::string string_problem(const YAML::Node& node, const std::string& where) {
  if (!node.IsDefined() || node.IsNull()) return where + ": missing";
  if (!node.IsScalar()) return where + ": not a scalar";
  if (node.Tag() == "?" && yaml11_plain_is_not_string(node.Scalar())) {
    return where + ": \"" + node.Scalar() + "\" is written plain, and YAML 1.1 reads it as a non-string";
  }
  return "";
}

inline bool is_dns_label(const std::string& s) {
  return s.size() <= 63 && std::regex_match(s, std::regex("[a-z0-9]([-a-z0-9]*[a-z0-9])?"));
}

/// A label's value: empty, or at most 63 of [A-Za-z0-9-_.] starting and ending alphanumeric.
inline bool is_label_value(const std::string& s) {
  return s.empty() || (s.size() <= 63 && std::regex_match(s, std::regex("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?")));
}

inline void add(std::vector<std::string>& out, const std::string& problem) {
  if (!problem.empty()) out.push_back(problem);
}

/// Map keys of `node` that are not in `allowed`, as problems at `where`.
inline void strict_keys(const YAML::Node& node, const std::set<std::string>& allowed, const std::string& where,
                        std::vector<std::string>& out) {
  if (!node.IsMap()) {
    out.push_back(where + ": not a map");
    return;
  }
  for (const auto& entry : node) {
    const auto key = entry.first.Scalar();
    if (!allowed.count(key)) out.push_back(where + ": unknown field \"" + key + "\"");
  }
}

inline void check_labels(const YAML::Node& labels, const std::string& where, std::vector<std::string>& out) {
  if (!labels.IsMap()) {
    out.push_back(where + ": not a map");
    return;
  }
  for (const auto& entry : labels) {
    const std::string at = where + "/" + entry.first.Scalar();
    add(out, string_problem(entry.first, at + " (key)"));
    add(out, string_problem(entry.second, at));
    if (entry.second.IsScalar() && !is_label_value(entry.second.Scalar())) {
      out.push_back(at + ": \"" + entry.second.Scalar() + "\" is not a label value");
    }
  }
}

/// A ConfigMap in the operator's namespace named `name`: its metadata read as strings.
inline std::vector<std::string> check_labels_free_config_map(const YAML::Node& map, const std::string& name) {
  std::vector<std::string> out;
  if (map["apiVersion"].Scalar() != "v1" || map["kind"].Scalar() != "ConfigMap") out.push_back("not a v1 ConfigMap");
  add(out, string_problem(map["metadata"]["name"], "ConfigMap/metadata/name"));
  if (map["metadata"]["name"].Scalar() != name) out.push_back("ConfigMap: not named " + name);
  add(out, string_problem(map["metadata"]["namespace"], "ConfigMap/metadata/namespace"));
  if (!is_dns_label(map["metadata"]["namespace"].Scalar())) out.push_back("ConfigMap: namespace is not a label");
  return out;
}

/// What a pod of a Deployment asks for: resource name -> count per pod, and its replicas.
struct PodAsk {
  std::string deployment;
  std::string tenant;  ///< its app.kubernetes.io/name label
  std::string phase;   ///< its slicewise.io/phase label ("" when none)
  std::string node;    ///< its nodeSelector's slicewise.io/gpu ("" when none)
  int replicas = 0;
  std::map<std::string, long> limits;
  std::string mig_config;  ///< its nodeSelector's nvidia.com/mig.config: its node's layout ("" when none)
};

/// Problems the API server would find in deployments.yaml (apps/v1 Deployments, core/v1 pods).
inline std::vector<std::string> check_deployments(const std::string& text, std::vector<PodAsk>* asks = nullptr) {
  std::vector<std::string> out;
  std::set<std::string> names;
  int index = 0;
  for (const auto& d : YAML::LoadAll(text)) {
    const std::string at = "deployments.yaml[" + std::to_string(index++) + "]";
    if (d["apiVersion"].Scalar() != "apps/v1" || d["kind"].Scalar() != "Deployment") {
      out.push_back(at + ": not an apps/v1 Deployment");
      continue;
    }
    const auto name = d["metadata"]["name"];
    add(out, string_problem(name, at + "/metadata/name"));
    if (!is_dns_label(name.Scalar())) out.push_back(at + ": name \"" + name.Scalar() + "\" is not an RFC 1123 label");
    if (!names.insert(name.Scalar()).second) out.push_back(at + ": name \"" + name.Scalar() + "\" is used twice");
    check_labels(d["metadata"]["labels"], at + "/metadata/labels", out);
    const auto pod_labels = d["spec"]["template"]["metadata"]["labels"];
    check_labels(pod_labels, at + "/spec/template/metadata/labels", out);
    const auto selector = d["spec"]["selector"]["matchLabels"];
    check_labels(selector, at + "/spec/selector/matchLabels", out);
    for (const auto& entry : selector) {
      if (!pod_labels[entry.first.Scalar()] || pod_labels[entry.first.Scalar()].Scalar() != entry.second.Scalar()) {
        out.push_back(at + ": the selector's " + entry.first.Scalar() + " is not on its pods");
      }
    }
    const auto pod = d["spec"]["template"]["spec"];
    if (pod["schedulerName"]) add(out, string_problem(pod["schedulerName"], at + "/spec/template/spec/schedulerName"));
    if (pod["nodeSelector"]) check_labels(pod["nodeSelector"], at + "/spec/template/spec/nodeSelector", out);
    PodAsk ask{name.Scalar(),
               d["metadata"]["labels"]["app.kubernetes.io/name"].Scalar(),
               d["metadata"]["labels"]["slicewise.io/phase"] ? d["metadata"]["labels"]["slicewise.io/phase"].Scalar()
                                                             : std::string(),
               pod["nodeSelector"] && pod["nodeSelector"]["slicewise.io/gpu"]
                   ? pod["nodeSelector"]["slicewise.io/gpu"].Scalar()
                   : std::string(),
               d["spec"]["replicas"].as<int>(0),
               {},
               pod["nodeSelector"] && pod["nodeSelector"]["nvidia.com/mig.config"]
                   ? pod["nodeSelector"]["nvidia.com/mig.config"].Scalar()
                   : std::string()};
    for (const auto& c : pod["containers"]) {
      add(out, string_problem(c["name"], at + "/containers/name"));
      if (!is_dns_label(c["name"].Scalar())) out.push_back(at + ": container name is not an RFC 1123 label");
      add(out, string_problem(c["image"], at + "/containers/image"));
      for (const auto& e : c["env"]) {
        add(out, string_problem(e["name"], at + "/env/name"));
        // EnvVar.value is a string: the API server refuses a number or a boolean.
        add(out, string_problem(e["value"], at + "/env/" + e["name"].Scalar()));
      }
      for (const auto& limit : c["resources"]["limits"]) {
        const auto& v = limit.second;
        if (v.Tag() != "?" || !std::regex_match(v.Scalar(), std::regex("[0-9]+"))) {
          out.push_back(at + ": limit " + limit.first.Scalar() + " is not a whole number");
        } else {
          ask.limits[limit.first.Scalar()] += std::stol(v.Scalar());
        }
      }
    }
    if (asks) asks->push_back(ask);
  }
  return out;
}

/// The device plugin's config as github.com/NVIDIA/k8s-device-plugin api/config/v1 reads it:
/// resource name -> replicas it advertises per device.
inline std::vector<std::string> check_device_plugin_config(const std::string& text,
                                                           std::map<std::string, int>* replicas = nullptr) {
  std::vector<std::string> out;
  const auto c = YAML::Load(text);
  strict_keys(c, {"version", "flags", "resources", "sharing", "imex"}, "config", out);
  if (c["version"].Scalar() != "v1") out.push_back("config: version is not v1");
  strict_keys(c["flags"],
              {"migStrategy", "failOnInitError", "mpsRoot", "nvidiaDriverRoot", "nvidiaDevRoot", "gdrcopyEnabled",
               "gdsEnabled", "mofedEnabled", "useNodeFeatureAPI", "deviceDiscoveryStrategy", "plugin", "gfd"},
              "config/flags", out);
  const std::string mig = c["flags"]["migStrategy"].Scalar();
  if (mig != "none" && mig != "single" && mig != "mixed") out.push_back("config: migStrategy \"" + mig + "\"");
  if (!c["sharing"]) return out;
  strict_keys(c["sharing"], {"timeSlicing", "mps"}, "config/sharing", out);
  for (const auto& kind : {"timeSlicing", "mps"}) {
    const auto r = c["sharing"][kind];
    if (!r) continue;
    const std::string at = std::string("config/sharing/") + kind;
    strict_keys(r, {"renameByDefault", "failRequestsGreaterThanOne", "resources"}, at, out);
    if (std::string(kind) == "mps" && mig == "mixed") out.push_back(at + ": MPS is not supported with MIG");
    for (const auto& res : r["resources"]) {
      strict_keys(res, {"name", "rename", "devices", "replicas"}, at + "/resources", out);
      const int n = res["replicas"].as<int>(0);
      if (n < 2) out.push_back(at + ": number of replicas must be >= 2");
      const std::string name = res["name"].Scalar();
      if (name != "nvidia.com/gpu" && name.rfind("nvidia.com/mig-", 0) != 0) {
        out.push_back(at + ": resource \"" + name + "\" is not the plugin's");
      }
      if (replicas) (*replicas)[name] = n;
    }
  }
  return out;
}

/// nvidia-mig-parted's api/spec/v1, strict, as the GPU operator's MIG manager reads its ConfigMap:
/// the layout of `config`, profile -> instances per GPU.
inline std::vector<std::string> check_mig_parted_config(
    const std::string& text, const std::string& config,
    std::map<std::string, std::map<std::string, int>>* layouts = nullptr) {
  std::vector<std::string> out;
  const auto spec = YAML::Load(text);
  strict_keys(spec, {"version", "mig-configs"}, "mig-parted", out);
  if (spec["version"].Scalar() != "v1") out.push_back("mig-parted: version is not v1");
  if (!spec["mig-configs"]["all-disabled"]) {
    out.push_back("mig-parted: no all-disabled entry (the GPU operator labels every node with it)");
  }
  if (!config.empty() && !spec["mig-configs"][config]) out.push_back("mig-parted: no config \"" + config + "\"");
  for (const auto& entry : spec["mig-configs"]) {
    for (const auto& device : entry.second) {
      strict_keys(device, {"devices", "mig-enabled", "mig-devices", "device-filter"},
                  "mig-parted/" + entry.first.Scalar(), out);
      if (!device["mig-enabled"].IsDefined()) out.push_back("mig-parted/" + entry.first.Scalar() + ": no mig-enabled");
      if (!layouts) continue;
      for (const auto& d : device["mig-devices"])
        (*layouts)[entry.first.Scalar()][d.first.Scalar()] = d.second.as<int>();
    }
  }
  return out;
}

/// The text of the export's file `name` ("" when it has none).
inline std::string file_text(const std::vector<ConfigFile>& files, const std::string& name) {
  for (const auto& f : files) {
    if (f.name == name) return f.text;
  }
  return "";
}

/// Every problem a consumer would have with the export of `strategy` of `result`, each file read
/// as its consumer reads it, and across files.
inline std::vector<std::string> consumer_problems(const scenario::SimResult& result, const std::string& strategy) {
  const auto files = deploy_configs(result, strategy);
  std::vector<std::string> out;
  std::vector<PodAsk> asks;
  for (auto& p : check_deployments(file_text(files, "deployments.yaml"), &asks)) out.push_back(p);
  std::map<std::string, int> advertised;
  std::map<std::string, std::map<std::string, int>> layouts;  // mig-parted config -> profile -> count
  bool shared = false;
  for (const auto& f : files) {
    if (f.name == "device-plugin-config.yaml") {
      const auto map = YAML::Load(f.text);
      for (auto& p : check_labels_free_config_map(map, "slicewise-device-plugin")) out.push_back(p);
      for (auto& p : check_device_plugin_config(map["data"]["slicewise"].Scalar(), &advertised)) out.push_back(p);
      shared = true;
    }
    if (f.name == "mig-parted-config.yaml") {
      for (auto& p : check_mig_parted_config(f.text, "", &layouts)) out.push_back(p);
    }
    if (f.name == "mig-config.yaml") {
      const auto map = YAML::Load(f.text);
      for (auto& p : check_labels_free_config_map(map, "slicewise-mig-config")) out.push_back(p);
      if (map["data"]["config.yaml"].Scalar() != file_text(files, "mig-parted-config.yaml")) {
        out.push_back("mig-config.yaml: not the mig-parted config");
      }
      const auto readme = file_text(files, "README.md");
      if (readme.find("{\"spec\": {\"mig\": {\"strategy\": \"mixed\"}}}") == std::string::npos) {
        out.push_back("README.md: does not set the operator's MIG strategy to mixed");
      }
    }
  }
  // MPS: the threads each pod gets on the cluster (the daemon's ⌊100 / replicas⌋ %, lowered by its
  // own setting) are the ones its tenant was simulated with.
  const auto spec = *std::find_if(result.input.strategies.begin(), result.input.strategies.end(),
                                  [&](const scenario::StrategySpec& s) { return s.name == strategy; });
  if (spec.kind == models::StrategyKind::mps) {
    const auto docs = YAML::LoadAll(file_text(files, "deployments.yaml"));
    const int replicas = advertised.count("nvidia.com/gpu") ? advertised.at("nvidia.com/gpu") : 0;
    auto simulated = spec;
    int most = 0;
    for (const auto& s : result.strategies) {
      if (s.name != strategy) continue;
      std::map<int, int> per_gpu;
      for (const auto& d : s.devices)
        most = std::max(most, per_gpu[d.gpu_index] += static_cast<int>(d.contexts.size()));
    }
    simulated.replicas = scenario::device_plugin_replicas(spec, most);
    if (replicas != simulated.replicas) {
      out.push_back("device plugin: " + std::to_string(replicas) + " MPS replicas, simulated with " +
                    std::to_string(simulated.replicas));
    }
    for (const auto& tenant : result.input.tenants) {
      const std::string label = kubernetes_name(tenant.name);
      for (const auto& d : docs) {
        if (d["metadata"]["labels"]["app.kubernetes.io/name"].Scalar() != label) continue;
        double pct = std::floor(100.0 / std::max(1, replicas));
        for (const auto& e : d["spec"]["template"]["spec"]["containers"][0]["env"]) {
          if (e["name"].Scalar() == "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE")
            pct = std::min(pct, std::stod(e["value"].Scalar()));
        }
        const auto own = spec.tenants.find(tenant.name);
        const double want = 100.0 * scenario::policy_of(spec.kind).context_cap(
                                        simulated, own == spec.tenants.end() ? nullptr : &own->second, tenant.priority);
        if (std::abs(pct - want) > 1e-9) {
          out.push_back(label + ": deployed at " + std::to_string(pct) + " % threads, simulated at " +
                        std::to_string(want) + " %");
        }
      }
    }
  }
  // A tenant that needs more isolation than time slicing gives must not be on a shared resource.
  const auto policy_isolation = scenario::policy_of(spec.kind).isolation();
  for (const auto& tenant : result.input.tenants) {
    if (tenant.isolation <= policy_isolation) continue;
    for (const auto& ask : asks) {
      if (ask.tenant != kubernetes_name(tenant.name)) continue;
      // Pinned to a whole GPU of its own (a node without the sharing config), or on a resource the
      // device plugin does not share.
      for (const auto& [resource, count] : ask.limits) {
        const bool mig = resource.rfind("nvidia.com/mig-", 0) == 0;
        const bool own_node = !mig && !ask.node.empty() && std::none_of(asks.begin(), asks.end(), [&](const PodAsk& o) {
          return o.tenant != ask.tenant && o.node == ask.node && o.phase == ask.phase;
        });
        if (advertised.count(resource) && !own_node) {
          out.push_back(ask.deployment + ": needs " + models::to_string(tenant.isolation) + " isolation but asks for " +
                        resource + ", which the device plugin shares");
        }
      }
    }
  }
  // The pods on each simulated GPU (per phase) are the contexts the simulation put there.
  std::map<std::pair<std::string, std::string>, int> simulated;
  std::map<std::pair<std::string, std::string>, int> deployed;
  bool pinned = false;
  for (const auto& ask : asks) {
    pinned = pinned || !ask.node.empty();
    deployed[{ask.phase, ask.node}] += ask.replicas;
  }
  for (const auto& s : result.strategies) {
    if (s.name != strategy) continue;
    for (const auto& d : s.devices) {
      simulated[{d.phase, pinned ? "gpu" + std::to_string(d.gpu_index) : std::string()}] +=
          static_cast<int>(d.contexts.size());
    }
  }
  if (simulated != deployed) {
    out.push_back("deployments.yaml: the pods per GPU and phase are not the simulated contexts");
  }
  // A shared whole GPU takes at most its advertised replicas of pods.
  if (advertised.count("nvidia.com/gpu")) {
    for (const auto& [where, pods] : deployed) {
      if (!where.second.empty() && pods > advertised.at("nvidia.com/gpu")) {
        out.push_back("deployments.yaml: " + std::to_string(pods) + " pods on " + where.second + ", which advertises " +
                      std::to_string(advertised.at("nvidia.com/gpu")) + " replicas");
      }
    }
  }
  const bool shares = spec.kind == models::StrategyKind::time_slicing || spec.kind == models::StrategyKind::mps ||
                      spec.kind == models::StrategyKind::hami || spec.kind == models::StrategyKind::mig_time_slicing;
  if (shares && !pinned && !asks.empty()) out.push_back("deployments.yaml: shared GPUs, but no pod is pinned to one");
  for (const auto& ask : asks) {
    // The layout of its node: the one its pod selects (of several), or its phase's, or the one.
    const auto& layout = layouts[!ask.mig_config.empty() ? ask.mig_config
                                 : ask.phase.empty()     ? "slicewise"
                                                         : "slicewise-" + ask.phase];
    for (const auto& [resource, count] : ask.limits) {
      if (resource.rfind("nvidia.com/mig-", 0) == 0 && !layout.count(resource.substr(15))) {
        out.push_back(ask.deployment + ": asks for " + resource + ", which the MIG layout never creates");
      }
      // A resource the plugin shares, or one it advertises as is: whole GPUs without MIG, instances with it.
      const bool whole = resource == "nvidia.com/gpu" && layouts.empty();
      const bool instance = resource.rfind("nvidia.com/mig-", 0) == 0 && layout.count(resource.substr(15));
      if (shared && !advertised.count(resource) && !whole && !instance) {
        out.push_back(ask.deployment + ": asks for " + resource + ", which the device plugin does not advertise");
      }
    }
  }
  return out;
}

}  // namespace slicewise::report::test
