// The GPU-sharing strategies slicewise compares, and their names on input and output.
#pragma once

#include <optional>
#include <string>
#include <string_view>
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
/// The kind a name stands for; nullopt for a name no kind has.
std::optional<StrategyKind> strategy_kind_named(std::string_view name);

/// What the layers below the strategy policies (calibration, the catalogs) need to know of a
/// kind, declared once per kind in strategy_kind.cpp. Everything else about a strategy its policy
/// answers (scenario/strategies/policy.hpp), which reads these facts rather than restating them.
struct StrategyKindFacts {
  /// Its devices are MIG instances of a layout, not whole GPUs: a measurement of it names a profile.
  bool mig_instances = false;
  /// Each context owns its device: a device carries one context, and a measurement has one.
  bool own_device = false;
  /// Every context has a whole GPU of its own: the baseline savings are measured against, and the
  /// solo rows calibration scales co-runs by.
  bool baseline = false;
  /// The measurement parameter that caps a context's share of the SMs, in percent ("" = none).
  std::string cap_param;
};
const StrategyKindFacts& facts_of(StrategyKind kind);

/// Isolation a tenant may require (docs/design.md §9 isolation matrix).
enum class IsolationLevel { none, software, hardware };
const std::vector<std::pair<std::string, IsolationLevel>>& isolation_level_table();
std::string to_string(IsolationLevel level);

}  // namespace slicewise::models
