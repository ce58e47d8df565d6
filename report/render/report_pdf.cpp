// The ROI report as a PDF: its body (report_body.cpp) in a QTextDocument paginated onto QPdfWriter's
// A4 pages, figures drawn as vectors in its flow (see report_pdf.hpp).
#include "report/render/report_pdf.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <QAbstractTextDocumentLayout>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>

#include "core/atomic_output.hpp"
#include "core/json_file.hpp"
#include "report/render/bar_chart.hpp"
#include "report/render/figure_painter.hpp"
#include "report/render/report_body.hpp"
#include "report/roi_report.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::RoiReport;

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
      const double caption =
          QFontMetricsF(caption_font_, device)
              .boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, QString::fromStdString(f.caption))
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
      QTextCursor cursor = document.find(QString::fromStdString(figure_marker(figures_[i])));
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
                      QString::fromStdString(f.title));
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
        Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, QString::fromStdString(f.caption));
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
  document.setHtml(QString::fromStdString(pdf_html(r, figures, fit)));
  document.setDocumentMargin(0.0);
  document.setPageSize(page);
  lay_out_every_block(document);
  document.documentLayout()->registerHandler(FigureObjects::kObjectType, &objects);
  objects.insert_into(document);
  keep_headings_with_next(document, page.height());
  lay_out_every_block(document);
  paint_pages(document, writer, painter, page, objects);
}

}  // namespace

void write_pdf(const RoiReport& r, const std::filesystem::path& out) {
  ensure_qt_application();
  AtomicOutput file(out);
  file.close_for_library();
  {
    QPdfWriter writer(QString::fromStdString(file.temporary().string()));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setTitle(QString::fromStdString(r.title));
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

}  // namespace slicewise::render
