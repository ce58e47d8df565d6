// A sweep's results as JUnit XML for CI: one testsuite per strategy with one testcase per point
// (failure: a tenant missed its SLA; error: the point failed), plus a "gates" testsuite.
#include <algorithm>
#include <optional>
#include <utility>

#include "report/roi_report.hpp"
#include "report/sweep_results.hpp"
#include "report/text_table.hpp"

namespace slicewise::report {

namespace {

/// One testcase; it passed when `failure` is empty.
struct Case {
  std::string name;
  std::string failure;  ///< message; empty = passed
  std::string detail;
  bool error = false;
};

/// "p0003 (load=2, gpus=4)": the point's id and its value on each axis.
std::string case_name(const SweepTable& table, const SweepPointRecord& point) {
  const std::string values = axis_values(table.axes, point.labels);
  return point.id + (values.empty() ? "" : " (" + values + ")");
}

/// The testcase of `point` in `strategy`'s suite; nullopt when the point ran without that strategy
/// (a pointer axis renamed it).
std::optional<Case> strategy_case(const SweepTable& table, const SweepPointRecord& point, const std::string& strategy) {
  Case c;
  c.name = case_name(table, point);
  if (!point.error.empty()) {
    c.error = true;
    c.failure = "the point failed";
    c.detail = point.error;
    return c;
  }
  const auto it = std::find_if(point.strategies.begin(), point.strategies.end(),
                               [&](const StrategySummary& s) { return s.name == strategy; });
  if (it == point.strategies.end()) return std::nullopt;
  if (!it->sla_met) {
    c.failure = "SLA missed for " + std::to_string(it->num_tenants_missing_sla) + " tenant(s)";
    for (const auto& t : point.tenants) {
      if (t.strategy != strategy || t.sla_met) continue;
      c.detail += t.tenant + ": " + format_fixed(100.0 * t.sla_violation_frac, 2) +
                  " % of requests over target (allowed " + format_fixed(100.0 * t.sla_max_violation_frac, 2) +
                  " %), p95 " + format_fixed(t.p95_s, 3) + " s\n";
    }
    for (const auto& issue : it->issues) c.detail += issue + "\n";
  }
  return c;
}

/// One testcase per gate, failed when it tripped on any row.
std::vector<Case> gate_cases(const SweepTable& table, const std::vector<Gate>& gates) {
  const auto trips = evaluate_gates(table, gates);
  std::vector<Case> cases;
  for (std::size_t g = 0; g < gates.size(); ++g) {
    Case c;
    c.name = gates[g].text;
    int count = 0;
    for (const auto& trip : trips) {
      if (trip.gate != g) continue;
      ++count;
      c.detail += gate_trip_text(table, gates, trip) + "\n";
    }
    if (count > 0) c.failure = "tripped on " + std::to_string(count) + " row(s)";
    cases.push_back(std::move(c));
  }
  return cases;
}

/// One <testsuite> element; adds its failures and errors to the totals.
std::string suite_xml(const std::string& classname, const std::vector<Case>& cases, int& failures, int& errors) {
  int suite_failures = 0, suite_errors = 0;
  for (const auto& c : cases) {
    if (c.failure.empty()) continue;
    (c.error ? suite_errors : suite_failures) += 1;
  }
  failures += suite_failures;
  errors += suite_errors;
  std::string xml = "  <testsuite name=\"" + classname + "\" tests=\"" + std::to_string(cases.size()) +
                    "\" failures=\"" + std::to_string(suite_failures) + "\" errors=\"" + std::to_string(suite_errors) +
                    "\" skipped=\"0\">\n";
  for (const auto& c : cases) {
    xml += "    <testcase classname=\"" + classname + "\" name=\"" + escape_markup(c.name) + "\"";
    if (c.failure.empty()) {
      xml += "/>\n";
      continue;
    }
    const char* tag = c.error ? "error" : "failure";
    xml += ">\n      <" + std::string(tag) + " message=\"" + escape_markup(c.failure) + "\" type=\"" +
           (c.error ? "error" : "sla") + "\">" + escape_markup(c.detail) + "</" + tag + ">\n    </testcase>\n";
  }
  return xml + "  </testsuite>\n";
}

}  // namespace

std::string sweep_junit_xml(const SweepTable& table, const std::vector<Gate>& gates) {
  std::vector<std::pair<std::string, std::vector<Case>>> suites;
  for (const auto& strategy : table.strategies) {
    std::vector<Case> cases;
    for (const auto& point : table.points) {
      if (auto c = strategy_case(table, point, strategy)) cases.push_back(std::move(*c));
    }
    suites.emplace_back(strategy, std::move(cases));
  }
  if (!gates.empty()) suites.emplace_back("gates", gate_cases(table, gates));

  int tests = 0, failures = 0, errors = 0;
  std::string body;
  for (const auto& [suite, cases] : suites) {
    tests += static_cast<int>(cases.size());
    body += suite_xml(escape_markup(table.name + "." + suite), cases, failures, errors);
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + escape_markup(table.name) + "\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
         "\">\n" + body + "</testsuites>\n";
}

}  // namespace slicewise::report
