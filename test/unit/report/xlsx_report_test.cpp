// The ROI workbook read back by independent readers: unzip (the XML parts, with cached values) and
// Debian's python3-openpyxl (sheet names, formula text, charts). Figures are the seed case's closed
// forms: dedicated 2 × g6e.2xlarge at $2.24208/h, time-sliced 1 × g6e.2xlarge + 2 × t3.large at
// $0.0832/h; its two tenants hold equal parts of the GPUs and did GPU work 3:1.
#include "report/xlsx_report.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "test/test_util.hpp"

namespace slicewise::report {
namespace {

namespace fs = std::filesystem;

constexpr double kGpuUsdPerHour = 2.24208;
constexpr double kSidecarUsdPerHour = 0.0832;
constexpr double kDedicatedMonthlyUsd = 3273.4368;   // 2 × 2.24208 × 730
constexpr double kTimeSlicedMonthlyUsd = 1758.1904;  // (2.24208 + 2 × 0.0832) × 730
constexpr double kSavingsUsd = 1515.2464;            // docs/roi.md: $1,515.25

/// A folder under the system temp directory, removed with the fixture.
class XlsxReport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sw_xlsx_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

pricing::CostLine line(const std::string& role, const std::string& type, int count, int num_gpus, double price) {
  return {role, type, "us-east-1", count, num_gpus, price, count * price * 730.0};
}

/// A tenant holding `gpus` of the strategy's GPUs (half of them) that did `work_s` of GPU work (chat
/// 300 s, embed 100 s): by reservation 1/2 of the bill, in use; by usage 3/4 or 1/4.
pricing::TenantCharge charge(const std::string& name, double monthly_usd, double gpus, double work_s) {
  pricing::TenantCharge c;
  c.name = name;
  c.reservation_share_frac = 0.5;
  c.reservation_monthly_usd = monthly_usd * 0.5;
  c.usage_share_frac = work_s / 400.0;
  c.usage_monthly_usd = monthly_usd * c.usage_share_frac;
  c.share_frac = c.reservation_share_frac;
  c.monthly_usd = c.reservation_monthly_usd;
  c.reserved_gpus = gpus;
  c.reserved_usd_per_hour = gpus * kGpuUsdPerHour;
  c.gpu_work_s = work_s;
  return c;
}

pricing::StrategyCost strategy_cost(const std::string& name, std::vector<pricing::CostLine> lines, double baseline) {
  pricing::StrategyCost cost;
  cost.strategy = name;
  cost.lines = std::move(lines);
  int gpus = 0;
  for (const auto& l : cost.lines) {
    cost.monthly_usd += l.monthly_usd;
    gpus += l.num_gpus;
  }
  cost.monthly_savings_usd = baseline - cost.monthly_usd;
  cost.annual_savings_usd = cost.monthly_savings_usd * 12.0;
  cost.savings_frac = cost.monthly_savings_usd / baseline;
  cost.chargeback = {charge("chat", cost.monthly_usd, gpus / 2.0, 300.0),
                     charge("embed", cost.monthly_usd, gpus / 2.0, 100.0)};
  return cost;
}

StrategySummary summary(const std::string& name, const std::string& kind, int num_gpus, bool sla_met) {
  StrategySummary s;
  s.name = name;
  s.kind = kind;
  s.num_gpus = num_gpus;
  s.sla_met = sla_met;
  return s;
}

/// The seed case: dedicated (the baseline, index 0) and time_slicing (recommended).
RoiReport seed_report() {
  RoiReport r;
  r.title = "ROI report: seed";
  r.scenario = "seed";
  r.costs.table = "aws";
  r.costs.currency = "USD";
  r.costs.as_of = "2025-01-01";
  r.costs.baseline = "dedicated";
  r.costs.strategies = {
      strategy_cost("dedicated", {line("gpu", "g6e.2xlarge", 2, 2, kGpuUsdPerHour)}, kDedicatedMonthlyUsd),
      strategy_cost(
          "time_slicing",
          {line("gpu", "g6e.2xlarge", 1, 1, kGpuUsdPerHour), line("sidecar", "t3.large", 2, 0, kSidecarUsdPerHour)},
          kDedicatedMonthlyUsd)};
  r.strategies = {summary("dedicated", "dedicated", 2, true), summary("time_slicing", "time_slicing", 1, true)};
  r.baseline = 0;
  r.recommended = 1;
  r.recommendation = "Recommend time_slicing.";
  r.savings = "It saves $1,515.24 a month.";
  r.sla_risk = "Every tenant meets its SLA.";
  for (const auto& s : r.costs.strategies) {
    for (const auto& c : s.chargeback) {
      r.tenants.push_back({s.strategy, c.name, 0.1, 0.2, 0.3, 1.0, 0.001, 0.01, true, 100, c.monthly_usd, {}, {}, {}});
    }
  }
  r.assumptions = {"Prices: aws as of 2025-01-01."};
  r.methodology = {"Each strategy was simulated on the same trace."};
  return r;
}

using slicewise::test::quoted;
using slicewise::test::run;

std::string part(const fs::path& book, const std::string& name) { return run("unzip -p " + quoted(book) + " " + name); }

/// The <f> text and <v> value of one cell of a worksheet part ("" / NaN when absent).
struct CellXml {
  std::string formula;
  double value = std::numeric_limits<double>::quiet_NaN();
};

CellXml cell_xml(const std::string& sheet, const std::string& ref) {
  CellXml out;
  const auto start = sheet.find("<c r=\"" + ref + "\"");
  if (start == std::string::npos) return out;
  const auto cell = sheet.substr(start, sheet.find("</c>", start) - start);
  const auto between = [&](const std::string& open, const std::string& close) -> std::string {
    const auto a = cell.find(open);
    if (a == std::string::npos) return "";
    const auto b = cell.find('>', a) + 1;
    return cell.substr(b, cell.find(close, b) - b);
  };
  out.formula = between("<f", "</f>");
  for (const auto& [entity, text] : {std::pair{"&gt;", ">"}, {"&lt;", "<"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (auto at = out.formula.find(entity); at != std::string::npos; at = out.formula.find(entity, at + 1)) {
      out.formula.replace(at, std::string(entity).size(), text);
    }
  }
  const auto v = between("<v", "</v>");
  char* end = nullptr;
  const double number = v.empty() ? 0.0 : std::strtod(v.c_str(), &end);
  if (!v.empty() && end == v.c_str() + v.size()) out.value = number;  // a text formula's <v> is its text
  return out;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// Runs `script` with Debian's python3 (with python3-openpyxl), not whatever python3 comes first on
/// PATH, on `book`; its standard output.
std::string python(const fs::path& dir, const std::string& script, const fs::path& book) {
  std::ofstream(dir / "read.py") << script;
  return run("/usr/bin/python3 " + quoted(dir / "read.py") + " " + quoted(book));
}

/// A sweep of three points over `axes` (labels "1", "2", "4" on the first, "a" on a second), its
/// second point failed.
SweepSection sweep_section(const std::vector<std::string>& axes) {
  SweepSection sweep;
  sweep.name = "users";
  sweep.axes = axes;
  sweep.strategies = {"dedicated", "time_slicing"};
  sweep.detail_point = "p0000";
  const std::vector<std::string> firsts = {"1", "2", "4"};
  for (std::size_t i = 0; i < firsts.size(); ++i) {
    SweepSection::Row row;
    row.point = "p000" + std::to_string(i);
    row.labels = {firsts[i]};
    if (axes.size() > 1) row.labels.emplace_back("a");
    row.failed = i == 1;
    row.savings_usd = {0.0, kSavingsUsd - 100.0 * static_cast<double>(i)};
    row.sla_met = {true, i == 0};
    row.monthly_usd = {kDedicatedMonthlyUsd, kTimeSlicedMonthlyUsd + 100.0 * static_cast<double>(i)};
    row.num_gpus = {2, 1};
    row.recommended = i == 0 ? "time_slicing" : "dedicated";
    sweep.rows.push_back(row);
  }
  return sweep;
}

TEST_F(XlsxReport, ZipIsValidAndHasItsSheets) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(seed_report(), book);
  EXPECT_EQ(std::system(("unzip -tq " + quoted(book) + " > /dev/null").c_str()), 0);
  const auto workbook = part(book, "xl/workbook.xml");
  for (const auto* name : {"Summary", "Inputs", "Costs", "Tenants", "Charts", "Provenance"}) {
    EXPECT_NE(workbook.find(std::string("name=\"") + name + "\""), std::string::npos) << name;
  }
  // Only the workbook itself is left in the folder: the temporary was renamed.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1);
}

TEST_F(XlsxReport, CostsAreFormulasOverInputsWithCachedClosedForms) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(seed_report(), book);
  const auto inputs = part(book, "xl/worksheets/sheet2.xml");
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "B3").value, 730.0);            // hours per month
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "D13").value, kGpuUsdPerHour);  // first price row
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "D14").value, kSidecarUsdPerHour);

  // Costs: lines in rows 4-6, baseline in B8, totals in rows 11-12.
  const auto costs = part(book, "xl/worksheets/sheet3.xml");
  const auto dedicated_line = cell_xml(costs, "H4");
  EXPECT_EQ(dedicated_line.formula, "E4*G4*Inputs!$B$3");
  EXPECT_NEAR(dedicated_line.value, kDedicatedMonthlyUsd, 1e-9);
  EXPECT_EQ(cell_xml(costs, "E4").formula, "Inputs!$E$18");
  EXPECT_EQ(cell_xml(costs, "G4").formula, "Inputs!$D$13");
  EXPECT_EQ(cell_xml(costs, "G6").formula, "Inputs!$D$14");
  EXPECT_EQ(cell_xml(costs, "B8").formula, "B11");
  EXPECT_NEAR(cell_xml(costs, "B8").value, kDedicatedMonthlyUsd, 1e-9);

  const auto total = cell_xml(costs, "B12");
  EXPECT_EQ(total.formula, "SUM(H5:H6)");
  EXPECT_NEAR(total.value, kTimeSlicedMonthlyUsd, 1e-9);
  const auto savings = cell_xml(costs, "C12");
  EXPECT_EQ(savings.formula, "$B$8-B12");
  EXPECT_NEAR(savings.value, kSavingsUsd, 1e-9);
  EXPECT_EQ(cell_xml(costs, "D12").formula, "C12*12");
  EXPECT_NEAR(cell_xml(costs, "D12").value, kSavingsUsd * 12.0, 1e-8);
  EXPECT_EQ(cell_xml(costs, "E12").formula, "IF($B$8>0,C12/$B$8,0)");
  EXPECT_NEAR(cell_xml(costs, "E12").value, kSavingsUsd / kDedicatedMonthlyUsd, 1e-12);
  EXPECT_NEAR(cell_xml(costs, "C11").value, 0.0, 1e-9);

  // Summary rows 14-15 read the totals; F17 is the best saving among SLA-meeting strategies.
  const auto sheet = part(book, "xl/worksheets/sheet1.xml");
  EXPECT_EQ(cell_xml(sheet, "E15").formula, "Costs!B12");
  EXPECT_NEAR(cell_xml(sheet, "F15").value, kSavingsUsd, 1e-9);
  EXPECT_NEAR(cell_xml(sheet, "F17").value, kSavingsUsd, 1e-9);

  // Tenants (time_slicing's in rows 6-7): per model, share = weight / the strategy's weights, and
  // chargeback = share × the strategy's monthly total; each model's charges add up to the total.
  const auto tenants = part(book, "xl/worksheets/sheet4.xml");
  const std::string same = "($A$4:$A$7=A6)";
  EXPECT_EQ(cell_xml(tenants, "L6").formula, "IF(SUMPRODUCT(" + same + "*$K$4:$K$7)>0,K6/SUMPRODUCT(" + same +
                                                 "*$K$4:$K$7),1/SUMPRODUCT(--" + same + "))");
  EXPECT_NEAR(cell_xml(tenants, "L6").value, 0.5, 1e-12);  // 0.5 GPU of 1, at $2.24208/h each
  EXPECT_EQ(cell_xml(tenants, "M6").formula, "L6*Costs!$B$12");
  EXPECT_NEAR(cell_xml(tenants, "M6").value, 0.5 * kTimeSlicedMonthlyUsd, 1e-9);
  EXPECT_EQ(cell_xml(tenants, "O6").formula, "IF(SUMPRODUCT(" + same + "*$N$4:$N$7)>0,N6/SUMPRODUCT(" + same +
                                                 "*$N$4:$N$7),1/SUMPRODUCT(--" + same + "))");
  EXPECT_NEAR(cell_xml(tenants, "O6").value, 0.75, 1e-12);  // 300 s of 400 s of GPU work
  EXPECT_EQ(cell_xml(tenants, "P6").formula, "O6*Costs!$B$12");
  EXPECT_NEAR(cell_xml(tenants, "P6").value, 0.75 * kTimeSlicedMonthlyUsd, 1e-9);
  for (const char* column : {"M", "P"}) {
    const auto c = std::string(column);
    EXPECT_NEAR(cell_xml(tenants, c + "4").value + cell_xml(tenants, c + "5").value, kDedicatedMonthlyUsd, 0.005);
    EXPECT_NEAR(cell_xml(tenants, c + "6").value + cell_xml(tenants, c + "7").value, kTimeSlicedMonthlyUsd, 0.005);
  }
}

