// The ROI report as documents, drawn offscreen: a self-contained HTML page (figures as inline SVG),
// a PDF (report_pdf.cpp: a QTextDocument paginated onto QPdfWriter pages, figures drawn as vectors
// in its flow), and Markdown with SVG figure files. Both HTML and PDF lay out the body of
// report_body.cpp; the figures themselves are drawn in figure_painter.cpp.
//
// Layout rules (docs/reports.md): table cells never wrap, headers wrap at spaces only, and a table
// wider than the page is split into several that each repeat its key columns (strategy, tenant;
// a sweep's point and swept values). In the PDF a figure, its title and caption are one object
// that moves whole to the next page when it does not fit, headings stay with what follows them,
// and nothing else breaks a page but the appendix.
#include "report/render/report_render.hpp"

#include <string>

#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "report/render/bar_chart.hpp"
#include "report/render/figure_painter.hpp"
#include "report/render/report_body.hpp"
#include "report/render/report_pdf.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"
#include "report/xlsx_report.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::RoiReport;

QString qs(const std::string& text) { return QString::fromStdString(text); }
std::string esc(const std::string& text) { return report::escape_markup(text); }

// ---- HTML ----

std::string strip_xml_prolog(const std::string& svg) {
  const auto start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

/// The HTML's tables: its 13-pixel text in a column at most 1,000 pixels wide, 8 pixels of padding a
/// side and a border per cell.
TableFit html_table_fit() {
  QFont cell_font("DejaVu Sans");
  cell_font.setPixelSize(13);
  QFont header_font = cell_font;
  header_font.setBold(true);
  return {cell_font, header_font, 20.0, 996.0};
}

}  // namespace

ReportFormat report_format_from(const std::string& name, const std::string& where) {
  std::string n = name;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!n.empty() && n[0] == '.') n.erase(0, 1);
  if (n == "md" || n == "markdown") return ReportFormat::markdown;
  if (n == "html" || n == "htm") return ReportFormat::html;
  if (n == "pdf") return ReportFormat::pdf;
  if (n == "xlsx") return ReportFormat::xlsx;
  throw ConfigError(where, "", "unknown report format " + quoted_excerpt(name) + "; expected md|html|pdf|xlsx");
}

std::string figure_svg(const RoiReport& r, const Figure& figure, int width, int height) {
  ensure_qt_application();
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(QSize(width, height));
  generator.setViewBox(QRect(0, 0, width, height));
  // QSvgGenerator writes its title into <title> as given (Qt 6.4): escaped here, or a strategy named
  // "</title><script>..." would put a live script into the HTML report.
  generator.setTitle(qs(esc(figure.title)));
  QPainter painter;
  if (!painter.begin(&generator)) throw Error("cannot draw figure " + figure.id);
  draw_figure(r, figure, painter, QRectF(0, 0, width, height));
  painter.end();
  return buffer.data().toStdString();
}

std::string report_html(const RoiReport& r) {
  ensure_qt_application();  // the tables measure their text with Qt's fonts
  const auto figures = report_figures(r);
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + esc(r.title) +
      "</title>\n<style>\n"
      "body { font-family: 'DejaVu Sans', Arial, sans-serif; max-width: 1000px; margin: 2em auto; color: #222; "
      "font-size: 14px; line-height: 1.45; }\n"
      "h1 { font-size: 1.7em; } h2 { color: #1f3b57; border-bottom: 1px solid #cdd6df; margin-top: 1.8em; }\n"
      ".table-wrap { overflow-x: auto; }\n"
      "table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }\n"
      "th, td { border: 1px solid #cdd6df; padding: 3px 8px; } th { background: #e8edf2; }\n"
      ".num { text-align: right; } td.num { white-space: nowrap; }\n"
      "td.missed { color: #a01010; } .sub, .caption { color: #666; } .rec { font-size: 1.15em; color: #0b5d1e; }\n"
      "figure { margin: 0; } svg { max-width: 100%; height: auto; }\n"
      "</style>\n</head>\n<body>\n";
  html += body_html(
      r, figures,
      [&](const Figure& f) {
        return "<h3>" + esc(f.title) + "</h3>\n<figure id=\"figure-" + f.id + "\">" +
               strip_xml_prolog(figure_svg(r, f, kFigureWidth, figure_height(r, f))) +
               "</figure>\n<p class=\"caption\">" + esc(f.caption) + "</p>\n";
      },
      html_table_fit(), false);
  return html + "</body>\n</html>\n";
}

void write_report(const RoiReport& r, ReportFormat format, const std::filesystem::path& out) {
  switch (format) {
    case ReportFormat::markdown: {
      auto figures = report_figures(r);
      const std::string folder_name = out.stem().string() + "-figures";
      const auto folder = out.parent_path() / folder_name;
      // The report and its figures as one output: all of them, or none and no figures folder.
      std::vector<OutputFile> files;
      for (auto& f : figures) {
        files.push_back({folder / (f.id + ".svg"), figure_svg(r, f, kFigureWidth, figure_height(r, f))});
        f.file = folder_name + "/" + f.id + ".svg";
      }
      files.push_back({out, report::roi_report_markdown(r, figures)});
      write_files_atomically(files);
      return;
    }
    case ReportFormat::html: write_file_atomically(out, report_html(r)); return;
    case ReportFormat::pdf: write_pdf(r, out); return;
    case ReportFormat::xlsx: report::write_roi_xlsx(r, out); return;
  }
}

}  // namespace slicewise::render
