// The GPU-sharing strategies slicewise compares, and their names on input and output.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace slicewise::models {

/// How contexts that share one device divide it (docs/design.md §4).
enum class StrategyKind {
  dedicated,         ///< one context per device
  time_slicing,      ///< busy contexts take turns (k8s device-plugin replicas)
  mps,               ///< CUDA MPS: contexts run at once, SMs and bandwidth split
  mig,               ///< Multi-Instance GPU: hardware partitions
  mig_time_slicing,  ///< time-slicing inside each MIG instance
  hami,              ///< HAMi: driver time-slicing plus per-context core caps and memory limits
  vgpu,              ///< NVIDIA vGPU scheduler (best_effort, equal_share, fixed_share)
};

/// Name ↔ kind, in the order above (also the order error messages list them).
const std::vector<std::pair<std::string, StrategyKind>>& strategy_kind_table();
std::string to_string(StrategyKind kind);

/// Isolation a tenant may require (docs/design.md §9 isolation matrix).
enum class IsolationLevel { none, software, hardware };
const std::vector<std::pair<std::string, IsolationLevel>>& isolation_level_table();
std::string to_string(IsolationLevel level);

}  // namespace slicewise::models
