// Where every figure of the XLSX report goes, and its cached value computed the way the cell's
// formula computes it (so that viewers that do not recalculate show what a spreadsheet would).
// Internal to sw_report.
#pragma once

#include <xlsxwriter.h>

#include <cstddef>
#include <string>
#include <vector>

#include "report/roi_report.hpp"

namespace slicewise::report::xlsx {

// Layout, zero-based rows. Inputs: hours per month in B3, the sized baseline (if any) in B9, then
// the price table and the fleet table. Costs: cost lines from row 4, then the baseline cell and
// the per-strategy totals. Summary: the strategy table from row 14.
inline constexpr lxw_row_t kHoursRow = 2;
inline constexpr lxw_row_t kSizedBaselineRow = 8;
inline constexpr lxw_row_t kPriceTitleRow = 10;
inline constexpr lxw_row_t kCostLineRow = 3;
inline constexpr lxw_row_t kSummaryHeaderRow = 12;

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

/// Lays out `report`'s costs; the model points into report.costs, which must outlive it.
Model build_model(const RoiReport& report);

}  // namespace slicewise::report::xlsx
