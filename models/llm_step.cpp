// The step roofline of an LLM serving engine.
#include "models/llm_step.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace slicewise::models {

const StepConstants& h200_step_fit() {
  // scripts/fit-llm-step over data/measurements/h200-llm-step-physics.csv (least squares on the
  // log of the time; standard errors from the Jacobian). Residuals: decode steps (linear +
  // attention) within 5.0 % of the 15 measured, leave-one-out 5.9 %; linear rows within 8.8 %.
  static const StepConstants fit{0.9045,
                                 0.0175,
                                 0.6795,
                                 0.0101,
                                 4.822,
                                 1.162,
                                 1.0113,
                                 0.0537,
                                 14.72e-6,
                                 1.1e-6,
                                 "one H200 (driver 580.159.04, CUDA 13.0, PyTorch 2.11.0, bf16), Llama-3.1-8B "
                                 "shapes, 2026-11-28: data/measurements/h200-llm-step-physics.csv"};
  return fit;
}

double default_step_overhead_s(const ModelSpec& model) { return 0.3e-3 + 20e-6 * model.num_layers; }

StepModel::StepModel(const ModelSpec& model, double weight_bytes, double kv_bytes, const StepDevice& device,
                     const StepConstants& constants, double overhead_s, const Parallelism& parallelism)
    : model_(&model),
      device_(device),
      constants_(constants),
      parallelism_(parallelism),
      overhead_s_(overhead_s),
      weight_bytes_per_param_(weight_bytes) {
  const double tp = parallelism.tensor_parallel;
  weight_bytes_total_ = model.computed_params() * weight_bytes / tp;
  kv_bytes_per_token_ =
      model.architecture == ModelArchitecture::encoder ? 0.0 : model.kv_elements_per_token() * kv_bytes / tp;
  const double bandwidth = device.bandwidth_gbps * 1e9 * constants.attention_bandwidth_efficiency;
  const double flops = device.tflops * 1e12 * constants.compute_efficiency;
  attention_s_per_token_ = kv_bytes_per_token_ / bandwidth;
  attention_s_per_pair_ = 4.0 * model.num_layers * model.num_attention_heads * model.head_dim / flops / tp;
}

double StepModel::weights_read(double tokens) const {
  const auto& m = *model_;
  double params = m.layer_params();
  if (m.moe() && tokens > 0.0) {
    const double e = m.num_experts;
    const double touched = e * (1.0 - std::pow(1.0 - m.experts_per_token / e, tokens));
    params -= m.num_layers * (e - touched) * m.mlp_params(m.moe_intermediate_size);
  }
  return (params + m.lm_head_params()) * weight_bytes_per_param_ / parallelism_.tensor_parallel;
}

double StepModel::linear_time(double tokens, double sampled, double weight_bytes, double linear_flops) const {
  // A batch's linear time depends on its token and sampled-row counts alone, and an engine meets
  // the same few again and again: kept in a small table (its p-norm costs two pow()).
  const auto slot =
      static_cast<std::size_t>((std::hash<double>{}(tokens)*31u) ^ std::hash<double>{}(sampled)) % kLinearCacheSize;
  auto& kept = linear_cache_[slot];
  if (kept.valid && kept.tokens == tokens && kept.sampled == sampled) return kept.seconds;
  const double read_s = weight_bytes / (device_.bandwidth_gbps * 1e9 * constants_.bandwidth_efficiency);
  const double gemm_s = linear_flops / (device_.tflops * 1e12 * constants_.compute_efficiency);
  const double top = std::max(read_s, gemm_s);
  const double p = constants_.sharpness;
  const double low = std::min(read_s, gemm_s) / top;
  const double seconds = top * std::pow(1.0 + std::pow(low, p), 1.0 / p);
  kept = {true, tokens, sampled, seconds};
  return seconds;
}

double kernels_per_step(const ModelSpec& model) { return kKernelsPerLayer * model.num_layers + 1.0; }

StepCost StepModel::cost(const StepBatch& batch) const {
  const auto& m = *model_;
  const double tokens = batch.decode_seqs + batch.prefill_tokens;
  StepCost cost;
  if (tokens <= 0.0) return cost;
  const double peak_bw = device_.bandwidth_gbps * 1e9;
  const double peak_flops = device_.tflops * 1e12;
  // Linear layers: the weights streamed once against the GEMMs, joined at a rounded knee.
  const double weight_bytes = weights_read(tokens);
  const double sampled = batch.decode_seqs + batch.prefill_seqs;  // one row of logits each
  const double linear_flops =
      2.0 * (m.active_layer_params() * tokens + m.lm_head_params() * sampled) / parallelism_.tensor_parallel;
  cost.linear_s = linear_time(tokens, sampled, weight_bytes, linear_flops);
  // Attention: a kernel per layer, the KV caches read, the prefill's query-key products.
  const double context = batch.decode_context_tokens + batch.prefill_context_tokens;
  const double pairs = batch.decode_context_tokens + batch.prefill_attention_pairs;
  if (m.architecture == ModelArchitecture::decoder || batch.prefill_tokens > 0.0) {
    cost.attention_s =
        m.num_layers * constants_.attention_kernel_s + context * attention_s_per_token_ + pairs * attention_s_per_pair_;
  }
  if (const int tp = parallelism_.tensor_parallel; tp > 1) {
    // Two ring all-reduces a layer of the step's activations (16-bit): each GPU sends and receives
    // 2 (tp - 1) / tp of them, at half the interconnect's two-way bandwidth each way.
    const double bytes = tokens * m.hidden_size * 2.0;
    const double one_way = parallelism_.interconnect_gbps * 1e9 / 2.0;
    cost.allreduce_s = 2.0 * m.num_layers * (2.0 * (tp - 1) / tp * bytes / one_way + kAllReduceLatencyS);
  }
  cost.gpu_s = cost.linear_s + cost.attention_s + cost.allreduce_s;
  cost.overhead_s = overhead_s_;
  const double bytes = weight_bytes + context * kv_bytes_per_token_;
  const double flops = linear_flops + pairs * attention_s_per_pair_ * peak_flops * constants_.compute_efficiency;
  cost.bw_frac = std::min(1.0, bytes / (peak_bw * constants_.bandwidth_efficiency) / cost.gpu_s);
  cost.sm_frac = std::min(1.0, flops / (peak_flops * constants_.compute_efficiency) / cost.gpu_s);
  return cost;
}

}  // namespace slicewise::models
