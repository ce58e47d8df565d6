// What an LLM tenant's serving engine does with the device it is placed on (docs/model.md, "LLM
// serving"): the engine's defaults there, the memory it takes, and the KV pool that is left after
// the weights and activations. Shared by validation, placement and the simulation.
#pragma once

#include <optional>
#include <string>

#include "models/model_catalog.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// The catalog entry of an LLM workload's model. Throws ConfigError when it is unknown (validation
/// reports that first, with a did-you-mean).
const models::ModelSpec& model_of(const Workload& workload);

/// Bytes of one weight (the llm dtype) and of one KV element (kv_cache_dtype; auto is 2).
double weight_bytes_per_param(const Workload& workload);
double kv_bytes_per_element(const Workload& workload);

/// An engine's settings and memory on one device (a GPU or a MIG instance).
struct EngineOnDevice {
  bool chunked_prefill = true;  ///< vllm, sglang; TGI runs prefill steps first
  int max_num_seqs = 0;
  double max_batched_tokens = 0.0;  ///< chunked: tokens per step; TGI: prompt tokens per prefill step
  double max_model_len = 0.0;       ///< longest request (prompt + output) it takes
  double max_input_len = 0.0;       ///< longest prompt it takes
  int max_concurrent_requests = 0;  ///< TGI: requests in the server at once (more are refused); 0 = no limit
  double block_size = 16.0;         ///< KV tokens per block
  bool prefix_caching = false;      ///< reuses cached prompt prefixes (decoders only)
  double memory_fraction = 0.0;     ///< gpu_memory_utilization, mem_fraction_static or cuda_memory_fraction
  int tensor_parallel = 1;          ///< GPUs the engine spans; every figure below is per GPU
  double held_gib = 0.0;            ///< the device memory the engine holds
  double weights_gib = 0.0;
  double activations_gib = 0.0;  ///< peak activations of a full step, plus the CUDA context
  double kv_pool_gib = 0.0;
  double kv_bytes_per_token = 0.0;  ///< on each GPU (a group splits a token's KV over its GPUs)
  double kv_capacity_tokens = 0.0;  ///< tokens the whole pool holds (every GPU's share together)
  /// Why the engine would not start there ("" when it does): no room for the weights, or for one
  /// request of max_model_len (vLLM refuses to start then).
  std::string problem;
};

EngineOnDevice engine_on_device(const Workload& workload, const std::string& gpu_id, double device_memory_gib);

/// The fewest GPUs (2, 4 or 8, more than the engine's tensor_parallel) of `device_memory_gib` each
/// over which tensor parallelism would split the model so that its engine starts (weights and
/// each token's KV split evenly, the activations of a full step on each); none when even 8 would
/// not do or its own setting already does.
std::optional<int> smallest_tensor_parallel(const Workload& workload, const std::string& gpu_id,
                                            double device_memory_gib);

/// The least memory each of its GPUs needs for the engine to start: its weights, activations at the smallest default
/// step and the KV cache of one request of max_model_len, over its memory fraction. What an LLM
/// tenant's memory_gib is set to (placement then uses the fraction of each device).
double engine_min_memory_gib(const Workload& workload);

/// What a tenant's context needs of a device's memory to run at all: memory_gib for a generic
/// workload, engine_min_memory_gib for an LLM tenant (0 while its model is unknown: validation
/// reports that). On a given device an engine holds its memory fraction of it
/// (EngineOnDevice::held_gib).
double memory_need_gib(const Workload& workload);

/// GPUs one context of `workload` spans: its engine's tensor parallelism, 1 for everything else.
inline int tensor_parallel_of(const Workload& workload) {
  return workload.engine ? workload.engine->tensor_parallel : 1;
}

/// The memory a context of `workload` holds on a device of `device_memory_gib` (a GPU or an
/// instance of `gpu_id`): memory_gib for a generic workload, its engine's share of that device for
/// an LLM tenant (memory_need_gib where its engine would not start there). Per GPU of a
/// tensor-parallel group.
double memory_on_gib(const Workload& workload, const std::string& gpu_id, double device_memory_gib);

}  // namespace slicewise::scenario
