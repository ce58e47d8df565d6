// The ROI report's figures drawn with a QPainter (figure_painter.hpp): Qt Charts bar and line
// charts laid out offscreen, and the MIG layout (mig_layout_figure.cpp). The SVG, HTML and PDF
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
#include "report/render/mig_layout_figure.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"
#include "scenario/utilisation.hpp"

namespace slicewise::render {

namespace {

using report::Figure;
using report::RoiReport;

QString qs(const std::string& text) { return QString::fromStdString(text); }

/// A nice step as mantissa (1, 2 or 5) × 10^exponent, so that multiples of it are computed exactly
/// where they can be (0.2 is the double nearest 0.2, not 2 × 0.1 rounded twice).
struct Step {
  int mantissa = 1;
  int exponent = 0;

  double times(double k) const {
    double power = 1.0;
    for (int i = 0; i < std::abs(exponent); ++i) power *= 10.0;  // exact up to 1e22
    return exponent >= 0 ? k * mantissa * power : k * mantissa / power;
  }
  double value() const { return times(1.0); }
  Step next() const {
    return mantissa == 1 ? Step{2, exponent} : mantissa == 2 ? Step{5, exponent} : Step{1, exponent + 1};
  }
};

/// The smallest nice step not below `raw` (> 0).
Step nice_step_at_least(double raw) {
  Step step{1, std::clamp(static_cast<int>(std::floor(std::log10(raw))) - 1, -300, 300)};
  // The relative slack keeps a raw step that is a nice one but for rounding (2.0000000001).
  while (step.value() < raw * (1.0 - 1e-9) && step.exponent < 300) step = step.next();
  return step;
}

QLocale chart_locale() { return QLocale(QLocale::English, QLocale::UnitedStates); }

/// A chart whose tick labels group thousands: Qt Charts formats "%.Nf" labels with the chart's
/// locale when it localizes numbers.
QChart* new_chart(const std::string& title) {
  auto* chart = new QChart();
  chart->setTitle(qs(title));
  chart->setLocale(chart_locale());
  chart->setLocalizeNumbers(true);
  return chart;
}

/// A value axis over `low`..`high` rounded out to nice ticks (at most `max_ticks`), titled with its
/// unit.
QValueAxis* nice_axis(double low, double high, int max_ticks, const std::string& title) {
  const NiceTicks ticks = nice_ticks(low, high, max_ticks);
  auto* axis = new QValueAxis();
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(ticks.low);
  axis->setTickInterval(ticks.step);
  // Qt Charts adds the interval to the first tick while the sum stays within the range: a hair of
  // range above the last tick keeps it when the sum rounds past it.
  axis->setRange(ticks.low, ticks.high + ticks.step * 1e-6);
  axis->setLabelFormat(qs("%." + std::to_string(ticks.decimals) + "f"));
  axis->setTitleText(qs(title));
  return axis;
}

/// Maps a point in the chart's coordinates to the painter's, once the chart is drawn.
using ToPainter = std::function<QPointF(const QPointF&)>;
/// Drawn over a chart after it, e.g. bar values.
using ChartOverlay = std::function<void(QChart&, const ToPainter&)>;

/// Renders a chart (taking ownership) into `target`, then `overlay` over it. The view must be shown
/// once for the chart to lay out its labels (see bar_chart.cpp); in the GUI it must not appear on
/// screen.
/// Labels Qt Charts shortened to fit, over the figure being drawn (draw_figure() counts them).
thread_local int shortened_labels_drawn = 0;

/// The labels of `scene` Qt Charts shortened to fit their room ("mig_time_sl..."): it ends them
/// with "..." (ChartPresenter::truncatedText), in the QGraphicsTextItem of an axis label or title.
int shortened_labels(const QGraphicsScene& scene) {
  int shortened = 0;
  for (const QGraphicsItem* item : scene.items()) {
    const auto* text = qgraphicsitem_cast<const QGraphicsTextItem*>(item);
    if (text && text->isVisible() && text->toPlainText().endsWith(QStringLiteral("..."))) ++shortened;
  }
  return shortened;
}

/// Turns a category axis's labels (the strategies' names under the bars) to 45°, then 90°, while
/// Qt Charts still shortens some to fit its category's width: a figure of seven strategies showed
/// "mig_ti...", "time_sl...". The value axes' labels are numbers that fit.
void turn_category_labels_to_fit(QChart& chart, QChartView& view) {
  QBarCategoryAxis* categories = nullptr;
  for (QAbstractAxis* axis : chart.axes(Qt::Horizontal)) {
    if (auto* found = qobject_cast<QBarCategoryAxis*>(axis)) categories = found;
  }
  if (!categories) return;
  for (const int angle : {-45, -90}) {
    if (shortened_labels(*view.scene()) == 0) return;
    categories->setLabelsAngle(angle);
    QCoreApplication::processEvents();
  }
}

void paint_chart(QChart* chart, QPainter& painter, const QRectF& target, const ChartOverlay& overlay = {}) {
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setBackgroundRoundness(0);
  QChartView view(chart);
  view.setRenderHint(QPainter::Antialiasing);
  view.setAttribute(Qt::WA_DontShowOnScreen);  // shown for its layout, never on screen (the GUI)
  view.resize(target.size().toSize());
  view.show();
  QCoreApplication::processEvents();
  turn_category_labels_to_fit(*chart, view);
  shortened_labels_drawn += shortened_labels(*view.scene());
  view.render(&painter, target);
  if (!overlay) return;
  const QSize viewport = view.viewport()->size();
  const double sx = target.width() / std::max(1, viewport.width());
  const double sy = target.height() / std::max(1, viewport.height());
  const QTransform to_viewport = view.viewportTransform();
  overlay(*chart, [&](const QPointF& point) {
    const QPointF v = to_viewport.map(chart->mapToScene(point));
    return QPointF(target.left() + v.x() * sx, target.top() + v.y() * sy);
  });
}

/// The font of the values written over a chart.
QFont value_font() {
  QFont font = QGuiApplication::font();
  font.setPointSizeF(8.0);
  return font;
}

/// Each bar's value in money over (under, when negative) its bar; none when they would not fit
/// their bars' width.
void draw_bar_values(QChart& chart, const ToPainter& to_painter, QBarSeries* bars,
                     const std::vector<std::vector<double>>& values, QPainter& painter) {
  const std::size_t sets = values.size();
  if (sets == 0) return;
  const double width = bars->barWidth();
  const double slot = width / static_cast<double>(sets);
  const QFontMetricsF metrics(value_font(), painter.device());
  const double slot_px = std::abs(to_painter(chart.mapToPosition(QPointF(slot, 0.0), bars)).x() -
                                  to_painter(chart.mapToPosition(QPointF(0.0, 0.0), bars)).x());
  // A lone bar has its category's gaps beside it; bars of one category touch.
  const double room_px = slot_px * (sets == 1 ? 1.6 : 1.0);
  for (const auto& set : values) {
    for (double v : set) {
      if (metrics.horizontalAdvance(qs(report::format_usd(v, 0))) > room_px) return;  // would overlap
    }
  }
  painter.save();
  painter.setFont(value_font());
  painter.setPen(QColor(0x33, 0x33, 0x33));
  for (std::size_t s = 0; s < sets; ++s) {
    for (std::size_t i = 0; i < values[s].size(); ++i) {
      const double v = values[s][i];
      const double x = static_cast<double>(i) - width / 2.0 + slot * (static_cast<double>(s) + 0.5);
      const QPointF end = to_painter(chart.mapToPosition(QPointF(x, v), bars));
      const double h = metrics.height();
      const QRectF box(end.x() - slot_px, v >= 0.0 ? end.y() - h - 2.0 : end.y() + 2.0, 2.0 * slot_px, h);
      painter.drawText(box, Qt::AlignHCenter | (v >= 0.0 ? Qt::AlignBottom : Qt::AlignTop),
                       qs(report::format_usd(v, 0)));
    }
  }
  painter.restore();
}

/// Bars of money per category, one bar set per series, their values written over them.
void draw_money_bars(const std::string& title, const std::vector<std::string>& categories,
                     const std::vector<std::pair<std::string, std::vector<double>>>& series,
                     const std::string& axis_title, QPainter& painter, const QRectF& target) {
  auto* bars = new QBarSeries();
  bars->setBarWidth(0.6);
  double low = 0.0, high = 0.0;
  std::vector<std::vector<double>> values;
  for (std::size_t k = 0; k < series.size(); ++k) {
    auto* set = new QBarSet(qs(series[k].first));
    set->setColor(series_colour(k));
    set->setBorderColor(series_colour(k));
    values.emplace_back();
    for (double value : series[k].second) {
      const double v = std::isnan(value) ? 0.0 : value;
      *set << v;
      values.back().push_back(v);
      low = std::min(low, v);
      high = std::max(high, v);
    }
    bars->append(set);
  }
  // The values are written over the chart in the report's money format (draw_bar_values), which
  // Qt Charts' own labels cannot do; room for them above (and below) the bars.
  bars->setLabelsVisible(false);
  const double room = 0.1 * std::max(1.0, high - low);
  auto* chart = new_chart(title);
  chart->addSeries(bars);
  auto* x = new QBarCategoryAxis();
  for (const auto& category : categories) x->append(qs(category));
  chart->addAxis(x, Qt::AlignBottom);
  bars->attachAxis(x);
  auto* y = nice_axis(low < 0.0 ? low - room : 0.0, high > 0.0 ? high + room : 0.0, 6, axis_title);
  chart->addAxis(y, Qt::AlignLeft);
  bars->attachAxis(y);
  chart->legend()->setVisible(series.size() > 1);
  chart->legend()->setAlignment(Qt::AlignBottom);
  const bool labelled = categories.size() * series.size() <= 16;
  paint_chart(chart, painter, target, [&](QChart& c, const ToPainter& to_painter) {
    if (labelled) draw_bar_values(c, to_painter, bars, values, painter);
  });
}

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

int NiceTicks::count() const { return static_cast<int>(std::lround((high - low) / step)) + 1; }

double nice_step(double span, int max_ticks) {
  const double raw = std::abs(span) / std::max(1, max_ticks - 1);
  if (!(raw > 0.0) || !std::isfinite(raw)) return 1.0;
  return nice_step_at_least(raw).value();
}

NiceTicks nice_ticks(double low, double high, int max_ticks) {
  if (!std::isfinite(low) || !std::isfinite(high)) low = 0.0, high = 1.0;
  if (high < low) std::swap(low, high);
  if (high - low <= 0.0) high = low + 1.0;
  const int intervals = std::max(1, max_ticks - 1);
  Step step = nice_step_at_least((high - low) / intervals);
  for (;;) {
    const double s = step.value();
    // The slack counts a bound that is a multiple but for rounding as one.
    const double k_low = std::floor(low / s + 1e-9);
    const double k_high = std::ceil(high / s - 1e-9);
    if (k_high - k_low <= intervals || step.exponent >= 300) {
      return {step.times(k_low), step.times(k_high), s, std::max(0, -step.exponent)};
    }
    step = step.next();
  }
}

std::string tick_label(double value, int decimals) {
  return chart_locale().toString(value, 'f', decimals).toStdString();
}

QColor series_colour(std::size_t index) {
  // Tableau 10: distinct in print and for the common colour-vision deficiencies.
  static const QColor colours[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
                                   QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                   QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
                                   QColor(0xba, 0xb0, 0xac)};
  return colours[index % std::size(colours)];
}

FigureDrawn draw_figure(const RoiReport& r, const Figure& figure, QPainter& painter, const QRectF& target) {
  ensure_qt_application();
  painter.fillRect(target, Qt::white);
  shortened_labels_drawn = 0;
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
  return FigureDrawn{shortened_labels_drawn};
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
