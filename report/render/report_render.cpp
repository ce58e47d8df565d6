// The ROI report as documents, drawn offscreen: a self-contained HTML page (figures as inline SVG),
// a PDF (QTextDocument on QPdfWriter, figures as images), and Markdown with SVG figure files. The
// figures themselves are drawn in figure_painter.cpp.
#include "report/render/report_render.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QUrl>

#include "core/atomic_output.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "report/render/bar_chart.hpp"
#include "report/render/figure_painter.hpp"
#include "report/text_table.hpp"
#include "report/xlsx_report.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::RoiReport;

QString qs(const std::string& text) { return QString::fromStdString(text); }

QImage figure_image(const RoiReport& r, const Figure& figure, int width, int height) {
  constexpr double kScale = 2.0;  // sharp when printed
  QImage image(static_cast<int>(width * kScale), static_cast<int>(height * kScale), QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.scale(kScale, kScale);
  draw_figure(r, figure, painter, QRectF(0, 0, width, height));
  painter.end();
  return image;
}

std::string table_html(const report::ReportTable& t, const char* table_attributes) {
  std::string html = "<table " + std::string(table_attributes) + ">\n<thead><tr>";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    html += std::string("<th") + (t.numeric[c] ? " align=\"right\"" : " align=\"left\"") + ">" +
            report::escape_markup(t.columns[c]) + "</th>";
  }
  html += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    html += "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool missed = row[c].find("missed") != std::string::npos || row[c] == "failed";
      html += std::string("<td") + (t.numeric[c] ? " align=\"right\"" : "") + (missed ? " class=\"missed\"" : "") +
              ">" + report::escape_markup(row[c]) + "</td>";
    }
    html += "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

/// The body shared by HTML and PDF. `figure_markup` gives each figure's markup; `pdf` adds page
/// breaks and uses the attributes QTextDocument understands.
std::string body_html(const RoiReport& r, const std::vector<Figure>& figures,
                      const std::function<std::string(const Figure&)>& figure_markup, bool pdf) {
  const char* table_attributes = pdf ? "border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\"" : "";
  const std::string page_break = pdf ? " style=\"page-break-before: always\"" : "";
  std::string html = "<h1>" + report::escape_markup(r.title) + "</h1>\n";
  html += "<p class=\"sub\">" +
          report::escape_markup(r.costs.table + " prices as of " + r.costs.as_of + " · calibration " +
                                (r.result.calibration.profile_id.empty() ? "none" : r.result.calibration.profile_id) +
                                " · seed " + std::to_string(r.result.seed)) +
          "</p>\n";
  html += "<h2>Executive summary</h2>\n";
  if (r.recommended >= 0) {
    const auto& best = r.strategies[static_cast<std::size_t>(r.recommended)];
    html += "<p class=\"rec\"><b>Recommended strategy: " + report::escape_markup(best.name) +
            "</b> — monthly savings " + report::escape_markup(report::format_usd(best.monthly_savings_usd)) +
            ", annual " + report::escape_markup(report::format_usd(best.annual_savings_usd, 0)) + "</p>\n";
  }
  html += "<ul class=\"summary\">\n<li>" + report::escape_markup(r.recommendation) + "</li>\n<li>" +
          report::escape_markup(r.savings) + "</li>\n<li>" + report::escape_markup(r.sla_risk) + "</li>\n" +
          (r.rejected.empty() ? std::string() : "<li>" + report::escape_markup(r.rejected) + "</li>\n") + "</ul>\n";
  const auto tables = report_tables(r);
  for (std::size_t i = 0; i < tables.size(); ++i) {
    // Page 1 holds the summary and the first table (the sweep overview, or the strategies); in the
    // PDF every other table starts a page, except the uncertainty bands under the tenants.
    const auto& t = tables[i];
    const bool new_page = pdf && i > 0 && t.id != "uncertainty";
    html += "<h2" + std::string(new_page ? page_break : "") + ">" + report::escape_markup(t.title) + "</h2>\n";
    if (!t.intro.empty()) html += "<p>" + report::escape_markup(t.intro) + "</p>\n";
    html += table_html(t, table_attributes);
  }
  html += "<h2" + page_break + ">Figures</h2>\n";
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const auto& f = figures[i];
    html += "<p" + std::string(pdf && i > 0 && i % 2 == 0 ? page_break : "") + "><b>" + report::escape_markup(f.title) +
            "</b></p>\n";
    html += "<p>" + figure_markup(f) + "</p>\n<p class=\"caption\">" + report::escape_markup(f.caption) + "</p>\n";
  }
  html += "<h2" + page_break + ">Assumptions and provenance</h2>\n";
  if (!r.description.empty()) html += "<p>Scenario: " + report::escape_markup(r.description) + "</p>\n";
  html += "<ul>\n";
  for (const auto& line : r.assumptions) html += "<li>" + report::escape_markup(line) + "</li>\n";
  html += "</ul>\n<h2>Methodology</h2>\n";
  for (const auto& paragraph : r.methodology) html += "<p>" + report::escape_markup(paragraph) + "</p>\n";
  if (!r.deploy_configs.empty()) {
    html += "<h2" + page_break + ">Appendix: deployable configs</h2>\n<p>" +
            report::escape_markup(report::appendix_intro(r)) + "</p>\n";
    for (const auto& file : r.deploy_configs) {
      if (file.name == "README.md") continue;
      html +=
          "<h3>" + report::escape_markup(file.name) + "</h3>\n<pre>" + report::escape_markup(file.text) + "</pre>\n";
    }
  }
  html +=
      "<p class=\"sub\">Generated by slicewise. Every figure can be reproduced from the result file and the "
      "price table named above.</p>\n";
  return html;
}

