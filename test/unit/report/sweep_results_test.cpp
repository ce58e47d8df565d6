// Sweep outputs from hand-made point records: CSV columns and values, JUnit counts, gates.
#include "report/sweep_results.hpp"

#include <gtest/gtest.h>

#include "report/roi_report.hpp"
#include "test/test_util.hpp"

namespace slicewise::report {
namespace {

SweepTable two_points() {
  SweepTable table;
  table.name = "demo";
  table.fingerprint = "0123456789abcdef";
  table.axes = {"load"};
  table.strategies = {"dedicated", "time_slicing"};
  table.num_points = 3;
  for (int i = 0; i < 2; ++i) {
    SweepPointRecord p;
    p.id = i == 0 ? "p0000" : "p0001";
    p.index = static_cast<std::size_t>(i);
    p.values = nlohmann::json::array({i + 1});
    p.labels = {std::to_string(i + 1)};
    StrategySummary dedicated{"dedicated", "dedicated",  "hardware", 2, 3273.4368, 0, 0,    0,  0.4,
                              0.3,         std::nullopt, 100,        0, 0.0,       0, true, {}, {}};
    StrategySummary shared{"time_slicing",
                           "time_slicing",
                           "none",
                           1,
                           1758.1904,
                           1515.2464,
                           18182.9568,
                           0.4629,
                           0.8,
                           0.6,
                           std::nullopt,
                           100,
                           i == 0 ? 0 : 25,
                           i == 0 ? 0.0 : 0.25,
                           i == 0 ? 0 : 1,
                           i == 0,
                           {},
                           {}};
    p.strategies = {dedicated, shared};
    p.tenants = {{"dedicated", "chat", 0.6, 0.61, 0.62, 2.0, 0.0, 0.01, true, 1000, 1636.7184, {}, {}, {}},
                 {"time_slicing",
                  "chat",
                  1.2,
                  i == 0 ? 1.5 : 2.5,
                  3.0,
                  2.0,
                  i == 0 ? 0.0 : 0.25,
                  0.01,
                  i == 0,
                  1000,
                  1758.1904,
                  {},
                  {},
                  {}}};
    table.points.push_back(p);
  }
  SweepPointRecord failed;
  failed.id = "p0002";
  failed.index = 2;
  failed.values = nlohmann::json::array({3});
  failed.labels = {"3"};
  failed.error = "trace.csv:7: prompt_tokens: not a number";
  table.points.push_back(failed);
  return table;
}

TEST(SweepResults, CsvHasOneRowPerPointAndStrategyInShortestForm) {
  const std::string csv = sweep_results_csv(two_points());
  const std::string header =
      "point,load,strategy,kind,status,num_gpus,monthly_cost_usd,monthly_savings_usd,annual_savings_usd,savings_frac,"
      "fleet_busy_frac,fleet_sm_util_frac,sla_violation_rate,sla_met,tenants_missing_sla,p95_s[chat],p99_s[chat],"
      "sla_violation_frac[chat]\n";
  EXPECT_EQ(csv.substr(0, header.size()), header);
  EXPECT_NE(csv.find("\np0001,2,time_slicing,time_slicing,ok,1,1758.1904,1515.2464,18182.9568,0.4629,0.8,0.6,0.25,0,1,"
                     "2.5,3,0.25\n"),
            std::string::npos);
  EXPECT_NE(csv.find("\np0002,3,,,failed,,,,,,,,,,,,,\n"), std::string::npos);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4 + 1);
}

TEST(SweepResults, JunitCountsFailuresAndErrorsPerStrategy) {
  const auto table = two_points();
  const std::vector<Gate> gates = {parse_gate("time_slicing: sla_violation_rate > 0.01", table)};
  const std::string xml = sweep_junit_xml(table, gates);
  EXPECT_NE(xml.find("<testsuites name=\"demo\" tests=\"7\" failures=\"2\" errors=\"2\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testsuite name=\"demo.time_slicing\" tests=\"3\" failures=\"1\" errors=\"1\""),
            std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"demo.gates\" tests=\"1\" failures=\"1\" errors=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("chat: 25.00 % of requests over target (allowed 1.00 %), p95 2.500 s"), std::string::npos);
  EXPECT_NE(
      xml.find("<error message=\"the point failed\" type=\"error\">trace.csv:7: prompt_tokens: not a number</error>"),
      std::string::npos);
}

TEST(SweepResults, AxisValuesPairAxesWithLabelsAsFarAsBothGo) {
  EXPECT_EQ(axis_values({"load", "gpus"}, {"2", "4"}), "load=2, gpus=4");
  EXPECT_EQ(axis_values({"load", "gpus"}, {"2"}), "load=2");  // a point read with fewer labels
  EXPECT_EQ(axis_values({"load"}, {"2", "4"}), "load=2");
  EXPECT_EQ(axis_values({}, {}), "");
}

TEST(SweepResults, GatesTripOnMatchingRowsOnly) {
  const auto table = two_points();
  const std::vector<Gate> gates = {parse_gate("sla_violation_rate > 0.01", table),
                                   parse_gate("p95_s[chat] >= 1.5", table),
                                   parse_gate("dedicated: monthly_cost_usd < 100", table)};
  const auto trips = evaluate_gates(table, gates);
  ASSERT_EQ(trips.size(), 3u);
  EXPECT_EQ(gate_trip_text(table, gates, trips[0]), "sla_violation_rate > 0.01: p0001 (load=2) time_slicing: 0.25");
  EXPECT_EQ(gate_trip_text(table, gates, trips[1]), "p95_s[chat] >= 1.5: p0000 (load=1) time_slicing: 1.5");
  EXPECT_EQ(trips[2].point, "p0001");
}

TEST(SweepResults, BadGatesSayWhatIsAllowed) {
  const auto table = two_points();
  EXPECT_EQ(test::error_of([&] { parse_gate("sla_rate > 1", table); }),
            "--fail-if: \"sla_rate > 1\": unknown metric \"sla_rate\"; numeric columns of results.csv are num_gpus, "
            "monthly_cost_usd, monthly_savings_usd, annual_savings_usd, savings_frac, fleet_busy_frac, "
            "fleet_sm_util_frac, sla_violation_rate, sla_met, tenants_missing_sla, p95_s[chat], p99_s[chat], "
            "sla_violation_frac[chat]");
  EXPECT_EQ(test::error_of([&] { parse_gate("mpx: sla_met == 0", table); }),
            "--fail-if: \"mpx: sla_met == 0\": unknown strategy \"mpx\"; the sweep has dedicated|time_slicing");
  EXPECT_EQ(test::error_of([&] { parse_gate("sla_met = 0", table); }),
            "--fail-if: \"sla_met = 0\": expected [STRATEGY: ] METRIC OP NUMBER with OP one of > >= < <= == !=");
  EXPECT_EQ(test::error_of([&] { parse_gate("sla_met == zero", table); }),
            "--fail-if: \"sla_met == zero\": the threshold must be a number (got \"zero\")");
}

TEST(SweepResults, PointRecordsRoundTrip) {
  const auto table = two_points();
  for (const auto& point : table.points) {
    EXPECT_EQ(point_json(point_from_json(point_json(point), "p.json")), point_json(point));
  }
  EXPECT_EQ(test::error_of([] { point_from_json(nlohmann::json::object(), "p.json"); }),
            "p.json: not a slicewise sweep point record: key 'id' not found");
  auto damaged = point_json(table.points[0]);
  damaged["strategies"][0]["savings_frac"] = nullptr;
  EXPECT_EQ(test::error_of([&] { point_from_json(damaged, "p0000.json", "/point"); }),
            "p0000.json: /point/strategies/0/savings_frac: not a slicewise sweep point record: type must be number, "
            "but is null");
}

}  // namespace
}  // namespace slicewise::report