TEST_F(XlsxReport, TheSummaryGivesEachStrategysCostPerThousandRequestsInSlaLive) {
  // The equal-work figure beside every saving: the monthly cost (live, from Costs) over the
  // requests served within SLA in a month (simulated: a number).
  auto report = seed_report();
  report.strategies[1].monthly_usd = kTimeSlicedMonthlyUsd;
  report.strategies[1].cost_per_1k_in_sla_usd = kTimeSlicedMonthlyUsd / 2500.0;  // 2.5 million in SLA a month
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  const auto sheet = part(book, "xl/worksheets/sheet1.xml");
  EXPECT_DOUBLE_EQ(cell_xml(sheet, "K15").value, 2.5e6);
  EXPECT_EQ(cell_xml(sheet, "L15").formula, "E15/(K15/1000)");
  EXPECT_NEAR(cell_xml(sheet, "L15").value, kTimeSlicedMonthlyUsd / 2500.0, 1e-12);
}

TEST_F(XlsxReport, OpenpyxlFindsBothChargebackModelsNamedWithTheOneInUse) {
  auto report = seed_report();
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  const std::string script =
      "import openpyxl, sys\n"
      "ws = openpyxl.load_workbook(sys.argv[1])['Tenants']\n"
      "print([c.value for c in ws[3]][9:])\n"
      "print(ws['M4'].value, ws['P7'].value)\n"
      "print(ws['A2'].value.startswith('In use: chargeback by reservation'))\n"
      // The cached values: each model's charges add up to each strategy's monthly cost on Costs.
      "wb = openpyxl.load_workbook(sys.argv[1], data_only=True)\n"
      "t, c = wb['Tenants'], wb['Costs']\n"
      "for col in 'MP':\n"
      "    print(col, abs(t[col + '4'].value + t[col + '5'].value - c['B11'].value) < 0.005,\n"
      "          abs(t[col + '6'].value + t[col + '7'].value - c['B12'].value) < 0.005, round(c['B12'].value, 4))\n";
  EXPECT_EQ(python(dir_, script, book),
            "['Reserved GPUs', 'USD per hour reserved', 'Share by reservation', 'Chargeback by reservation (in use)', "
            "'GPU work (s)', 'Share by usage', 'Chargeback by usage']\n=L4*Costs!$B$11 =O7*Costs!$B$12\nTrue\n"
            "M True True 1758.1904\nP True True 1758.1904\n");
  report.costs.chargeback_model = pricing::ChargebackModel::usage;
  write_roi_xlsx(report, book);
  EXPECT_EQ(python(dir_,
                   "import openpyxl, sys\nws = openpyxl.load_workbook(sys.argv[1])['Tenants']\n"
                   "print(ws['M3'].value, '|', ws['P3'].value)\n",
                   book),
            "Chargeback by reservation | Chargeback by usage (in use)\n");
}