/// The PDF's HTML: the shared body under styles QTextDocument understands, each figure an image
/// resource "figure:<id>".
std::string pdf_html(const RoiReport& r, const std::vector<Figure>& figures) {
  return "<html><head><style>"
         "body { font-family: 'DejaVu Sans'; font-size: 8pt; } h1 { font-size: 16pt; } h2 { font-size: 12pt; "
         "color: #1f3b57; } h3 { font-size: 10pt; } th { background-color: #e8edf2; } td.missed { color: #a01010; } "
         ".sub { color: #666666; } .rec { font-size: 11pt; color: #0b5d1e; } .caption { color: #555555; }"
         "</style></head><body>" +
         body_html(
             r, figures,
             [&](const Figure& f) {
               // 640 px wide in the document's layout units: the full text width of an A4 page.
               const int height = 640 * figure_height(r, f) / kFigureWidth;
               return "<img src=\"figure:" + f.id + "\" width=\"640\" height=\"" + std::to_string(height) + "\">";
             },
             true) +
         "</body></html>";
}

/// True when the file at `path` ends a PDF: its last kilobyte holds the "%%EOF" marker. QPdfWriter
/// reports no write error, so a PDF cut short by a full disk is found this way.
bool ends_as_pdf(const std::filesystem::path& path) {
  std::string text;
  try {
    text = read_text_file(path);
  } catch (const std::exception&) {
    return false;
  }
  return text.rfind("%PDF-", 0) == 0 &&
         text.find("%%EOF", text.size() > 1024 ? text.size() - 1024 : 0) != std::string::npos;
}

/// Prints `document` on A4 pages to `out` atomically (a unique temporary file beside it, checked
/// to its end, then renamed).
void print_pdf(QTextDocument& document, const std::string& title, const std::filesystem::path& out) {
  AtomicOutput file(out);
  file.close_for_library();
  {
    QPdfWriter writer(qs(file.temporary().string()));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setTitle(qs(title));
    writer.setCreator("slicewise");
    // At 96 dpi the document's layout units are the writer's pixels, so margins and fonts keep their
    // sizes; the figures stay sharp because a PDF embeds each image at its own (2x) resolution.
    writer.setResolution(96);
    document.print(&writer);  // no page size set on the document: print() paginates and numbers pages
  }
  if (!ends_as_pdf(file.temporary())) file.fail("the PDF was cut short (disk full?)");
  file.commit();
}

