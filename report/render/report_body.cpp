// The ROI report's body as HTML, its tables fitted to the page (see report_body.hpp).
#include "report/render/report_body.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <QFontMetricsF>
#include <QImage>

#include "core/spell.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::ReportTable;
using report::RoiReport;

/// `fit` with fonts `points` large: a wide table tries it before it is split.
TableFit compact(const TableFit& fit, double points) {
  TableFit smaller = fit;
  smaller.cell_font.setPointSizeF(points);
  smaller.header_font.setPointSizeF(points);
  smaller.font_pt = points;
  return smaller;
}

/// The inline style a PDF cell adds for `fit`'s font size ("" for the document's).
std::string font_style(const TableFit& fit) {
  if (fit.font_pt <= 0.0) return "";
  char text[32];
  std::snprintf(text, sizeof text, "; font-size: %gpt", fit.font_pt);
  return text;
}

/// A paint device at 96 dpi (the PDF's resolution) to measure text on.
const QPaintDevice& measuring_device() {
  static const QImage device = [] {
    QImage image(1, 1, QImage::Format_RGB32);
    image.setDotsPerMeterX(3780);  // 96 dpi
    image.setDotsPerMeterY(3780);
    return image;
  }();
  return device;
}

double text_width(const QFont& font, const std::string& text) {
  return QFontMetricsF(font, &measuring_device()).horizontalAdvance(QString::fromStdString(text));
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

bool wraps(const ReportTable& t, std::size_t c) { return c < t.wrap.size() && t.wrap[c]; }

/// The widest cell of column `c`: cells never wrap, but in a column of free text (ReportTable::wrap)
/// which wraps at spaces, and is then as narrow as its widest word.
double widest_cell(const ReportTable& t, std::size_t c, const TableFit& fit) {
  double width = 0.0;
  for (const auto& row : t.rows) {
    if (c >= row.size()) continue;
    if (!wraps(t, c)) {
      width = std::max(width, text_width(fit.cell_font, row[c]));
      continue;
    }
    for (const auto& word : words_of(row[c])) width = std::max(width, text_width(fit.cell_font, word));
  }
  return width;
}

/// The narrowest column `c` can be: its widest cell or its header's widest word, as headers wrap at
/// spaces only.
double column_width(const ReportTable& t, std::size_t c, const TableFit& fit) {
  double width = widest_cell(t, c, fit);
  for (const auto& word : words_of(t.columns[c])) width = std::max(width, text_width(fit.header_font, word));
  return width + fit.cell_extra;
}

/// Column `c`'s header on as few lines as fit its narrowest width, broken at spaces: the PDF's
/// headers are laid out on the lines given (Qt would otherwise break a word anywhere).
std::vector<std::string> header_lines(const ReportTable& t, std::size_t c, const TableFit& fit) {
  const double width = column_width(t, c, fit) - fit.cell_extra;
  std::vector<std::string> lines;
  for (const auto& word : words_of(t.columns[c])) {
    if (!lines.empty() && text_width(fit.header_font, lines.back() + " " + word) <= width) {
      lines.back() += " " + word;
    } else {
      lines.push_back(word);
    }
  }
  return lines;
}

/// The headers' markup for a part with `columns`: each on one line when the part is that wide and
/// still fits, else each on the lines header_lines() gives.
std::vector<std::string> headers_markup(const ReportTable& t, const std::vector<std::size_t>& columns,
                                        const TableFit& fit) {
  double one_line = 0.0;
  for (const std::size_t c : columns) {
    one_line += std::max(widest_cell(t, c, fit), text_width(fit.header_font, t.columns[c])) + fit.cell_extra;
  }
  std::vector<std::string> headers(t.columns.size());
  for (const std::size_t c : columns) {
    std::vector<std::string> lines =
        one_line <= fit.width ? std::vector<std::string>{t.columns[c]} : header_lines(t, c, fit);
    for (auto& line : lines) line = report::escape_markup(line);
    headers[c] = join(lines, "<br>");
  }
  return headers;
}

/// The leading columns every part of a split table repeats: a sweep's point and swept values (its
/// columns before the first number), else its strategy and tenant columns.
std::size_t key_columns(const ReportTable& t) {
  std::size_t keys = 0;
  if (t.id == "sweep") {
    while (keys < t.columns.size() && !t.numeric[keys]) ++keys;
    return std::clamp<std::size_t>(keys, 1, std::max<std::size_t>(1, t.columns.size() - 1));
  }
  while (keys < t.columns.size() && (t.columns[keys] == "strategy" || t.columns[keys] == "tenant")) ++keys;
  return std::max<std::size_t>(keys, 1);
}

/// The columns of each part of `t`: all of them when the table fits `fit.width`, else parts that
/// fit, each the key columns followed by as many others as fit, in order.
std::vector<std::vector<std::size_t>> column_groups(const ReportTable& t, const TableFit& fit) {
  std::vector<double> widths;
  for (std::size_t c = 0; c < t.columns.size(); ++c) widths.push_back(column_width(t, c, fit));
  const std::size_t keys = std::min(key_columns(t), t.columns.size());
  std::vector<std::size_t> key_set;
  double key_width = 0.0;
  for (std::size_t c = 0; c < keys; ++c) {
    key_set.push_back(c);
    key_width += widths[c];
  }
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::size_t> group = key_set;
  double width = key_width;
  for (std::size_t c = keys; c < t.columns.size(); ++c) {
    if (group.size() > keys && width + widths[c] > fit.width) {
      groups.push_back(group);
      group = key_set;
      width = key_width;
    }
    group.push_back(c);
    width += widths[c];
  }
  groups.push_back(group);
  return groups;
}

/// A header cell. The PDF's says white-space: nowrap inline (Qt rich text then lays it out on the
/// lines given and sizes its column to them); the HTML's has a class.
std::string header_cell(const ReportTable& t, std::size_t c, const std::string& lines_markup, const TableFit& fit,
                        bool pdf) {
  const bool numeric = t.numeric[c];
  if (pdf) {
    return std::string("<th") + (numeric ? " align=\"right\"" : " align=\"left\"") + " style=\"white-space: nowrap" +
           font_style(fit) + "\">" + lines_markup + "</th>";
  }
  return std::string(numeric ? "<th class=\"num\">" : "<th>") + report::escape_markup(t.columns[c]) + "</th>";
}

/// A body cell: nowrap (but in a column of free text) and coloured inline in the PDF, by class in
/// the HTML (numbers and cells that say an SLA was missed or a point failed).
std::string body_cell(const std::string& cell, bool numeric, bool wrap, const TableFit& fit, bool pdf) {
  const bool missed = cell.find("missed") != std::string::npos || cell == "failed";
  std::string open = "<td>";
  if (pdf) {
    open = std::string("<td") + (numeric ? " align=\"right\"" : "") +
           " style=\"white-space: " + (wrap ? "normal" : "nowrap") + (missed ? "; color: #a01010" : "") +
           font_style(fit) + "\">";
  } else if (numeric || missed) {
    open = std::string("<td class=\"") + (numeric ? "num" : "") + (numeric && missed ? " " : "") +
           (missed ? "missed" : "") + "\">";
  }
  return open + report::escape_markup(cell) + "</td>";
}

/// One part of table `t`, the columns `columns`; the HTML's in a box that scrolls sideways.
std::string table_html(const ReportTable& t, const std::vector<std::size_t>& columns, const TableFit& fit, bool pdf) {
  std::string html = pdf ? "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<thead><tr>"
                         : "<div class=\"table-wrap\"><table>\n<thead><tr>";
  const auto headers = headers_markup(t, columns, fit);
  for (const std::size_t c : columns) html += header_cell(t, c, headers[c], fit, pdf);
  html += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    html += "<tr>";
    for (const std::size_t c : columns) {
      html += body_cell(c < row.size() ? row[c] : std::string(), t.numeric[c], wraps(t, c), fit, pdf);
    }
    html += "</tr>\n";
  }
  return html + (pdf ? "</tbody></table>\n" : "</tbody></table></div>\n");
}

