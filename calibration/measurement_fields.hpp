// The fields of a measurement row as the loader (measurement.cpp) checks them: the metric names
// and their units, the workload parameters and their ranges, and the checks between columns.
// Every failure is a TraceError naming the file, line and column. Internal to sw_calibration.
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "calibration/measurement.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"
#include "models/mig_catalog.hpp"

namespace slicewise::calibration::detail {

/// The metric column's names.
const std::vector<std::pair<std::string, Metric>>& metric_table();
/// Units a metric accepts and their factor to the base unit.
std::vector<std::pair<std::string, double>> units_of(Metric metric);

/// Allowed range of one workload parameter.
struct ParamRule {
  std::string key;
  double min = 0.0;
  bool min_inclusive = false;
  double max = HUGE_VAL;
  bool integer = false;
  std::string allowed;  // in words, for the message
};

/// Every workload parameter's rule, in the order the docs list them.
const std::vector<ParamRule>& param_rules();
/// The rule of workload parameter `key`, or null.
const ParamRule* rule_of(std::string_view key);
/// Whether `value` is allowed by `rule`.
bool allows(const ParamRule& rule, double value);

/// Throws the TraceError of `file`, `line`, `column`.
[[noreturn]] void fail(const std::string& file, long line, std::string_view column, const std::string& message);
/// True for a name of letters, digits, '_', '-' and '.'.
bool is_name(std::string_view text);

/// The value `text` names in `table`; otherwise fail() with the names allowed.
template <typename T>
T choose(std::string_view text, const std::vector<std::pair<std::string, T>>& table, const std::string& file, long line,
         std::string_view column) {
  for (const auto& [name, value] : table) {
    if (name == text) return value;
  }
  std::vector<std::string> names;
  names.reserve(table.size());
  for (const auto& entry : table) names.push_back(entry.first);
  fail(file, line, column, unknown_choice(text, names));
}

/// The workload_params column: "key=value" pairs separated by ';', each a known parameter in range.
std::map<std::string, double> parse_params(std::string_view text, const std::string& file, long line);
/// Checks that hold between columns: MIG profile vs strategy and GPU, contexts vs strategy.
void check_consistency(const Measurement& m, const models::MigCatalog& mig);

}  // namespace slicewise::calibration::detail