/// The script that prints, per chart of the Charts sheet, its type, title, axis titles, and each
/// series' name, x (categories) and y (values) references (quotes around sheet names dropped).
const char* const kChartsScript =
    "import openpyxl, sys\n"
    "def text(t):\n"
    "    return ''.join(r.t for p in t.tx.rich.p for r in (p.r or [])) if t and t.tx and t.tx.rich else ''\n"
    "def ref(d):\n"
    "    r = d.numRef or d.strRef\n"
    "    return r.f.replace(\"'\", '')\n"
    "def name(s):\n"
    "    return s.tx.v if s.tx.v else s.tx.strRef.f.replace(\"'\", '')\n"
    "ws = openpyxl.load_workbook(sys.argv[1])['Charts']\n"
    "print(len(ws._charts))\n"
    "for c in ws._charts:\n"
    "    print(type(c).__name__, getattr(c, 'type', ''), text(c.title), '|', text(c.x_axis.title), '|',\n"
    "          text(c.y_axis.title), '|', len(c.series))\n"
    "    for s in c.series:\n"
    "        x, y = (s.xVal, s.yVal) if s.xVal else (s.cat, s.val)\n"
    "        print(' ', name(s), ref(x), ref(y))\n";

TEST_F(XlsxReport, ChartsDrawMonthlyCostAndSavingsFromTheCostsCells) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(seed_report(), book);
  // Costs' totals are rows 11-12: strategy names in A, monthly cost in B, savings in C.
  EXPECT_EQ(python(dir_, kChartsScript, book),
            "2\n"
            "BarChart col Monthly cost per strategy | Strategy | USD per month | 1\n"
            "  Monthly cost Costs!$A$11:$A$12 Costs!$B$11:$B$12\n"
            "BarChart col Monthly savings per strategy against dedicated | Strategy | USD per month | 1\n"
            "  Monthly savings Costs!$A$11:$A$12 Costs!$C$11:$C$12\n");
}