/// The executive summary: the recommendation, its sentences, and where its figures come from.
std::string summary_html(const RoiReport& r) {
  std::string html = "<h2>Executive summary</h2>\n";
  if (!r.answer.empty()) html += "<p class=\"answer\"><b>The answer:</b> " + report::escape_markup(r.answer) + "</p>\n";
  if (const std::string headline = report::recommended_headline(r); !headline.empty()) {
    const auto& best = r.strategies[static_cast<std::size_t>(r.recommended)];
    html += "<p class=\"rec\"><b>" + report::escape_markup(headline) + "</b> — monthly savings " +
            report::escape_markup(report::format_usd(best.monthly_savings_usd)) + ", annual " +
            report::escape_markup(report::format_usd(best.annual_savings_usd, 0)) + "</p>\n";
  }
  html += "<ul class=\"summary\">\n";
  if (!r.recommendation.empty()) html += "<li>" + report::escape_markup(r.recommendation) + "</li>\n";
  if (!r.sweep_savings.empty()) {
    html += "<li>Across the points:<ul>\n";
    for (const auto& sentence : r.sweep_savings) html += "<li>" + report::escape_markup(sentence) + "</li>\n";
    html += "</ul></li>\n";
  }
  for (const std::string* sentence : {&r.savings, &r.sla_risk, &r.rejected, &r.scope}) {
    if (!sentence->empty()) html += "<li>" + report::escape_markup(*sentence) + "</li>\n";
  }
  html += "</ul>\n<h3>Where these figures come from</h3>\n<ul class=\"provenance\">\n";
  for (const auto& line : report::provenance_lines(r)) html += "<li>" + report::escape_markup(line) + "</li>\n";
  return html + "</ul>\n";
}

}  // namespace

