// The ROI report's figures drawn with a QPainter (figure_painter.hpp): Qt Charts bar and line
// charts laid out offscreen (with chart_kit.cpp's axes, bars and painting), and the MIG layout
// (mig_layout_figure.cpp). The SVG, HTML and PDF
// outputs (report_render.cpp) and the GUI's figure views all draw through draw_figure().
//
// Value axes tick at nice steps (1, 2, 5 × 10^k, docs/reports.md) with grouped thousands, and bar
// values are written in the tables' money format over the chart, so that a figure reads like the
// tables next to it.
#include "report/render/figure_painter.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QGuiApplication>
#include <QLocale>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include "core/error.hpp"
#include "report/render/bar_chart.hpp"
#include "report/render/chart_kit.hpp"
#include "report/render/mig_layout_figure.hpp"
#include "report/roi_report.hpp"
#include "scenario/utilisation.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::RoiReport;

QString qs(const std::string& text) { return QString::fromStdString(text); }

std::vector<std::string> strategy_names(const RoiReport& r) {
  std::vector<std::string> names;
  for (const auto& s : r.strategies) names.push_back(s.name);
  return names;
}

std::string money_axis_title(const RoiReport& r) { return r.costs.currency + " per month"; }

void draw_cost(const RoiReport& r, QPainter& painter, const QRectF& target, bool savings) {
  std::vector<double> values;
  for (const auto& s : r.strategies) values.push_back(savings ? s.monthly_savings_usd : s.monthly_usd);
  draw_money_bars(savings ? "Monthly savings against " + r.costs.baseline : "Monthly cost", strategy_names(r),
                  {{savings ? "savings" : "cost", values}}, money_axis_title(r), painter, target);
}

/// One line of the sweep's savings figure: a strategy (at one value of the other axes) against the
/// plotted axis.
struct SweepLine {
  std::string name;
  std::string key;
  struct Point {
    double x = 0.0;
    double savings = 0.0;
    bool sla_met = true;
  };
  std::vector<Point> points;
};

/// The axis a sweep's savings are drawn against: the first with numeric values that vary; none
/// when no axis has them (the figure is then bars per point).
std::optional<std::size_t> plotted_axis(const report::SweepSection& sw) {
  for (std::size_t a = 0; a < sw.axes.size(); ++a) {
    const auto numbers = report::sweep_axis_numbers(sw, a);
    if (!numbers.empty() && std::set<double>(numbers.begin(), numbers.end()).size() > 1) return a;
  }
  return std::nullopt;
}

/// One line per strategy and value of the axes other than `axis`, in first appearance.
std::vector<SweepLine> sweep_lines(const report::SweepSection& sw, std::size_t axis) {
  const auto x = report::sweep_axis_numbers(sw, axis);
  std::vector<SweepLine> lines;
  for (std::size_t s = 0; s < sw.strategies.size(); ++s) {
    for (std::size_t p = 0; p < sw.rows.size(); ++p) {
      const auto& row = sw.rows[p];
      if (row.failed || s >= row.savings_usd.size() || !std::isfinite(row.savings_usd[s])) continue;
      std::vector<std::string> axes, labels;
      for (std::size_t a = 0; a < sw.axes.size() && a < row.labels.size(); ++a) {
        if (a == axis) continue;
        axes.push_back(sw.axes[a]);
        labels.push_back(row.labels[a]);
      }
      const std::string others = report::axis_values(axes, labels);
      const std::string key = std::to_string(s) + "\n" + others;
      auto line = std::find_if(lines.begin(), lines.end(), [&](const SweepLine& l) { return l.key == key; });
      if (line == lines.end()) {
        lines.push_back({sw.strategies[s] + (others.empty() ? "" : " (" + others + ")"), key, {}});
        line = lines.end() - 1;
      }
      line->points.push_back({x[p], row.savings_usd[s], s < row.sla_met.size() && row.sla_met[s]});
    }
  }
  for (auto& line : lines) {
    std::stable_sort(line.points.begin(), line.points.end(),
                     [](const SweepLine::Point& a, const SweepLine::Point& b) { return a.x < b.x; });
  }
  return lines;
}

/// A marker series of `line`'s points where the SLA is met (filled) or missed (hollow), kept out of
/// the legend.
QScatterSeries* sweep_markers(const SweepLine& line, bool met, const QColor& colour) {
  auto* markers = new QScatterSeries();
  markers->setName(qs(line.name + (met ? "" : ", SLA missed")));
  markers->setMarkerSize(met ? 7.0 : 9.0);
  markers->setPen(QPen(colour, met ? 1.0 : 2.0));
  markers->setBrush(met ? QBrush(colour) : QBrush(Qt::white));
  for (const auto& p : line.points) {
    if (p.sla_met == met) markers->append(p.x, p.savings);
  }
  return markers;
}

