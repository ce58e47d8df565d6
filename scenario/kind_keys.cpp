// Which kinds use which keys (see kind_keys.hpp).
#include "scenario/kind_keys.hpp"

namespace slicewise::scenario {

const KeyKinds<LoadKind>& load_keys() {
  static const KeyKinds<LoadKind> table = {
      {"rate_per_s", {LoadKind::poisson, LoadKind::diurnal}},
      {"num_users", {LoadKind::closed_loop}},
      {"think_time_s", {LoadKind::closed_loop}},
      {"trace_file", {LoadKind::trace}},
      {"trace_format", {LoadKind::trace}},
      {"split_column", {LoadKind::trace}},
      {"split_values", {LoadKind::trace}},
      {"window_start_s", {LoadKind::trace}},
      {"window_end_s", {LoadKind::trace}},
      {"time_compression", {LoadKind::trace}},
      {"sample_frac", {LoadKind::trace}},
      {"spread_ties", {LoadKind::trace}},
      {"gpu_frac_demand", {LoadKind::trace}},
      {"on_bad_row", {LoadKind::trace}},
      {"hourly_profile", {LoadKind::diurnal}},
      {"start_hour", {LoadKind::diurnal}},
      {"states", {LoadKind::mmpp}},
      {"multiplier", {LoadKind::poisson, LoadKind::trace, LoadKind::diurnal, LoadKind::mmpp}},
  };
  return table;
}

const KeyKinds<WorkloadKind>& workload_keys() {
  static const KeyKinds<WorkloadKind> table = {
      {"llm", {WorkloadKind::llm}}, {"engine", {WorkloadKind::llm}}, {"service_dist", {WorkloadKind::generic}}};
  return table;
}

const KeyKinds<ServingEngine>& engine_keys() {
  using enum ServingEngine;
  static const KeyKinds<ServingEngine> table = {
      {"max_num_seqs", {vllm, sglang}},
      {"max_num_batched_tokens", {vllm, sglang}},
      {"gpu_memory_utilization", {vllm, sglang}},
      {"max_model_len", {vllm, sglang}},
      {"max_batch_prefill_tokens", {tgi}},
      {"max_total_tokens", {tgi}},
      {"max_input_length", {tgi}},
      {"cuda_memory_fraction", {tgi}},
      {"max_concurrent_requests", {tgi}},
  };
  return table;
}

const KeyKinds<FaultKind>& fault_keys() {
  static const KeyKinds<FaultKind> table = {
      {"gpu", {FaultKind::gpu_failure, FaultKind::driver_reset, FaultKind::mps_server_fault}},
      {"tenant", {FaultKind::tenant_crash}},
      {"replica", {FaultKind::tenant_crash}},
  };
  return table;
}

const KeyKinds<WorkloadKind>& sla_keys() {
  static const KeyKinds<WorkloadKind> table = {{"ttft_s", {WorkloadKind::llm}}, {"tpot_s", {WorkloadKind::llm}}};
  return table;
}

}  // namespace slicewise::scenario
