// Offscreen drawing of the ROI report: figures, HTML, PDF, Markdown with SVG figures.
#include "report/render/report_render.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QUrl>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "models/mig_catalog.hpp"
#include "report/render/bar_chart.hpp"
#include "report/render/figure_painter.hpp"
#include "report/text_table.hpp"
#include "report/xlsx_report.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::RoiReport;

QString qs(const std::string& text) { return QString::fromStdString(text); }

/// Renders a chart (taking ownership) into `target`. The view must be shown once for the chart
/// to lay out its labels (see bar_chart.cpp); in the GUI it must not appear on screen.
void paint_chart(QChart* chart, QPainter& painter, const QRectF& target) {
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setBackgroundRoundness(0);
  QChartView view(chart);
  view.setRenderHint(QPainter::Antialiasing);
  view.setAttribute(Qt::WA_DontShowOnScreen);  // shown for its layout, never on screen (the GUI)
  view.resize(target.size().toSize());
  view.show();
  QCoreApplication::processEvents();
  view.render(&painter, target);
}

QChart* bar_chart(const std::string& title, const std::vector<std::string>& categories,
                  const std::vector<std::pair<std::string, std::vector<double>>>& series, const std::string& axis_title) {
  auto* bars = new QBarSeries();
  double low = 0.0, high = 0.0;
  for (const auto& [name, values] : series) {
    auto* set = new QBarSet(qs(name));
    for (double value : values) {
      const double v = std::isnan(value) ? 0.0 : value;
      *set << v;
      low = std::min(low, v);
      high = std::max(high, v);
    }
    bars->append(set);
  }
  bars->setLabelsVisible(categories.size() * series.size() <= 12);
  bars->setLabelsFormat("@value");
  bars->setLabelsPrecision(6);
  auto* chart = new QChart();
  chart->addSeries(bars);
  chart->setTitle(qs(title));
  auto* x = new QBarCategoryAxis();
  for (const auto& category : categories) x->append(qs(category));
  chart->addAxis(x, Qt::AlignBottom);
  bars->attachAxis(x);
  auto* y = new QValueAxis();
  const double span = std::max(1.0, high - low);
  y->setRange(low < 0.0 ? low - 0.1 * span : 0.0, high + 0.1 * span);
  y->setLabelFormat("%.0f");
  y->applyNiceNumbers();
  y->setTitleText(qs(axis_title));
  chart->addAxis(y, Qt::AlignLeft);
  bars->attachAxis(y);
  chart->legend()->setVisible(series.size() > 1);
  chart->legend()->setAlignment(Qt::AlignBottom);
  return chart;
}

std::vector<std::string> strategy_names(const RoiReport& r) {
  std::vector<std::string> names;
  for (const auto& s : r.strategies) names.push_back(s.name);
  return names;
}

void draw_cost(const RoiReport& r, QPainter& painter, const QRectF& target, bool savings) {
  std::vector<double> values;
  for (const auto& s : r.strategies) values.push_back(savings ? s.monthly_savings_usd : s.monthly_usd);
  paint_chart(bar_chart(savings ? "Monthly savings against " + r.costs.baseline : "Monthly cost", strategy_names(r),
                        {{savings ? "savings" : "cost", values}}, r.costs.currency + " per month"),
              painter, target);
}

void draw_sweep_savings(const RoiReport& r, QPainter& painter, const QRectF& target) {
  const auto& sw = *r.sweep;
  std::vector<std::string> points;
  for (const auto& row : sw.rows) points.push_back(row.point);
  std::vector<std::pair<std::string, std::vector<double>>> series;
  for (std::size_t i = 0; i < sw.strategies.size(); ++i) {
    std::vector<double> values;
    for (const auto& row : sw.rows) values.push_back(row.failed ? 0.0 : row.savings_usd[i]);
    series.emplace_back(sw.strategies[i], values);
  }
  paint_chart(bar_chart("Monthly savings per sweep point", points, series, r.costs.currency + " per month"), painter, target);
}

