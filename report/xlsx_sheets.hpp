// The sheets of the XLSX report: Summary, Inputs, Costs, Tenants, Energy (when a strategy's energy
// is known), Availability (when a strategy has faults or a layout schedule), Sweep points (from a
// sweep folder), Charts and Provenance. Each writes its cells in a fixed order (shared strings are
// numbered in the order they are first written, so the order is part of the file). Internal to
// sw_report.
#pragma once

#include "report/roi_content.hpp"
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

/// Whether the workbook has an Energy sheet: the energy of at least one strategy is known.
bool has_energy_sheet(const RoiReport& report);

/// The site's PUE and electricity price as inputs, per strategy its GPUs, mean power, kWh over the
/// run and per month, and (formulas over the inputs) per month with PUE and its electricity; then
/// per GPU its utilisation, power curve, mean power and kWh over the run.
void write_energy(Sheet& sheet, const RoiReport& report, const Formats& f);

/// Whether the workbook has an Availability sheet: a strategy of the result has a FaultRecord.
bool has_availability_sheet(const RoiReport& report);

/// Per strategy with faults and per tenant, the run's interruptions, failed and retried requests,
/// downtime and availability, and the expected interruptions, outage hours and availability per
/// month; then per strategy the blast radius and re-partitions, and the expected faults by kind.
void write_availability(Sheet& sheet, const RoiReport& report, const Formats& f);

/// A sweep's every point (nothing without one): its swept values, then per strategy its GPUs,
/// monthly cost, savings and SLA verdict as the sweep recorded them, and its recommendation.
void write_sweep_points(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// Native charts: monthly cost and monthly savings per strategy (columns over the Costs totals) and,
/// for a sweep, each strategy's savings against the swept values (over Sweep points).
void write_charts(lxw_workbook* book, Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// How the workbook was made, the report's assumptions and methodology.
void write_provenance(Sheet& sheet, const RoiReport& report, const Formats& f);

}  // namespace slicewise::report::xlsx
