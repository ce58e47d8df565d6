// The ROI report as documents, drawn offscreen: a self-contained HTML page (figures as inline SVG),
// a PDF (a QTextDocument paginated onto QPdfWriter pages, figures drawn as vectors in its flow),
// and Markdown with SVG figure files. The figures themselves are drawn in figure_painter.cpp.
//
// Layout rules (docs/reports.md): table cells never wrap, headers wrap at spaces only, and a table
// wider than the page is split into several that each repeat its key columns (strategy, tenant;
// a sweep's point and swept values). In the PDF a figure, its title and caption are one object
// that moves whole to the next page when it does not fit, headings stay with what follows them,
// and nothing else breaks a page but the appendix.
#include "report/render/report_render.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <sstream>

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFontMetricsF>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>

#include "core/atomic_output.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "report/render/bar_chart.hpp"
#include "report/render/figure_painter.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"
#include "report/xlsx_report.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::ReportTable;
using report::RoiReport;

QString qs(const std::string& text) { return QString::fromStdString(text); }
std::string esc(const std::string& text) { return report::escape_markup(text); }

// ---- Tables that fit their page ----

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
  return QFontMetricsF(font, &measuring_device()).horizontalAdvance(qs(text));
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
    for (auto& line : lines) line = esc(line);
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
  return std::string(numeric ? "<th class=\"num\">" : "<th>") + esc(t.columns[c]) + "</th>";
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
  return open + esc(cell) + "</td>";
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

/// Table `t` under its heading (`heading`: "h2", "h3"; `heading_style` its inline style, if any)
/// and intro, split into parts that fit `fit.width`.
std::string table_block_html(const ReportTable& t, const TableFit& fit, bool pdf, const std::string& heading,
                             const std::string& heading_style = "") {
  std::string html = "<" + heading + (heading_style.empty() ? "" : " style=\"" + heading_style + "\"") + ">" +
                     esc(t.title) + "</" + heading + ">\n";
  if (!t.intro.empty()) html += "<p>" + esc(t.intro) + "</p>\n";
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
    if (g > 0) html += "<p class=\"sub\">" + esc(t.title) + ", continued</p>\n";
    html += table_html(t, groups[g], table_fit, pdf);
  }
  return html;
}

/// Every table under its heading and intro, then the sections (availability, MIG schedule): their
/// paragraphs, tables under a smaller heading, and notes as a list.
std::string tables_html(const RoiReport& r, const TableFit& fit, bool pdf) {
  std::string html;
  for (const auto& t : report_tables(r)) html += table_block_html(t, fit, pdf, "h2");
  for (const auto& section : report::report_sections(r)) {
    html += "<h2>" + esc(section.title) + "</h2>\n";
    for (const auto& paragraph : section.paragraphs) html += "<p>" + esc(paragraph) + "</p>\n";
    for (const auto& t : section.tables) html += table_block_html(t, fit, pdf, "h3");
    if (section.notes.empty()) continue;
    html += "<ul>\n";
    for (const auto& note : section.notes) html += "<li>" + esc(note) + "</li>\n";
    html += "</ul>\n";
  }
  return html;
}

// ---- The body shared by HTML and PDF ----

/// The executive summary: the recommendation, its sentences, and where its figures come from.
std::string summary_html(const RoiReport& r) {
  std::string html = "<h2>Executive summary</h2>\n";
  if (!r.answer.empty()) html += "<p class=\"answer\"><b>The answer:</b> " + esc(r.answer) + "</p>\n";
  if (const std::string headline = report::recommended_headline(r); !headline.empty()) {
    const auto& best = r.strategies[static_cast<std::size_t>(r.recommended)];
    html += "<p class=\"rec\"><b>" + esc(headline) + "</b> — monthly savings " +
            esc(report::format_usd(best.monthly_savings_usd)) + ", annual " +
            esc(report::format_usd(best.annual_savings_usd, 0)) + "</p>\n";
  }
  html += "<ul class=\"summary\">\n";
  if (!r.recommendation.empty()) html += "<li>" + esc(r.recommendation) + "</li>\n";
  if (!r.sweep_savings.empty()) {
    html += "<li>Across the points:<ul>\n";
    for (const auto& sentence : r.sweep_savings) html += "<li>" + esc(sentence) + "</li>\n";
    html += "</ul></li>\n";
  }
  for (const std::string* sentence : {&r.savings, &r.sla_risk, &r.rejected, &r.scope}) {
    if (!sentence->empty()) html += "<li>" + esc(*sentence) + "</li>\n";
  }
  html += "</ul>\n<h3>Where these figures come from</h3>\n<ul class=\"provenance\">\n";
  for (const auto& line : report::provenance_lines(r)) html += "<li>" + esc(line) + "</li>\n";
  return html + "</ul>\n";
}