/// Puts `x` under a line chart and a 0-100 % axis titled `y_title` beside it, attaches every line
/// to both, and the legend below the plot.
void add_percent_axes(QChart* chart, const std::vector<QLineSeries*>& lines, QAbstractAxis* x, const char* y_title) {
  auto* y = new QValueAxis();
  y->setRange(0.0, 100.0);
  y->setLabelFormat("%.0f");
  y->setTitleText(y_title);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto* line : lines) {
    line->attachAxis(x);
    line->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
}

void draw_latency_cdf(const RoiReport& r, QPainter& painter, const QRectF& target) {
  std::vector<std::string> tenants;
  for (const auto& s : r.result.strategies) {
    for (const auto& t : s.tenants) {
      if (std::find(tenants.begin(), tenants.end(), t.name) == tenants.end()) tenants.push_back(t.name);
    }
  }
  const int columns = tenants.size() > 1 ? 2 : 1;
  const int rows = static_cast<int>((tenants.size() + 1) / static_cast<std::size_t>(columns));
  const double w = target.width() / columns, h = target.height() / std::max(1, rows);
  for (std::size_t k = 0; k < tenants.size(); ++k) {
    auto* chart = new QChart();
    chart->setTitle(qs(tenants[k]));
    double low = 1e300, high = 0.0;
    std::vector<QLineSeries*> lines;
    for (const auto& s : r.result.strategies) {
      for (const auto& t : s.tenants) {
        if (t.name != tenants[k] || t.latency_cdf_s.size() != scenario::kLatencyCdfLevels.size()) continue;
        auto* line = new QLineSeries();
        line->setName(qs(s.name));
        for (std::size_t i = 0; i < t.latency_cdf_s.size(); ++i) {
          const double x = std::max(t.latency_cdf_s[i], 1e-6);
          line->append(x, 100.0 * scenario::kLatencyCdfLevels[i]);
          low = std::min(low, x);
          high = std::max(high, x);
        }
        chart->addSeries(line);
        lines.push_back(line);
      }
    }
    if (lines.empty()) low = 0.001, high = 1.0;
    QAbstractAxis* x = nullptr;
    if (high / low > 30.0) {
      auto* log = new QLogValueAxis();
      log->setBase(10.0);
      log->setLabelFormat("%g");
      log->setRange(low / 1.2, high * 1.2);
      x = log;
    } else {
      auto* linear = new QValueAxis();
      linear->setRange(0.0, high * 1.1);
      linear->setLabelFormat("%g");
      x = linear;
    }
    x->setTitleText("latency, s");
    add_percent_axes(chart, lines, x, "% of requests");
    const QRectF cell(target.left() + w * static_cast<double>(k % static_cast<std::size_t>(columns)),
                      target.top() + h * static_cast<double>(k / static_cast<std::size_t>(columns)), w, h);
    paint_chart(chart, painter, cell);
  }
}

void draw_utilization(const RoiReport& r, QPainter& painter, const QRectF& target) {
  auto* chart = new QChart();
  chart->setTitle("GPU busy fraction over time (mean over each strategy's devices)");
  double end = 0.0;
  std::vector<QLineSeries*> lines;
  const double horizon = r.result.horizon_s;
  const bool minutes = horizon > 1200.0;
  for (const auto& s : r.result.strategies) {
    const auto& busy = s.series.device_busy_frac;
    if (busy.empty()) continue;
    auto* line = new QLineSeries();
    line->setName(qs(s.name));
    std::size_t intervals = 0;
    for (const auto& device : busy) intervals = std::max(intervals, device.size());
    for (std::size_t i = 0; i < intervals; ++i) {
      double sum = 0.0;
      int n = 0;
      for (const auto& device : busy) {
        if (i < device.size()) sum += device[i], ++n;
      }
      const double t = std::min(horizon, (static_cast<double>(i) + 0.5) * s.series.interval_s);
      line->append(minutes ? t / 60.0 : t, n > 0 ? 100.0 * sum / n : 0.0);
      end = std::max(end, minutes ? t / 60.0 : t);
    }
    chart->addSeries(line);
    lines.push_back(line);
  }
  auto* x = new QValueAxis();
  x->setRange(0.0, std::max(end, 1e-9) * 1.02);
  x->setLabelFormat("%g");
  x->setTitleText(minutes ? "simulated time, min" : "simulated time, s");
  add_percent_axes(chart, lines, x, "GPU busy %");
  paint_chart(chart, painter, target);
}

