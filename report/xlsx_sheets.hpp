// The sheets of the XLSX report: Summary, Inputs, Costs, Tenants and Provenance. Each writes its
// cells in a fixed order (shared strings are numbered in the order they are first written, so the
// order is part of the file). Internal to sw_report.
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

/// Each tenant's latency, SLA and chargeback under each strategy.
void write_tenants(Sheet& sheet, const RoiReport& report, const Model& m, const Formats& f);

/// How the workbook was made, the report's assumptions and methodology.
void write_provenance(Sheet& sheet, const RoiReport& report, const Formats& f);

}  // namespace slicewise::report::xlsx
