// The ROI report as an Excel workbook (libxlsxwriter). The inputs (prices, instance counts, hours
// per month) sit on one sheet and every cost and saving is a live formula over them, so that a
// reviewer can change a price and see the effect. docs/reports.md lists the sheets.
#pragma once

#include <filesystem>

#include "report/roi_content.hpp"

namespace slicewise::report {

/// Writes the workbook atomically (a temporary file in the same folder, then rename). Formulas
/// carry their computed values, so viewers that do not recalculate show the right figures.
/// Throws slicewise::Error when the file cannot be written.
void write_roi_xlsx(const RoiReport& report, const std::filesystem::path& out);

}  // namespace slicewise::report
