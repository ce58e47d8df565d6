// One measurement row and the checks of its columns (see measurement_row.hpp).
#include "calibration/measurement_row.hpp"

#include <algorithm>
#include <chrono>

#include "core/error.hpp"
#include "traces/fields.hpp"

namespace slicewise::calibration {

using detail::metric_table;
using detail::param_rules;

bool is_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  const auto number = [&](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (text[i] - '0');
    return v;
  };
  const std::chrono::year_month_day ymd{std::chrono::year{number(0, 4)},
                                        std::chrono::month{static_cast<unsigned>(number(5, 2))},
                                        std::chrono::day{static_cast<unsigned>(number(8, 2))}};
  return ymd.ok();
}

std::string to_string(Metric metric) {
  for (const auto& [name, value] : metric_table()) {
    if (value == metric) return name;
  }
  return "unknown";
}

bool is_time(Metric metric) {
  return metric == Metric::time_mean || metric == Metric::time_median || metric == Metric::time_p90 ||
         metric == Metric::time_p99;
}

const std::vector<std::string>& workload_param_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const auto& rule : param_rules()) out.push_back(rule.key);
    return out;
  }();
  return keys;
}

std::string Measurement::workload_key() const {
  std::string key = workload;
  if (!params.empty()) {
    key += '[';
    bool first = true;
    for (const auto& [name, number] : params) {
      if (!first) key += ';';
      first = false;
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%g", number);
      key += name + '=' + buffer;
    }
    key += ']';
  }
  return key;
}

double Measurement::param(const std::string& key, double fallback) const {
  const auto it = params.find(key);
  return it == params.end() ? fallback : it->second;
}

}  // namespace slicewise::calibration

namespace slicewise::calibration::detail {

namespace {

/// The kinds whose devices are MIG instances: "mig", "mig_time_slicing".
std::vector<std::string> mig_kinds() {
  std::vector<std::string> names;
  for (const auto& [name, kind] : models::strategy_kind_table()) {
    if (models::facts_of(kind).mig_instances) names.push_back(name);
  }
  return names;
}

}  // namespace

const std::vector<std::pair<std::string, Metric>>& metric_table() {
  static const std::vector<std::pair<std::string, Metric>> table = {
      {"time_mean", Metric::time_mean}, {"time_median", Metric::time_median}, {"time_p90", Metric::time_p90},
      {"time_p99", Metric::time_p99},   {"throughput", Metric::throughput},   {"mem_bandwidth", Metric::mem_bandwidth},
  };
  return table;
}

std::vector<std::pair<std::string, double>> units_of(Metric metric) {
  if (is_time(metric)) return {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}};
  if (metric == Metric::throughput) return {{"1/s", 1.0}};
  return {{"GB/s", 1.0}, {"TB/s", 1e3}};
}

const std::vector<ParamRule>& param_rules() {
  static const std::vector<ParamRule> rules = {
      {"batch_size", 1, true, HUGE_VAL, true, "an integer >= 1"},
      {"gpu_duty_frac", 0, false, 1, false, "in (0, 1]"},
      {"sm_occupancy_frac", 0, false, 1, false, "in (0, 1]"},
      {"mem_bw_frac", 0, false, 1, false, "in (0, 1]"},
      {"compute_frac", 0, false, 1, false, "in (0, 1]"},
      {"kernel_ms", 0, false, HUGE_VAL, false, "> 0"},
      {"active_thread_pct", 0, false, 100, false, "in (0, 100]"},
      {"sm_count", 1, true, HUGE_VAL, true, "an integer >= 1"},
      {"gpucores", 0, false, 100, false, "in (0, 100]"},
      {"quantum_ms", 0, false, HUGE_VAL, false, "> 0"},
      {"offered_load", 0, false, 1, false, "in (0, 1]"},
      {"prompt_tokens", 0, true, HUGE_VAL, true, "an integer >= 0"},
      {"output_tokens", 0, true, HUGE_VAL, true, "an integer >= 0"},
  };
  return rules;
}

const ParamRule* rule_of(std::string_view key) {
  const auto& rules = param_rules();
  const auto rule = std::find_if(rules.begin(), rules.end(), [&](const ParamRule& r) { return r.key == key; });
  return rule == rules.end() ? nullptr : &*rule;
}

bool allows(const ParamRule& rule, double value) {
  const bool low_ok = rule.min_inclusive ? value >= rule.min : value > rule.min;
  return low_ok && value <= rule.max && (!rule.integer || value == std::floor(value));
}

[[noreturn]] void fail(const std::string& file, long line, std::string_view column, const std::string& message) {
  throw TraceError(file, line, std::string(column), message);
}

bool is_name(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::map<std::string, double> parse_params(std::string_view text, const std::string& file, long line) {
  std::map<std::string, double> params;
  const traces::FieldContext at{&file, line};
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(';', begin), text.size());
    const std::string_view pair = traces::trim(text.substr(begin, end - begin));
    begin = end + 1;
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      fail(file, line, "workload_params", "expected key=value pairs separated by ';', got " + quoted_excerpt(pair));
    }
    const std::string key(traces::trim(pair.substr(0, eq)));
    const ParamRule* rule = rule_of(key);
    if (rule == nullptr) {
      fail(file, line, "workload_params",
           "unknown parameter " + quoted_excerpt(key) + "; allowed: " + join(workload_param_keys(), ", ") +
               did_you_mean_suffix(key, workload_param_keys()));
    }
    if (params.count(key) != 0) fail(file, line, "workload_params", "parameter \"" + key + "\" given twice");
    const double value = traces::parse_number(pair.substr(eq + 1), "workload_params: " + key, at);
    if (!allows(*rule, value)) {
      fail(file, line, "workload_params",
           key + " must be " + rule->allowed + ", got " + std::string(traces::trim(pair.substr(eq + 1))));
    }
    params[key] = value;
  }
  return params;
}

void check_consistency(const Measurement& m, const models::MigCatalog& mig) {
  const bool is_mig = m.facts().mig_instances;
  if (is_mig && m.mig_profile.empty()) {
    fail(m.file, m.line, "mig_profile", "strategy " + models::to_string(m.strategy) + " needs a MIG profile");
  }
  if (!is_mig && !m.mig_profile.empty()) {
    fail(m.file, m.line, "mig_profile",
         "a MIG profile is only allowed with strategy " + join(mig_kinds(), " or ") + ", not " +
             models::to_string(m.strategy));
  }
  if (is_mig) {
    const models::MigGpu* gpu = mig.find(m.gpu);
    if (gpu == nullptr) fail(m.file, m.line, "gpu", m.gpu + " does not support MIG");
    if (gpu->find(m.mig_profile) == nullptr) {
      fail(m.file, m.line, "mig_profile",
           "\"" + m.mig_profile + "\" is not a MIG profile of " + m.gpu + "; allowed: " +
               join(gpu->profile_names(), ", ") + did_you_mean_suffix(m.mig_profile, gpu->profile_names()));
    }
  }
  if (m.facts().own_device && m.n_contexts != 1) {
    fail(m.file, m.line, "n_contexts",
         "strategy " + models::to_string(m.strategy) + " runs one context per device, got " +
             std::to_string(m.n_contexts));
  }
}

}  // namespace slicewise::calibration::detail
