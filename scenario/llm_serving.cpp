// An LLM tenant's serving engine on a device: defaults, memory, KV pool.
#include "scenario/llm_serving.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/dtype.hpp"

namespace slicewise::scenario {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
/// Memory an engine holds outside its tensors: the CUDA context, graph pools, communication
/// buffers (vLLM logs it as non-torch memory plus CUDA graphs). An assumption of the order vLLM
/// reports for one GPU.
constexpr double kNonTorchGiB = 0.5;

/// vLLM's own defaults (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults, OpenAI server):
/// 8,192 tokens and 1,024 sequences on a device of at least 70 GiB that is not an A100, else
/// 2,048 and 256. A MIG instance is a device of its own memory.
bool vllm_large_device(const std::string& gpu_id, double device_memory_gib) {
  return device_memory_gib >= 70.0 && gpu_id.rfind("A100", 0) != 0;
}

/// SGLang's chunked_prefill_size by device memory (python/sglang/srt/server_args.py).
int sglang_chunk(double device_memory_gib) {
  if (device_memory_gib < 35.0) return 2048;
  return device_memory_gib < 160.0 ? 8192 : 16384;
}

/// SGLang's mem_fraction_static by tensor parallelism (server_args.py).
double sglang_fraction(int tensor_parallel) {
  if (tensor_parallel >= 8) return 0.81;
  if (tensor_parallel >= 4) return 0.85;
  return tensor_parallel >= 2 ? 0.87 : 0.88;
}

/// Peak activations of a step of `tokens` tokens (the MLP's two widest tensors and the attention
/// projections in 16-bit, logits for `seqs` rows in fp32) plus the non-tensor memory.
double activations_gib(const models::ModelSpec& m, double tokens, double seqs) {
  const double width = m.moe() ? static_cast<double>(m.experts_per_token) * m.moe_intermediate_size
                               : static_cast<double>(m.intermediate_size);
  const double per_token = (4.0 * m.hidden_size + 2.0 * width) * 2.0;
  return (tokens * per_token + seqs * m.vocab_size * 4.0) / kGiB + kNonTorchGiB;
}

bool is_decoder(const models::ModelSpec& m) { return m.architecture == models::ModelArchitecture::decoder; }

/// The engine's settings without the memory (these do not depend on it).
EngineOnDevice settings(const Workload& w, const std::string& gpu_id, double device_memory_gib) {
  const auto& m = model_of(w);
  const EngineSpec& e = *w.engine;
  EngineOnDevice d;
  const double model_len = m.max_position_embeddings;
  switch (e.name) {
    case ServingEngine::vllm: {
      const bool large = vllm_large_device(gpu_id, device_memory_gib);
      d.max_num_seqs = e.max_num_seqs.value_or(large ? 1024 : 256);
      d.max_batched_tokens = e.max_num_batched_tokens.value_or(large ? 8192 : 2048);
      d.memory_fraction = e.gpu_memory_utilization.value_or(0.9);
      d.max_model_len = e.max_model_len.value_or(static_cast<int>(model_len));
      d.max_input_len = d.max_model_len;
      break;
    }
    case ServingEngine::sglang:
      d.max_num_seqs = e.max_num_seqs.value_or(1024);
      d.max_batched_tokens = e.max_num_batched_tokens.value_or(sglang_chunk(device_memory_gib));
      d.memory_fraction = e.gpu_memory_utilization.value_or(sglang_fraction(e.tensor_parallel));
      d.max_model_len = e.max_model_len.value_or(static_cast<int>(model_len));
      d.max_input_len = d.max_model_len;
      d.block_size = 1.0;  // SGLang's token-granular radix cache (page_size 1)
      break;
    case ServingEngine::tgi:
      // TGI 2.x launcher defaults (TGI 3 derives them from the model and the memory).
      d.chunked_prefill = false;
      d.max_concurrent_requests = e.max_concurrent_requests.value_or(128);
      d.max_num_seqs = d.max_concurrent_requests;
      d.max_batched_tokens = e.max_batch_prefill_tokens.value_or(4096);
      d.max_model_len = e.max_total_tokens.value_or(2048);
      d.max_input_len = e.max_input_length.value_or(1024);
      d.memory_fraction = e.cuda_memory_fraction.value_or(1.0);
      break;
  }
  // vLLM V1 caches prefixes by default (enable_prefix_caching), SGLang too (its radix cache, off
  // with --disable-radix-cache); TGI 2.x only with PREFIX_CACHING=1 (on by default from TGI 3).
  d.prefix_caching = e.prefix_caching.value_or(e.name != ServingEngine::tgi) && is_decoder(m);
  if (!is_decoder(m)) d.max_model_len = d.max_input_len = std::min(d.max_model_len, model_len);
  return d;
}

std::string gib_text(double gib) { return format_number(std::round(gib * 10.0) / 10.0) + " GiB"; }

}  // namespace

const models::ModelSpec& model_of(const Workload& workload) {
  SW_CHECK(workload.llm.has_value(), "model_of() on a workload without an llm spec");
  const auto& catalog = models::ModelCatalog::shipped();
  const auto* model = catalog.find(workload.llm->model);
  if (!model) {
    throw ConfigError(
        "", "/workload/llm/model",
        "unknown model " + quoted_excerpt(workload.llm->model) + catalog.did_you_mean_suffix(workload.llm->model));
  }
  return *model;
}

