// The ROI workbook read back by independent readers: unzip (the XML parts, with cached values) and
// Debian's python3-openpyxl (sheet names, formula text). Figures are the seed case's closed forms:
// dedicated 2 × g6e.2xlarge at $2.24208/h, time-sliced 1 × g6e.2xlarge + 2 × t3.large at $0.0832/h.
#include "report/xlsx_report.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "core/error.hpp"

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

pricing::StrategyCost strategy_cost(const std::string& name, std::vector<pricing::CostLine> lines, double baseline) {
  pricing::StrategyCost cost;
  cost.strategy = name;
  cost.lines = std::move(lines);
  for (const auto& l : cost.lines) cost.monthly_usd += l.monthly_usd;
  cost.monthly_savings_usd = baseline - cost.monthly_usd;
  cost.annual_savings_usd = cost.monthly_savings_usd * 12.0;
  cost.savings_frac = cost.monthly_savings_usd / baseline;
  cost.chargeback = {{"chat", cost.monthly_usd * 0.75, 0.75}, {"embed", cost.monthly_usd * 0.25, 0.25}};
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
      r.tenants.push_back({s.strategy, c.name, 0.1, 0.2, 0.3, 1.0, 0.001, 0.01, true, c.monthly_usd, {}, {}, {}});
    }
  }
  r.assumptions = {"Prices: aws as of 2025-01-01."};
  r.methodology = {"Each strategy was simulated on the same trace."};
  return r;
}

/// Standard output of a shell command (empty when it fails).
std::string run(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  pclose(pipe);
  return out;
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

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
  if (!v.empty()) out.value = std::stod(v);
  return out;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST_F(XlsxReport, ZipIsValidAndHasTheFiveSheets) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(seed_report(), book);
  EXPECT_EQ(std::system(("unzip -tq " + quoted(book) + " > /dev/null").c_str()), 0);
  const auto workbook = part(book, "xl/workbook.xml");
  for (const auto* name : {"Summary", "Inputs", "Costs", "Tenants", "Provenance"}) {
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

  // Tenants: chargeback = share × the strategy's monthly total.
  const auto tenants = part(book, "xl/worksheets/sheet4.xml");
  EXPECT_EQ(cell_xml(tenants, "K6").formula, "J6*Costs!$B$12");
  EXPECT_NEAR(cell_xml(tenants, "K6").value, 0.75 * kTimeSlicedMonthlyUsd, 1e-9);
}

TEST_F(XlsxReport, OpenpyxlReadsSheetNamesAndSavingsFormula) {
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(seed_report(), book);
  // Debian's python3 (with python3-openpyxl), not whatever python3 comes first on PATH.
  const std::string script =
      "import openpyxl, sys\n"
      "wb = openpyxl.load_workbook(sys.argv[1])\n"
      "print(','.join(wb.sheetnames))\n"
      "print(wb['Summary']['F15'].value)\n"
      "print(wb['Costs']['C12'].value)\n"
      "print(wb['Inputs']['D13'].value)\n";
  std::ofstream(dir_ / "read.py") << script;
  const auto out = run("/usr/bin/python3 " + quoted(dir_ / "read.py") + " " + quoted(book));
  EXPECT_EQ(out, "Summary,Inputs,Costs,Tenants,Provenance\n=Costs!C12\n=$B$8-B12\n2.24208\n");
}

TEST_F(XlsxReport, SizedBaselineIsAnInputCell) {
  auto report = seed_report();
  report.costs.strategies.erase(report.costs.strategies.begin());
  report.strategies.erase(report.strategies.begin());
  report.costs.baseline = "dedicated (sized: one GPU per context)";
  report.baseline = -1;
  report.recommended = 0;
  const auto book = dir_ / "roi.xlsx";
  write_roi_xlsx(report, book);
  const auto inputs = part(book, "xl/worksheets/sheet2.xml");
  EXPECT_NEAR(cell_xml(inputs, "B9").value, kDedicatedMonthlyUsd, 1e-9);
  const auto costs = part(book, "xl/worksheets/sheet3.xml");
  EXPECT_EQ(cell_xml(costs, "B7").formula, "Inputs!$B$9");  // lines in rows 4-5
  EXPECT_EQ(cell_xml(costs, "C10").formula, "$B$7-B10");
  EXPECT_NEAR(cell_xml(costs, "C10").value, kSavingsUsd, 1e-9);
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
