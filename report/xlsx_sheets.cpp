// The XLSX report's sheets. Every cost, saving and chargeback is a formula over the Inputs sheet,
// written with the value slicewise computed (xlsx_model); the charts read those cells.
#include "report/xlsx_sheets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/units.hpp"
#include "report/text_table.hpp"

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

/// `value` as TEXT(value, format) writes it: "$1,515.25" ("1,515.25 EUR" in another currency),
/// with `decimals` decimals; and the format that gives it.
std::string money_text(double value, int decimals, const std::string& currency) {
  std::string plain = format_usd(value, decimals);
  if (currency.empty() || currency == "USD") return plain;
  plain.erase(plain.find('$'), 1);
  return plain + " " + currency;
}
std::string money_format_text(int decimals, const std::string& currency) {
  const std::string number = decimals > 0 ? "#,##0." + std::string(static_cast<std::size_t>(decimals), '0') : "#,##0";
  if (currency.empty() || currency == "USD") return "\"$" + number + "\"";
  return "\"" + number + "\")&\" " + currency + "\"";
}
/// TEXT(ref, money format) in a formula.
std::string money_formula(const std::string& ref, int decimals, const std::string& currency) {
  const std::string format = money_format_text(decimals, currency);
  if (currency.empty() || currency == "USD") return "TEXT(" + ref + "," + format + ")";
  return "TEXT(" + ref + "," + format;  // the format closes TEXT and appends the currency
}

/// The savings sentence of the summary as a formula over the strategy table and the chosen purchase
/// option, so that it follows an edited price, count or option; nothing when no strategy is
/// recommended (that sentence names no figure the inputs change).
void write_savings_sentence(Sheet& sheet, const RoiReport& report, const Model& m) {
  if (report.recommended < 0 || report.recommended >= static_cast<int>(m.totals.size())) return;
  const auto s = static_cast<std::size_t>(report.recommended);
  const auto row = kSummaryHeaderRow + 1 + static_cast<lxw_row_t>(s);
  const std::string currency = report.costs.currency;
  const std::string option = "Inputs!" + cell(kOptionRow, 1, true);
  const std::string baseline = cell(10, 1, true);
  const auto& t = m.totals[s];
  const std::string option_name = pricing::to_string(report.costs.option);
  const bool keeps_baseline = report.recommended == report.baseline || t.savings_usd <= 0.005;
  if (keeps_baseline) {
    sheet.formula_text(6, 0,
                       "\"No monthly saving against \"&" + baseline + "&\" (\"&" +
                           money_formula(cell(row, 4), 2, currency) + "&\" per month, at \"&" + option +
                           "&\" prices).\"",
                       "No monthly saving against " + report.costs.baseline + " (" +
                           money_text(t.monthly_usd, 2, currency) + " per month, at " + option_name + " prices).");
    return;
  }
  sheet.formula_text(6, 0,
                     cell(row, 0) + "&\" saves \"&" + money_formula(cell(row, 5), 2, currency) + "&\" per month (\"&" +
                         money_formula(cell(row, 6), 0, currency) + "&\" per year, \"&TEXT(" + cell(row, 7) +
                         ",\"0.0%\")&\") against \"&" + baseline + "&\", at \"&" + option + "&\" prices.\"",
                     report.strategies[s].name + " saves " + money_text(t.savings_usd, 2, currency) + " per month (" +
                         money_text(t.annual_savings_usd, 0, currency) + " per year, " +
                         format_fixed(100.0 * t.savings_frac, 1) + "%) against " + report.costs.baseline + ", at " +
                         option_name + " prices.");
}

