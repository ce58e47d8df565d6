// The sheets of the XLSX report: Summary, Inputs, Costs, Tenants, Sweep points (from a sweep
// folder), Charts and Provenance. Each writes its cells in a fixed order (shared strings are
// numbered in the order they are first written, so the order is part of the file). Internal to
// sw_report.
#pragma once

#include "report/roi_report.hpp"
#include "report/xlsx_model.hpp"
#include "report/xlsx_sheet.hpp"

namespace slicewise::report::xlsx {

/// Title, executive summary, and one row per strategy with its costs taken from Costs.
void write_summary(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// Hours per month, the price table's facts, hourly prices and instance counts: the inputs.
void write_inputs(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// Each cost line (count × price × hours), the baseline, and each strategy's totals and savings.
void write_costs(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// Each tenant's latency, SLA and chargeback under each strategy, by reservation and by usage:
/// weights as numbers, shares and charges as formulas (over the strategy's total on Costs).
void write_tenants(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// A sweep's every point (nothing without one): its swept values, then per strategy its GPUs,
/// monthly cost, savings and SLA verdict as the sweep recorded them, and its recommendation.
void write_sweep_points(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// Native charts: monthly cost and monthly savings per strategy (columns over the Costs totals) and,
/// for a sweep, each strategy's savings against the swept values (over Sweep points).
void write_charts(lxw_workbook* book, Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// How the workbook was made, the report's assumptions and methodology.
void write_provenance(Sheet& sheet, const RoiReport& report, const Formats& f);

}  // namespace slicewise::report::xlsx