double weight_bytes_per_param(const Workload& workload) { return models::bytes_per_param(workload.llm->dtype); }

double kv_bytes_per_element(const Workload& workload) {
  const std::string& kv = workload.engine->kv_cache_dtype;
  if (kv == "auto") return workload.llm->dtype == "fp32" ? 4.0 : 2.0;
  return models::bytes_per_param(kv);
}

namespace {

/// The engine on `tp` GPUs of `device_memory_gib` each: every figure per GPU (weights and each
/// token's KV split evenly over the group, a full step's activations on each).
EngineOnDevice engine_on(const Workload& workload, const std::string& gpu_id, double device_memory_gib, int tp) {
  const auto& m = model_of(workload);
  EngineOnDevice d = settings(workload, gpu_id, device_memory_gib);
  d.tensor_parallel = tp;
  d.weights_gib = m.computed_params() * weight_bytes_per_param(workload) / kGiB / tp;
  d.activations_gib = activations_gib(m, d.max_batched_tokens, d.max_num_seqs);
  d.kv_bytes_per_token = is_decoder(m) ? m.kv_elements_per_token() * kv_bytes_per_element(workload) / tp : 0.0;
  const double budget = d.memory_fraction * device_memory_gib;
  const bool sglang = workload.engine->name == ServingEngine::sglang;
  // vLLM and TGI fit everything in their fraction; SGLang's fraction holds weights and KV only.
  d.held_gib = sglang ? std::min(device_memory_gib, budget + d.activations_gib) : budget;
  d.kv_pool_gib = budget - d.weights_gib - (sglang ? 0.0 : d.activations_gib);
  d.kv_capacity_tokens = d.kv_bytes_per_token > 0.0 ? std::max(0.0, d.kv_pool_gib) * kGiB / d.kv_bytes_per_token
                                                    : std::numeric_limits<double>::infinity();
  const std::string fraction = "(" + format_number(d.memory_fraction) + " of " + gib_text(device_memory_gib) + ")";
  const std::string each = tp > 1 ? " on each of its " + std::to_string(tp) + " GPUs" : "";
  if (d.kv_pool_gib <= 0.0) {
    d.problem = "its weights (" + gib_text(d.weights_gib) + ") and activations (" + gib_text(d.activations_gib) +
                ") do not fit in the engine's " + gib_text(budget) + " " + fraction + each;
  } else if (is_decoder(m) && d.kv_capacity_tokens < d.max_model_len) {
    d.problem = "its KV pool of " + gib_text(d.kv_pool_gib) + " " + fraction + each + " holds " +
                format_number(std::floor(d.kv_capacity_tokens)) + " tokens, less than one request of max_model_len " +
                format_number(d.max_model_len) +
                " (the engine would not start: lower max_model_len or give it more memory)";
  }
  return d;
}

}  // namespace

EngineOnDevice engine_on_device(const Workload& workload, const std::string& gpu_id, double device_memory_gib) {
  return engine_on(workload, gpu_id, device_memory_gib, workload.engine->tensor_parallel);
}

std::optional<int> smallest_tensor_parallel(const Workload& workload, const std::string& gpu_id,
                                            double device_memory_gib) {
  const int given = workload.engine->tensor_parallel;
  if (engine_on(workload, gpu_id, device_memory_gib, given).problem.empty()) return std::nullopt;
  for (const int tp : {2, 4, 8}) {
    if (tp > given && engine_on(workload, gpu_id, device_memory_gib, tp).problem.empty()) return tp;
  }
  return std::nullopt;
}

double memory_need_gib(const Workload& workload) {
  if (workload.kind != WorkloadKind::llm || !workload.llm || !workload.engine) return workload.memory_gib;
  if (!models::ModelCatalog::shipped().find(workload.llm->model)) return 0.0;
  return engine_min_memory_gib(workload);
}

double memory_on_gib(const Workload& workload, const std::string& gpu_id, double device_memory_gib) {
  const double need = memory_need_gib(workload);
  if (workload.kind != WorkloadKind::llm || !workload.engine || need == 0.0) return need;
  const auto on = engine_on_device(workload, gpu_id, device_memory_gib);
  return on.problem.empty() ? on.held_gib : need;
}

double engine_min_memory_gib(const Workload& workload) {
  // The smallest default step (a device under 70 GiB, here one of no memory) unless the scenario
  // sets it; per GPU of a tensor-parallel group, and one request of max_model_len in the pool.
  const EngineOnDevice d = engine_on(workload, "", 0.0, workload.engine->tensor_parallel);
  const double kv_one = d.max_model_len * d.kv_bytes_per_token / kGiB;
  if (workload.engine->name == ServingEngine::sglang)
    return (d.weights_gib + kv_one) / d.memory_fraction + d.activations_gib;
  return (d.weights_gib + d.activations_gib + kv_one) / d.memory_fraction;
}

}  // namespace slicewise::scenario