/// The body shared by HTML and PDF. `figure_markup` gives each figure's markup (title, drawing,
/// caption); `pdf` uses the markup QTextDocument understands and starts the appendix on a page.
std::string body_html(const RoiReport& r, const std::vector<Figure>& figures,
                      const std::function<std::string(const Figure&)>& figure_markup, const TableFit& fit, bool pdf) {
  std::string html = "<h1>" + esc(r.title) + "</h1>\n";
  html += "<p class=\"sub\">" +
          esc(r.costs.table + " prices as of " + r.costs.as_of + " · calibration " +
              (r.result.calibration.profile_id.empty() ? "none" : r.result.calibration.profile_id) + " · seed " +
              std::to_string(r.result.seed)) +
          "</p>\n";
  html += summary_html(r);
  html += tables_html(r, fit, pdf);
  html += "<h2>Figures</h2>\n";
  for (const auto& f : figures) html += figure_markup(f);
  html += "<h2>Assumptions and provenance</h2>\n";
  if (!r.description.empty()) html += "<p>Scenario: " + esc(r.description) + "</p>\n";
  html += "<ul>\n";
  for (const auto& line : r.assumptions) html += "<li>" + esc(line) + "</li>\n";
  html += "</ul>\n<h2>Methodology</h2>\n";
  for (const auto& paragraph : r.methodology) html += "<p>" + esc(paragraph) + "</p>\n";
  // The appendices start on a page of their own in the PDF.
  const std::string page_break = pdf ? "page-break-before: always" : "";
  html += table_block_html(report::workload_sources_table(r), fit, pdf, "h2", page_break);
  if (!r.deploy_configs.empty()) {
    html += std::string("<h2") + (pdf ? " style=\"page-break-before: always\"" : "") +
            ">Appendix: deployable configs</h2>\n<p>" + esc(report::appendix_intro(r)) + "</p>\n";
    // The files and what each does, not their text (6 of 13 pages of YAML in a budget review).
    html += "<ul class=\"files\">\n";
    for (const auto& file : r.deploy_configs) {
      html += "<li><code>" + esc(file.name) + "</code>: " + esc(report::config_file_purpose(file.name)) + "</li>\n";
    }
    html += "</ul>\n";
  }
  html +=
      "<p class=\"sub\">Generated by slicewise. Every figure can be reproduced from the result file and the "
      "price table named above.</p>\n";
  return html;
}

// ---- PDF ----

/// Logical width the PDF's figures are drawn at, scaled to the text width: wide enough for Qt
/// Charts to lay out the latency panels two to a row without eliding their labels.
constexpr double kPdfFigureWidth = 800.0;
/// Room under the text for the page number.
constexpr double kFooterPx = 24.0;

/// Marker text standing for a figure in the PDF's HTML, replaced by its object after parsing.
std::string figure_marker(const Figure& f) { return "[[figure:" + f.id + "]]"; }

/// The PDF's figures as objects of its QTextDocument: each a title, the figure drawn as vectors by
/// draw_figure() (so its labels are text in the PDF and nothing is cut off), and its caption, laid
/// out as one tall character that moves whole to the next page. A QObject subclass that answers
/// qt_metacast for QTextObjectInterface itself, which moc does for a Q_INTERFACES class: sw_render
/// runs no moc, and registerHandler() finds the interface through qobject_cast.
class FigureObjects : public QObject, public QTextObjectInterface {
 public:
  static constexpr int kObjectType = QTextFormat::UserObject + 1;
  static constexpr int kFigureIndex = QTextFormat::UserProperty + 1;