/// Each MIG strategy's GPUs as rows of memory slots, instances drawn over the slots they occupy.
void draw_mig_layout(const RoiReport& r, QPainter& painter, const QRectF& target) {
  struct Row {
    std::string label;
    int num_slots = 8;
    struct Box {
      int start = 0;
      int width = 1;
      std::string text;
    };
    std::vector<Box> boxes;
  };
  std::vector<Row> rows;
  const auto& catalog = models::MigCatalog::shipped();
  for (const auto& s : r.result.strategies) {
    std::map<int, Row> by_gpu;
    for (const auto& d : s.devices) {
      if (d.mig_profile.empty()) continue;
      const auto* gpu = catalog.find(d.gpu);
      const auto* profile = gpu ? gpu->find(d.mig_profile) : nullptr;
      auto& row = by_gpu[d.gpu_index];
      row.label = s.name + "  gpu" + std::to_string(d.gpu_index) + " (" + d.gpu + ")";
      if (gpu) row.num_slots = gpu->memory_slots;
      Row::Box box;
      const auto at = d.name.rfind('@');
      box.start = at == std::string::npos ? 0 : std::atoi(d.name.c_str() + at + 1);
      box.width = profile ? profile->memory_slices : 1;
      std::set<std::string> tenants;
      for (const auto& context : d.contexts) tenants.insert(context.substr(0, context.rfind('#')));
      box.text = d.mig_profile;
      for (const auto& tenant : tenants) box.text += "\n" + tenant;
      row.boxes.push_back(box);
    }
    for (auto& [index, row] : by_gpu) rows.push_back(std::move(row));
  }
  painter.save();
  QFont title_font = painter.font();
  title_font.setPointSizeF(12.0);
  title_font.setBold(true);
  painter.setFont(title_font);
  painter.setPen(Qt::black);
  painter.drawText(QRectF(target.left(), target.top() + 6, target.width(), 24), Qt::AlignHCenter, "MIG layout (memory slots)");
  const double label_w = std::min(260.0, target.width() * 0.3);
  const double top = target.top() + 40;
  const double row_h = std::min(90.0, (target.height() - 50) / std::max<std::size_t>(1, rows.size()));
  QFont text_font = painter.font();
  text_font.setPointSizeF(std::clamp(row_h / 9.0, 6.0, 9.0));
  text_font.setBold(false);
  painter.setFont(text_font);
  static const QColor colours[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
                                   QColor(0xb0, 0x7a, 0xa1), QColor(0x76, 0xb7, 0xb2), QColor(0xed, 0xc9, 0x48)};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const double y = top + row_h * static_cast<double>(i);
    painter.setPen(Qt::black);
    painter.drawText(QRectF(target.left() + 4, y, label_w - 8, row_h - 8), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap,
                     qs(row.label));
    const double slot_w = (target.width() - label_w - 8) / row.num_slots;
    for (int slot = 0; slot < row.num_slots; ++slot) {
      painter.setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 1, Qt::DashLine));
      painter.setBrush(Qt::NoBrush);
      painter.drawRect(QRectF(target.left() + label_w + slot * slot_w, y, slot_w, row_h - 8));
    }
    for (std::size_t b = 0; b < row.boxes.size(); ++b) {
      const auto& box = row.boxes[b];
      const QRectF rect(target.left() + label_w + box.start * slot_w + 2, y + 2, box.width * slot_w - 4, row_h - 12);
      painter.setPen(QPen(Qt::black, 1));
      painter.setBrush(colours[b % 6].lighter(150));
      painter.drawRoundedRect(rect, 4, 4);
      painter.drawText(rect.adjusted(4, 2, -4, -2), Qt::AlignCenter | Qt::TextWordWrap, qs(box.text));
    }
  }
  painter.restore();
}

}  // namespace

