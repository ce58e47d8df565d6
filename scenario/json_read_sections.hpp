// Readers of the scenario's nested sections: a tenant (with its workload, load and SLA), a
// strategy (with its per-tenant settings, MIG layout schedule and sidecars) and the faults. Each
// reads one JSON object strictly, adds every problem to `out` with its JSON pointer and the
// scenario's `file`, and returns what it could read. Used by parse_scenario (json_io.cpp); internal
// to sw_scenario.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/diagnostic.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario::detail {

/// Reads a tenant's "load" object at `pointer` (json_read_load.cpp). Sets `kind_known` to whether
/// its "kind" was valid: only then are the kind's own keys read, and only then may the caller
/// check the load against the workload.
LoadSpec read_load(const nlohmann::json& value, const std::string& pointer, Diagnostics& out, const std::string& file,
                   bool& kind_known);

/// Reads one element of "tenants" at `pointer` (json_read_tenant.cpp): name, workload, load, SLA,
/// isolation, contexts and router, and the checks that tie the workload to its load.
/// `legacy_llm`: a result's scenario, whose LLM tenants may be in the form before the model catalog.
Tenant read_tenant(const nlohmann::json& value, const std::string& pointer, Diagnostics& out, const std::string& file,
                   bool legacy_llm = false);

/// Reads one element of "strategies" at `pointer` (json_read_strategy.cpp). The name defaults to
/// the kind's; a strategy whose kind is invalid gets no default name, so that it cannot clash with
/// another strategy's.
StrategySpec read_strategy(const nlohmann::json& value, const std::string& pointer, Diagnostics& out,
                           const std::string& file);

/// Reads the top-level "faults" object at `pointer` (json_read_faults.cpp): rates, recovery times,
/// retries and the schedule of faults at given times, each scheduled fault with its kind's keys.
FaultSpec read_faults(const nlohmann::json& value, const std::string& pointer, Diagnostics& out,
                      const std::string& file);

}  // namespace slicewise::scenario::detail
