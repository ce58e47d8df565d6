// Offscreen Qt Charts scatter charts.
#include "report/render/scatter_chart.hpp"

#include <algorithm>
#include <limits>

#include <QApplication>
#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include "core/error.hpp"
#include "report/render/bar_chart.hpp"
#include "report/render/chart_kit.hpp"
#include "report/text_table.hpp"

namespace slicewise::render {

namespace {

/// An axis over low..high rounded out to nice ticks (1, 2 or 5 × 10^k), labels with thousands
/// grouped: Qt's own ticks split the padded range in equal parts (3240, 7836, 12431).
QValueAxis* nice_value_axis(double low, double high, const std::string& title) {
  constexpr int kMaxTicks = 6;
  const NiceTicks ticks = nice_ticks(low, high, kMaxTicks);
  auto* axis = new QValueAxis();
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(ticks.low);
  axis->setTickInterval(ticks.step);
  axis->setRange(ticks.low, ticks.high + ticks.step * 1e-6);  // keeps the last tick (figure_painter.cpp)
  axis->setLabelFormat(QString::fromStdString("%." + std::to_string(ticks.decimals) + "f"));
  axis->setTitleText(QString::fromStdString(title));
  return axis;
}

}  // namespace

std::string scatter_chart_svg(const ScatterChartSpec& spec) {
  ensure_qt_application();
  auto* chart = new QChart();
  chart->setTitle(QString::fromStdString(spec.title));
  chart->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
  chart->setLocalizeNumbers(true);  // "12,000"
  chart->setAnimationOptions(QChart::NoAnimation);
  double x_lo = std::numeric_limits<double>::max(), x_hi = std::numeric_limits<double>::lowest();
  double y_lo = x_lo, y_hi = x_hi;
  std::vector<QXYSeries*> all;
  for (const auto& series : spec.series) {
    QXYSeries* xy = nullptr;
    if (series.line) {
      xy = new QLineSeries();
    } else {
      auto* dots = new QScatterSeries();
      dots->setMarkerSize(9.0);
      xy = dots;
    }
    xy->setName(QString::fromStdString(series.name));
    for (const auto& p : series.points) {
      xy->append(p.x, p.y);
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
      y_lo = std::min(y_lo, p.y);
      y_hi = std::max(y_hi, p.y);
    }
    chart->addSeries(xy);
    all.push_back(xy);
  }
  if (x_lo > x_hi) x_lo = 0.0, x_hi = 1.0, y_lo = 0.0, y_hi = 1.0;
  const double x_pad = 0.05 * (x_hi - x_lo), y_pad = 0.05 * (y_hi - y_lo);
  auto* x = nice_value_axis(std::max(0.0, x_lo - x_pad), x_hi + x_pad, spec.x_axis_title);
  auto* y = nice_value_axis(y_lo - y_pad, y_hi + y_pad, spec.y_axis_title);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto* series : all) {
    series->attachAxis(x);
    series->attachAxis(y);
  }
  QChartView view(chart);  // owns the chart
  view.setRenderHint(QPainter::Antialiasing);
  view.resize(spec.width_px, spec.height_px);
  view.show();  // lays the chart out (see bar_chart.cpp)
  QCoreApplication::processEvents();

  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(QSize(spec.width_px, spec.height_px));
  generator.setViewBox(QRect(0, 0, spec.width_px, spec.height_px));
  generator.setTitle(QString::fromStdString(report::escape_markup(spec.title)));  // written raw by Qt 6.4
  QPainter painter;
  if (!painter.begin(&generator)) throw Error("cannot draw the chart \"" + spec.title + "\"");
  view.render(&painter);
  painter.end();
  return buffer.data().toStdString();
}

}  // namespace slicewise::render