void draw_figure(const RoiReport& r, const Figure& figure, QPainter& painter, const QRectF& target) {
  ensure_qt_application();
  painter.fillRect(target, Qt::white);
  if (figure.id == "cost") {
    draw_cost(r, painter, target, false);
  } else if (figure.id == "savings") {
    draw_cost(r, painter, target, true);
  } else if (figure.id == "sweep-savings") {
    draw_sweep_savings(r, painter, target);
  } else if (figure.id == "latency-cdf") {
    draw_latency_cdf(r, painter, target);
  } else if (figure.id == "utilization") {
    draw_utilization(r, painter, target);
  } else if (figure.id == "mig-layout") {
    draw_mig_layout(r, painter, target);
  } else {
    throw InternalError("unknown report figure " + figure.id);
  }
}

/// Figure height for its content: the CDF grows with the tenants, the MIG drawing with the GPUs.
int figure_height(const RoiReport& r, const Figure& figure) {
  if (figure.id == "latency-cdf") {
    std::size_t tenants = 0;
    for (const auto& s : r.result.strategies) tenants = std::max(tenants, s.tenants.size());
    return 320 * static_cast<int>((tenants + 1) / 2);
  }
  if (figure.id == "mig-layout") {
    int rows = 0;
    for (const auto& s : r.result.strategies) {
      std::set<int> gpus;
      for (const auto& d : s.devices) {
        if (!d.mig_profile.empty()) gpus.insert(d.gpu_index);
      }
      rows += static_cast<int>(gpus.size());
    }
    return 60 + 90 * std::max(1, rows);
  }
  return 480;
}

namespace {

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
    html += std::string("<th") + (t.numeric[c] ? " align=\"right\"" : " align=\"left\"") + ">" + report::escape_markup(t.columns[c]) + "</th>";
  }
  html += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    html += "<tr>";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool missed = row[c].find("missed") != std::string::npos || row[c] == "failed";
      html += std::string("<td") + (t.numeric[c] ? " align=\"right\"" : "") + (missed ? " class=\"missed\"" : "") + ">" +
              report::escape_markup(row[c]) + "</td>";
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
  html += "<p class=\"sub\">" + report::escape_markup(r.costs.table + " prices as of " + r.costs.as_of + " · calibration " +
                                            (r.result.calibration.profile_id.empty() ? "none" : r.result.calibration.profile_id) +
                                            " · seed " + std::to_string(r.result.seed)) +
          "</p>\n";
  html += "<h2>Executive summary</h2>\n";
  if (r.recommended >= 0) {
    const auto& best = r.strategies[static_cast<std::size_t>(r.recommended)];
    html += "<p class=\"rec\"><b>Recommended strategy: " + report::escape_markup(best.name) + "</b> — monthly savings " +
            report::escape_markup(report::format_usd(best.monthly_savings_usd)) + ", annual " +
            report::escape_markup(report::format_usd(best.annual_savings_usd, 0)) + "</p>\n";
  }
  html += "<ul class=\"summary\">\n<li>" + report::escape_markup(r.recommendation) + "</li>\n<li>" + report::escape_markup(r.savings) +
          "</li>\n<li>" + report::escape_markup(r.sla_risk) + "</li>\n</ul>\n";
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
    html += "<p" + std::string(pdf && i > 0 && i % 2 == 0 ? page_break : "") + "><b>" + report::escape_markup(f.title) + "</b></p>\n";
    html += "<p>" + figure_markup(f) + "</p>\n<p class=\"caption\">" + report::escape_markup(f.caption) + "</p>\n";
  }
  html += "<h2" + page_break + ">Assumptions and provenance</h2>\n";
  if (!r.description.empty()) html += "<p>Scenario: " + report::escape_markup(r.description) + "</p>\n";
  html += "<ul>\n";
  for (const auto& line : r.assumptions) html += "<li>" + report::escape_markup(line) + "</li>\n";
  html += "</ul>\n<h2>Methodology</h2>\n";
  for (const auto& paragraph : r.methodology) html += "<p>" + report::escape_markup(paragraph) + "</p>\n";
  html += "<p class=\"sub\">Generated by slicewise. Every figure can be reproduced from the result file and the "
          "price table named above.</p>\n";
  return html;
}

