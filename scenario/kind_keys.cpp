// Which kinds use which keys (see kind_keys.hpp).
#include "scenario/kind_keys.hpp"

namespace slicewise::scenario {

using models::StrategyKind;

const KeyKinds<StrategyKind>& strategy_keys() {
  using K = StrategyKind;
  static const KeyKinds<K> table = {
      {"replicas", {K::time_slicing, K::mps, K::mig_time_slicing, K::hami, K::vgpu}},
      {"quantum_ms", {K::time_slicing, K::mig_time_slicing, K::hami}},
      {"switch_cost_ms", {K::time_slicing, K::mig_time_slicing, K::hami, K::vgpu}},
      {"exact", {K::time_slicing, K::mig_time_slicing, K::hami}},
      {"active_thread_pct", {K::mps}},
      {"pinned_memory_limit_gib", {K::mps}},
      {"layout", {K::mig, K::mig_time_slicing}},
      {"gpucores_pct", {K::hami}},
      {"gpumem_gib", {K::hami}},
      {"vgpu_scheduler", {K::vgpu}},
      {"timeslice_ms", {K::vgpu}},
  };
  return table;
}

const KeyKinds<StrategyKind>& tenant_setting_keys() {
  using K = StrategyKind;
  static const KeyKinds<K> table = {
      {"mig_profile", {K::mig, K::mig_time_slicing}},
      {"active_thread_pct", {K::mps}},
      {"gpucores_pct", {K::hami}},
      {"gpumem_gib", {K::hami}},
      {"weight", {K::time_slicing, K::mig_time_slicing, K::hami, K::vgpu}},
  };
  return table;
}

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
  static const KeyKinds<WorkloadKind> table = {{"llm", {WorkloadKind::llm}},
                                               {"service_dist", {WorkloadKind::generic}}};
  return table;
}

const KeyKinds<WorkloadKind>& sla_keys() {
  static const KeyKinds<WorkloadKind> table = {{"ttft_s", {WorkloadKind::llm}}, {"tpot_s", {WorkloadKind::llm}}};
  return table;
}

}  // namespace slicewise::scenario