  /// `width` wide, at most `max_height` tall, measured on `device` (the PDF writer).
  FigureObjects(const RoiReport& r, const std::vector<Figure>& figures, double width, double max_height,
                const QPaintDevice* device)
      : report_(r), figures_(figures), width_(width), title_font_("DejaVu Sans"), caption_font_("DejaVu Sans") {
    title_font_.setPointSizeF(9.0);
    title_font_.setBold(true);
    caption_font_.setPointSizeF(8.0);
    const double scale = width / kPdfFigureWidth;
    title_height_ = QFontMetricsF(title_font_, device).height() + 6.0;
    for (const auto& f : figures) {
      const double caption = QFontMetricsF(caption_font_, device)
                                 .boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, qs(f.caption))
                                 .height() +
                             8.0;
      // The figure's own proportions at kFigureWidth, shorter when the page cannot hold them.
      const double wanted = figure_height(r, f) * kPdfFigureWidth / kFigureWidth * scale;
      const double drawing = std::max(40.0, std::min(wanted, max_height - title_height_ - caption - 8.0));
      drawing_heights_.push_back(drawing);
      caption_heights_.push_back(caption);
      sizes_.emplace_back(width, title_height_ + drawing + caption);
    }
  }

  /// Puts each figure's object where its marker is.
  void insert_into(QTextDocument& document) const {
    for (std::size_t i = 0; i < figures_.size(); ++i) {
      QTextCursor cursor = document.find(qs(figure_marker(figures_[i])));
      if (cursor.isNull()) continue;
      QTextCharFormat format;
      format.setObjectType(kObjectType);
      format.setProperty(kFigureIndex, static_cast<int>(i));
      cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
    }
  }

  QSizeF intrinsicSize(QTextDocument* /*document*/, int /*position*/, const QTextFormat& format) override {
    const auto i = index(format);
    return i < sizes_.size() ? sizes_[i] : QSizeF();
  }

  /// The page being painted, in document coordinates: a figure is drawn only on the page it starts
  /// on. Qt Charts replaces the painter's clip with its plot area, so a figure the layout asks for
  /// while painting the page above it (its block's margin starts there) was drawn below that
  /// page's footer, over the page's edge.
  void set_page(const QRectF& page) { page_ = page; }

  void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* /*document*/, int /*position*/,
                  const QTextFormat& format) override {
    const auto i = index(format);
    if (i >= figures_.size()) return;
    if (!page_.isNull() && (rect.top() < page_.top() - 0.5 || rect.top() >= page_.bottom())) return;
    const Figure& f = figures_[i];
    painter->save();
    painter->setPen(Qt::black);
    painter->setFont(title_font_);
    painter->drawText(QRectF(rect.left(), rect.top(), rect.width(), title_height_), Qt::AlignLeft | Qt::AlignVCenter,
                      qs(f.title));
    painter->save();
    const double scale = width_ / kPdfFigureWidth;
    painter->translate(rect.left(), rect.top() + title_height_);
    painter->scale(scale, scale);
    draw_figure(report_, f, *painter, QRectF(0.0, 0.0, kPdfFigureWidth, drawing_heights_[i] / scale));
    painter->restore();
    painter->setFont(caption_font_);
    painter->setPen(QColor(0x55, 0x55, 0x55));
    painter->drawText(
        QRectF(rect.left(), rect.top() + title_height_ + drawing_heights_[i] + 4.0, rect.width(), caption_heights_[i]),
        Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, qs(f.caption));
    painter->restore();
  }

  void* qt_metacast(const char* name) override {
    if (name && std::strcmp(name, qobject_interface_iid<QTextObjectInterface*>()) == 0)
      return static_cast<QTextObjectInterface*>(this);
    return QObject::qt_metacast(name);
  }

 private:
  static std::size_t index(const QTextFormat& format) {
    return static_cast<std::size_t>(std::max(0, format.intProperty(kFigureIndex)));
  }

  const RoiReport& report_;
  const std::vector<Figure>& figures_;
  double width_ = 0.0;
  QFont title_font_;
  QFont caption_font_;
  double title_height_ = 0.0;
  std::vector<double> drawing_heights_;
  std::vector<double> caption_heights_;
  std::vector<QSizeF> sizes_;
  QRectF page_;
};

/// A heading: what the HTML's h1-h3 became (their heading level, or their large bold text where
/// the importer sets no level).
bool is_heading(const QTextBlock& block) {
  if (block.blockFormat().headingLevel() > 0) return true;
  const auto fragment = block.begin();
  if (fragment.atEnd()) return false;
  const QTextCharFormat format = fragment.fragment().charFormat();
  return format.fontWeight() >= QFont::Bold && format.fontPointSize() >= 9.5;
}

/// Keeps each heading with what follows it: a heading that would end its page with less than the
/// next block (at most most of a page) and a little more under it starts the next page instead.
void keep_headings_with_next(QTextDocument& document, double page_height) {
  auto* layout = document.documentLayout();
  for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
    const QTextBlock next = block.next();
    if (!next.isValid() || !is_heading(block)) continue;
    const QRectF heading = layout->blockBoundingRect(block);
    const QRectF following = layout->blockBoundingRect(next);
    const double top_in_page = std::fmod(heading.top(), page_height);
    const double needed = heading.height() + std::min(following.height(), 0.6 * page_height) + 40.0;
    if (top_in_page > 1.0 && top_in_page + needed > page_height) {
      QTextBlockFormat format = block.blockFormat();
      format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
      QTextCursor(block).setBlockFormat(format);
    }
  }
}

