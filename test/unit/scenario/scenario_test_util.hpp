// Helpers shared by the scenario tests: a small valid document to mutate, and the text of the
// ConfigError a document or file produces.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "scenario/json_io.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario::test {

/// A minimal valid scenario: one generic tenant on one L40S, dedicated.
inline nlohmann::json minimal_document() {
  return nlohmann::json::parse(R"({
    "schema_version": 1,
    "name": "minimal",
    "fleet": [{"gpu": "L40S"}],
    "tenants": [{"name": "a",
                 "workload": {"solo_latency_s": 0.5, "memory_gib": 8},
                 "load": {"kind": "poisson", "rate_per_s": 1}}],
    "strategies": [{"kind": "dedicated"}]
  })");
}

/// what() of the ConfigError that parsing `text` (named s.json) throws; "no error" when none.
inline std::string parse_text_error(const std::string& text) {
  try {
    parse_scenario(parse_json_text(text, "s.json"), "s.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

inline std::string parse_error(const nlohmann::json& document) { return parse_text_error(document.dump()); }

/// Phase 1 then phase 2 against the shipped catalogs; all diagnostics formatted, "" when valid.
inline std::string validate_error(const nlohmann::json& document, const std::string& file = "s.json") {
  try {
    const Scenario s = parse_scenario(document, file);
    return format_all(validate_scenario(s, Catalogs::shipped()));
  } catch (const ConfigError& e) {
    return std::string("phase 1: ") + e.what();
  }
}

}  // namespace slicewise::scenario::test