/// One row per strategy under the table's header; returns the best monthly savings among the
/// strategies that meet every SLA, as MAX(IF(...)) gives it (0 when none does). Its "SLA met" says
/// "edited: re-simulate" once one of its instance counts on Inputs differs from the one simulated.
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
    const std::string met = summary.sla_met ? "yes" : "no";
    const std::size_t fleet_rows = m.lines.size() + m.baseline_lines.size();
    if (fleet_rows == 0) {
      sheet.text(row, 8, met);
    } else {
      const auto first = m.fleet_title_row + 2;
      const auto last = first + static_cast<lxw_row_t>(fleet_rows) - 1;
      const auto range = [&](lxw_col_t col) {
        return "Inputs!" + cell(first, col, true) + ":" + cell(last, col, true);
      };
      sheet.formula_text(row, 8,
                         "IF(SUMPRODUCT((" + range(0) + "=" + cell(row, 0) + ")*(" + range(4) + "<>" + range(5) +
                             "))>0,\"edited: re-simulate\",\"" + met + "\")",
                         met);
    }
    const bool recommended = static_cast<int>(s) == report.recommended;
    const bool baseline = static_cast<int>(s) == report.baseline;
    if (recommended && baseline) {
      sheet.text(row, 9, "recommended, baseline");
    } else if (recommended || baseline) {
      sheet.text(row, 9, recommended ? "recommended" : "baseline");
    }
    // The equal-work figure, live: the monthly cost over the requests served within SLA in a month
    // (simulated, so a number, not an input).
    if (summary.cost_per_1k_in_sla_usd > 0.0) {
      const double in_sla = 1000.0 * summary.monthly_usd / summary.cost_per_1k_in_sla_usd;
      sheet.number(row, 10, std::round(in_sla));
      sheet.formula(row, 11, cell(row, 4) + "/(" + cell(row, 10) + "/1000)", summary.cost_per_1k_in_sla_usd, f.price);
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

// The Tenants sheet's chargeback columns: per model its weight, the share it gives, the charge.
constexpr lxw_col_t kReservedGpusCol = 9;
constexpr lxw_col_t kReservationWeightCol = 10;
constexpr lxw_col_t kReservationShareCol = 11;
constexpr lxw_col_t kReservationChargeCol = 12;
constexpr lxw_col_t kUsageWeightCol = 13;
constexpr lxw_col_t kUsageShareCol = 14;
constexpr lxw_col_t kUsageChargeCol = 15;

/// Tenant row `row`'s share of its strategy: its weight (column `weight`) over the weights of the
/// rows `first` to `last` of the same strategy, or one over their number when they weigh nothing.
/// SUMPRODUCT compares names exactly (SUMIF would read "*" or ">" in a name as a pattern).
std::string share_formula(lxw_row_t row, lxw_col_t weight, lxw_row_t first, lxw_row_t last) {
  const std::string same = "(" + cell(first, 0, true) + ":" + cell(last, 0, true) + "=" + cell(row, 0) + ")";
  const std::string total =
      "SUMPRODUCT(" + same + "*" + cell(first, weight, true) + ":" + cell(last, weight, true) + ")";
  return "IF(" + total + ">0," + cell(row, weight) + "/" + total + ",1/SUMPRODUCT(--" + same + "))";
}

/// What share_formula gives for tenant `i`, `weight` being the charge's weight (rows without a
/// charge weigh nothing).
double cached_share(const RoiReport& report, const std::vector<const pricing::TenantCharge*>& charges, std::size_t i,
                    double pricing::TenantCharge::*weight) {
  double total = 0.0;
  int count = 0;
  for (std::size_t j = 0; j < report.tenants.size(); ++j) {
    if (report.tenants[j].strategy != report.tenants[i].strategy) continue;
    ++count;
    if (charges[j]) total += charges[j]->*weight;  // the formula adds in row order
  }
  return total > 0.0 ? charges[i]->*weight / total : 1.0 / count;
}

/// The chargeback cells of tenant `i` (row `row`) under both models: weights, shares, charges.
void write_tenant_charges(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f,
                          const std::vector<const pricing::TenantCharge*>& charges,
                          const std::vector<std::size_t>& strategies, std::size_t i) {
  const auto row = kTenantHeaderRow + 1 + static_cast<lxw_row_t>(i);
  const auto first = kTenantHeaderRow + 1;
  const auto last = kTenantHeaderRow + static_cast<lxw_row_t>(report.tenants.size());
  const auto* charge = charges[i];
  if (!charge) {
    const bool reservation = report.costs.chargeback_model == pricing::ChargebackModel::reservation;
    sheet.number(row, reservation ? kReservationChargeCol : kUsageChargeCol, report.tenants[i].monthly_chargeback_usd,
                 f.money);
    return;
  }
  const std::string bill = "*" + std::string(kCostsSheet) + "!" + cell(m.totals[strategies[i]].row, 1, true);
  const double monthly_usd = m.totals[strategies[i]].monthly_usd;
  sheet.number(row, kReservedGpusCol, charge->reserved_gpus, f.seconds);
  sheet.number(row, kReservationWeightCol, charge->reserved_usd_per_hour, f.price);
  const double by_reservation = cached_share(report, charges, i, &pricing::TenantCharge::reserved_usd_per_hour);
  sheet.formula(row, kReservationShareCol, share_formula(row, kReservationWeightCol, first, last), by_reservation,
                f.pct);
  sheet.formula(row, kReservationChargeCol, cell(row, kReservationShareCol) + bill, by_reservation * monthly_usd,
                f.money);
  sheet.number(row, kUsageWeightCol, charge->gpu_work_s, f.seconds);
  const double by_usage = cached_share(report, charges, i, &pricing::TenantCharge::gpu_work_s);
  sheet.formula(row, kUsageShareCol, share_formula(row, kUsageWeightCol, first, last), by_usage, f.pct);
  sheet.formula(row, kUsageChargeCol, cell(row, kUsageShareCol) + bill, by_usage * monthly_usd, f.money);
}

/// The sized baseline's monthly cost on Inputs: a formula over its instances' counts and prices
/// (below, with the strategies'), or an input when the report does not have them.
void write_sized_baseline(Sheet& sheet, const CostReport& costs, const Model& m, const Formats& f) {
  sheet.text(kSizedBaselineRow, 0, "Baseline monthly cost (sized)");
  if (m.baseline_lines.empty()) {
    sheet.input(kSizedBaselineRow, 1, m.baseline_monthly_usd, f.input_money);
  } else {
    std::string sum;
    for (const auto& l : m.baseline_lines) {
      if (!sum.empty()) sum += "+";
      sum += cell(l.fleet_row, 4) + "*" + cell(m.price_row(l.price), 3) + "*" + cell(kHoursRow, 1);
    }
    sheet.formula(kSizedBaselineRow, 1, sum, m.baseline_monthly_usd, f.money);
  }
  sheet.text(kSizedBaselineRow, 2,
             costs.baseline.empty() ? "no baseline"
             : m.baseline_lines.empty()
                 ? costs.baseline
                 : costs.baseline + ": count × price × hours of its instances, listed last below");
}

/// One instance line of the fleet table on Inputs, its count an input.
/// A fleet row: its count (an input), the count simulated, and whether the simulated SLA result
/// still applies (a count edited away from it is priced, but was never simulated).
void write_fleet_row(Sheet& sheet, const std::string& strategy, const LineCell& l, const Formats& f) {
  sheet.text(l.fleet_row, 0, strategy);
  sheet.text(l.fleet_row, 1, l.line->role);
  sheet.text(l.fleet_row, 2, l.line->instance_type);
  sheet.text(l.fleet_row, 3, l.line->region);
  sheet.input(l.fleet_row, 4, l.line->count, f.input_count);
  sheet.number(l.fleet_row, 5, l.line->count);
  sheet.formula_text(l.fleet_row, 6,
                     "IF(" + cell(l.fleet_row, 4) + "=" + cell(l.fleet_row, 5) +
                         ",\"as simulated\",\"edited: the SLA result no longer applies\")",
                     "as simulated");
}

}  // namespace

