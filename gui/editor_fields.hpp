// The fields of the editor's forms: the scenario's settings and pricing, a tenant (workload, load,
// SLA), a strategy and the faults, each shown only for the kinds that use it (scenario/kind_keys.hpp
// and, for a strategy's keys, the declarations of scenario/strategy_params.cpp, as the loader reads
// them).
#pragma once

#include <vector>

#include "gui/json_field.hpp"

namespace slicewise::gui {

/// Relative to the document root.
std::vector<FieldSpec> scenario_fields();
/// Relative to /tenants/i. The table's columns (name, kind, solo latency, memory, batching, SLA
/// latency, isolation) are not repeated here.
std::vector<FieldSpec> tenant_fields();
/// Relative to /strategies/i; the MIG layout and per-tenant settings have their own editors (a
/// MIG layout schedule is edited in the file).
std::vector<FieldSpec> strategy_fields();
/// Relative to /faults (docs/faults.md): the rates, the recovery times, the co-tenant kill
/// fraction, the retries, whether faults are drawn, and the schedule (JSON text).
std::vector<FieldSpec> fault_fields();

}  // namespace slicewise::gui
