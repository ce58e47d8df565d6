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

}  // namespace slicewise::render