void write_pdf(const RoiReport& r, const std::filesystem::path& out) {
  ensure_qt_application();
  const auto figures = report_figures(r);
  QTextDocument document;
  for (const auto& f : figures) {
    document.addResource(QTextDocument::ImageResource, QUrl(qs("figure:" + f.id)),
                         figure_image(r, f, kFigureWidth, figure_height(r, f)));
  }
  document.setHtml(qs(pdf_html(r, figures)));
  document.setDefaultFont(QFont("DejaVu Sans", 8));
  print_pdf(document, r.title, out);
}

std::string strip_xml_prolog(const std::string& svg) {
  const auto start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
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
  throw ConfigError(where, "", "unknown report format \"" + name + "\"; expected md|html|pdf|xlsx");
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
  generator.setTitle(qs(report::escape_markup(figure.title)));
  QPainter painter;
  if (!painter.begin(&generator)) throw Error("cannot draw figure " + figure.id);
  draw_figure(r, figure, painter, QRectF(0, 0, width, height));
  painter.end();
  return buffer.data().toStdString();
}

std::string report_html(const RoiReport& r) {
  const auto figures = report_figures(r);
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
      report::escape_markup(r.title) +
      "</title>\n<style>\n"
      "body { font-family: 'DejaVu Sans', Arial, sans-serif; max-width: 1000px; margin: 2em auto; color: #222; "
      "font-size: 14px; line-height: 1.45; }\n"
      "h1 { font-size: 1.7em; } h2 { color: #1f3b57; border-bottom: 1px solid #cdd6df; margin-top: 1.8em; }\n"
      "table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }\n"
      "th, td { border: 1px solid #cdd6df; padding: 3px 8px; } th { background: #e8edf2; }\n"
      "td.missed { color: #a01010; } .sub, .caption { color: #666; } .rec { font-size: 1.15em; color: #0b5d1e; }\n"
      "figure { margin: 0; } svg { max-width: 100%; height: auto; }\n"
      "</style>\n</head>\n<body>\n";
  html += body_html(
      r, figures,
      [&](const Figure& f) {
        return "<figure id=\"figure-" + f.id + "\">" +
               strip_xml_prolog(figure_svg(r, f, kFigureWidth, figure_height(r, f))) + "</figure>";
      },
      false);
  return html + "</body>\n</html>\n";
}

void write_report(const RoiReport& r, ReportFormat format, const std::filesystem::path& out) {
  switch (format) {
    case ReportFormat::markdown: {
      auto figures = report_figures(r);
      const std::string folder_name = out.stem().string() + "-figures";
      const auto folder = out.parent_path() / folder_name;
      std::error_code ec;
      std::filesystem::create_directories(folder, ec);
      if (ec || !std::filesystem::is_directory(folder)) {
        throw Error(out.string() + ": cannot create the figures folder " + folder.string() + ": " +
                    (ec ? ec.message() : std::string("a file of that name is in the way")));
      }
      for (auto& f : figures) {
        write_file_atomically(folder / (f.id + ".svg"), figure_svg(r, f, kFigureWidth, figure_height(r, f)));
        f.file = folder_name + "/" + f.id + ".svg";
      }
      write_file_atomically(out, report::roi_report_markdown(r, figures));
      return;
    }
    case ReportFormat::html: write_file_atomically(out, report_html(r)); return;
    case ReportFormat::pdf: write_pdf(r, out); return;
    case ReportFormat::xlsx: report::write_roi_xlsx(r, out); return;
  }
}

}  // namespace slicewise::render