TEST_F(XlsxReport, ASweepHasEveryPointOnItsSheetAndItsSavingsCurve) {
  auto report = seed_report();
  report.sweep = sweep_section({"phi_users"});
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  const std::string script =
      "import openpyxl, sys\n"
      "wb = openpyxl.load_workbook(sys.argv[1])\n"
      "print(','.join(wb.sheetnames))\n"
      "ws = wb['Sweep points']\n"
      "print(ws['C3'].value, ws['G3'].value)\n"
      "print([c.value for c in ws[4]])\n"
      "for row in ws.iter_rows(min_row=5, values_only=True):\n"
      "    print(row)\n";
  // One row per point: the swept value as a number, per strategy GPUs, cost, savings, SLA met; the
  // failed point has its values only.
  EXPECT_EQ(python(dir_, script, book),
            "Summary,Inputs,Costs,Tenants,Sweep points,Charts,Provenance\n"
            "dedicated time_slicing\n"
            "['Point', 'phi_users', 'GPUs', 'Monthly cost', 'Monthly savings', 'SLA met', 'GPUs', 'Monthly cost', "
            "'Monthly savings', 'SLA met', 'Recommended']\n"
            "('p0000', 1, 2, 3273.4368, 0, 'yes', 1, 1758.1904, 1515.2464, 'yes', 'time_slicing')\n"
            "('p0001', 2, None, None, None, None, None, None, None, None, 'failed')\n"
            "('p0002', 4, 2, 3273.4368, 0, 'yes', 1, 1958.1904, 1315.2464, 'no', 'dedicated')\n");
  // One numeric axis: a scatter chart of each strategy's savings against it.
  const auto charts = python(dir_, kChartsScript, book);
  EXPECT_EQ(charts.substr(0, 2), "3\n");
  EXPECT_NE(
      charts.find("ScatterChart  Monthly savings per strategy across sweep users | phi_users | USD per month | 2\n"
                  "  Sweep points!$C$3 Sweep points!$B$5:$B$7 Sweep points!$E$5:$E$7\n"
                  "  Sweep points!$G$3 Sweep points!$B$5:$B$7 Sweep points!$I$5:$I$7\n"),
      std::string::npos)
      << charts;
}

