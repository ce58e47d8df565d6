// The ROI report as an Excel workbook for a budget review. Every price, instance count and the hours
// per month sit on the Inputs sheet; every cost, saving and chargeback elsewhere is a formula over
// them, written with the value slicewise computed (in the formula's own order of operations), so
// viewers that do not recalculate still show figures equal to what a spreadsheet recomputes.
#include "report/xlsx_report.hpp"

#include <xlsxwriter.h>

#include <cctype>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"

namespace slicewise::report {

namespace {

namespace fs = std::filesystem;

/// libxlsxwriter stamps the current time into docProps/core.xml when `created` is 0; a fixed instant
/// (2000-01-01T00:00:00Z) makes the same report give byte-identical files.
constexpr std::time_t kCreatedAt = 946684800;
constexpr lxw_color_t kInputFill = 0xFFF2CC;  ///< light yellow: the cells a reviewer may change
constexpr lxw_color_t kInputFont = 0x0000FF;  ///< blue: finance's convention for inputs
constexpr lxw_color_t kHeaderFill = 0xD9E1F2;

// Layout, zero-based rows. Inputs: hours per month in B3, the sized baseline (if any) in B9, then
// the price table and the fleet table. Costs: cost lines from row 4, then the baseline cell and
// the per-strategy totals. Summary: the strategy table from row 14.
constexpr lxw_row_t kHoursRow = 2;
constexpr lxw_row_t kSizedBaselineRow = 8;
constexpr lxw_row_t kPriceTitleRow = 10;
constexpr lxw_row_t kCostLineRow = 3;
constexpr lxw_row_t kSummaryHeaderRow = 12;

/// "A1"-style reference to a zero-based cell; `absolute` gives "$A$1".
std::string cell(lxw_row_t row, lxw_col_t col, bool absolute = false) {
  std::string letters;
  for (unsigned c = col + 1u; c > 0; c = (c - 1) / 26)
    letters.insert(letters.begin(), static_cast<char>('A' + (c - 1) % 26));
  const std::string dollar = absolute ? "$" : "";
  return dollar + letters + dollar + std::to_string(row + 1);
}

/// Excel number format for money in `currency` ("USD" shows as "$").
std::string money_format(const std::string& currency, const std::string& decimals) {
  if (currency.empty() || currency == "USD") return "$#,##0." + decimals;
  std::string code;
  for (const char c : currency) {
    if (std::isalnum(static_cast<unsigned char>(c))) code += c;
  }
  return "#,##0." + decimals + " \"" + code + "\"";
}

void check(lxw_error error, const fs::path& out) {
  if (error != LXW_NO_ERROR) throw Error(out.string() + ": cannot write the workbook: " + lxw_strerror(error));
}

struct Formats {
  lxw_format* title = nullptr;
  lxw_format* bold = nullptr;
  lxw_format* header = nullptr;
  lxw_format* wrap = nullptr;
  lxw_format* money = nullptr;
  lxw_format* price = nullptr;  ///< hourly prices: 2 to 5 decimals
  lxw_format* pct = nullptr;
  lxw_format* pct_fine = nullptr;  ///< violation fractions
  lxw_format* seconds = nullptr;
  lxw_format* input_count = nullptr;
  lxw_format* input_price = nullptr;
  lxw_format* input_money = nullptr;
};

lxw_format* add_format(lxw_workbook* book, const std::string& num_format, bool input = false) {
  lxw_format* format = workbook_add_format(book);
  if (!num_format.empty()) format_set_num_format(format, num_format.c_str());
  if (input) {
    format_set_bg_color(format, kInputFill);
    format_set_font_color(format, kInputFont);
    format_set_border(format, LXW_BORDER_THIN);
  }
  return format;
}

Formats make_formats(lxw_workbook* book, const std::string& currency) {
  Formats f;
  f.title = add_format(book, "");
  format_set_bold(f.title);
  format_set_font_size(f.title, 14);
  f.bold = add_format(book, "");
  format_set_bold(f.bold);
  f.header = add_format(book, "");
  format_set_bold(f.header);
  format_set_bg_color(f.header, kHeaderFill);
  format_set_bottom(f.header, LXW_BORDER_THIN);
  f.wrap = add_format(book, "");
  format_set_text_wrap(f.wrap);
  format_set_align(f.wrap, LXW_ALIGN_VERTICAL_TOP);
  f.money = add_format(book, money_format(currency, "00"));
  f.price = add_format(book, money_format(currency, "00###"));
  f.pct = add_format(book, "0.0%");
  f.pct_fine = add_format(book, "0.00%");
  f.seconds = add_format(book, "0.000");
  f.input_count = add_format(book, "0", true);
  f.input_price = add_format(book, money_format(currency, "00###"), true);
  f.input_money = add_format(book, money_format(currency, "00"), true);
  return f;
}

/// Writes the cells of one sheet; every libxlsxwriter error becomes a slicewise::Error naming `out`.
class Sheet {
 public:
  Sheet(lxw_worksheet* sheet, const fs::path& out) : sheet_(sheet), out_(out) {}

