// The XLSX report's layout: its prices, cost lines and totals, with the values their formulas give.
#include "report/xlsx_model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

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
  prices.push_back({line.instance_type, line.region, line.usd_per_hour_each, {}});
  return prices.size() - 1;
}

/// `price` under every purchase option, from the report's priced items; the option in use at least.
void fill_option_prices(PriceRow& price, const RoiReport& report) {
  price.option_usd_per_hour[static_cast<std::size_t>(report.costs.option)] = price.usd_per_hour;
  const auto item = std::find_if(report.priced_items.begin(), report.priced_items.end(), [&](const PricedItem& p) {
    return p.name == price.instance_type && p.region == price.region && p.usd_per_hour == price.usd_per_hour;
  });
  if (item == report.priced_items.end()) return;
  for (std::size_t o = 0; o < item->option_usd_per_hour.size(); ++o) {
    if (item->option_usd_per_hour[o]) price.option_usd_per_hour[o] = item->option_usd_per_hour[o];
  }
}

/// The Sweep points sheet's columns: the point, one per axis, the swept values' text unless there
/// is exactly one axis (it is then the curve's x), each strategy's group, the recommendation.
SweepLayout sweep_layout(const SweepSection& sweep) {
  SweepLayout layout;
  layout.num_points = sweep.rows.size();
  const auto axes = static_cast<lxw_col_t>(sweep.axes.size());
  const bool one_axis = sweep.axes.size() == 1;
  layout.x_col = one_axis ? 1 : 1 + axes;
  layout.first_strategy_col = one_axis ? 2 : 2 + axes;
  layout.x_title = one_axis ? sweep.axes.front() : "Sweep point (swept values)";
  layout.numeric_x = one_axis && !sweep.rows.empty();
  for (const auto& row : sweep.rows) {
    layout.numeric_x = layout.numeric_x && !row.labels.empty() && label_number(row.labels.front());
  }
  return layout;
}

/// The sized baseline's instances, after the strategies' on Inputs, and its monthly cost as their
/// formula on Inputs computes it; with none, the cost the strategies were settled against.
void lay_out_sized_baseline(Model& m, const RoiReport& report) {
  const auto& strategies = report.costs.strategies;
  for (const auto& line : report.costs.baseline_lines)
    m.baseline_lines.push_back({0, &line, price_index(m.prices, line)});
  if (m.baseline_lines.empty()) {
    if (!strategies.empty()) {
      m.baseline_monthly_usd = strategies.front().monthly_usd + strategies.front().monthly_savings_usd;
    }
    return;
  }
  m.baseline_monthly_usd = 0.0;
  for (auto& l : m.baseline_lines) {
    l.monthly_usd = l.line->count * m.prices[l.price].usd_per_hour * kHoursPerMonth;
    m.baseline_monthly_usd += l.monthly_usd;  // the formula adds in row order
  }
}

}  // namespace

std::optional<double> label_number(const std::string& label) {
  if (label.empty() || std::isspace(static_cast<unsigned char>(label.front()))) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(label.c_str(), &end);
  if (end != label.c_str() + label.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

Model build_model(const RoiReport& report) {
  const auto& strategies = report.costs.strategies;
  SW_CHECK(report.strategies.size() == strategies.size(), "the report's strategies and costs differ in number");
  SW_CHECK(report.baseline < static_cast<int>(strategies.size()), "baseline index out of range");
  Model m;
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    for (const auto& line : strategies[s].lines) m.lines.push_back({s, &line, price_index(m.prices, line)});
  }
  m.sized_baseline = report.baseline < 0;
  if (m.sized_baseline) lay_out_sized_baseline(m, report);
  for (auto& price : m.prices) fill_option_prices(price, report);
  m.fleet_title_row = m.price_row(m.prices.size()) + 1;
  for (std::size_t i = 0; i < m.baseline_lines.size(); ++i) {
    m.baseline_lines[i].fleet_row = m.fleet_title_row + 2 + static_cast<lxw_row_t>(m.lines.size() + i);
  }
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
  if (!m.sized_baseline) m.baseline_monthly_usd = m.totals[static_cast<std::size_t>(report.baseline)].monthly_usd;
  for (auto& total : m.totals) {
    total.savings_usd = m.baseline_monthly_usd - total.monthly_usd;
    total.annual_savings_usd = total.savings_usd * kMonthsPerYear;
    total.savings_frac = m.baseline_monthly_usd > 0.0 ? total.savings_usd / m.baseline_monthly_usd : 0.0;
  }
  if (report.sweep) m.sweep = sweep_layout(*report.sweep);
  return m;
}

}  // namespace slicewise::report::xlsx