TEST_F(XlsxReport, ASweepOverTwoAxesDrawsItsCurveOverThePointsSweptValues) {
  auto report = seed_report();
  report.sweep = sweep_section({"phi_users", "gpu"});
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  const auto points = python(dir_,
                             "import openpyxl, sys\nws = openpyxl.load_workbook(sys.argv[1])['Sweep points']\n"
                             "print([c.value for c in ws[5]][:5])\n",
                             book);
  EXPECT_EQ(points, "['p0000', 1, 'a', 'phi_users=1, gpu=a', 2]\n");
  const auto charts = python(dir_, kChartsScript, book);
  EXPECT_NE(charts.find("LineChart  Monthly savings per strategy across sweep users | Sweep point (swept values) | "
                        "USD per month | 2\n"
                        "  Sweep points!$E$3 Sweep points!$D$5:$D$7 Sweep points!$G$5:$G$7\n"),
            std::string::npos)
      << charts;
}

TEST_F(XlsxReport, OpenpyxlReadsSheetNamesAndSavingsFormula) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(seed_report(), book);
  const std::string script =
      "import openpyxl, sys\n"
      "wb = openpyxl.load_workbook(sys.argv[1])\n"
      "print(','.join(wb.sheetnames))\n"
      "print(wb['Summary']['F15'].value)\n"
      "print(wb['Costs']['C12'].value)\n"
      "print(wb['Inputs']['E13'].value)\n";
  EXPECT_EQ(python(dir_, script, book),
            "Summary,Inputs,Costs,Tenants,Charts,Provenance\n=Costs!C12\n=$B$8-B12\n2.24208\n");
}

TEST_F(XlsxReport, ThePurchaseOptionSwitchesEveryPriceAndTheNarrativeFollowsTheModel) {
  // The "Purchase option" input changed nothing (one price column was carried), and the summary's
  // savings sentence was fixed text that went stale once an input was edited.
  auto report = seed_report();
  PricedItem gpu;
  gpu.name = "g6e.2xlarge";
  gpu.region = "us-east-1";
  gpu.usd_per_hour = kGpuUsdPerHour;
  gpu.option_usd_per_hour = {kGpuUsdPerHour, 0.9, 1.41, std::nullopt};
  report.priced_items = {gpu};
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  const auto inputs = part(book, "xl/worksheets/sheet2.xml");
  // B7 is a drop-down of the four options; row 13's price is the chosen option's column.
  EXPECT_NE(inputs.find("<formula1>\"on_demand,spot,reserved_1y,reserved_3y\"</formula1>"), std::string::npos);
  EXPECT_NE(inputs.find("sqref=\"B7\""), std::string::npos);
  const std::string chosen =
      "CHOOSE(MATCH($B$7,{\"on_demand\",\"spot\",\"reserved_1y\",\"reserved_3y\"},0),E13,F13,G13,H13)";
  EXPECT_EQ(cell_xml(inputs, "D13").formula, "IF(" + chosen + "=\"\",NA()," + chosen + ")");
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "D13").value, kGpuUsdPerHour);
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "E13").value, kGpuUsdPerHour);
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "F13").value, 0.9);
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "G13").value, 1.41);
  EXPECT_EQ(inputs.find("<c r=\"H13\""), std::string::npos);  // no 3-year price: #N/A when chosen
  // Each instance count carries the count simulated and whether the SLA result still applies.
  EXPECT_EQ(cell_xml(inputs, "G18").formula,
            "IF(E18=F18,\"as simulated\",\"edited: the SLA result no longer applies\")");
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "F18").value, 2.0);
  const auto summary = part(book, "xl/worksheets/sheet1.xml");
  EXPECT_EQ(cell_xml(summary, "I15").formula,
            "IF(SUMPRODUCT((Inputs!$A$18:$A$20=A15)*(Inputs!$E$18:$E$20<>Inputs!$F$18:$F$20))>0,"
            "\"edited: re-simulate\",\"yes\")");
  EXPECT_EQ(cell_xml(summary, "A7").formula,
            "A15&\" saves \"&TEXT(F15,\"$#,##0.00\")&\" per month (\"&TEXT(G15,\"$#,##0\")&\" per year, \"&TEXT(H15,"
            "\"0.0%\")&\") against \"&$B$11&\", at \"&Inputs!$B$7&\" prices.\"");
  // Its cached text is what the formula gives.
  EXPECT_NE(summary.find("time_slicing saves $1,515.25 per month ($18,183 per year, 46.3%) against dedicated, at "
                         "on_demand prices."),
            std::string::npos);
}