  void text(lxw_row_t row, lxw_col_t col, const std::string& value, lxw_format* format = nullptr) {
    check(worksheet_write_string(sheet_, row, col, value.c_str(), format), out_);
  }
  void number(lxw_row_t row, lxw_col_t col, double value, lxw_format* format = nullptr) {
    check(worksheet_write_number(sheet_, row, col, value, format), out_);
  }
  /// `value` is the cached result; it must equal what `formula` evaluates to.
  void formula(lxw_row_t row, lxw_col_t col, const std::string& formula, double value, lxw_format* format) {
    check(worksheet_write_formula_num(sheet_, row, col, ("=" + formula).c_str(), format, value), out_);
  }
  /// An input cell: highlighted by `format` and carrying a note.
  void input(lxw_row_t row, lxw_col_t col, double value, lxw_format* format) {
    number(row, col, value, format);
    check(worksheet_write_comment(sheet_, row, col, "change me"), out_);
  }
  void array_formula(lxw_row_t row, lxw_col_t col, const std::string& formula, double value, lxw_format* format) {
    check(worksheet_write_array_formula_num(sheet_, row, col, row, col, ("{=" + formula + "}").c_str(), format, value),
          out_);
  }
  void headers(lxw_row_t row, const std::vector<std::string>& names, lxw_format* format) {
    for (std::size_t c = 0; c < names.size(); ++c) text(row, static_cast<lxw_col_t>(c), names[c], format);
  }
  void widths(const std::vector<double>& widths, lxw_format* format = nullptr) {
    for (std::size_t c = 0; c < widths.size(); ++c) {
      const auto col = static_cast<lxw_col_t>(c);
      check(worksheet_set_column(sheet_, col, col, widths[c], format), out_);
    }
  }
  lxw_worksheet* raw() const { return sheet_; }

 private:
  lxw_worksheet* sheet_;
  const fs::path& out_;
};

/// One distinct hourly price on the Inputs sheet.
struct PriceRow {
  std::string instance_type;
  std::string region;
  double usd_per_hour = 0.0;
};

/// One cost line: where its count and price live on Inputs, and its monthly cost.
struct LineCell {
  std::size_t strategy = 0;
  const pricing::CostLine* line = nullptr;
  std::size_t price = 0;     ///< index into Model::prices
  lxw_row_t fleet_row = 0;   ///< its count on Inputs
  lxw_row_t cost_row = 0;    ///< its row on Costs
  double monthly_usd = 0.0;  ///< count × price × hours, the formula's order
};

/// One strategy's totals row on Costs.
struct TotalCell {
  lxw_row_t row = 0;
  lxw_row_t first_line_row = 0;
  std::size_t num_lines = 0;
  double monthly_usd = 0.0;
  double savings_usd = 0.0;
  double annual_savings_usd = 0.0;
  double savings_frac = 0.0;
};

/// Where every figure goes and its cached value, computed the way the formulas compute it.
struct Model {
  std::vector<PriceRow> prices;
  std::vector<LineCell> lines;
  std::vector<TotalCell> totals;  ///< per strategy, report order
  lxw_row_t fleet_title_row = 0;
  lxw_row_t baseline_row = 0;   ///< the baseline monthly cell on Costs (column B)
  bool sized_baseline = false;  ///< baseline held as an input on Inputs, not simulated
  double baseline_monthly_usd = 0.0;

