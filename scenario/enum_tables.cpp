// Scenario enum names.
#include "scenario/enum_tables.hpp"

#include "models/dtype.hpp"

namespace slicewise::scenario {

const EnumTable<WorkloadKind>& workload_kind_table() {
  static const EnumTable<WorkloadKind> table = {{"generic", WorkloadKind::generic}, {"llm", WorkloadKind::llm}};
  return table;
}

const EnumTable<ServiceDistribution>& service_distribution_table() {
  static const EnumTable<ServiceDistribution> table = {{"fixed", ServiceDistribution::fixed},
                                                       {"exponential", ServiceDistribution::exponential}};
  return table;
}

const EnumTable<traces::TraceFormat>& trace_format_table() {
  static const EnumTable<traces::TraceFormat> table = [] {
    EnumTable<traces::TraceFormat> out;
    for (const auto& name : traces::trace_format_names())
      out.emplace_back(name, *traces::trace_format_from_string(name));
    return out;
  }();
  return table;
}

const EnumTable<ServingEngine>& serving_engine_table() {
  static const EnumTable<ServingEngine> table = {
      {"vllm", ServingEngine::vllm}, {"sglang", ServingEngine::sglang}, {"tgi", ServingEngine::tgi}};
  return table;
}

const EnumTable<std::string>& kv_cache_dtype_table() {
  static const EnumTable<std::string> table = {{"auto", "auto"}, {"bf16", "bf16"}, {"fp16", "fp16"}, {"fp8", "fp8"}};
  return table;
}

const EnumTable<std::string>& dtype_table() {
  static const EnumTable<std::string> table = [] {
    EnumTable<std::string> out;
    for (const auto& name : models::dtype_names()) out.emplace_back(name, name);
    return out;
  }();
  return table;
}

const EnumTable<LoadKind>& load_kind_table() {
  static const EnumTable<LoadKind> table = {{"poisson", LoadKind::poisson},
                                            {"closed_loop", LoadKind::closed_loop},
                                            {"trace", LoadKind::trace},
                                            {"diurnal", LoadKind::diurnal},
                                            {"mmpp", LoadKind::mmpp}};
  return table;
}

const EnumTable<Environment>& environment_table() {
  static const EnumTable<Environment> table = {{"development", Environment::development},
                                               {"batch", Environment::batch},
                                               {"internal", Environment::internal},
                                               {"customer_facing", Environment::customer_facing}};
  return table;
}

const EnumTable<RouterPolicy>& router_policy_table() {
  static const EnumTable<RouterPolicy> table = {{"round_robin", RouterPolicy::round_robin},
                                                {"least_loaded", RouterPolicy::least_loaded}};
  return table;
}

const EnumTable<Priority>& priority_table() {
  static const EnumTable<Priority> table = {
      {"high", Priority::high}, {"normal", Priority::normal}, {"low", Priority::low}};
  return table;
}

const EnumTable<PlacementPolicy>& placement_policy_table() {
  static const EnumTable<PlacementPolicy> table = {{"pack", PlacementPolicy::pack},
                                                   {"spread", PlacementPolicy::spread}};
  return table;
}

const EnumTable<Sizing>& sizing_table() {
  static const EnumTable<Sizing> table = {{"as_given", Sizing::as_given}, {"sla", Sizing::sla}};
  return table;
}

const EnumTable<MpsDaemon>& mps_daemon_table() {
  static const EnumTable<MpsDaemon> table = {{"device_plugin", MpsDaemon::device_plugin}, {"own", MpsDaemon::own}};
  return table;
}

const EnumTable<VgpuScheduler>& vgpu_scheduler_table() {
  static const EnumTable<VgpuScheduler> table = {{"best_effort", VgpuScheduler::best_effort},
                                                 {"equal_share", VgpuScheduler::equal_share},
                                                 {"fixed_share", VgpuScheduler::fixed_share}};
  return table;
}

const EnumTable<FaultKind>& fault_kind_table() {
  static const EnumTable<FaultKind> table = {{"gpu_failure", FaultKind::gpu_failure},
                                             {"driver_reset", FaultKind::driver_reset},
                                             {"tenant_crash", FaultKind::tenant_crash},
                                             {"mps_server_fault", FaultKind::mps_server_fault}};
  return table;
}

double default_max_violation_frac(Environment environment) {
  switch (environment) {
    case Environment::development: return 0.20;
    case Environment::batch:
    case Environment::internal: return 0.05;
    case Environment::customer_facing: return 0.01;
  }
  return 0.05;
}

}  // namespace slicewise::scenario
