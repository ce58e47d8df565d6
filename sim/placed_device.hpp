// What placement gives the simulation: each placed device (a whole GPU, a MIG instance or a
// tensor-parallel group) with its contexts and how it shares itself, the fleet's physical GPUs,
// and the GPUs a device spans. Used by placement (placement.hpp, placement_slots.hpp) and by the
// run that simulates its devices.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/rate_types.hpp"

namespace slicewise::sim {

/// One context (server process / pod) of a tenant.
struct PlacedContext {
  std::size_t tenant = 0;  ///< index in Scenario::tenants
  int replica = 0;         ///< 0 .. num_contexts - 1
  double memory_gib = 0.0;
  double weight = 1.0;  ///< time-slice / vGPU share weight
  double cap = 1.0;     ///< MPS SM cap or HAMi time cap, fraction
  int priority = 1;     ///< 0 high, 1 normal, 2 low, where the strategy schedules by priority; else 1
};

/// A device the simulation runs: a whole GPU or one MIG instance.
struct PlacedDevice {
  std::string name;  ///< "gpu0" or "gpu0/1g.10gb@3"
  std::string gpu_id;
  std::string mig_profile;    ///< "" for a whole GPU
  std::size_t gpu_index = 0;  ///< physical GPU in the expanded fleet (a tensor-parallel group: its first)
  double compute = 0.0;       ///< dense TFLOPS (or SMs when the catalog lacks TFLOPS, see compute_in_sms)
  bool compute_in_sms = false;
  double num_sms = 0.0;  ///< SMs of the GPU or instance
  double bandwidth_gbps = 0.0;
  double memory_gib = 0.0;
  std::vector<PlacedContext> contexts;
  bool oom_risk = false;
  models::SharingParams sharing;
  /// Exact time-slicing: quantum events instead of the fluid share (time-sliced strategies only).
  bool exact_quanta = false;
  double quantum_s = 0.0;
  double switch_cost_s = 0.0;
  /// The time over which its contexts' turns on the GPU are decided (docs/model.md §4, sharing
  /// variance); 0 for a device that one context owns, or whose shares do not depend on the others.
  double round_s = 0.0;
  int gpu_count = 1;  ///< GPUs it spans: a tensor-parallel group's, gpu_index onwards
  /// The memory each context's CUDA reports as its GPU's, where the strategy pins it lower (MPS's
  /// per-replica share): an LLM engine sizes itself on it; 0 = memory_gib.
  double client_memory_gib = 0.0;
  /// On GPUs its fleet entry reserves for named tenants: whole, one context, unshared whatever the
  /// strategy (scenario::FleetEntry::tenants).
  bool reserved = false;
};

/// One physical GPU of the fleet.
struct FleetGpu {
  std::string id;                 ///< GPU catalog id
  std::vector<std::string> pool;  ///< the tenants its fleet entry reserves it for; empty = the strategy shares it
  /// Its place in its fleet entry (0, 1, ...): nodes, and tensor-parallel groups, are counted from
  /// the entry's first GPU.
  std::size_t position = 0;
  /// GPUs of one node in its entry: an instance's, 8 for an entry given by GPU.
  std::size_t node_gpus = 8;
  bool operator==(const FleetGpu&) const = default;
};

/// One past the last physical GPU `device` runs on: its GPUs are gpu_index .. gpu_end − 1.
inline std::size_t gpu_end(const PlacedDevice& device) {
  return device.gpu_index + static_cast<std::size_t>(device.gpu_count);
}

/// True when `device` runs on physical GPU `gpu` (a tensor-parallel group on each of its GPUs).
inline bool spans(const PlacedDevice& device, std::size_t gpu) {
  return gpu >= device.gpu_index && gpu < gpu_end(device);
}

/// True when `a` and `b` share a physical GPU.
inline bool share_a_gpu(const PlacedDevice& a, const PlacedDevice& b) {
  return a.gpu_index < gpu_end(b) && b.gpu_index < gpu_end(a);
}

struct Placement {
  std::vector<PlacedDevice> devices;  ///< only devices with at least one context
  std::vector<std::string> issues;    ///< one sentence each
  std::vector<int> num_unplaced;      ///< per tenant
  int num_gpus_used = 0;
};

/// Compute capacity of a whole GPU for the rate model: BF16 (else FP16) dense TFLOPS, or the SM
/// count when the catalog has no TFLOPS (then both sides of a ratio use SMs).
double compute_capacity(const models::GpuSpec& gpu, bool& in_sms);

}  // namespace slicewise::sim
