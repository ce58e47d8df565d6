// Name tables of the scenario enums: the spelling used in JSON input and output, in the order
// error messages list them.
#pragma once

#include <string>

#include "core/json_reader.hpp"
#include "scenario/scenario.hpp"
#include "traces/trace_format.hpp"

namespace slicewise::scenario {

const EnumTable<WorkloadKind>& workload_kind_table();                ///< generic | llm
const EnumTable<ServiceDistribution>& service_distribution_table();  ///< fixed | exponential
const EnumTable<std::string>& dtype_table();                         ///< fp32 | ... | int4 (models/dtype.hpp)
const EnumTable<ServingEngine>& serving_engine_table();              ///< vllm | sglang | tgi
const EnumTable<std::string>& kv_cache_dtype_table();                ///< auto | bf16 | fp16 | fp8
const EnumTable<LoadKind>& load_kind_table();                        ///< poisson | closed_loop | trace | diurnal | mmpp
using traces::bad_row_policy_table;                                  ///< fail | skip
const EnumTable<traces::TraceFormat>& trace_format_table();  ///< azure-llm | mooncake | ... (traces/trace_format.hpp)
const EnumTable<Environment>& environment_table();           ///< development | batch | internal | customer_facing
const EnumTable<RouterPolicy>& router_policy_table();        ///< round_robin | least_loaded
const EnumTable<Priority>& priority_table();                 ///< high | normal | low
const EnumTable<PlacementPolicy>& placement_policy_table();  ///< pack | spread
const EnumTable<Sizing>& sizing_table();                     ///< as_given | sla
const EnumTable<VgpuScheduler>& vgpu_scheduler_table();      ///< best_effort | equal_share | fixed_share
const EnumTable<MpsDaemon>& mps_daemon_table();              ///< device_plugin | own
const EnumTable<FaultKind>& fault_kind_table();  ///< gpu_failure | driver_reset | tenant_crash | mps_server_fault

/// The name of an enum value in its table ("unknown" if absent, which would be a bug).
template <class E>
std::string name_of(const EnumTable<E>& table, E value) {
  for (const auto& [name, entry] : table) {
    if (entry == value) return name;
  }
  return "unknown";
}

/// Default allowed violation fraction of an environment (docs/design.md §9 SLA tolerance).
double default_max_violation_frac(Environment environment);

}  // namespace slicewise::scenario
