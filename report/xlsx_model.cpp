// The XLSX report's layout: its prices, cost lines and totals, with the values their formulas give.
#include "report/xlsx_model.hpp"

#include "core/error.hpp"
#include "core/units.hpp"

namespace slicewise::report::xlsx {

namespace {

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

}  // namespace

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

}  // namespace slicewise::report::xlsx
