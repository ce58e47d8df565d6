// Sweep outputs: point records, results.csv/json and the `--fail-if` gates (the JUnit XML is in
// sweep_junit.cpp).
#include "report/sweep_results.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

namespace slicewise::report {

using nlohmann::json;

namespace {

const std::vector<std::string> kStrategyMetrics = {"num_gpus",           "monthly_cost_usd",   "monthly_savings_usd",
                                                   "annual_savings_usd", "savings_frac",       "fleet_busy_frac",
                                                   "fleet_sm_util_frac", "sla_violation_rate", "sla_met",
                                                   "tenants_missing_sla"};
const std::vector<std::string> kTenantMetrics = {"p95_s", "p99_s", "sla_violation_frac"};

double strategy_metric(const StrategySummary& s, const std::string& metric) {
  if (metric == "num_gpus") return s.num_gpus;
  if (metric == "monthly_cost_usd") return s.monthly_usd;
  if (metric == "monthly_savings_usd") return s.monthly_savings_usd;
  if (metric == "annual_savings_usd") return s.annual_savings_usd;
  if (metric == "savings_frac") return s.savings_frac;
  if (metric == "fleet_busy_frac") return s.fleet_busy_frac;
  if (metric == "fleet_sm_util_frac") return s.fleet_sm_util_frac;
  if (metric == "sla_violation_rate") return s.sla_violation_frac;
  if (metric == "sla_met") return s.sla_met ? 1.0 : 0.0;
  if (metric == "tenants_missing_sla") return s.num_tenants_missing_sla;
  SW_CHECK(false, "unknown strategy metric " + metric);
  return 0.0;
}

double tenant_metric(const TenantRow& t, const std::string& metric) {
  if (metric == "p95_s") return t.p95_s;
  if (metric == "p99_s") return t.p99_s;
  if (metric == "sla_violation_frac") return t.sla_violation_frac;
  SW_CHECK(false, "unknown tenant metric " + metric);
  return 0.0;
}

/// Tenant names over every point, in order of first appearance.
std::vector<std::string> tenant_names(const SweepTable& table) {
  std::vector<std::string> names;
  for (const auto& point : table.points) {
    for (const auto& t : point.tenants) {
      if (std::find(names.begin(), names.end(), t.tenant) == names.end()) names.push_back(t.tenant);
    }
  }
  return names;
}

/// ("p95_s", "llm-8b") -> "p95_s[llm-8b]": a tenant's column of results.csv.
std::string tenant_column(const std::string& metric, const std::string& tenant) {
  std::string column = metric;
  column += '[';
  column += tenant;
  column += ']';
  return column;
}

/// "p95_s[llm-8b]" -> ("p95_s", "llm-8b").
std::optional<std::pair<std::string, std::string>> split_tenant_column(const std::string& column) {
  const auto open = column.find('[');
  if (open == std::string::npos || column.back() != ']') return std::nullopt;
  return std::make_pair(column.substr(0, open), column.substr(open + 1, column.size() - open - 2));
}

/// The value of a column for one (point, strategy) row; nullopt when the row has no such tenant.
std::optional<double> row_metric(const SweepPointRecord& point, const StrategySummary& s, const std::string& column) {
  if (const auto parts = split_tenant_column(column)) {
    for (const auto& t : point.tenants) {
      if (t.strategy == s.name && t.tenant == parts->second) return tenant_metric(t, parts->first);
    }
    return std::nullopt;
  }
  return strategy_metric(s, column);
}

std::string number(double value) { return format_number(value); }

bool compare(double value, const std::string& op, double threshold) {
  if (op == ">") return value > threshold;
  if (op == ">=") return value >= threshold;
  if (op == "<") return value < threshold;
  if (op == "<=") return value <= threshold;
  if (op == "==") return value == threshold;
  return value != threshold;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  const auto last = s.find_last_not_of(" \t");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

/// Throws the ConfigError of a bad gate: `text` and `why`.
[[noreturn]] void gate_error(const std::string& text, const std::string& why) {
  throw ConfigError("--fail-if", "", "\"" + text + "\": " + why);
}

/// Where the first comparison operator in `rest` starts (npos when none); sets `op` to it, the
/// longer one when two start there.
std::size_t find_operator(const std::string& rest, std::string& op) {
  static const std::vector<std::string> ops = {">=", "<=", "==", "!=", ">", "<"};
  std::size_t at = std::string::npos;
  for (const auto& candidate : ops) {
    if (const auto found = rest.find(candidate);
        found != std::string::npos && (at == std::string::npos || found < at)) {
      at = found;
      op = candidate;
    }
  }
  return at;
}

/// Throws unless `metric` is a numeric column of results.csv (any tenant's when the table has no
/// points yet to name its tenants).
void check_gate_metric(const std::string& text, const std::string& metric, const SweepTable& table) {
  std::vector<std::string> metrics = kStrategyMetrics;
  for (const auto& tenant : tenant_names(table)) {
    for (const auto& m : kTenantMetrics) metrics.push_back(tenant_column(m, tenant));
  }
  const auto parts = split_tenant_column(metric);
  const bool known = std::find(metrics.begin(), metrics.end(), metric) != metrics.end() ||
                     (parts && table.points.empty() &&
                      std::find(kTenantMetrics.begin(), kTenantMetrics.end(), parts->first) != kTenantMetrics.end());
  if (!known) {
    gate_error(text, "unknown metric " + quoted_excerpt(metric) + "; numeric columns of results.csv are " +
                         join(metrics, ", ") + did_you_mean_suffix(metric, metrics));
  }
}

/// The gate's threshold: all of `value` a finite number.
double parse_threshold(const std::string& text, const std::string& value) {
  double threshold = 0.0;
  std::size_t used = 0;
  try {
    threshold = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(threshold)) {
    gate_error(text, "the threshold must be a number (got \"" + value + "\")");
  }
  return threshold;
}

}  // namespace

json point_json(const SweepPointRecord& point) {
  json out = {{"id", point.id}, {"index", point.index}, {"values", point.values}, {"labels", point.labels}};
  if (!point.error.empty()) {
    out["error"] = point.error;
    return out;
  }
  out["strategies"] = json::array();
  for (const auto& s : point.strategies) {
    out["strategies"].push_back({{"name", s.name},
                                 {"kind", s.kind},
                                 {"isolation", s.isolation},
                                 {"num_gpus", s.num_gpus},
                                 {"monthly_usd", s.monthly_usd},
                                 {"monthly_savings_usd", s.monthly_savings_usd},
                                 {"annual_savings_usd", s.annual_savings_usd},
                                 {"savings_frac", s.savings_frac},
                                 {"fleet_busy_frac", s.fleet_busy_frac},
                                 {"fleet_sm_util_frac", s.fleet_sm_util_frac},
                                 {"num_arrived", s.num_arrived},
                                 {"num_violations", s.num_violations},
                                 {"sla_violation_frac", s.sla_violation_frac},
                                 {"num_tenants_missing_sla", s.num_tenants_missing_sla},
                                 {"sla_met", s.sla_met},
                                 {"issues", s.issues},
                                 {"rejections", s.rejections}});
  }
  out["tenants"] = json::array();
  for (const auto& t : point.tenants) {
    out["tenants"].push_back({{"strategy", t.strategy},
                              {"tenant", t.tenant},
                              {"p50_s", t.p50_s},
                              {"p95_s", t.p95_s},
                              {"p99_s", t.p99_s},
                              {"sla_target_s", t.sla_target_s},
                              {"sla_violation_frac", t.sla_violation_frac},
                              {"sla_max_violation_frac", t.sla_max_violation_frac},
                              {"sla_met", t.sla_met},
                              {"monthly_chargeback_usd", t.monthly_chargeback_usd}});
  }
  return out;
}

SweepPointRecord point_from_json(const json& in, const std::string& file, const std::string& pointer) {
  SweepPointRecord p;
  try {
    p.id = in.at("id").get<std::string>();
    p.index = in.at("index").get<std::size_t>();
    p.values = in.at("values");
    p.labels = in.at("labels").get<std::vector<std::string>>();
    p.error = in.value("error", std::string());
    if (!p.error.empty()) return p;
    for (const auto& s : in.at("strategies")) {
      StrategySummary row;
      row.name = s.at("name").get<std::string>();
      row.kind = s.at("kind").get<std::string>();
      row.isolation = s.at("isolation").get<std::string>();
      row.num_gpus = s.at("num_gpus").get<int>();
      row.monthly_usd = s.at("monthly_usd").get<double>();
      row.monthly_savings_usd = s.at("monthly_savings_usd").get<double>();
      row.annual_savings_usd = s.at("annual_savings_usd").get<double>();
      row.savings_frac = s.at("savings_frac").get<double>();
      row.fleet_busy_frac = s.at("fleet_busy_frac").get<double>();
      row.fleet_sm_util_frac = s.at("fleet_sm_util_frac").get<double>();
      row.num_arrived = s.at("num_arrived").get<std::int64_t>();
      row.num_violations = s.at("num_violations").get<std::int64_t>();
      row.sla_violation_frac = s.at("sla_violation_frac").get<double>();
      row.num_tenants_missing_sla = s.at("num_tenants_missing_sla").get<int>();
      row.sla_met = s.at("sla_met").get<bool>();
      row.issues = s.at("issues").get<std::vector<std::string>>();
      row.rejections = s.value("rejections", std::vector<std::string>());  // absent in points written before 2026-11
      p.strategies.push_back(std::move(row));
    }
    for (const auto& t : in.at("tenants")) {
      TenantRow row;
      row.strategy = t.at("strategy").get<std::string>();
      row.tenant = t.at("tenant").get<std::string>();
      row.p50_s = t.at("p50_s").get<double>();
      row.p95_s = t.at("p95_s").get<double>();
      row.p99_s = t.at("p99_s").get<double>();
      row.sla_target_s = t.at("sla_target_s").get<double>();
      row.sla_violation_frac = t.at("sla_violation_frac").get<double>();
      row.sla_max_violation_frac = t.at("sla_max_violation_frac").get<double>();
      row.sla_met = t.at("sla_met").get<bool>();
      row.monthly_chargeback_usd = t.at("monthly_chargeback_usd").get<double>();
      p.tenants.push_back(std::move(row));
    }
  } catch (const json::exception& e) {
    throw ConfigError(Diagnostics{json_exception_diagnostic(e, file, pointer, "not a slicewise sweep point record: ")});
  }
  return p;
}

namespace {

/// results.csv's columns: the point, its axes, the strategy's and its status, then the strategy's
/// metrics and each tenant's.
std::vector<Column> results_columns(const SweepTable& table, const std::vector<std::string>& tenants) {
  std::vector<Column> columns = {{"point"}};
  for (const auto& axis : table.axes) columns.push_back({axis});
  for (const char* name : {"strategy", "kind", "status"}) columns.push_back({name});
  for (const auto& metric : kStrategyMetrics) columns.push_back({metric});
  for (const auto& tenant : tenants) {
    for (const auto& metric : kTenantMetrics) columns.push_back({tenant_column(metric, tenant)});
  }
  return columns;
}

/// The point's cells: its id and axis labels.
std::vector<std::string> point_cells(const SweepPointRecord& point) {
  std::vector<std::string> cells = {point.id};
  for (const auto& label : point.labels) cells.push_back(label);
  return cells;
}

/// The row of one strategy at a point that ran: its metrics, then each tenant's ("" where it has none).
std::vector<std::string> strategy_cells(const SweepPointRecord& point, const StrategySummary& s,
                                        const std::vector<std::string>& tenants) {
  auto cells = point_cells(point);
  cells.insert(cells.end(), {s.name, s.kind, "ok"});
  for (const auto& metric : kStrategyMetrics) cells.push_back(number(strategy_metric(s, metric)));
  for (const auto& tenant : tenants) {
    for (const auto& metric : kTenantMetrics) {
      const auto value = row_metric(point, s, tenant_column(metric, tenant));
      cells.push_back(value ? number(*value) : "");
    }
  }
  return cells;
}

}  // namespace

std::string sweep_results_csv(const SweepTable& table) {
  const auto tenants = tenant_names(table);
  const std::vector<Column> columns = results_columns(table, tenants);
  TextTable csv(columns);
  for (const auto& point : table.points) {
    if (!point.error.empty()) {
      auto cells = point_cells(point);
      cells.insert(cells.end(), {"", "", "failed"});
      cells.resize(columns.size());
      csv.add_row(cells);
      continue;
    }
    for (const auto& s : point.strategies) csv.add_row(strategy_cells(point, s, tenants));
  }
  return csv.to_csv();
}

std::string sweep_results_json(const SweepTable& table) {
  json out = {{"sweep", table.name},
              {"fingerprint", table.fingerprint},
              {"axes", table.axes},
              {"strategies", table.strategies},
              {"num_points", table.num_points},
              {"num_done", table.points.size()}};
  out["points"] = json::array();
  for (const auto& point : table.points) out["points"].push_back(point_json(point));
  return out.dump(1) + "\n";
}

Gate parse_gate(const std::string& text, const SweepTable& table) {
  Gate gate;
  gate.text = text;
  std::string rest = text;
  if (const auto colon = rest.find(": "); colon != std::string::npos) {
    gate.strategy = trim(rest.substr(0, colon));
    rest = rest.substr(colon + 2);
    if (!table.strategies.empty() &&
        std::find(table.strategies.begin(), table.strategies.end(), gate.strategy) == table.strategies.end()) {
      gate_error(text, "unknown strategy " + quoted_excerpt(gate.strategy) + "; the sweep has " +
                           join(table.strategies, "|") + did_you_mean_suffix(gate.strategy, table.strategies));
    }
  }
  const std::size_t at = find_operator(rest, gate.op);
  if (at == std::string::npos)
    gate_error(text, "expected [STRATEGY: ] METRIC OP NUMBER with OP one of > >= < <= == !=");
  gate.metric = trim(rest.substr(0, at));
  check_gate_metric(text, gate.metric, table);
  gate.threshold = parse_threshold(text, trim(rest.substr(at + gate.op.size())));
  return gate;
}

std::vector<GateTrip> evaluate_gates(const SweepTable& table, const std::vector<Gate>& gates) {
  std::vector<GateTrip> trips;
  for (std::size_t g = 0; g < gates.size(); ++g) {
    for (const auto& point : table.points) {
      for (const auto& s : point.strategies) {
        if (!gates[g].strategy.empty() && s.name != gates[g].strategy) continue;
        const auto value = row_metric(point, s, gates[g].metric);
        if (value && compare(*value, gates[g].op, gates[g].threshold)) trips.push_back({g, point.id, s.name, *value});
      }
    }
  }
  return trips;
}

std::string gate_trip_text(const SweepTable& table, const std::vector<Gate>& gates, const GateTrip& trip) {
  std::string label;
  for (const auto& point : table.points) {
    if (point.id == trip.point) label = " (" + axis_values(table.axes, point.labels) + ")";
  }
  return gates[trip.gate].text + ": " + trip.point + label + " " + trip.strategy + ": " + number(trip.value);
}

}  // namespace slicewise::report