  lxw_row_t price_row(std::size_t i) const { return kPriceTitleRow + 2 + static_cast<lxw_row_t>(i); }
};

std::size_t price_index(std::vector<PriceRow>& prices, const pricing::CostLine& line) {
  for (std::size_t i = 0; i < prices.size(); ++i) {
    const auto& p = prices[i];
    // Same type and region share one input; a differing price (never expected) gets its own row.
    if (p.instance_type == line.instance_type && p.region == line.region && p.usd_per_hour == line.usd_per_hour_each) {
      return i;
    }
  }
  prices.push_back({line.instance_type, line.region, line.usd_per_hour_each});
  return prices.size() - 1;
}

Model build_model(const RoiReport& report) {
  const auto& strategies = report.costs.strategies;
  SW_CHECK(report.strategies.size() == strategies.size(), "the report's strategies and costs differ in number");
  SW_CHECK(report.baseline < static_cast<int>(strategies.size()), "baseline index out of range");
  Model m;
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    for (const auto& line : strategies[s].lines) m.lines.push_back({s, &line, price_index(m.prices, line)});
  }
  m.fleet_title_row = m.price_row(m.prices.size()) + 1;
  lxw_row_t row = kCostLineRow;
  m.totals.resize(strategies.size());
  for (std::size_t i = 0; i < m.lines.size(); ++i) {
    auto& l = m.lines[i];
    l.fleet_row = m.fleet_title_row + 2 + static_cast<lxw_row_t>(i);
    l.cost_row = row++;
    l.monthly_usd = l.line->count * m.prices[l.price].usd_per_hour * kHoursPerMonth;
    auto& total = m.totals[l.strategy];
    if (total.num_lines++ == 0) total.first_line_row = l.cost_row;
    total.monthly_usd += l.monthly_usd;  // SUM adds in row order
  }
  m.baseline_row = row + 1;
  row = m.baseline_row + 3;
  for (auto& total : m.totals) total.row = row++;
  m.sized_baseline = report.baseline < 0;
  if (!m.sized_baseline) {
    m.baseline_monthly_usd = m.totals[static_cast<std::size_t>(report.baseline)].monthly_usd;
  } else if (!strategies.empty()) {
    m.baseline_monthly_usd = strategies.front().monthly_usd + strategies.front().monthly_savings_usd;
  }
  for (auto& total : m.totals) {
    total.savings_usd = m.baseline_monthly_usd - total.monthly_usd;
    total.annual_savings_usd = total.savings_usd * kMonthsPerYear;
    total.savings_frac = m.baseline_monthly_usd > 0.0 ? total.savings_usd / m.baseline_monthly_usd : 0.0;
  }
  return m;
}

std::string inputs_ref(lxw_row_t row, lxw_col_t col) { return "Inputs!" + cell(row, col, true); }

void write_inputs(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  const auto& costs = report.costs;
  const std::string currency = costs.currency.empty() ? "USD" : costs.currency;
  sheet.widths({30, 18, 18, 16, 10});
  sheet.text(0, 0, "Inputs: change the highlighted cells; every cost in this workbook is a formula over them", f.title);
  sheet.text(kHoursRow, 0, "Hours per month");
  sheet.input(kHoursRow, 1, kHoursPerMonth, f.input_count);
  sheet.text(kHoursRow, 2, "the cloud billing month (8,760 h / 12)");
  const std::vector<std::pair<std::string, std::string>> facts = {
      {"Currency", currency},
      {"Price table", costs.table},
      {"Prices as of", costs.as_of},
      {"Purchase option", pricing::to_string(costs.option)},
      {"Region", costs.region.empty() ? "any" : costs.region}};
  for (std::size_t i = 0; i < facts.size(); ++i) {
    sheet.text(kHoursRow + 1 + static_cast<lxw_row_t>(i), 0, facts[i].first);
    sheet.text(kHoursRow + 1 + static_cast<lxw_row_t>(i), 1, facts[i].second);
  }
  if (m.sized_baseline) {
    sheet.text(kSizedBaselineRow, 0, "Baseline monthly cost (sized)");
    sheet.input(kSizedBaselineRow, 1, m.baseline_monthly_usd, f.input_money);
    sheet.text(kSizedBaselineRow, 2, costs.baseline.empty() ? "no baseline" : costs.baseline);
  }
  sheet.text(kPriceTitleRow, 0, "Hourly prices", f.bold);
  sheet.headers(kPriceTitleRow + 1, {"Instance type", "Region", "Purchase option", currency + " per hour"}, f.header);
  for (std::size_t i = 0; i < m.prices.size(); ++i) {
    const auto row = m.price_row(i);
    sheet.text(row, 0, m.prices[i].instance_type);
    sheet.text(row, 1, m.prices[i].region);
    sheet.text(row, 2, pricing::to_string(costs.option));
    sheet.input(row, 3, m.prices[i].usd_per_hour, f.input_price);
  }
  sheet.text(m.fleet_title_row, 0, "Instances per strategy", f.bold);
  sheet.headers(m.fleet_title_row + 1, {"Strategy", "Role", "Instance type", "Region", "Count"}, f.header);
  for (const auto& l : m.lines) {
    sheet.text(l.fleet_row, 0, costs.strategies[l.strategy].strategy);
    sheet.text(l.fleet_row, 1, l.line->role);
    sheet.text(l.fleet_row, 2, l.line->instance_type);
    sheet.text(l.fleet_row, 3, l.line->region);
    sheet.input(l.fleet_row, 4, l.line->count, f.input_count);
  }
}

void write_costs(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  const auto& costs = report.costs;
  const std::string currency = costs.currency.empty() ? "USD" : costs.currency;
  sheet.widths({30, 16, 16, 16, 16, 8, 14, 16});
  sheet.text(0, 0, "Costs: monthly = count × price per hour × hours per month (all from Inputs)", f.title);
  sheet.headers(kCostLineRow - 1,
                {"Strategy", "Role", "Instance type", "Region", "Count", "GPUs", currency + " per hour", "Monthly"},
                f.header);
  const std::string hours = inputs_ref(kHoursRow, 1);
  for (const auto& l : m.lines) {
    const auto row = l.cost_row;
    sheet.text(row, 0, costs.strategies[l.strategy].strategy);
    sheet.text(row, 1, l.line->role);
    sheet.text(row, 2, l.line->instance_type);
    sheet.text(row, 3, l.line->region);
    sheet.formula(row, 4, inputs_ref(l.fleet_row, 4), l.line->count, nullptr);
    sheet.number(row, 5, l.line->num_gpus);
    sheet.formula(row, 6, inputs_ref(m.price_row(l.price), 3), m.prices[l.price].usd_per_hour, f.price);
    sheet.formula(row, 7, cell(row, 4) + "*" + cell(row, 6) + "*" + hours, l.monthly_usd, f.money);
  }
  const std::string baseline = cell(m.baseline_row, 1, true);
  if (m.sized_baseline) {
    sheet.text(m.baseline_row, 0, "Baseline monthly cost (sized, from Inputs)", f.bold);
    sheet.formula(m.baseline_row, 1, inputs_ref(kSizedBaselineRow, 1), m.baseline_monthly_usd, f.money);
  } else {
    sheet.text(m.baseline_row, 0, "Baseline monthly cost (" + costs.baseline + ")", f.bold);
    const auto& total = m.totals[static_cast<std::size_t>(report.baseline)];
    sheet.formula(m.baseline_row, 1, cell(total.row, 1), m.baseline_monthly_usd, f.money);
  }
  sheet.headers(m.baseline_row + 2, {"Strategy", "Monthly cost", "Monthly savings", "Annual savings", "Savings %"},
                f.header);
  for (std::size_t s = 0; s < m.totals.size(); ++s) {
    const auto& t = m.totals[s];
    sheet.text(t.row, 0, costs.strategies[s].strategy, f.bold);
    const std::string sum = t.num_lines == 0
                                ? "0"
                                : "SUM(" + cell(t.first_line_row, 7) + ":" +
                                      cell(t.first_line_row + static_cast<lxw_row_t>(t.num_lines) - 1, 7) + ")";
    sheet.formula(t.row, 1, sum, t.monthly_usd, f.money);
    sheet.formula(t.row, 2, baseline + "-" + cell(t.row, 1), t.savings_usd, f.money);
    sheet.formula(t.row, 3, cell(t.row, 2) + "*12", t.annual_savings_usd, f.money);
    sheet.formula(t.row, 4, "IF(" + baseline + ">0," + cell(t.row, 2) + "/" + baseline + ",0)", t.savings_frac, f.pct);
  }
  worksheet_freeze_panes(sheet.raw(), kCostLineRow, 0);
}

void write_summary(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  sheet.widths({30, 14, 12, 8, 16, 16, 16, 11, 9, 14});
  sheet.text(0, 0, report.title, f.title);
  sheet.text(1, 0, "Scenario");
  sheet.text(1, 1, report.scenario);
  if (!report.description.empty()) sheet.text(2, 1, report.description);
  sheet.text(4, 0, "Executive summary", f.bold);
  sheet.text(5, 0, report.recommendation);
  sheet.text(6, 0, report.savings);
  sheet.text(7, 0, report.sla_risk);
  const bool has_recommendation =
      report.recommended >= 0 && report.recommended < static_cast<int>(report.strategies.size());
  sheet.text(9, 0, "Recommended strategy");
  sheet.text(9, 1, has_recommendation ? report.strategies[static_cast<std::size_t>(report.recommended)].name : "none",
             f.bold);
  sheet.text(10, 0, "Baseline");
  sheet.text(10, 1, report.costs.baseline);
  sheet.headers(kSummaryHeaderRow,
                {"Strategy", "Kind", "Isolation", "GPUs", "Monthly cost", "Monthly savings", "Annual savings",
                 "Savings %", "SLA met", "Note"},
                f.header);
  double best_savings_usd = 0.0;  // MAX(IF(...)) gives 0 when no strategy meets every SLA
  bool any_met = false;
  for (std::size_t s = 0; s < m.totals.size(); ++s) {
    const auto row = kSummaryHeaderRow + 1 + static_cast<lxw_row_t>(s);
    const auto& summary = report.strategies[s];
    const auto& t = m.totals[s];
    sheet.text(row, 0, summary.name, static_cast<int>(s) == report.recommended ? f.bold : nullptr);
    sheet.text(row, 1, summary.kind);
    sheet.text(row, 2, summary.isolation);
    sheet.number(row, 3, summary.num_gpus);
    sheet.formula(row, 4, "Costs!" + cell(t.row, 1), t.monthly_usd, f.money);
    sheet.formula(row, 5, "Costs!" + cell(t.row, 2), t.savings_usd, f.money);
    sheet.formula(row, 6, "Costs!" + cell(t.row, 3), t.annual_savings_usd, f.money);
    sheet.formula(row, 7, "Costs!" + cell(t.row, 4), t.savings_frac, f.pct);
    sheet.text(row, 8, summary.sla_met ? "yes" : "no");
    const bool recommended = static_cast<int>(s) == report.recommended;
    const bool baseline = static_cast<int>(s) == report.baseline;
    if (recommended && baseline) {
      sheet.text(row, 9, "recommended, baseline");
    } else if (recommended || baseline) {
      sheet.text(row, 9, recommended ? "recommended" : "baseline");
    }
    if (summary.sla_met && (!any_met || t.savings_usd > best_savings_usd)) best_savings_usd = t.savings_usd;
    any_met = any_met || summary.sla_met;
  }
  if (m.totals.empty()) return;
  const auto first = kSummaryHeaderRow + 1;
  const auto last = kSummaryHeaderRow + static_cast<lxw_row_t>(m.totals.size());
  const auto row = last + 2;
  sheet.text(row, 0, "Best monthly savings meeting every SLA", f.bold);
  // An array formula, not MAXIFS, so that Excel before 2019 evaluates it too.
  sheet.array_formula(row, 5,
                      "MAX(IF(" + cell(first, 8, true) + ":" + cell(last, 8, true) + "=\"yes\"," +
                          cell(first, 5, true) + ":" + cell(last, 5, true) + "))",
                      best_savings_usd, f.money);
}

/// The strategy's chargeback entry for a tenant; nullptr when the costs have none.
const pricing::TenantCharge* find_charge(const CostReport& costs, const TenantRow& tenant, std::size_t& strategy) {
  for (std::size_t s = 0; s < costs.strategies.size(); ++s) {
    if (costs.strategies[s].strategy != tenant.strategy) continue;
    for (const auto& charge : costs.strategies[s].chargeback) {
      if (charge.name == tenant.tenant) {
        strategy = s;
        return &charge;
      }
    }
  }
  return nullptr;
}

void write_tenants(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  sheet.widths({26, 20, 10, 10, 10, 14, 12, 12, 9, 11, 20});
  sheet.text(0, 0, "Tenants: latency, SLA and chargeback (each strategy's monthly cost split by GPU work)", f.title);
  sheet.headers(2,
                {"Strategy", "Tenant", "p50 (s)", "p95 (s)", "p99 (s)", "SLA target (s)", "Violations", "Allowed",
                 "SLA met", "Cost share", "Monthly chargeback"},
                f.header);
  for (std::size_t i = 0; i < report.tenants.size(); ++i) {
    const auto& t = report.tenants[i];
    const auto row = 3 + static_cast<lxw_row_t>(i);
    sheet.text(row, 0, t.strategy);
    sheet.text(row, 1, t.tenant);
    sheet.number(row, 2, t.p50_s, f.seconds);
    sheet.number(row, 3, t.p95_s, f.seconds);
    sheet.number(row, 4, t.p99_s, f.seconds);
    if (t.sla_target_s > 0.0) {
      sheet.number(row, 5, t.sla_target_s, f.seconds);
    } else {
      sheet.text(row, 5, "none");
    }
    sheet.number(row, 6, t.sla_violation_frac, f.pct_fine);
    sheet.number(row, 7, t.sla_max_violation_frac, f.pct_fine);
    sheet.text(row, 8, t.sla_met ? "yes" : "no");
    std::size_t s = 0;
    if (const auto* charge = find_charge(report.costs, t, s)) {
      sheet.number(row, 9, charge->share_frac, f.pct);
      const auto& total = m.totals[s];
      sheet.formula(row, 10, cell(row, 9) + "*Costs!" + cell(total.row, 1, true),
                    charge->share_frac * total.monthly_usd, f.money);
    } else {
      sheet.number(row, 10, t.monthly_chargeback_usd, f.money);
    }
  }
  worksheet_freeze_panes(sheet.raw(), 3, 0);
}

void write_provenance(Sheet& sheet, const RoiReport& report, const Formats& f) {
  sheet.widths({120}, f.wrap);
  sheet.text(0, 0, "Provenance", f.title);
  lxw_row_t row = 2;
  sheet.text(row++, 0,
             "Inputs (prices, instance counts, hours per month) are the highlighted cells of the Inputs "
             "sheet; every cost, saving and chargeback is a formula over them. The values shown were "
             "computed by slicewise when the file was written; spreadsheets recalculate them on open.");
  ++row;
  sheet.text(row++, 0, "Assumptions", f.bold);
  for (const auto& line : report.assumptions) sheet.text(row++, 0, line);
  ++row;
  sheet.text(row++, 0, "Methodology", f.bold);
  for (const auto& paragraph : report.methodology) sheet.text(row++, 0, paragraph);
}

void set_properties(lxw_workbook* book, const RoiReport& report, const fs::path& out) {
  lxw_doc_properties properties{};
  properties.title = const_cast<char*>(report.title.c_str());
  properties.subject = const_cast<char*>("GPU-sharing ROI");
  properties.author = const_cast<char*>("slicewise");
  properties.created = kCreatedAt;
  check(workbook_set_properties(book, &properties), out);
}

/// A path beside `out` that does not exist yet, so the rename stays within one file system.
fs::path temporary_beside(const fs::path& out) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device seed;
  std::mt19937 random(seed());
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 2);
  for (;;) {
    std::string suffix = ".tmp-";
    for (int i = 0; i < 6; ++i) suffix += kAlphabet[pick(random)];
    fs::path candidate = out;
    candidate += suffix;
    std::error_code ec;
    if (!fs::exists(candidate, ec)) return candidate;
  }
}

