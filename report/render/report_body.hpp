// The ROI report's body as HTML, shared by the HTML page (report_render.cpp) and the PDF
// (report_pdf.cpp), with tables that fit their page (docs/reports.md): cells never wrap (but the
// free-text columns a table names), headers wrap at spaces only, a table too wide for the page
// first tries smaller fonts and is then split into several, each repeating its key columns.
// Internal to sw_render.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <QFont>

#include "report/roi_content.hpp"

namespace slicewise::render {

/// How a document's tables measure: their cells' fonts, what each column adds to its text
/// (padding, borders), and the width a table may take.
struct TableFit {
  QFont cell_font;
  QFont header_font;
  double cell_extra = 0.0;
  double width = 0.0;
  /// The PDF's cells say this font size inline when it is not the document's (0: the document's).
  double font_pt = 0.0;
};

/// Table `t` under its heading (`heading`: "h2", "h3"; `heading_style` its inline style, if any)
/// and intro, split into parts that fit `fit.width`.
std::string table_block_html(const report::ReportTable& t, const TableFit& fit, bool pdf, const std::string& heading,
                             const std::string& heading_style = "");

/// Every table under its heading and intro, then the sections (availability, MIG schedule): their
/// paragraphs, tables under a smaller heading, and notes as a list. `pdf`: as the PDF's
/// QTextDocument lays it out (cell fonts inline).
std::string tables_html(const report::RoiReport& r, const TableFit& fit, bool pdf);

/// The body shared by HTML and PDF: title, executive summary, tables, sections, figures,
/// assumptions, methodology and appendices. `figure_markup` gives each figure's markup (title,
/// drawing, caption); `pdf` uses the markup QTextDocument understands and starts the appendix on
/// a page.
std::string body_html(const report::RoiReport& r, const std::vector<report::Figure>& figures,
                      const std::function<std::string(const report::Figure&)>& figure_markup, const TableFit& fit,
                      bool pdf);

}  // namespace slicewise::render