/// Savings against the swept number: a line per strategy, hollow markers where a tenant misses its
/// SLA.
void draw_sweep_lines(const RoiReport& r, std::size_t axis, const std::vector<SweepLine>& lines, QPainter& painter,
                      const QRectF& target) {
  const auto& sw = *r.sweep;
  double x_low = std::numeric_limits<double>::max(), x_high = std::numeric_limits<double>::lowest();
  double low = 0.0, high = 0.0;
  bool missed = false;
  for (const auto& line : lines) {
    for (const auto& p : line.points) {
      x_low = std::min(x_low, p.x), x_high = std::max(x_high, p.x);
      low = std::min(low, p.savings), high = std::max(high, p.savings);
      missed = missed || !p.sla_met;
    }
  }
  auto* chart = new_chart("Monthly savings against " + sw.axes[axis] +
                          (missed ? " (hollow markers: a tenant misses its SLA there)" : ""));
  auto* x = nice_axis(x_low, x_high, 9, sw.axes[axis]);
  const double room = 0.05 * std::max(1.0, high - low);
  auto* y = nice_axis(low < 0.0 ? low - room : 0.0, high + room, 6, money_axis_title(r));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const QColor colour = series_colour(k);
    auto* path = new QLineSeries();
    path->setName(qs(lines[k].name));
    path->setPen(QPen(colour, 2.0));
    for (const auto& p : lines[k].points) path->append(p.x, p.savings);
    std::vector<QXYSeries*> all = {path, sweep_markers(lines[k], true, colour), sweep_markers(lines[k], false, colour)};
    for (auto* series : all) {
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
    }
    for (std::size_t m = 1; m < all.size(); ++m) {
      for (auto* marker : chart->legend()->markers(all[m])) marker->setVisible(false);
    }
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  paint_chart(chart, painter, target);
}

/// The sweep's savings: lines against the swept number when an axis is numeric, else bars per
/// point labelled by its swept values.
void draw_sweep_savings(const RoiReport& r, QPainter& painter, const QRectF& target) {
  const auto& sw = *r.sweep;
  if (const auto axis = plotted_axis(sw)) {
    const auto lines = sweep_lines(sw, *axis);
    if (!lines.empty() && lines.size() <= 12) {
      draw_sweep_lines(r, *axis, lines, painter, target);
      return;
    }
  }
  std::vector<std::string> points;
  for (const auto& row : sw.rows) {
    const std::string label = report::axis_values(sw.axes, row.labels);
    points.push_back(label.empty() ? row.point : label);
  }
  std::vector<std::pair<std::string, std::vector<double>>> series;
  for (std::size_t i = 0; i < sw.strategies.size(); ++i) {
    std::vector<double> values;
    for (const auto& row : sw.rows) values.push_back(row.failed ? 0.0 : row.savings_usd[i]);
    series.emplace_back(sw.strategies[i], values);
  }
  draw_money_bars("Monthly savings against the swept values", points, series, money_axis_title(r), painter, target);
}

/// Puts `x` under a line chart and a 0-100 % axis titled `y_title` beside it, attaches every line
/// to both, and the legend below the plot.
void add_percent_axes(QChart* chart, const std::vector<QLineSeries*>& lines, QAbstractAxis* x, const char* y_title) {
  auto* y = nice_axis(0.0, 100.0, 6, y_title);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto* line : lines) {
    line->attachAxis(x);
    line->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
}

/// Tenant names over every strategy, in order of first appearance.
std::vector<std::string> tenant_names(const RoiReport& r) {
  std::vector<std::string> tenants;
  for (const auto& s : r.result.strategies) {
    for (const auto& t : s.tenants) {
      if (std::find(tenants.begin(), tenants.end(), t.name) == tenants.end()) tenants.push_back(t.name);
    }
  }
  return tenants;
}

/// The latency axis from `low` to `high` seconds: logarithmic over whole decades (labelled 0.01,
/// 0.1, 1, ...) when they span more than 30x, else linear at nice ticks.
QAbstractAxis* latency_axis(double low, double high) {
  if (high / low <= 30.0) return nice_axis(0.0, high, 7, "latency, s");
  auto* log = new QLogValueAxis();
  log->setBase(10.0);
  log->setLabelFormat("%.6g");
  const double first = std::pow(10.0, std::floor(std::log10(low)));
  const double last = std::pow(10.0, std::ceil(std::log10(high)));
  log->setRange(first, last);
  log->setMinorTickCount(-1);  // 2..9 between the decades
  log->setTitleText("latency, s (log scale)");
  return log;
}

