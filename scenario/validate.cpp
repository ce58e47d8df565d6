// Phase 2 of loading: validate_scenario runs the semantic checks of ScenarioChecker (defined by
// subject in validate_fleet.cpp, validate_strategies.cpp, validate_limits.cpp, validate_pricing.cpp
// and validate_faults.cpp) against the GPU, MIG and price catalogs; plus the resolvers the loader and
// the simulation share (relative paths, fleet GPU ids, load traces).
#include "scenario/validate.hpp"

#include <algorithm>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/scenario_checker.hpp"

namespace slicewise::scenario {

namespace detail {

ScenarioChecker::ScenarioChecker(const Scenario& scenario, const Catalogs& catalogs)
    : s_(scenario), c_(catalogs), file_(scenario.source_file.string()) {}

Diagnostics ScenarioChecker::run() {
  try {
    table_ = resolve_price_table(s_, c_);
  } catch (const ConfigError& e) {
    pricing_problems_ = e.diagnostics();
  }
  for (std::size_t i = 0; i < s_.fleet.size(); ++i) fleet_entry(i);
  pools();
  for (std::size_t i = 0; i < s_.tenants.size(); ++i) tenant(i);
  for (std::size_t i = 0; i < s_.strategies.size(); ++i) strategy(i);
  sizing();
  limits();
  out_.insert(out_.end(), pricing_problems_.begin(), pricing_problems_.end());
  pricing();
  faults();
  return std::move(out_);
}

void ScenarioChecker::add(std::string pointer, std::string message) {
  out_.push_back(Diagnostic{file_, 0, 0, std::move(pointer), std::move(message)});
}

}  // namespace detail

Diagnostics validate_scenario(const Scenario& scenario, const Catalogs& catalogs) {
  SW_CHECK(catalogs.gpus && catalogs.mig && catalogs.prices, "validate_scenario needs every catalog");
  return detail::ScenarioChecker(scenario, catalogs).run();
}

std::string gpu_frac_demand_problem(const Tenant& tenant) {
  if (tenant.load.kind != LoadKind::trace || !tenant.load.gpu_frac_demand ||
      tenant.workload.kind == WorkloadKind::generic) {
    return "";
  }
  return "applies to generic workloads only (this tenant's workload kind is \"" +
         name_of(workload_kind_table(), tenant.workload.kind) + "\", whose demand comes from its engine's steps)";
}

std::filesystem::path resolve_relative_path(const Scenario& scenario, const std::string& path) {
  return path_in_document(scenario.source_file, path);
}

std::string fleet_gpu_id(const FleetEntry& entry, const Scenario& scenario, const Catalogs& catalogs) {
  std::string id = entry.gpu;
  if (!entry.instance_type.empty()) {
    try {
      const auto table = resolve_price_table(scenario, catalogs);
      const auto* row = table.find(entry.instance_type, scenario.pricing.region);
      if (!row) row = table.find(entry.instance_type);
      id = row && row->gpu ? *row->gpu : std::string();
    } catch (const ConfigError&) {
      return {};
    }
  }
  const auto* gpu = catalogs.gpus->find(id);
  return gpu ? gpu->id : std::string();
}

std::unique_ptr<traces::TraceReader> open_load_trace(const Scenario& scenario, const LoadSpec& load) {
  std::optional<traces::TraceFormat> format;
  if (!load.trace_format.empty()) format = traces::trace_format_from_string(load.trace_format);
  traces::ReadOptions options;
  options.on_bad_row = load.on_bad_row;
  options.key_column = load.split_column;
  return traces::open_trace(resolve_relative_path(scenario, load.trace_file).string(), format, options);
}

std::vector<std::size_t> select_strategies(const Scenario& scenario, const std::vector<std::string>& names,
                                           const std::string& command) {
  std::vector<std::size_t> selected;
  if (names.empty()) {
    for (std::size_t i = 0; i < scenario.strategies.size(); ++i) selected.push_back(i);
    return selected;
  }
  std::vector<std::string> known;
  for (const auto& strategy : scenario.strategies) known.push_back(strategy.name);
  for (const auto& wanted : names) {
    const auto it = std::find(known.begin(), known.end(), wanted);
    if (it == known.end()) {
      throw ConfigError(command, "--strategy",
                        "unknown strategy " + quoted_excerpt(wanted) + "; the scenario has " + join(known, "|") +
                            did_you_mean_suffix(wanted, known));
    }
    const auto index = static_cast<std::size_t>(it - known.begin());
    if (std::find(selected.begin(), selected.end(), index) != selected.end()) {
      throw ConfigError(command, "--strategy", "strategy \"" + wanted + "\" is given twice");
    }
    selected.push_back(index);
  }
  return selected;
}

}  // namespace slicewise::scenario
