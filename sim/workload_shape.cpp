// Request cost: generic solo time, or an LLM roofline scaled to the measured solo latency.
#include "sim/workload_shape.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "models/dtype.hpp"

namespace slicewise::sim {

namespace {
/// Decode reads the weights once per step for the whole batch; this is the part of a decode
/// step's demand that batching shares (the rest, KV-cache reads, grows with the batch).
/// Uncalibrated default, see docs/model.md.
constexpr double kDecodeSharedFrac = 0.9;
}  // namespace

WorkloadShape make_workload_shape(const scenario::Workload& workload, const models::GpuSpec& gpu) {
  WorkloadShape shape;
  shape.duty = workload.gpu_duty_frac;
  if (workload.kind == scenario::WorkloadKind::generic || !workload.llm) {
    shape.prefill = {workload.sm_occupancy_frac, workload.mem_bw_frac, 0.0};
    shape.solo_latency_s = workload.solo_latency_s.value_or(0.0);
    return shape;
  }
  const auto& llm = *workload.llm;
  const auto tflops = gpu.bf16_dense_tflops ? gpu.bf16_dense_tflops : gpu.fp16_dense_tflops;
  if (!tflops || gpu.memory_bandwidth_gbps <= 0.0) {
    throw ConfigError("", "",
                      "LLM roofline needs the FP16/BF16 TFLOPS and bandwidth of reference GPU " + gpu.id +
                          ", which the catalog does not have");
  }
  const double flops = *tflops * 1e12;
  const double bandwidth = gpu.memory_bandwidth_gbps * 1e9;
  const double params = llm.params_b * 1e9;
  const double weight_s = params * models::bytes_per_param(llm.dtype) / bandwidth;
  shape.llm = true;
  shape.prefill_s_per_token = 2.0 * params / flops;
  shape.prefill_floor_s = weight_s;
  shape.decode_s_per_token = std::max(2.0 * params / flops, weight_s);

  // Phase demands. The user's occupancy and bandwidth figures are what a running request keeps
  // busy (DCGM SM_ACTIVE and DRAM_ACTIVE): decode keeps both; a compute-bound prefill streams the
  // weights only once over a longer time, so its bandwidth share shrinks by the roofline ratio.
  const double prefill_compute = shape.prefill_s_per_token * std::max(1.0, llm.prompt_tokens);
  const double prefill_time = std::max(prefill_compute, weight_s);
  shape.prefill = {workload.sm_occupancy_frac, workload.mem_bw_frac * weight_s / prefill_time, 0.0};
  shape.decode = {workload.sm_occupancy_frac, workload.mem_bw_frac, kDecodeSharedFrac};

  if (workload.solo_latency_s) {
    const double roofline_gpu_s = prefill_time + llm.output_tokens * shape.decode_s_per_token;
    shape.roofline_scale = workload.gpu_duty_frac * *workload.solo_latency_s / roofline_gpu_s;
  }
  return shape;
}

double WorkloadShape::first_phase_s(const traces::RequestRecord& request) const {
  if (!llm) return solo_latency_s * request.work_scale;
  const double gpu_s = std::max(prefill_s_per_token * std::max(1.0, request.prompt_tokens), prefill_floor_s);
  return roofline_scale * gpu_s / duty;
}

double WorkloadShape::decode_phase_s(const traces::RequestRecord& request) const {
  if (!llm) return 0.0;
  return roofline_scale * request.output_tokens * decode_s_per_token / duty;
}

}  // namespace slicewise::sim
