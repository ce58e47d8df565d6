// Where every figure of the XLSX report goes, and its cached value computed the way the cell's
// formula computes it (so that viewers that do not recalculate show what a spreadsheet would).
// Internal to sw_report.
#pragma once

#include <xlsxwriter.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/roi_content.hpp"

namespace slicewise::report::xlsx {

// Layout, zero-based rows. Inputs: hours per month in B3, the sized baseline (if any) in B9, then
// the price table and the fleet table (the sized baseline's instances last). Costs: cost lines from
// row 4, then the baseline cell and the per-strategy totals. Summary: the strategy table from row
// 14. Tenants: one row per tenant from row 4. Sweep points: strategy names in row 3, column headers
// in row 4, one row per point from row 5.
inline constexpr lxw_row_t kHoursRow = 2;
inline constexpr lxw_row_t kSizedBaselineRow = 8;
inline constexpr lxw_row_t kPriceTitleRow = 10;
/// Inputs: the purchase option (B7), a choice that switches every price.
inline constexpr lxw_row_t kOptionRow = kHoursRow + 4;
inline constexpr lxw_row_t kCostLineRow = 3;
inline constexpr lxw_row_t kSummaryHeaderRow = 12;
inline constexpr lxw_row_t kTenantHeaderRow = 2;
inline constexpr lxw_row_t kSweepStrategyRow = 2;
inline constexpr lxw_row_t kSweepHeaderRow = 3;

/// Sheet names that formulas and charts refer to.
inline constexpr const char* kCostsSheet = "Costs";
inline constexpr const char* kSweepSheet = "Sweep points";

/// Columns of each strategy on the Sweep points sheet, after its first: GPUs, monthly cost, monthly
/// savings, SLA met.
inline constexpr lxw_col_t kSweepColumnsPerStrategy = 4;
inline constexpr lxw_col_t kSweepSavingsOffset = 2;

/// One distinct hourly price on the Inputs sheet.
struct PriceRow {
  std::string instance_type;
  std::string region;
  double usd_per_hour = 0.0;  ///< under the report's purchase option
  /// Under each purchase option (on-demand, spot, 1- and 3-year reserved); nullopt where none.
  std::array<std::optional<double>, 4> option_usd_per_hour;
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

/// The Sweep points sheet of a report made from a sweep folder.
struct SweepLayout {
  std::size_t num_points = 0;        ///< one row each, from kSweepHeaderRow + 1
  lxw_col_t first_strategy_col = 0;  ///< strategy s's columns start at first + s × kSweepColumnsPerStrategy
  lxw_col_t x_col = 0;               ///< what the savings curve is drawn against: the axis, or the swept values' text
  bool numeric_x = false;            ///< one axis whose every value is a number: a scatter chart over it
  std::string x_title;               ///< the axis name, or "Sweep point (swept values)"

  lxw_col_t strategy_col(std::size_t s) const {
    return first_strategy_col + static_cast<lxw_col_t>(s) * kSweepColumnsPerStrategy;
  }
  lxw_row_t last_row() const { return kSweepHeaderRow + static_cast<lxw_row_t>(num_points); }
};

/// Where every figure goes and its cached value, computed the way the formulas compute it.
struct Model {
  std::vector<PriceRow> prices;
  std::vector<LineCell> lines;
  /// The sized baseline's instances (strategy unused, cost_row unused): their counts follow the
  /// strategies' on Inputs, and its monthly cost on Inputs is a formula over them.
  std::vector<LineCell> baseline_lines;
  std::vector<TotalCell> totals;  ///< per strategy, report order
  lxw_row_t fleet_title_row = 0;
  lxw_row_t baseline_row = 0;   ///< the baseline monthly cell on Costs (column B)
  bool sized_baseline = false;  ///< baseline held on Inputs, not simulated
  double baseline_monthly_usd = 0.0;
  std::optional<SweepLayout> sweep;  ///< only for a report made from a sweep folder

  lxw_row_t price_row(std::size_t i) const { return kPriceTitleRow + 2 + static_cast<lxw_row_t>(i); }
};

/// A sweep value label as a number ("4", "0.5"), nullopt when it is not one ("a100", "").
std::optional<double> label_number(const std::string& label);

/// Lays out `report`'s costs; the model points into report.costs, which must outlive it.
Model build_model(const RoiReport& report);

}  // namespace slicewise::report::xlsx
