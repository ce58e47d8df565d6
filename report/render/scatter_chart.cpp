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
#include "report/text_table.hpp"

namespace slicewise::render {

std::string scatter_chart_svg(const ScatterChartSpec& spec) {
  ensure_qt_application();
  auto* chart = new QChart();
  chart->setTitle(QString::fromStdString(spec.title));
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
  const double x_pad = std::max(1e-9, 0.05 * (x_hi - x_lo)), y_pad = std::max(1e-9, 0.05 * (y_hi - y_lo));
  auto* x = new QValueAxis();
  x->setRange(std::max(0.0, x_lo - x_pad), x_hi + x_pad);
  x->setTitleText(QString::fromStdString(spec.x_axis_title));
  x->setLabelFormat("%.0f");
  auto* y = new QValueAxis();
  y->setRange(y_lo - y_pad, y_hi + y_pad);
  y->setTitleText(QString::fromStdString(spec.y_axis_title));
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