/// One tenant's panel: a line per strategy that carries the tenant's latency quantiles.
QChart* latency_cdf_chart(const RoiReport& r, const std::string& tenant) {
  auto* chart = new_chart(tenant);
  double low = 1e300, high = 0.0;
  std::vector<QLineSeries*> lines;
  for (std::size_t k = 0; k < r.result.strategies.size(); ++k) {
    const auto& s = r.result.strategies[k];
    for (const auto& t : s.tenants) {
      if (t.name != tenant || t.latency_cdf_s.size() != scenario::kLatencyCdfLevels.size()) continue;
      auto* line = new QLineSeries();
      line->setName(qs(s.name));
      line->setPen(QPen(series_colour(k), 2.0));
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
  add_percent_axes(chart, lines, latency_axis(low, high), "% of requests");
  return chart;
}

/// "latency-cdf", "latency-cdf-2", ...: the CDF figures, six tenants each (report_figures).
bool is_latency_cdf(const Figure& figure) { return figure.id.rfind("latency-cdf", 0) == 0; }

/// One panel per tenant of the figure (every tenant when it names none), two to a row when there
/// are several.
void draw_latency_cdf(const RoiReport& r, const Figure& figure, QPainter& painter, const QRectF& target) {
  const std::vector<std::string> tenants = figure.tenants.empty() ? tenant_names(r) : figure.tenants;
  const int columns = tenants.size() > 1 ? 2 : 1;
  const int rows = static_cast<int>((tenants.size() + 1) / static_cast<std::size_t>(columns));
  const double w = target.width() / columns, h = target.height() / std::max(1, rows);
  for (std::size_t k = 0; k < tenants.size(); ++k) {
    QChart* chart = latency_cdf_chart(r, tenants[k]);
    const std::size_t column = k % static_cast<std::size_t>(columns), row = k / static_cast<std::size_t>(columns);
    const QRectF cell(target.left() + w * static_cast<double>(column), target.top() + h * static_cast<double>(row), w,
                      h);
    paint_chart(chart, painter, cell);
  }
}

void draw_utilization(const RoiReport& r, QPainter& painter, const QRectF& target) {
  auto* chart = new_chart("GPU busy fraction over time (mean over each strategy's GPUs)");
  double end = 0.0;
  std::vector<QLineSeries*> lines;
  const double horizon = r.result.horizon_s;
  const bool minutes = horizon > 1200.0;
  for (std::size_t k = 0; k < r.result.strategies.size(); ++k) {
    const auto& s = r.result.strategies[k];
    if (s.series.device_busy_frac.empty()) continue;
    // The strategies table's definition (scenario/utilisation.hpp), per interval.
    const auto busy = scenario::fleet_busy_series(s);
    auto* line = new QLineSeries();
    line->setName(qs(s.name));
    line->setPen(QPen(series_colour(k), 2.0));
    for (std::size_t i = 0; i < busy.size(); ++i) {
      const double t = std::min(horizon, (static_cast<double>(i) + 0.5) * s.series.interval_s);
      line->append(minutes ? t / 60.0 : t, 100.0 * busy[i]);
      end = std::max(end, minutes ? t / 60.0 : t);
    }
    chart->addSeries(line);
    lines.push_back(line);
  }
  auto* x = nice_axis(0.0, std::max(end, 1e-9), 9, minutes ? "simulated time, min" : "simulated time, s");
  add_percent_axes(chart, lines, x, "GPU busy %");
  paint_chart(chart, painter, target);
}

}  // namespace

FigureDrawn draw_figure(const RoiReport& r, const Figure& figure, QPainter& painter, const QRectF& target) {
  ensure_qt_application();
  painter.fillRect(target, Qt::white);
  shortened_labels_drawn() = 0;
  if (figure.id == "cost") {
    draw_cost(r, painter, target, false);
  } else if (figure.id == "savings") {
    draw_cost(r, painter, target, true);
  } else if (figure.id == "sweep-savings") {
    draw_sweep_savings(r, painter, target);
  } else if (is_latency_cdf(figure)) {
    draw_latency_cdf(r, figure, painter, target);
  } else if (figure.id == "utilization") {
    draw_utilization(r, painter, target);
  } else if (figure.id == "mig-layout") {
    draw_mig_layout(r, painter, target);
  } else {
    throw InternalError("unknown report figure " + figure.id);
  }
  return FigureDrawn{shortened_labels_drawn()};
}

/// Figure height for its content: the CDF grows with the tenants, the MIG drawing with the GPUs.
int figure_height(const RoiReport& r, const Figure& figure) {
  if (is_latency_cdf(figure)) {
    std::size_t tenants = figure.tenants.size();
    if (tenants == 0) {
      for (const auto& s : r.result.strategies) tenants = std::max(tenants, s.tenants.size());
    }
    return 320 * static_cast<int>((tenants + 1) / 2);
  }
  if (figure.id == "mig-layout") {
    int rows = 0;
    for (const auto& s : r.result.strategies) {
      std::set<std::pair<std::string, int>> gpus;  // a row per GPU, and per phase under a layout schedule
      for (const auto& d : s.devices) {
        if (!d.mig_profile.empty()) gpus.insert({d.phase, d.gpu_index});
      }
      rows += static_cast<int>(gpus.size());
    }
    return 60 + 90 * std::max(1, rows);
  }
  return 480;
}

}  // namespace slicewise::render
