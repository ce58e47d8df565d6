// What every chart of the report's figures is drawn with (figure_painter.cpp): a chart whose tick
// labels group thousands, value axes at nice ticks, painting a chart offscreen into a rectangle
// (the category labels turned to fit, those Qt Charts still shortened counted), and bars of money
// with their values written over them. Internal to sw_render.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <QPainter>
#include <QPointF>
#include <QRectF>
#include <QtCharts/QChart>
#include <QtCharts/QValueAxis>

namespace slicewise::render {

/// A chart titled `title` whose tick labels group thousands (Qt Charts formats "%.Nf" labels with
/// the chart's locale when it localizes numbers).
QChart* new_chart(const std::string& title);

/// A value axis over `low`..`high` rounded out to nice ticks (at most `max_ticks`), titled with its
/// unit.
QValueAxis* nice_axis(double low, double high, int max_ticks, const std::string& title);

/// Maps a point in the chart's coordinates to the painter's, once the chart is drawn.
using ToPainter = std::function<QPointF(const QPointF&)>;
/// Drawn over a chart after it, e.g. bar values.
using ChartOverlay = std::function<void(QChart&, const ToPainter&)>;

/// Renders a chart (taking ownership) into `target`, then `overlay` over it. The view must be shown
/// once for the chart to lay out its labels (see bar_chart.cpp); in the GUI it must not appear on
/// screen.
void paint_chart(QChart* chart, QPainter& painter, const QRectF& target, const ChartOverlay& overlay = {});

/// Labels Qt Charts shortened to fit over the figure being drawn: draw_figure() zeroes it, each
/// paint_chart() adds its own.
int& shortened_labels_drawn();

/// Bars of money per category, one bar set per series, their values written over them when they
/// fit their bars.
void draw_money_bars(const std::string& title, const std::vector<std::string>& categories,
                     const std::vector<std::pair<std::string, std::vector<double>>>& series,
                     const std::string& axis_title, QPainter& painter, const QRectF& target);

}  // namespace slicewise::render