std::string table_block_html(const ReportTable& t, const TableFit& fit, bool pdf, const std::string& heading,
                             const std::string& heading_style) {
  std::string html = "<" + heading + (heading_style.empty() ? "" : " style=\"" + heading_style + "\"") + ">" +
                     report::escape_markup(t.title) + "</" + heading + ">\n";
  if (!t.intro.empty()) html += "<p>" + report::escape_markup(t.intro) + "</p>\n";
  // In the PDF a table a little too wide is set a point smaller before it is split in parts.
  TableFit table_fit = fit;
  auto groups = column_groups(t, table_fit);
  if (pdf && groups.size() > 1) {
    const TableFit smaller = compact(fit, fit.cell_font.pointSizeF() - 1.0);
    if (auto fewer = column_groups(t, smaller); fewer.size() == 1) {
      table_fit = smaller;
      groups = std::move(fewer);
    }
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (g > 0) html += "<p class=\"sub\">" + report::escape_markup(t.title) + ", continued</p>\n";
    html += table_html(t, groups[g], table_fit, pdf);
  }
  return html;
}

std::string tables_html(const RoiReport& r, const TableFit& fit, bool pdf) {
  std::string html;
  for (const auto& t : report_tables(r)) html += table_block_html(t, fit, pdf, "h2");
  for (const auto& section : report::report_sections(r)) {
    html += "<h2>" + report::escape_markup(section.title) + "</h2>\n";
    for (const auto& paragraph : section.paragraphs) html += "<p>" + report::escape_markup(paragraph) + "</p>\n";
    for (const auto& t : section.tables) html += table_block_html(t, fit, pdf, "h3");
    if (section.notes.empty()) continue;
    html += "<ul>\n";
    for (const auto& note : section.notes) html += "<li>" + report::escape_markup(note) + "</li>\n";
    html += "</ul>\n";
  }
  return html;
}

std::string body_html(const RoiReport& r, const std::vector<Figure>& figures,
                      const std::function<std::string(const Figure&)>& figure_markup, const TableFit& fit, bool pdf) {
  std::string html = "<h1>" + report::escape_markup(r.title) + "</h1>\n";
  html += "<p class=\"sub\">" +
          report::escape_markup(r.costs.table + " prices as of " + r.costs.as_of + " · calibration " +
                                (r.result.calibration.profile_id.empty() ? "none" : r.result.calibration.profile_id) +
                                " · seed " + std::to_string(r.result.seed)) +
          "</p>\n";
  html += summary_html(r);
  html += tables_html(r, fit, pdf);
  html += "<h2>Figures</h2>\n";
  for (const auto& f : figures) html += figure_markup(f);
  html += "<h2>Assumptions and provenance</h2>\n";
  if (!r.description.empty()) html += "<p>Scenario: " + report::escape_markup(r.description) + "</p>\n";
  html += "<ul>\n";
  for (const auto& line : r.assumptions) html += "<li>" + report::escape_markup(line) + "</li>\n";
  html += "</ul>\n<h2>Methodology</h2>\n";
  for (const auto& paragraph : r.methodology) html += "<p>" + report::escape_markup(paragraph) + "</p>\n";
  // The appendices start on a page of their own in the PDF.
  const std::string page_break = pdf ? "page-break-before: always" : "";
  html += table_block_html(report::workload_sources_table(r), fit, pdf, "h2", page_break);
  if (!r.deploy_configs.empty()) {
    html += std::string("<h2") + (pdf ? " style=\"page-break-before: always\"" : "") +
            ">Appendix: deployable configs</h2>\n<p>" + report::escape_markup(report::appendix_intro(r)) + "</p>\n";
    // The files and what each does, not their text (6 of 13 pages of YAML in a budget review).
    html += "<ul class=\"files\">\n";
    for (const auto& file : r.deploy_configs) {
      html += "<li><code>" + report::escape_markup(file.name) +
              "</code>: " + report::escape_markup(report::config_file_purpose(file.name)) + "</li>\n";
    }
    html += "</ul>\n";
  }
  html +=
      "<p class=\"sub\">Generated by slicewise. Every figure can be reproduced from the result file and the "
      "price table named above.</p>\n";
  return html;
}

}  // namespace slicewise::render
