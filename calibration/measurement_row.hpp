// One measurement (docs/measurement-format.md): one CSV row per measured number, with the GPU, how
// it was shared, the workload, the metric, and its provenance; and, for the loader
// (measurement.cpp, namespace detail), the checks of its columns: the metric names and their
// units, the workload parameters and their ranges, and the checks between columns, each failure a
// TraceError naming the file, line and column.
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/spell.hpp"
#include "models/mig_catalog.hpp"
#include "models/strategy_kind.hpp"

namespace slicewise::calibration {

/// What was measured, per context.
enum class Metric { time_mean, time_median, time_p90, time_p99, throughput, mem_bandwidth };
std::string to_string(Metric metric);
/// True for the duration metrics (time_*), whose value is in seconds.
bool is_time(Metric metric);

/// One measured number, in base units: seconds, 1/s or GB/s.
struct Measurement {
  std::string gpu;  ///< catalog id (an alias in the file is resolved)
  models::StrategyKind strategy = models::StrategyKind::dedicated;
  std::string mig_profile;  ///< "" unless mig / mig_time_slicing
  int n_contexts = 1;       ///< contexts sharing the device, this one included
  std::string workload;
  std::map<std::string, double> params;  ///< workload parameters, sorted by key
  Metric metric = Metric::time_mean;
  double value = 0.0;  ///< > 0, base units
  std::string source;
  std::string date;  ///< YYYY-MM-DD
  std::string run;   ///< co-run id; "" = alone or with copies of itself
  std::string file;  ///< where it was read, for messages
  long line = 0;

  /// `workload` plus its parameters: "resnet[batch_size=64]". Identifies a workload instance.
  std::string workload_key() const;
  /// A parameter, or `fallback` when absent.
  double param(const std::string& key, double fallback) const;
  /// What its strategy kind is (models/strategy_kind.hpp): MIG instances, a device per context, ...
  const models::StrategyKindFacts& facts() const { return models::facts_of(strategy); }
  /// One context alone on a whole GPU of its own: the baseline rows co-runs are scaled by.
  bool solo_on_whole_gpu() const { return facts().baseline && n_contexts == 1; }
  /// One context alone in a MIG instance: the rows MIG slice capacity is fitted on.
  bool alone_in_mig_instance() const { return facts().mig_instances && facts().own_device && n_contexts == 1; }
  /// The context's cap on its share of the SMs, in percent (100 = none).
  double cap_pct() const { return facts().cap_param.empty() ? 100.0 : param(facts().cap_param, 100.0); }
};

/// True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one).
bool is_iso_date(std::string_view text);

/// The workload parameter keys the format allows, in documentation order.
const std::vector<std::string>& workload_param_keys();

}  // namespace slicewise::calibration

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