void write_summary(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  sheet.widths({30, 14, 12, 8, 16, 16, 16, 11, 9, 14, 16, 12});
  write_summary_head(sheet, report, f);
  sheet.headers(kSummaryHeaderRow,
                {"Strategy", "Kind", "Isolation", "GPUs", "Monthly cost", "Monthly savings", "Annual savings",
                 "Savings %", "SLA met", "Note", "Requests in SLA / month", "$/1k in SLA"},
                f.header);
  const double best_savings_usd = write_summary_rows(sheet, report, m, f);
  write_savings_sentence(sheet, report, m);
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
  std::vector<std::string> options;
  for (const auto& [name, option] : pricing::purchase_option_table()) options.push_back(name);
  for (std::size_t i = 0; i < facts.size(); ++i) {
    const auto row = kHoursRow + 1 + static_cast<lxw_row_t>(i);
    sheet.text(row, 0, facts[i].first);
    if (row == kOptionRow) {
      sheet.choice(row, 1, facts[i].second, options, f.input_count);
      sheet.text(row, 2, "switches every price below; #N/A where an instance has no price under it");
    } else {
      sheet.text(row, 1, facts[i].second);
    }
  }
  if (m.sized_baseline) write_sized_baseline(sheet, costs, m, f);
  sheet.text(kPriceTitleRow, 0, "Hourly prices", f.bold);
  std::vector<std::string> headers = {"Instance type", "Region", "Purchase option", currency + " per hour"};
  headers.insert(headers.end(), options.begin(), options.end());
  sheet.headers(kPriceTitleRow + 1, headers, f.header);
  // The price in use: the column of the chosen option (an empty one is #N/A, not a free instance).
  std::string list;
  for (const auto& o : options) list += (list.empty() ? "" : ",") + ("\"" + o + "\"");
  const std::string option = cell(kOptionRow, 1, true);
  for (std::size_t i = 0; i < m.prices.size(); ++i) {
    const auto row = m.price_row(i);
    sheet.text(row, 0, m.prices[i].instance_type);
    sheet.text(row, 1, m.prices[i].region);
    sheet.formula_text(row, 2, option, pricing::to_string(costs.option));
    std::string chosen = "CHOOSE(MATCH(" + option;
    chosen += ",{";
    chosen += list;
    chosen += "},0)";
    for (std::size_t o = 0; o < options.size(); ++o) {
      chosen += ",";
      chosen += cell(row, static_cast<lxw_col_t>(4 + o));
    }
    chosen += ")";
    std::string in_use = "IF(" + chosen;
    in_use += "=\"\",NA(),";
    in_use += chosen;
    in_use += ")";
    sheet.formula(row, 3, in_use, m.prices[i].usd_per_hour, f.price);
    for (std::size_t o = 0; o < options.size(); ++o) {
      if (const auto& price = m.prices[i].option_usd_per_hour[o]) {
        sheet.input(row, static_cast<lxw_col_t>(4 + o), *price, f.input_price);
      }
    }
  }
  sheet.text(m.fleet_title_row, 0, "Instances per strategy", f.bold);
  sheet.headers(m.fleet_title_row + 1,
                {"Strategy", "Role", "Instance type", "Region", "Count", "Simulated", "SLA result"}, f.header);
  for (const auto& l : m.lines) write_fleet_row(sheet, costs.strategies[l.strategy].strategy, l, f);
  for (const auto& l : m.baseline_lines) write_fleet_row(sheet, costs.baseline, l, f);
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
  const std::string currency = report.costs.currency.empty() ? "USD" : report.costs.currency;
  const bool reservation = report.costs.chargeback_model == pricing::ChargebackModel::reservation;
  sheet.widths({26, 20, 10, 10, 10, 14, 12, 12, 9, 10, 14, 12, 20, 12, 12, 20});
  sheet.text(0, 0,
             "Tenants: latency, SLA and monthly chargeback by reservation and by usage (each model's charges add up "
             "to the strategy's monthly cost on Costs)",
             f.title);
  sheet.text(1, 0,
             "In use: chargeback " + chargeback_model_text(report.costs.chargeback_model) +
                 ". Each share is its weight over its strategy's; reserved capacity is priced per GPU-hour.");
  sheet.headers(kTenantHeaderRow,
                {"Strategy", "Tenant", "p50 (s)", "p95 (s)", "p99 (s)", "SLA target (s)", "Violations", "Allowed",
                 "SLA met", "Reserved GPUs", currency + " per hour reserved", "Share by reservation",
                 std::string("Chargeback by reservation") + (reservation ? " (in use)" : ""), "GPU work (s)",
                 "Share by usage", std::string("Chargeback by usage") + (reservation ? "" : " (in use)")},
                f.header);
  std::vector<const pricing::TenantCharge*> charges;
  std::vector<std::size_t> strategies;
  for (const auto& t : report.tenants) {
    std::size_t s = 0;
    charges.push_back(find_charge(report.costs, t, s));
    strategies.push_back(s);
  }
  for (std::size_t i = 0; i < report.tenants.size(); ++i) {
    const auto& t = report.tenants[i];
    const auto row = kTenantHeaderRow + 1 + static_cast<lxw_row_t>(i);
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
    write_tenant_charges(sheet, report, m, f, charges, strategies, i);
  }
  worksheet_freeze_panes(sheet.raw(), kTenantHeaderRow + 1, 0);
}

}  // namespace slicewise::report::xlsx