void write_pdf(const RoiReport& r, const std::filesystem::path& out) {
  ensure_qt_application();
  const auto figures = report_figures(r);
  QTextDocument document;
  for (const auto& f : figures) {
    document.addResource(QTextDocument::ImageResource, QUrl(qs("figure:" + f.id)),
                         figure_image(r, f, kFigureWidth, figure_height(r, f)));
  }
  const std::string html =
      "<html><head><style>"
      "body { font-family: 'DejaVu Sans'; font-size: 8pt; } h1 { font-size: 16pt; } h2 { font-size: 12pt; "
      "color: #1f3b57; } h3 { font-size: 10pt; } th { background-color: #e8edf2; } td.missed { color: #a01010; } "
      ".sub { color: #666666; } .rec { font-size: 11pt; color: #0b5d1e; } .caption { color: #555555; }"
      "</style></head><body>" +
      body_html(r, figures,
                [&](const Figure& f) {
                  // 640 px wide in the document's layout units: the full text width of an A4 page.
                  const int height = 640 * figure_height(r, f) / kFigureWidth;
                  return "<img src=\"figure:" + f.id + "\" width=\"640\" height=\"" + std::to_string(height) + "\">";
                },
                true) +
      "</body></html>";
  document.setHtml(qs(html));
  document.setDefaultFont(QFont("DejaVu Sans", 8));

  const std::filesystem::path temporary = out.string() + ".tmp";
  {
    QPdfWriter writer(qs(temporary.string()));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setTitle(qs(r.title));
    writer.setCreator("slicewise");
    // At 96 dpi the document's layout units are the writer's pixels, so margins and fonts keep their
    // sizes; the figures stay sharp because a PDF embeds each image at its own (2x) resolution.
    writer.setResolution(96);
    document.print(&writer);  // no page size set on the document: print() paginates and numbers pages
  }
  std::error_code error;
  if (!std::filesystem::exists(temporary) || std::filesystem::file_size(temporary, error) == 0) {
    std::filesystem::remove(temporary, error);
    throw Error("cannot write " + out.string());
  }
  std::filesystem::rename(temporary, out, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw Error("cannot write " + out.string() + ": " + error.message());
  }
}

std::string strip_xml_prolog(std::string svg) {
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
  generator.setTitle(qs(figure.title));
  QPainter painter;
  if (!painter.begin(&generator)) throw Error("cannot draw figure " + figure.id);
  draw_figure(r, figure, painter, QRectF(0, 0, width, height));
  painter.end();
  return buffer.data().toStdString();
}

std::string report_html(const RoiReport& r) {
  const auto figures = report_figures(r);
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + report::escape_markup(r.title) +
      "</title>\n<style>\n"
      "body { font-family: 'DejaVu Sans', Arial, sans-serif; max-width: 1000px; margin: 2em auto; color: #222; "
      "font-size: 14px; line-height: 1.45; }\n"
      "h1 { font-size: 1.7em; } h2 { color: #1f3b57; border-bottom: 1px solid #cdd6df; margin-top: 1.8em; }\n"
      "table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }\n"
      "th, td { border: 1px solid #cdd6df; padding: 3px 8px; } th { background: #e8edf2; }\n"
      "td.missed { color: #a01010; } .sub, .caption { color: #666; } .rec { font-size: 1.15em; color: #0b5d1e; }\n"
      "figure { margin: 0; } svg { max-width: 100%; height: auto; }\n"
      "</style>\n</head>\n<body>\n";
  html += body_html(r, figures,
                    [&](const Figure& f) {
                      return "<figure id=\"figure-" + f.id + "\">" + strip_xml_prolog(figure_svg(r, f, kFigureWidth, figure_height(r, f))) +
                             "</figure>";
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
    case ReportFormat::html:
      write_file_atomically(out, report_html(r));
      return;
    case ReportFormat::pdf:
      write_pdf(r, out);
      return;
    case ReportFormat::xlsx:
      report::write_roi_xlsx(r, out);
      return;
  }
}

}  // namespace slicewise::render
