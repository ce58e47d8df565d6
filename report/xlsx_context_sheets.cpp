// The XLSX report's sheets around its money model: Energy, Availability, Sweep points, Charts and
// Provenance (xlsx_sheets.cpp writes Summary, Inputs, Costs and Tenants, whose cells the charts
// read).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/spell.hpp"
#include "report/energy_summary.hpp"
#include "report/roi_report.hpp"
#include "report/xlsx_sheets.hpp"

namespace slicewise::report::xlsx {

namespace {

/// "USD per month", the unit of every money axis.
std::string per_month(const CostReport& costs) {
  return (costs.currency.empty() ? "USD" : costs.currency) + " per month";
}

/// A chart of `type` with its title and axis titles.
lxw_chart* new_chart(lxw_workbook* book, const Sheet& sheet, uint8_t type, const std::string& title,
                     const std::string& x_title, const std::string& y_title) {
  lxw_chart* chart = workbook_add_chart(book, type);
  sheet.check_made(chart);
  chart_title_set_name(chart, title.c_str());
  chart_axis_set_name(chart->x_axis, x_title.c_str());
  chart_axis_set_name(chart->y_axis, y_title.c_str());
  return chart;
}

/// A series of `chart` over column `y` of rows `first` to `last` of `sheet_name`, against column `x`.
lxw_chart_series* add_series(lxw_chart* chart, const Sheet& sheet, const char* sheet_name, lxw_row_t first,
                             lxw_row_t last, lxw_col_t x, lxw_col_t y) {
  lxw_chart_series* series = chart_add_series(chart, nullptr, nullptr);
  sheet.check_made(series);
  chart_series_set_categories(series, sheet_name, first, x, last, x);
  chart_series_set_values(series, sheet_name, first, y, last, y);
  return series;
}

/// A column chart of one Costs column (1 monthly cost, 2 monthly savings) per strategy.
lxw_chart* costs_chart(lxw_workbook* book, const Sheet& sheet, const RoiReport& report, const Model& m,
                       lxw_col_t column, const std::string& title, const char* series_name) {
  lxw_chart* chart = new_chart(book, sheet, LXW_CHART_COLUMN, title, "Strategy", per_month(report.costs));
  auto* series = add_series(chart, sheet, kCostsSheet, m.totals.front().row, m.totals.back().row, 0, column);
  chart_series_set_name(series, series_name);
  chart_legend_set_position(chart, LXW_CHART_LEGEND_NONE);
  return chart;
}

/// The savings curve of a sweep: per strategy, its monthly savings at each point against the swept
/// value (a scatter chart when that is one numeric axis, else a line over the points in order).
lxw_chart* sweep_chart(lxw_workbook* book, const Sheet& sheet, const RoiReport& report, const SweepLayout& layout) {
  lxw_chart* chart = new_chart(book, sheet, layout.numeric_x ? LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS : LXW_CHART_LINE,
                               "Monthly savings per strategy across sweep " + report.sweep->name, layout.x_title,
                               per_month(report.costs));
  for (std::size_t s = 0; s < report.sweep->strategies.size(); ++s) {
    const auto col = layout.strategy_col(s);
    auto* series = add_series(chart, sheet, kSweepSheet, kSweepHeaderRow + 1, layout.last_row(), layout.x_col,
                              col + kSweepSavingsOffset);
    chart_series_set_name_range(series, kSweepSheet, kSweepStrategyRow, col);
  }
  chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
  return chart;
}

/// One point's row of the Sweep points sheet from column `col` on: each strategy's GPUs, monthly
/// cost, savings and SLA verdict (blank where the point lacks the strategy), then its recommendation.
void write_sweep_figures(Sheet& sheet, const SweepSection::Row& point, std::size_t num_strategies, lxw_row_t row,
                         const SweepLayout& layout, const Formats& f) {
  for (std::size_t s = 0; s < num_strategies && !point.failed; ++s) {
    const auto col = layout.strategy_col(s);
    if (s < point.num_gpus.size() && s < point.monthly_usd.size() && !std::isnan(point.monthly_usd[s])) {
      sheet.number(row, col, point.num_gpus[s]);
      sheet.number(row, col + 1, point.monthly_usd[s], f.money);
    }
    if (s < point.savings_usd.size() && !std::isnan(point.savings_usd[s])) {
      sheet.number(row, col + kSweepSavingsOffset, point.savings_usd[s], f.money);
      sheet.text(row, col + 3, s < point.sla_met.size() && point.sla_met[s] ? "yes" : "no");
    }
  }
  const std::string recommended = point.recommended.empty() ? "none" : point.recommended;
  sheet.text(row, layout.strategy_col(num_strategies), point.failed ? "failed" : recommended);
}

// The Energy sheet: the site's PUE and electricity price (inputs), then the strategies' table.
constexpr lxw_row_t kEnergyPueRow = 3;
constexpr lxw_row_t kEnergyPriceRow = 4;
constexpr lxw_row_t kEnergyHeaderRow = 6;

/// One strategy's row of the Energy sheet; kWh per month with PUE and electricity are formulas over
/// the inputs, cached as energy_summary computed them (in the same order).
void write_energy_row(Sheet& sheet, lxw_row_t row, const EnergyRow& e, const Formats& f) {
  sheet.text(row, 0, e.strategy);
  if (!e.energy) {
    sheet.text(row, 1, "no TDP in the GPU catalog for " + join(e.gpus_without_power, ", "));
    return;
  }
  const auto& r = *e.energy;
  sheet.number(row, 1, static_cast<double>(r.per_gpu.size()));
  sheet.number(row, 2, r.mean_power_w, f.tenths);
  sheet.number(row, 3, r.gpu_kwh, f.seconds);
  sheet.number(row, 4, r.monthly_kwh, f.tenths);
  sheet.formula(row, 5, cell(row, 4) + "*" + cell(kEnergyPueRow, 1, true), e.facility_monthly_kwh, f.tenths);
  sheet.formula(row, 6, cell(row, 5) + "*" + cell(kEnergyPriceRow, 1, true), e.electricity_monthly_usd, f.hundredths);
  sheet.number(row, 7, r.unused_gpus);
  sheet.number(row, 8, r.unused_idle_w, f.tenths);
}

/// The per GPU table of the Energy sheet from `row`: its header, then one row per used GPU.
void write_gpu_energy(Sheet& sheet, lxw_row_t row, const EnergySummary& summary, const Formats& f) {
  sheet.text(row++, 0, "Per GPU", f.bold);
  sheet.headers(row++,
                {"Strategy", "GPU index", "GPU", "SM utilisation", "Idle (W)", "Max (W)", "Idle estimated",
                 "Mean power (W)", "kWh (run)"},
                f.header);
  for (const auto& e : summary.rows) {
    if (!e.energy) continue;
    for (const auto& gpu : e.energy->per_gpu) {
      sheet.text(row, 0, e.strategy);
      sheet.number(row, 1, gpu.gpu_index);
      sheet.text(row, 2, gpu.gpu);
      sheet.number(row, 3, gpu.util_frac, f.pct);
      sheet.number(row, 4, gpu.idle_w, f.tenths);
      sheet.number(row, 5, gpu.max_w, f.tenths);
      sheet.text(row, 6, gpu.idle_estimated ? "yes" : "no");
      sheet.number(row, 7, gpu.mean_power_w, f.tenths);
      sheet.number(row, 8, gpu.kwh, f.seconds);
      ++row;
    }
  }
}

// The Availability sheet: the tenants' table from its header row on.
constexpr lxw_row_t kAvailabilityHeaderRow = 2;

/// A strategy's expected figures for `tenant`; nullptr when its record has none.
const scenario::TenantExposure* exposure_of(const scenario::FaultRecord& faults, const std::string& tenant) {
  for (const auto& e : faults.tenants) {
    if (e.name == tenant) return &e;
  }
  return nullptr;
}

/// One tenant's row of the Availability sheet: the run's figures, then the expected ones (blank
/// when the record has none for it).
void write_availability_row(Sheet& sheet, lxw_row_t row, const scenario::StrategyResult& s,
                            const scenario::TenantResult& t, const Formats& f) {
  sheet.text(row, 0, s.name);
  sheet.text(row, 1, t.name);
  sheet.number(row, 2, static_cast<double>(t.num_interruptions));
  sheet.number(row, 3, static_cast<double>(t.num_failed));
  sheet.number(row, 4, static_cast<double>(t.num_retried));
  sheet.number(row, 5, t.downtime_s, f.seconds);
  sheet.number(row, 6, t.availability, f.availability);
  if (const auto* e = exposure_of(*s.faults, t.name)) {
    sheet.number(row, 7, e->interruptions_per_month, f.per_month);
    sheet.number(row, 8, e->outage_hours_per_month, f.per_month);
    sheet.number(row, 9, e->availability, f.availability);
  }
}

/// The per strategy tables of the Availability sheet from `row`: the blast radius and
/// re-partitions, then the expected faults by kind.
void write_fault_summary(Sheet& sheet, lxw_row_t row, const scenario::SimResult& result, const Formats& f) {
  sheet.text(row++, 0, "Per strategy", f.bold);
  sheet.headers(row++,
                {"Strategy", "Faults (run)", "Blast radius (run, tenants per fault)", "Re-partitions (run)",
                 "Expected faults per month", "Blast radius (expected, tenants per fault)"},
                f.header);
  for (const auto& s : result.strategies) {
    if (!s.faults) continue;
    const auto& r = *s.faults;
    double faults = 0.0;
    for (const auto& e : r.events) faults += e.kind == "repartition" ? 0.0 : 1.0;
    double per_month = 0.0;
    for (const auto& e : r.expected) per_month += e.per_month;
    sheet.text(row, 0, s.name);
    sheet.number(row, 1, faults);
    sheet.number(row, 2, r.blast_radius_tenants, f.hundredths);
    sheet.number(row, 3, r.num_repartitions);
    sheet.number(row, 4, per_month, f.per_month);
    sheet.number(row, 5, r.expected_blast_radius, f.hundredths);
    ++row;
  }
  ++row;
  sheet.text(row++, 0, "Expected faults by kind", f.bold);
  sheet.headers(row++,
                {"Strategy", "Kind", "Per month", "Tenants hit per fault", "Contexts hit per fault", "Outage (s)"},
                f.header);
  for (const auto& s : result.strategies) {
    if (!s.faults) continue;
    for (const auto& e : s.faults->expected) {
      sheet.text(row, 0, s.name);
      sheet.text(row, 1, e.kind);
      sheet.number(row, 2, e.per_month, f.per_month);
      sheet.number(row, 3, e.tenants_hit, f.hundredths);
      sheet.number(row, 4, e.contexts_hit, f.hundredths);
      sheet.number(row, 5, e.outage_s, f.seconds);
      ++row;
    }
  }
}

}  // namespace

bool has_energy_sheet(const RoiReport& report) {
  return std::any_of(report.energy.rows.begin(), report.energy.rows.end(),
                     [](const EnergyRow& row) { return row.energy.has_value(); });
}

void write_energy(Sheet& sheet, const RoiReport& report, const Formats& f) {
  const auto& summary = report.energy;
  sheet.widths({30, 12, 16, 12, 16, 22, 26, 12, 16});
  sheet.text(0, 0, "Energy: the GPUs each strategy uses, over the run and over a 730-hour month", f.title);
  sheet.text(1, 0, energy_basis_text(summary));
  sheet.text(kEnergyPueRow, 0, "PUE");
  sheet.input(kEnergyPueRow, 1, summary.pue, f.input_number);
  sheet.text(kEnergyPueRow, 2, summary.site.empty() ? "no on-prem table" : "on-prem table " + summary.site);
  sheet.text(kEnergyPriceRow, 0, "Electricity (USD per kWh)");
  sheet.input(kEnergyPriceRow, 1, summary.usd_per_kwh, f.input_number);
  sheet.headers(kEnergyHeaderRow,
                {"Strategy", "GPUs used", "Mean power (W)", "kWh (run)", "kWh per month", "kWh per month with PUE",
                 "Electricity (USD per month)", "Unused GPUs", "Unused idle (W)"},
                f.header);
  lxw_row_t row = kEnergyHeaderRow + 1;
  for (const auto& e : summary.rows) write_energy_row(sheet, row++, e, f);
  write_gpu_energy(sheet, row + 1, summary, f);
  worksheet_freeze_panes(sheet.raw(), kEnergyHeaderRow + 1, 0);
}

bool has_availability_sheet(const RoiReport& report) {
  const auto& strategies = report.result.strategies;
  return std::any_of(strategies.begin(), strategies.end(),
                     [](const scenario::StrategyResult& s) { return s.faults.has_value(); });
}

void write_availability(Sheet& sheet, const RoiReport& report, const Formats& f) {
  sheet.widths({30, 26, 14, 12, 12, 14, 14, 18, 18, 14});
  sheet.text(0, 0,
             "Availability: per tenant, what the run saw and what the fault rates make expected per 730-hour month "
             "(docs/metrics.md, docs/faults.md)",
             f.title);
  sheet.text(1, 0,
             "Availability (run) = 1 - downtime / (horizon - warm-up); availability (expected) = 1 - outage hours "
             "per month / 730.");
  sheet.headers(kAvailabilityHeaderRow,
                {"Strategy", "Tenant", "Interruptions (run)", "Failed requests", "Retried requests", "Downtime (s)",
                 "Availability (run)", "Interruptions per month (expected)", "Outage hours per month (expected)",
                 "Availability (expected)"},
                f.header);
  lxw_row_t row = kAvailabilityHeaderRow + 1;
  for (const auto& s : report.result.strategies) {
    if (!s.faults) continue;
    for (const auto& t : s.tenants) write_availability_row(sheet, row++, s, t, f);
  }
  write_fault_summary(sheet, row + 1, report.result, f);
  worksheet_freeze_panes(sheet.raw(), kAvailabilityHeaderRow + 1, 0);
}

void write_sweep_points(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  if (!report.sweep || !m.sweep) return;
  const auto& sweep = *report.sweep;
  const auto& layout = *m.sweep;
  sheet.text(0, 0,
             "Sweep points: every point of sweep " + sweep.name +
                 " as the sweep recorded it; the other sheets detail point " + sweep.detail_point +
                 " with live formulas",
             f.title);
  std::vector<std::string> headers = {"Point"};
  headers.insert(headers.end(), sweep.axes.begin(), sweep.axes.end());
  if (sweep.axes.size() != 1) headers.emplace_back("Swept values");
  for (std::size_t s = 0; s < sweep.strategies.size(); ++s) {
    sheet.text(kSweepStrategyRow, layout.strategy_col(s), sweep.strategies[s], f.bold);
    headers.insert(headers.end(), {"GPUs", "Monthly cost", "Monthly savings", "SLA met"});
  }
  headers.emplace_back("Recommended");
  sheet.headers(kSweepHeaderRow, headers, f.header);
  for (std::size_t i = 0; i < sweep.rows.size(); ++i) {
    const auto& point = sweep.rows[i];
    const auto row = kSweepHeaderRow + 1 + static_cast<lxw_row_t>(i);
    sheet.text(row, 0, point.point);
    for (std::size_t a = 0; a < sweep.axes.size() && a < point.labels.size(); ++a) {
      const auto col = static_cast<lxw_col_t>(1 + a);
      if (const auto value = label_number(point.labels[a])) {
        sheet.number(row, col, *value);
      } else {
        sheet.text(row, col, point.labels[a]);
      }
    }
    if (sweep.axes.size() != 1) sheet.text(row, layout.x_col, axis_values(sweep.axes, point.labels));
    write_sweep_figures(sheet, point, sweep.strategies.size(), row, layout, f);
  }
  worksheet_freeze_panes(sheet.raw(), kSweepHeaderRow + 1, 1);
}

void write_charts(lxw_workbook* book, Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f) {
  sheet.text(0, 0,
             "Charts: drawn from the cells of Costs" + std::string(m.sweep ? " and Sweep points" : "") +
                 ", so that they follow any change on Inputs",
             f.title);
  if (m.totals.empty()) return;
  sheet.chart(2, 0, costs_chart(book, sheet, report, m, 1, "Monthly cost per strategy", "Monthly cost"));
  sheet.chart(2, 8,
              costs_chart(book, sheet, report, m, 2,
                          "Monthly savings per strategy against " +
                              (report.costs.baseline.empty() ? std::string("the baseline") : report.costs.baseline),
                          "Monthly savings"));
  if (report.sweep && m.sweep && m.sweep->num_points > 0 && !report.sweep->strategies.empty()) {
    sheet.chart(18, 0, sweep_chart(book, sheet, report, *m.sweep));
  }
}

void write_provenance(Sheet& sheet, const RoiReport& report, const Formats& f) {
  sheet.widths({120}, f.wrap);
  sheet.text(0, 0, "Provenance", f.title);
  lxw_row_t row = 2;
  sheet.text(row++, 0,
             "Inputs (prices, instance counts, hours per month) are the highlighted cells of the Inputs "
             "sheet; every cost, saving and chargeback is a formula over them. The values shown were "
             "computed by slicewise when the file was written; spreadsheets recalculate them on open.");
  sheet.text(row++, 0,
             "Chargeback in use: " + chargeback_model_text(report.costs.chargeback_model) +
                 ". The Tenants sheet gives both models: by reservation, each tenant's weight is the hourly price of "
                 "the capacity reserved for it; by usage, the GPU work of its completed requests.");
  ++row;
  sheet.text(row++, 0, "Assumptions", f.bold);
  for (const auto& line : report.assumptions) sheet.text(row++, 0, line);
  ++row;
  sheet.text(row++, 0, "Methodology", f.bold);
  for (const auto& paragraph : report.methodology) sheet.text(row++, 0, paragraph);
}

}  // namespace slicewise::report::xlsx
