// The ROI report's figures drawn with a QPainter (figure_painter.hpp): Qt Charts bar and line
// charts laid out offscreen, and the MIG layout (mig_layout_figure.cpp). The SVG, HTML and PDF
// outputs (report_render.cpp) and the GUI's figure views all draw through draw_figure().
#include "report/render/figure_painter.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <QCoreApplication>
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
#include "report/render/bar_chart.hpp"
#include "report/render/mig_layout_figure.hpp"
#include "report/sweep_results.hpp"
#include "scenario/utilisation.hpp"

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
                  const std::vector<std::pair<std::string, std::vector<double>>>& series,
                  const std::string& axis_title) {
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
  // Each point by its swept values (load=2, ...), so that savings read against the swept variable.
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
  paint_chart(bar_chart("Monthly savings against the swept values", points, series, r.costs.currency + " per month"),
              painter, target);
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

/// The latency axis from `low` to `high` seconds: logarithmic when they span more than 30x.
QAbstractAxis* latency_axis(double low, double high) {
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
  return x;
}

/// One tenant's panel: a line per strategy that carries the tenant's latency quantiles.
QChart* latency_cdf_chart(const RoiReport& r, const std::string& tenant) {
  auto* chart = new QChart();
  chart->setTitle(qs(tenant));
  double low = 1e300, high = 0.0;
  std::vector<QLineSeries*> lines;
  for (const auto& s : r.result.strategies) {
    for (const auto& t : s.tenants) {
      if (t.name != tenant || t.latency_cdf_s.size() != scenario::kLatencyCdfLevels.size()) continue;
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
  add_percent_axes(chart, lines, latency_axis(low, high), "% of requests");
  return chart;
}

/// One panel per tenant, two to a row when there are several.
void draw_latency_cdf(const RoiReport& r, QPainter& painter, const QRectF& target) {
  const std::vector<std::string> tenants = tenant_names(r);
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
  auto* chart = new QChart();
  chart->setTitle("GPU busy fraction over time (mean over each strategy's GPUs)");
  double end = 0.0;
  std::vector<QLineSeries*> lines;
  const double horizon = r.result.horizon_s;
  const bool minutes = horizon > 1200.0;
  for (const auto& s : r.result.strategies) {
    if (s.series.device_busy_frac.empty()) continue;
    // The strategies table's definition (scenario/utilisation.hpp), per interval.
    const auto busy = scenario::fleet_busy_series(s);
    auto* line = new QLineSeries();
    line->setName(qs(s.name));
    for (std::size_t i = 0; i < busy.size(); ++i) {
      const double t = std::min(horizon, (static_cast<double>(i) + 0.5) * s.series.interval_s);
      line->append(minutes ? t / 60.0 : t, 100.0 * busy[i]);
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

}  // namespace slicewise::render
