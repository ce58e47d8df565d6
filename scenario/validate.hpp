// Phase 2 of loading: semantic checks of a parsed scenario against the catalogs (GPU ids, MIG
// layouts, instance types, memory fit, trace files), all problems collected at once.
#pragma once

#include <memory>

#include "traces/trace_reader.hpp"

#include <filesystem>
#include <string>

#include "core/diagnostic.hpp"
#include "pricing/price_table.hpp"
#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// Most times a request lost to a fault is re-sent (FaultSpec::max_retries): each retry is a new
/// request, so more would let one fault multiply the load without bound.
inline constexpr int kMaxFaultRetries = 10;

/// Every semantic problem of `scenario`, in document order, each with the JSON pointer of the
/// offending value and the scenario file's name. Empty when the scenario can be simulated.
Diagnostics validate_scenario(const Scenario& scenario, const Catalogs& catalogs);

/// Why a tenant's `gpu_frac_demand` cannot apply (it is set and the workload is not generic: an
/// LLM's demand comes from its roofline), or "" when it can. Reported at /tenants/i/load/gpu_frac_demand.
std::string gpu_frac_demand_problem(const Tenant& tenant);

/// The GPU id behind a fleet entry (resolving instance types through the pricing table); "" when
/// it cannot be resolved (validate_scenario reports why).
std::string fleet_gpu_id(const FleetEntry& entry, const Scenario& scenario, const Catalogs& catalogs);

/// A path named inside a scenario (trace_file, a price-table file), resolved against the folder of
/// the scenario file (Scenario::source_file; the working directory when that is empty) and
/// lexically normalised; absolute paths are returned unchanged.
std::filesystem::path resolve_relative_path(const Scenario& scenario, const std::string& path);

/// Opens the trace of a `trace` load (path resolved as above, format named or detected, split
/// column and bad-row policy applied). Throws TraceError.
std::unique_ptr<traces::TraceReader> open_load_trace(const Scenario& scenario, const LoadSpec& load);

/// The price table a scenario names: a shipped table by name, or a file relative to the scenario.
/// Throws ConfigError when it cannot be found or loaded.
pricing::PriceTable resolve_price_table(const Scenario& scenario, const Catalogs& catalogs);

/// The indexes of the strategies named in `names`, in that order; every strategy when `names` is
/// empty. An unknown name (with a did-you-mean hint) or a name given twice is a ConfigError
/// located at `command` and "--strategy".
std::vector<std::size_t> select_strategies(const Scenario& scenario, const std::vector<std::string>& names,
                                           const std::string& command);

}  // namespace slicewise::scenario