/// The seed report without its dedicated strategy: the baseline is sized, 2 × g6e.2xlarge.
RoiReport sized_report() {
  auto report = seed_report();
  report.costs.strategies.erase(report.costs.strategies.begin());
  report.strategies.erase(report.strategies.begin());
  report.costs.baseline = "dedicated (sized: one GPU per context)";
  report.costs.baseline_lines = {line("gpu", "g6e.2xlarge", 2, 2, kGpuUsdPerHour)};
  report.baseline = -1;
  report.recommended = 0;
  return report;
}

TEST_F(XlsxReport, SizedBaselineIsAnInputCell) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(sized_report(), book);
  // Inputs: prices in rows 13-14 (g6e.2xlarge, t3.large); time_slicing's instances in rows 18-19,
  // the sized baseline's last, in row 20. Its monthly cost is count × price × hours over them.
  const auto inputs = part(book, "xl/worksheets/sheet2.xml");
  EXPECT_EQ(cell_xml(inputs, "B9").formula, "E20*D13*B3");
  EXPECT_NEAR(cell_xml(inputs, "B9").value, kDedicatedMonthlyUsd, 1e-9);
  EXPECT_DOUBLE_EQ(cell_xml(inputs, "E20").value, 2.0);
  const auto costs = part(book, "xl/worksheets/sheet3.xml");
  EXPECT_EQ(cell_xml(costs, "B7").formula, "Inputs!$B$9");  // lines in rows 4-5
  EXPECT_NEAR(cell_xml(costs, "B7").value, kDedicatedMonthlyUsd, 1e-9);
  EXPECT_EQ(cell_xml(costs, "C10").formula, "$B$7-B10");
  EXPECT_NEAR(cell_xml(costs, "C10").value, kSavingsUsd, 1e-9);
  const std::string script =
      "import openpyxl, sys\n"
      "ws = openpyxl.load_workbook(sys.argv[1])['Inputs']\n"
      "print(ws['B9'].value, '|', ws['A20'].value, '|', ws['C20'].value, '|', ws['E20'].value)\n";
  EXPECT_EQ(python(dir_, script, book), "=E20*D13*B3 | dedicated (sized: one GPU per context) | g6e.2xlarge | 2\n");
}

TEST_F(XlsxReport, SizedBaselineWithoutItsLinesStaysAnInput) {
  auto report = sized_report();
  report.costs.baseline_lines.clear();  // a report made before baselines kept their fleet
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  const auto inputs = part(book, "xl/worksheets/sheet2.xml");
  EXPECT_EQ(cell_xml(inputs, "B9").formula, "");
  EXPECT_NEAR(cell_xml(inputs, "B9").value, kDedicatedMonthlyUsd, 1e-9);  // the strategy's cost + savings
}

/// The seed report with the energy the reports show: dedicated's two L40S at half their SM each
/// (idle 33 W, TDP 350 W: 191.5 W each, 383 W together; 0.5 h: 0.1915 kWh; a month 279.59 kWh),
/// at 0.1 USD/kWh and PUE 1.5; time_slicing's GPU without a power curve.
RoiReport energy_report() {
  auto report = seed_report();
  report.energy.site = "onprem";
  report.energy.usd_per_kwh = 0.1;
  report.energy.pue = 1.5;
  scenario::EnergyRecord record;
  record.hours = 0.5;
  record.gpu_kwh = 0.1915;
  record.mean_power_w = 383.0;
  record.monthly_kwh = 279.59;
  for (int i = 0; i < 2; ++i) {
    record.per_gpu.push_back(scenario::GpuEnergy{i, "L40S", 0.5, 33.0, 350.0, false, 191.5, 0.09575});
  }
  EnergyRow dedicated;
  dedicated.strategy = "dedicated";
  dedicated.energy = record;
  dedicated.facility_monthly_kwh = 279.59 * 1.5;
  dedicated.electricity_monthly_usd = dedicated.facility_monthly_kwh * 0.1;
  EnergyRow shared;
  shared.strategy = "time_slicing";
  shared.gpus_without_power = {"B200"};
  report.energy.rows = {dedicated, shared};
  return report;
}

