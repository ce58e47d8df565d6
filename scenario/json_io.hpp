// Scenario ↔ JSON. Loading is strict (CONTRIBUTING.md, "House rules"): unknown keys rejected with a did-you-mean
// hint, enums read from explicit tables, numbers range-checked, every problem reported at once.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// Phase 1, parse and type-map: reads the document at `file` into a Scenario. Throws ConfigError
/// with every problem found (parse errors with line and column; type, range, enum and unknown-key
/// problems with their JSON pointers). Sets Scenario::source_file.
/// Where a scenario document comes from. A result's own scenario (`input`) may have been written
/// by an earlier slicewise: its LLM tenants may then carry the figures typed by hand before LLM
/// tenants named a model (LlmSpec::legacy_params_b); re-pricing and reporting take them as they
/// are, simulating them again asks for a model (validate_scenario).
enum class ScenarioSource { file, result_input };

Scenario parse_scenario(const nlohmann::json& document, const std::string& file,
                        ScenarioSource source = ScenarioSource::file);

/// read_json_file + parse_scenario + validate_scenario (scenario/validate.hpp) against the shipped
/// catalogs; throws ConfigError listing every problem of both phases.
Scenario load_scenario(const std::filesystem::path& file);

/// Output (nlohmann::ordered_json, so the key order is stable); parse_scenario(to_json(s)) == s.
void to_json(nlohmann::ordered_json& out, const Scenario& scenario);

/// One strategy as the scenario writer writes it (only its kind's keys).
nlohmann::ordered_json strategy_to_json(const StrategySpec& strategy);

}  // namespace slicewise::scenario