struct WorkbookFree {
  void operator()(lxw_workbook* book) const { lxw_workbook_free(book); }
};

void build_and_close(const RoiReport& report, const fs::path& tmp, const fs::path& out) {
  std::unique_ptr<lxw_workbook, WorkbookFree> book(workbook_new(tmp.c_str()));
  if (!book) check(LXW_ERROR_MEMORY_MALLOC_FAILED, out);
  set_properties(book.get(), report, out);
  const Formats formats = make_formats(book.get(), report.costs.currency);
  // Sheets are added in reading order; their cells are written after the layout is known.
  Sheet summary(workbook_add_worksheet(book.get(), "Summary"), out);
  Sheet inputs(workbook_add_worksheet(book.get(), "Inputs"), out);
  Sheet costs(workbook_add_worksheet(book.get(), "Costs"), out);
  Sheet tenants(workbook_add_worksheet(book.get(), "Tenants"), out);
  Sheet provenance(workbook_add_worksheet(book.get(), "Provenance"), out);
  for (auto* sheet : {&summary, &inputs, &costs, &tenants, &provenance}) {
    if (!sheet->raw()) check(LXW_ERROR_MEMORY_MALLOC_FAILED, out);
    worksheet_set_comments_author(sheet->raw(), "slicewise");
  }
  const Model model = build_model(report);
  write_summary(summary, report, model, formats);
  write_inputs(inputs, report, model, formats);
  write_costs(costs, report, model, formats);
  write_tenants(tenants, report, model, formats);
  write_provenance(provenance, report, formats);
  check(workbook_close(book.release()), out);  // frees the workbook whatever it returns
}

}  // namespace

void write_roi_xlsx(const RoiReport& report, const std::filesystem::path& out) {
  // Checked here because libxlsxwriter would also print its own message to stderr.
  const fs::path folder = out.parent_path();
  if (!folder.empty() && !fs::is_directory(folder)) {
    throw Error(out.string() + ": cannot write the workbook: no such folder " + folder.string());
  }
  const fs::path tmp = temporary_beside(out);
  try {
    build_and_close(report, tmp, out);
    std::error_code ec;
    fs::rename(tmp, out, ec);
    if (ec) throw Error(out.string() + ": cannot write the workbook: " + ec.message());
  } catch (...) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw;
  }
}

}  // namespace slicewise::report
