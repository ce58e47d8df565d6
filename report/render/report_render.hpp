// The ROI report drawn with Qt offscreen: its figures (Qt Charts, and the MIG layout with
// QPainter), a self-contained HTML page, a PDF (QTextDocument on QPdfWriter), and the Markdown file
// with its figures as SVG files. The CLI and the GUI call the same functions, so both export the
// same document. Qt stays out of this header.
#pragma once

#include <filesystem>
#include <string>

#include "report/roi_content.hpp"

namespace slicewise::render {

enum class ReportFormat { markdown, html, pdf, xlsx };

/// "md" | "html" | "pdf" | "xlsx" (also from a file extension: ".md", ".markdown", ".htm"...);
/// throws ConfigError naming `where` when unknown.
ReportFormat report_format_from(const std::string& name, const std::string& where);

/// One figure as SVG text (width x height pixels).
std::string figure_svg(const report::RoiReport& report, const report::Figure& figure, int width = 900,
                       int height = 480);

/// The report as one self-contained HTML page (styles inline, figures as inline SVG).
std::string report_html(const report::RoiReport& report);

/// Writes the report in `format` to `out` atomically. Markdown also writes its figures as SVG files
/// into `<out stem>-figures/` next to it. Throws slicewise::Error when a file cannot be written.
void write_report(const report::RoiReport& report, ReportFormat format, const std::filesystem::path& out);

}  // namespace slicewise::render