/// Asks the layout for every block's place, which lays the whole document out now. Qt lays a
/// document out lazily; left to it, the blocks after the appendix's page break (or, in a longer
/// report, after the methodology) kept a height of 0 and never reached the PDF.
void lay_out_every_block(QTextDocument& document) {
  auto* layout = document.documentLayout();
  for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) layout->blockBoundingRect(block);
}

/// Draws `document` (paginated to `page`) page by page, each numbered "n / N" under it; `figures`
/// learns which page is being painted.
void paint_pages(QTextDocument& document, QPdfWriter& writer, QPainter& painter, const QSizeF& page,
                 FigureObjects& figures) {
  const int pages = document.pageCount();
  QFont footer_font("DejaVu Sans");
  footer_font.setPointSizeF(7.0);
  for (int i = 0; i < pages; ++i) {
    if (i > 0) writer.newPage();
    const QRectF view(0.0, i * page.height(), page.width(), page.height());
    figures.set_page(view);
    painter.save();
    painter.translate(0.0, -view.top());
    painter.setClipRect(view);
    QAbstractTextDocumentLayout::PaintContext context;
    context.clip = view;
    context.palette.setColor(QPalette::Text, Qt::black);
    document.documentLayout()->draw(&painter, context);
    painter.restore();
    painter.save();
    painter.setFont(footer_font);
    painter.setPen(QColor(0x66, 0x66, 0x66));
    painter.drawText(QRectF(0.0, page.height(), page.width(), kFooterPx), Qt::AlignRight | Qt::AlignBottom,
                     QString::number(i + 1) + " / " + QString::number(pages));
    painter.restore();
  }
}

/// The PDF's HTML: the shared body under styles QTextDocument understands, each figure a marker
/// paragraph that FigureObjects replaces.
std::string pdf_html(const RoiReport& r, const std::vector<Figure>& figures, const TableFit& fit) {
  return "<html><head><style>"
         "body { font-family: 'DejaVu Sans'; font-size: 8pt; } h1 { font-size: 16pt; } h2 { font-size: 12pt; "
         "color: #1f3b57; } h3 { font-size: 10pt; } th { background-color: #e8edf2; } pre { font-size: 7pt; } "
         ".sub { color: #666666; } .rec { font-size: 11pt; color: #0b5d1e; }"
         "</style></head><body>" +
         body_html(
             r, figures,
             [](const Figure& f) {
               return "<p style=\"margin-top: 6px; margin-bottom: 6px\">" + figure_marker(f) + "</p>\n";
             },
             fit, true) +
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

/// Lays the report out on the writer's pages and draws it: text and tables by QTextDocument,
/// paginated here (so that figures can be drawn by the document itself), figures as vectors.
void draw_pdf(const RoiReport& r, QPdfWriter& writer, QPainter& painter) {
  const auto figures = report_figures(r);
  // At 96 dpi the writer's pixels are the document's layout units, so CSS sizes keep their meaning.
  const QSizeF page(writer.width(), writer.height() - kFooterPx);
  QFont cell_font("DejaVu Sans");
  cell_font.setPointSizeF(8.0);
  QFont header_font = cell_font;
  header_font.setBold(true);
  // A column adds its padding (3 px a side), its border and a little slack to its text.
  const TableFit fit{cell_font, header_font, 10.0, page.width() - 4.0};
  // A figure is at most a page, less room for its paragraph's margins and line.
  FigureObjects objects(r, figures, page.width() - 2.0, page.height() - 40.0, &writer);
  QTextDocument document;
  document.documentLayout()->setPaintDevice(&writer);
  document.setDefaultFont(cell_font);
  document.setHtml(qs(pdf_html(r, figures, fit)));
  document.setDocumentMargin(0.0);
  document.setPageSize(page);
  lay_out_every_block(document);
  document.documentLayout()->registerHandler(FigureObjects::kObjectType, &objects);
  objects.insert_into(document);
  keep_headings_with_next(document, page.height());
  lay_out_every_block(document);
  paint_pages(document, writer, painter, page, objects);
}

/// Writes the PDF on A4 pages to `out` atomically (a unique temporary file beside it, checked to
/// its end, then renamed).
void write_pdf(const RoiReport& r, const std::filesystem::path& out) {
  ensure_qt_application();
  AtomicOutput file(out);
  file.close_for_library();
  {
    QPdfWriter writer(qs(file.temporary().string()));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setTitle(qs(r.title));
    writer.setCreator("slicewise");
    writer.setResolution(96);
    QPainter painter;
    if (!painter.begin(&writer)) file.fail("cannot draw the PDF");
    draw_pdf(r, writer, painter);
    painter.end();
  }
  if (!ends_as_pdf(file.temporary())) file.fail("the PDF was cut short (disk full?)");
  file.commit();
}

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
