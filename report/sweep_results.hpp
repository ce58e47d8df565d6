// A sweep's results (docs/sweeps.md): one record per point, the point files that hold them, and the
// three outputs CI reads: results.csv (one row per point x strategy), results.json and a JUnit
// XML file (one testcase per point in each strategy's testsuite: SLA met or not), plus the
// `--fail-if` gates.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/roi_content.hpp"

namespace slicewise::report {

/// One point of a sweep: its values and, when it ran, its per-strategy and per-tenant figures.
struct SweepPointRecord {
  std::string id;  ///< "p0007"
  std::size_t index = 0;
  nlohmann::json values = nlohmann::json::array();  ///< one value per axis
  std::vector<std::string> labels;                  ///< value_label of each value
  std::vector<StrategySummary> strategies;
  std::vector<TenantRow> tenants;
  std::string error;  ///< non-empty when the point failed
};

/// Every point read back from one or more sweep folders.
struct SweepTable {
  std::string name;
  std::string fingerprint;
  std::vector<std::string> axes;         ///< axis names, in order
  std::vector<std::string> strategies;   ///< strategy names of the base scenario, in order
  std::size_t num_points = 0;            ///< points in the whole sweep (all shards)
  std::vector<SweepPointRecord> points;  ///< by index
};

/// The summary part of a point file (docs/sweeps.md), and back. point_from_json throws
/// ConfigError naming `file` and the offending value's pointer (under `pointer`, where the record
/// sits in the file) when the document is not a point record.
nlohmann::json point_json(const SweepPointRecord& point);
SweepPointRecord point_from_json(const nlohmann::json& document, const std::string& file,
                                 const std::string& pointer = "");

/// RFC 4180 CSV: point, one column per axis, strategy, kind, status, num_gpus, monthly_cost_usd,
/// monthly_savings_usd, annual_savings_usd, savings_frac, fleet_busy_frac, fleet_sm_util_frac,
/// sla_violation_rate, sla_met, tenants_missing_sla, then p95_s[T], p99_s[T] and
/// sla_violation_frac[T] per tenant T. Numbers in shortest round-trip form; a failed point is one
/// row with status "failed" and empty figures.
std::string sweep_results_csv(const SweepTable& table);
/// The same content as JSON (keys sorted, trailing newline).
std::string sweep_results_json(const SweepTable& table);

/// A `--fail-if` gate: `[STRATEGY:] METRIC OP NUMBER`, METRIC a numeric column of results.csv,
/// OP one of > >= < <= == !=. It trips on every row (point x strategy) where the comparison holds.
struct Gate {
  std::string text;
  std::string strategy;  ///< "" = every strategy
  std::string metric;
  std::string op;
  double threshold = 0.0;
};
/// Parses a gate; throws ConfigError("--fail-if", ...) naming what is wrong and what is allowed.
Gate parse_gate(const std::string& text, const SweepTable& table);

/// One tripped gate on one row.
struct GateTrip {
  std::size_t gate = 0;
  std::string point;
  std::string strategy;
  double value = 0.0;
};
std::vector<GateTrip> evaluate_gates(const SweepTable& table, const std::vector<Gate>& gates);
/// "sla_violation_rate > 0.01: p0003 (load=2) time_slicing: 0.0341".
std::string gate_trip_text(const SweepTable& table, const std::vector<Gate>& gates, const GateTrip& trip);

/// JUnit XML: one testsuite per strategy with one testcase per point (failure: a tenant missed its
/// SLA; error: the point failed), plus a "gates" testsuite with one testcase per gate.
std::string sweep_junit_xml(const SweepTable& table, const std::vector<Gate>& gates = {});

}  // namespace slicewise::report