TEST_F(XlsxReport, TheEnergySheetPricesEachStrategysMonthOverItsInputs) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(energy_report(), book);
  const std::string script =
      "import openpyxl, sys\n"
      "def r(v):\n"
      "    return round(v, 6) if isinstance(v, float) else v\n"
      "for data_only in (False, True):\n"
      "    wb = openpyxl.load_workbook(sys.argv[1], data_only=data_only)\n"
      "    ws = wb['Energy']\n"
      "    if not data_only:\n"
      "        print(','.join(wb.sheetnames))\n"
      "        print(ws['A4'].value, ws['B4'].value, ws['C4'].value, '|', ws['A5'].value, ws['B5'].value)\n"
      "    for row in ws.iter_rows(min_row=7, max_row=14, values_only=True):\n"
      "        print(tuple(r(v) for v in row))\n";
  // Row 8: dedicated, its month with PUE and its electricity as formulas over B4 and B5; row 9:
  // time_slicing, why it has no figures; rows 11-14: per GPU. Then the cached values.
  EXPECT_EQ(python(dir_, script, book),
            "Summary,Inputs,Costs,Tenants,Energy,Charts,Provenance\n"
            "PUE 1.5 on-prem table onprem | Electricity (USD per kWh) 0.1\n"
            "('Strategy', 'GPUs used', 'Mean power (W)', 'kWh (run)', 'kWh per month', 'kWh per month with PUE', "
            "'Electricity (USD per month)', 'Unused GPUs', 'Unused idle (W)')\n"
            "('dedicated', 2, 383, 0.1915, 279.59, '=E8*$B$4', '=F8*$B$5', 0, 0)\n"
            "('time_slicing', 'no TDP in the GPU catalog for B200', None, None, None, None, None, None, None)\n"
            "(None, None, None, None, None, None, None, None, None)\n"
            "('Per GPU', None, None, None, None, None, None, None, None)\n"
            "('Strategy', 'GPU index', 'GPU', 'SM utilisation', 'Idle (W)', 'Max (W)', 'Idle estimated', "
            "'Mean power (W)', 'kWh (run)')\n"
            "('dedicated', 0, 'L40S', 0.5, 33, 350, 'no', 191.5, 0.09575)\n"
            "('dedicated', 1, 'L40S', 0.5, 33, 350, 'no', 191.5, 0.09575)\n"
            "('Strategy', 'GPUs used', 'Mean power (W)', 'kWh (run)', 'kWh per month', 'kWh per month with PUE', "
            "'Electricity (USD per month)', 'Unused GPUs', 'Unused idle (W)')\n"
            "('dedicated', 2, 383, 0.1915, 279.59, 419.385, 41.9385, 0, 0)\n"
            "('time_slicing', 'no TDP in the GPU catalog for B200', None, None, None, None, None, None, None)\n"
            "(None, None, None, None, None, None, None, None, None)\n"
            "('Per GPU', None, None, None, None, None, None, None, None)\n"
            "('Strategy', 'GPU index', 'GPU', 'SM utilisation', 'Idle (W)', 'Max (W)', 'Idle estimated', "
            "'Mean power (W)', 'kWh (run)')\n"
            "('dedicated', 0, 'L40S', 0.5, 33, 350, 'no', 191.5, 0.09575)\n"
            "('dedicated', 1, 'L40S', 0.5, 33, 350, 'no', 191.5, 0.09575)\n");
}

/// The seed report whose time_slicing strategy saw a driver reset (both tenants down 60 s of the
/// 600 s window) and one re-partition, with GPU failures and driver resets expected per month;
/// the record has expected figures for chat only.
RoiReport availability_report() {
  auto report = seed_report();
  scenario::StrategyResult dedicated;
  dedicated.name = "dedicated";
  scenario::StrategyResult shared;
  shared.name = "time_slicing";
  for (const char* name : {"chat", "embed"}) {
    scenario::TenantResult t;
    t.name = name;
    dedicated.tenants.push_back(t);
    t.num_interruptions = 1;
    t.num_failed = std::string(name) == "chat" ? 2 : 0;
    t.num_retried = 5;
    t.downtime_s = 60.0;
    t.availability = 0.9;
    shared.tenants.push_back(t);
  }
  scenario::FaultRecord faults;
  faults.events = {scenario::FaultEvent{100.0, "driver_reset", 0, "", true, {"chat#0", "embed#0"}, 2, 60.0},
                   scenario::FaultEvent{300.0, "repartition", 0, "day -> night", true, {"chat#0"}, 1, 60.0}};
  faults.blast_radius_tenants = 2.0;
  faults.expected = {scenario::FaultExposure{"gpu_failure", 0.25, 2.0, 2.0, 3600.0},
                     scenario::FaultExposure{"driver_reset", 0.5, 2.0, 2.0, 60.0}};
  faults.expected_blast_radius = 2.0;
  faults.tenants = {scenario::TenantExposure{"chat", 0.75, 0.25, 1.0 - 0.25 / 730.0}};
  faults.num_repartitions = 1;
  shared.faults = faults;
  report.result.strategies = {dedicated, shared};
  return report;
}

