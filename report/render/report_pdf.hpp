// The ROI report as a PDF (docs/reports.md): A4 pages, a figure with its title and caption one
// object that moves whole to the next page when it does not fit, headings kept with what follows
// them, and no other page break but the appendix. Internal to sw_render (write_report).
#pragma once

#include <filesystem>

#include "report/roi_content.hpp"

namespace slicewise::render {

/// Writes the PDF of `r` to `out` atomically (a unique temporary file beside it, checked to its
/// end, then renamed).
void write_pdf(const report::RoiReport& r, const std::filesystem::path& out);

}  // namespace slicewise::render
