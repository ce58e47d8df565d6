// What the parts of export-config share (deploy_config.hpp is the interface): the labels and
// names they write, how a strategy's placement becomes Deployments (Group, Placed), and the
// files each part writes: deploy_export.cpp the device plugin and MIG configs and the whole set,
// deploy_workloads.cpp the Deployments and the phase switch, deploy_runbook.cpp the README.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "report/deploy_config.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report::deploy {

using Sharer = scenario::DeploySharer;

/// True when NVIDIA's device plugin shares the devices (its config then has a sharing section).
inline bool plugin_shares(Sharer sharer) {
  return sharer == Sharer::device_plugin_time_slicing || sharer == Sharer::device_plugin_mps;
}

inline constexpr const char* kConfigName = "slicewise";
inline constexpr const char* kAllDisabled = "all-disabled";              // the GPU operator's default mig.config label
inline constexpr const char* kMigConfigLabel = "nvidia.com/mig.config";  // node label: the MIG manager's config
inline constexpr const char* kGpuLabel = "slicewise.io/gpu";      // node label: the simulated GPU the node carries
inline constexpr const char* kPhaseLabel = "slicewise.io/phase";  // a Deployment's layout-schedule phase

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

/// The mig-parted config name of a layout schedule's phase ("slicewise-day"), or the strategy's
/// one layout's ("slicewise") for "".
std::string mig_config_name(const std::string& phase);

/// deployments.yaml: one Deployment per tenant and group.
std::string deployments(const scenario::Scenario& scenario, const scenario::StrategySpec& spec, const Placed& placed);
/// switch-phase.sh: re-partitions the nodes to one phase of the layout schedule and scales the
/// Deployments to it.
std::string switch_phase_script(const scenario::Scenario& scenario, const scenario::StrategySpec& spec,
                                const Placed& placed);
/// README.md: the runbook, step by step with each step's check, the files, and what was assumed.
std::string readme(const scenario::SimResult& result, const scenario::StrategySpec& spec,
                   const scenario::StrategyResult& strategy, const Placed& placed, const std::vector<ConfigFile>& files,
                   const std::string& ns);

}  // namespace slicewise::report::deploy
