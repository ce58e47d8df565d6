// The XLSX report's five sheets. Every cost, saving and chargeback is a formula over the Inputs
// sheet, written with the value slicewise computed (xlsx_model).
#include "report/xlsx_sheets.hpp"

#include <string>
#include <utility>
#include <vector>

#include "core/units.hpp"

namespace slicewise::report::xlsx {

namespace {

std::string inputs_ref(lxw_row_t row, lxw_col_t col) { return "Inputs!" + cell(row, col, true); }

/// Title, scenario, executive summary, recommended strategy and baseline (rows 0 to 10).
void write_summary_head(Sheet& sheet, const RoiReport& report, const Formats& f) {
  sheet.text(0, 0, report.title, f.title);
  sheet.text(1, 0, "Scenario");
  sheet.text(1, 1, report.scenario);
  if (!report.description.empty()) sheet.text(2, 1, report.description);
  sheet.text(4, 0, "Executive summary", f.bold);
  sheet.text(5, 0, report.recommendation);
  sheet.text(6, 0, report.savings);
  sheet.text(7, 0, report.sla_risk);
  if (!report.rejected.empty()) sheet.text(8, 0, report.rejected);
  const bool has_recommendation =
      report.recommended >= 0 && report.recommended < static_cast<int>(report.strategies.size());
  sheet.text(9, 0, "Recommended strategy");
  sheet.text(9, 1, has_recommendation ? report.strategies[static_cast<std::size_t>(report.recommended)].name : "none",
             f.bold);
  sheet.text(10, 0, "Baseline");
  sheet.text(10, 1, report.costs.baseline);
}

/// One row per strategy under the table's header; returns the best monthly savings among the
/// strategies that meet every SLA, as MAX(IF(...)) gives it (0 when none does).
double write_summary_rows(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  double best_savings_usd = 0.0;
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
  return best_savings_usd;
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

}  // namespace

void write_summary(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  sheet.widths({30, 14, 12, 8, 16, 16, 16, 11, 9, 14});
  write_summary_head(sheet, report, f);
  sheet.headers(kSummaryHeaderRow,
                {"Strategy", "Kind", "Isolation", "GPUs", "Monthly cost", "Monthly savings", "Annual savings",
                 "Savings %", "SLA met", "Note"},
                f.header);
  const double best_savings_usd = write_summary_rows(sheet, report, m, f);
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
    std::string savings_frac = "IF(" + baseline + ">0," + cell(t.row, 2) + "/";
    savings_frac += baseline;
    savings_frac += ",0)";
    sheet.formula(t.row, 4, savings_frac, t.savings_frac, f.pct);
  }
  worksheet_freeze_panes(sheet.raw(), kCostLineRow, 0);
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

}  // namespace slicewise::report::xlsx
