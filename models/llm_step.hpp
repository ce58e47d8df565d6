// What one step of an LLM serving engine costs on one device (docs/model.md, "LLM serving"):
// the roofline of what the step moves and computes. Every step reads the weights once (an MoE
// reads the experts its tokens touch), multiplies 2 x parameters FLOPs per batched token, reads
// each running sequence's KV cache and computes its attention, then pays a fixed per-step
// overhead on the host. Constants fitted to the H200 step measurements (kH200StepFit).
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "models/model_catalog.hpp"

namespace slicewise::models {

/// The fitted constants of the step roofline, each with its standard error.
struct StepConstants {
  /// Fraction of the peak memory bandwidth the linear layers stream weights at.
  double bandwidth_efficiency = 0.0;
  double bandwidth_efficiency_se = 0.0;
  /// Fraction of the dense BF16/FP16 peak the GEMMs reach once compute-bound.
  double compute_efficiency = 0.0;
  double compute_efficiency_se = 0.0;
  /// Sharpness p of the knee between the weight read and the GEMM time: (a^p + b^p)^(1/p).
  double sharpness = 0.0;
  double sharpness_se = 0.0;
  /// Fraction of the peak bandwidth attention reads the KV cache at.
  double attention_bandwidth_efficiency = 0.0;
  double attention_bandwidth_efficiency_se = 0.0;
  /// Fixed GPU time of the attention kernel, per layer and step (launch and tail).
  double attention_kernel_s = 0.0;
  double attention_kernel_s_se = 0.0;
  std::string source;
};

/// Fitted to data/measurements/h200-llm-step-physics.csv (one H200, Llama-3.1-8B shapes, bf16,
/// 2026-11-28) by scripts/fit-llm-step: 13 linear-layer rows and 15 attention rows.
const StepConstants& h200_step_fit();

/// Host and small-kernel time of one step, which the H200 rows leave out (norms, rotary,
/// activations, sampling, the scheduler): 0.3 ms plus 20 µs a layer. Uncalibrated: an order of
/// magnitude from the kernel count (six small kernels a layer at about 3 µs under CUDA graphs)
/// and a scheduler pass; docs/model.md says how to measure it.
double default_step_overhead_s(const ModelSpec& model);

/// The device a step runs on: a whole GPU or a MIG instance (its share of SMs and bandwidth).
struct StepDevice {
  double tflops = 0.0;          ///< dense BF16/FP16 TFLOP/s of the device
  double bandwidth_gbps = 0.0;  ///< GB/s
};

/// What one step batches together.
struct StepBatch {
  double decode_seqs = 0.0;            ///< sequences that decode one token
  double decode_context_tokens = 0.0;  ///< their KV caches' tokens, summed
  double prefill_tokens = 0.0;         ///< prompt tokens computed in this step, summed over chunks
  double prefill_seqs = 0.0;           ///< sequences with a prefill chunk in this step
  /// Σ over chunks of (prefix + chunk) tokens: the KV cache prefill attention reads.
  double prefill_context_tokens = 0.0;
  /// Σ over chunks of chunk × (prefix + chunk / 2): the causal attention's query-key pairs.
  double prefill_attention_pairs = 0.0;
};

/// A tensor-parallel group: every GPU holds 1/tp of the weights and of each token's KV cache and
/// computes 1/tp of each GEMM and attention, and each layer's attention and MLP outputs are summed
/// over the group (two all-reduces a layer) across the GPUs' interconnect.
struct Parallelism {
  int tensor_parallel = 1;
  double interconnect_gbps = 0.0;  ///< GB/s, both directions together (the GPU catalog's)
};

/// One all-reduce's fixed cost (launch and synchronisation), an assumption of the order NCCL
/// reports for small messages inside a node; uncalibrated.
inline constexpr double kAllReduceLatencyS = 10e-6;

/// One step's time and what it asks of the device.
/// Kernels one forward step of `model` launches: kKernelsPerLayer per layer (the QKV, output,
/// gate-up and down GEMMs, attention, and the fused norm and activation kernels) and the head.
/// What MPS divides a step's GPU time by to get the kernels other clients take turns with.
inline constexpr int kKernelsPerLayer = 6;
double kernels_per_step(const ModelSpec& model);

struct StepCost {
  double gpu_s = 0.0;       ///< the GPU's part: linear layers and attention
  double overhead_s = 0.0;  ///< host-side: scheduling, sampling, launch gaps (the GPU idles)
  double linear_s = 0.0;
  double attention_s = 0.0;
  double allreduce_s = 0.0;  ///< a tensor-parallel group's sums over its GPUs (in gpu_s)
  double total_s() const { return gpu_s + overhead_s; }
  /// While the GPU part runs: the fraction of the device's reachable compute and bandwidth it uses.
  double sm_frac = 0.0;
  double bw_frac = 0.0;
};

class StepModel {
 public:
  /// `weight_bytes` per parameter (bf16 2, fp8 1), `kv_bytes` per KV element.
  /// `device` is one GPU of a tensor-parallel group (or the whole device without one).
  StepModel(const ModelSpec& model, double weight_bytes, double kv_bytes, const StepDevice& device,
            const StepConstants& constants, double overhead_s, const Parallelism& parallelism = {});

  StepCost cost(const StepBatch& batch) const;
  /// Bytes of weights each GPU holds.
  double weight_bytes() const { return weight_bytes_total_; }
  /// Bytes one token adds to each GPU's KV cache.
  double kv_bytes_per_token() const { return kv_bytes_per_token_; }
  /// Weights one GPU reads in a step of `tokens` batched tokens: every dense weight once, and for
  /// an MoE the experts those tokens touch (E (1 - (1 - k/E)^n) per layer, tokens routed
  /// independently), over the tensor-parallel group.
  double weights_read(double tokens) const;
  /// How the step time grows per unit of KV context read (decode) and per query-key pair
  /// (prefill): what the fluid engine integrates between events.
  double seconds_per_context_token() const { return attention_s_per_token_; }
  double seconds_per_attention_pair() const { return attention_s_per_pair_; }
  const ModelSpec& model() const { return *model_; }

 private:
  /// The linear layers' time: the weights read against the GEMMs, joined at the rounded knee.
  double linear_time(double tokens, double sampled, double weight_bytes, double linear_flops) const;

  const ModelSpec* model_;
  StepDevice device_;
  StepConstants constants_;
  Parallelism parallelism_;
  double overhead_s_;
  double weight_bytes_per_param_;
  double weight_bytes_total_ = 0.0;
  double kv_bytes_per_token_ = 0.0;
  double attention_s_per_token_ = 0.0;
  double attention_s_per_pair_ = 0.0;
  struct KeptLinear {
    bool valid = false;
    double tokens = 0.0;
    double sampled = 0.0;
    double seconds = 0.0;
  };
  static constexpr std::size_t kLinearCacheSize = 256;
  mutable std::array<KeptLinear, kLinearCacheSize> linear_cache_{};
};

}  // namespace slicewise::models
