// One ROI report figure drawn with a QPainter: the very drawing behind the SVG, HTML and PDF
// outputs (report_render.cpp), for the GUI's figure views. Unlike report_render.hpp this header
// includes Qt, so sw_render exports Qt6::Gui. Also the axes' nice ticks, as pure functions.
#pragma once

#include <cstddef>
#include <string>

#include <QColor>
#include <QPainter>
#include <QRectF>

#include "report/roi_content.hpp"

namespace slicewise::render {

/// Width in pixels the report's figures are laid out at in every export (their heights come from
/// figure_height()).
inline constexpr int kFigureWidth = 900;

/// What draw_figure() drew, as far as a reader can tell it was whole.
struct FigureDrawn {
  /// Axis labels and titles Qt Charts shortened with "..." to fit their room: 0 when every name
  /// and number is shown whole.
  int shortened_labels = 0;
};

/// Paints `figure` (one of report::report_figures(report)) into `target`, in `painter`'s logical
/// coordinates, after filling it white. Creates an offscreen QApplication when none exists. The
/// Qt Charts figures lay out in a helper QChartView that is shown (never on screen) and settled with
/// QCoreApplication::processEvents(), so call this outside a paintEvent, e.g. into a QImage.
/// Throws InternalError for an unknown figure id.
///
/// A bar chart's category labels (the strategies' names) turn to 45°, then 90°, while Qt Charts
/// would shorten one to fit its category; what it still shortened is counted in the result.
FigureDrawn draw_figure(const report::RoiReport& report, const report::Figure& figure, QPainter& painter,
                        const QRectF& target);

/// The figure's height in pixels at kFigureWidth: 480; the latency CDF 320 per row of two tenants;
/// the MIG layout 60 + 90 per GPU cut into instances.
int figure_height(const report::RoiReport& report, const report::Figure& figure);

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