TEST_F(XlsxReport, TheAvailabilitySheetHasTheRunsAndTheExpectedFigures) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(availability_report(), book);
  const std::string script =
      "import openpyxl, sys\n"
      "def r(v):\n"
      "    return round(v, 9) if isinstance(v, float) else v\n"
      "wb = openpyxl.load_workbook(sys.argv[1])\n"
      "print(','.join(wb.sheetnames))\n"
      "for row in wb['Availability'].iter_rows(min_row=3, values_only=True):\n"
      "    print(tuple(r(v) for v in row if v is not None))\n";
  // Tenants in rows 4-5 (embed without expected figures), the strategy's summary in row 9 (one
  // fault: the re-partition aside; 0.25 + 0.5 expected a month), the kinds in rows 13-14.
  EXPECT_EQ(python(dir_, script, book),
            "Summary,Inputs,Costs,Tenants,Availability,Charts,Provenance\n"
            "('Strategy', 'Tenant', 'Interruptions (run)', 'Failed requests', 'Retried requests', 'Downtime (s)', "
            "'Availability (run)', 'Interruptions per month (expected)', 'Outage hours per month (expected)', "
            "'Availability (expected)')\n"
            "('time_slicing', 'chat', 1, 2, 5, 60, 0.9, 0.75, 0.25, 0.999657534)\n"
            "('time_slicing', 'embed', 1, 0, 5, 60, 0.9)\n"
            "()\n"
            "('Per strategy',)\n"
            "('Strategy', 'Faults (run)', 'Blast radius (run, tenants per fault)', 'Re-partitions (run)', "
            "'Expected faults per month', 'Blast radius (expected, tenants per fault)')\n"
            "('time_slicing', 1, 2, 1, 0.75, 2)\n"
            "()\n"
            "('Expected faults by kind',)\n"
            "('Strategy', 'Kind', 'Per month', 'Tenants hit per fault', 'Contexts hit per fault', 'Outage (s)')\n"
            "('time_slicing', 'gpu_failure', 0.25, 2, 2, 3600)\n"
            "('time_slicing', 'driver_reset', 0.5, 2, 2, 60)\n");
}

TEST_F(XlsxReport, NoEnergyOrAvailabilitySheetWithoutTheirFigures) {
  auto report = energy_report();
  report.energy.rows[0].energy.reset();  // no strategy with a power curve
  report.result = availability_report().result;
  report.result.strategies[1].faults.reset();
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  EXPECT_EQ(
      python(dir_, "import openpyxl, sys\nprint(','.join(openpyxl.load_workbook(sys.argv[1]).sheetnames))\n", book),
      "Summary,Inputs,Costs,Tenants,Charts,Provenance\n");
}

TEST_F(XlsxReport, MissingFolderThrowsNamingTheFile) {
  const auto book = dir_ / "missing" / "roi.xlsx";
  try {
    write_roi_xlsx(seed_report(), book);
    FAIL() << "expected slicewise::Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              book.string() + ": cannot write the workbook: no such folder " + (dir_ / "missing").string());
  }
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
}

TEST_F(XlsxReport, LibraryErrorLeavesNoTemporary) {
  auto report = seed_report();
  report.assumptions.push_back(std::string(40000, 'x'));  // over Excel's 32,767 characters per cell
  const auto book = dir_ / "roi.xlsx";
  try {
    write_roi_xlsx(report, book);
    FAIL() << "expected slicewise::Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              book.string() + ": cannot write the workbook: String exceeds Excel's limit of 32,767 characters.");
  }
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(XlsxReport, SameReportGivesIdenticalBytes) {
  write_roi_xlsx(seed_report(), dir_ / "a.xlsx");
  write_roi_xlsx(seed_report(), dir_ / "b.xlsx");
  const auto a = read_bytes(dir_ / "a.xlsx");
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(a == read_bytes(dir_ / "b.xlsx"));
}

TEST_F(XlsxReport, OverwritesAnExistingFile) {
  const auto book = dir_ / "roi.xlsx";
  std::ofstream(book) << "old";
  write_roi_xlsx(seed_report(), book);
  EXPECT_EQ(std::system(("unzip -tq " + quoted(book) + " > /dev/null").c_str()), 0);
}

}  // namespace
}  // namespace slicewise::report
