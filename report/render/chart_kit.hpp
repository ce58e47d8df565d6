// What every chart of the report's figures is drawn with (figure_painter.cpp, scatter_chart.cpp,
// mig_layout_figure.cpp): a chart whose tick labels group thousands, value axes at nice ticks (1, 2,
// 5 × 10^k, docs/reports.md), the figures' colours, painting a chart offscreen into a rectangle
// (the category labels turned to fit, those Qt Charts still shortened counted), and bars of money
// with their values written over them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <QColor>
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

/// The ticks of a value axis: from `low` to `high` every `step`, a step of 1, 2 or 5 times a power
/// of ten; `low` and `high` are multiples of it.
struct NiceTicks {
  double low = 0.0;
  double high = 1.0;
  double step = 1.0;
  int decimals = 0;  ///< decimals a tick label needs: 0 for a step of 1 or more, 1 for 0.5, 2 for 0.05
  int count() const;
};

/// The smallest step of 1, 2 or 5 × 10^k that covers `span` in at most `max_ticks` ticks
/// (max_ticks - 1 intervals): nice_step(7.58625, 5) == 2. 1 for a span that is 0 or not finite.
double nice_step(double span, int max_ticks);

/// `low`..`high` rounded out to multiples of a nice step, with at most `max_ticks` ticks (the step
/// grows 1 → 2 → 5 → 10 when rounding out adds one): nice_ticks(1, 8.6, 5) == {0, 10, 5}. A range
/// of no width gets one of 1 above `low`.
NiceTicks nice_ticks(double low, double high, int max_ticks);

/// A tick label as the charts write it: thousands grouped, `decimals` decimals ("25,000", "0.05").
std::string tick_label(double value, int decimals);

/// The figures' colour for series `index` (strategy, line, bar set), repeating after ten.
QColor series_colour(std::size_t index);

}  // namespace slicewise::render
