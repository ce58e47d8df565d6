// Deployable configs for one simulated strategy (docs/advisor.md, `slicewise export-config`): what a
// platform team applies to run it on Kubernetes, each format as its upstream documents it:
// the NVIDIA k8s-device-plugin config (time slicing, MPS) as a ConfigMap, an nvidia-mig-parted
// config and the node label that selects it, and per tenant a Deployment whose container asks for
// the resource that lands it on its share (HAMi: memory, cores and priority too), plus a README.
#pragma once

#include <string>
#include <vector>

#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// One file of the export: its name in the output folder and its whole text.
struct ConfigFile {
  std::string name;
  std::string text;
};

/// What file `name` of deploy_configs() does, in a phrase ("the NVIDIA device plugin's config
/// (namespace gpu-operator)"): the runbook's and the report appendix's list. "" for a name it
/// does not write.
std::string config_file_purpose(const std::string& name, const std::string& namespace_name = "gpu-operator");

/// The files for strategy `strategy` of `result` (its placement says how many contexts share a
/// GPU and which MIG instances the tenants got; its StrategySpec, in result.input, the settings).
/// `namespace_name` is where the ConfigMaps go (the GPU operator's). Throws ConfigError when the
/// result has no such strategy.
std::vector<ConfigFile> deploy_configs(const scenario::SimResult& result, const std::string& strategy,
                                       const std::string& namespace_name = "gpu-operator");

/// The MIG layout a mig-parted config selects, read back: per profile, the instances per GPU, from
/// the config named `config` (empty = the first). Throws ConfigError when the text is not one.
std::vector<std::pair<std::string, int>> read_mig_parted_config(const std::string& yaml_text,
                                                                const std::string& config = "");

}  // namespace slicewise::report
