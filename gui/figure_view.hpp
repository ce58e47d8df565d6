// A widget showing one figure of an ROI report, drawn by render::draw_figure: the GUI shows the
// same pictures as the PDF and HTML reports.
#pragma once

#include <memory>

#include <QImage>
#include <QSize>
#include <QString>
#include <QTimer>
#include <QWidget>

#include "report/roi_content.hpp"

namespace slicewise::gui {

/// Paints one report figure at the view's size. draw_figure() runs the event loop once (Qt Charts
/// lay out in a helper view), which must not happen inside a paintEvent, so the view draws into a
/// picture from a timer after it is shown or resized (draw_now() draws at once) and paintEvent()
/// only copies that picture.
///
/// The view keeps the figure's own aspect, as it appears in the exports: render::kFigureWidth by
/// render::figure_height() (its sizeHint()), and heightForWidth() for any other width, so a layout
/// makes it as wide as it has room for. A view narrower than kMinimumDrawWidthPx shows the figure
/// drawn at that width and scaled down, so axis labels and the legend keep the room they have in
/// the exports instead of being cut short.
class FigureView : public QWidget {
  Q_OBJECT

 public:
  /// Narrowest width, in logical pixels, a figure is drawn at.
  static constexpr int kMinimumDrawWidthPx = 720;
  /// Narrowest the view gets in a layout; a figure drawn at kMinimumDrawWidthPx is scaled to it.
  static constexpr int kMinimumWidthPx = 360;
  /// Widest the view gets: wider, a figure at its aspect would be taller than a screen.
  static constexpr int kMaximumWidthPx = 1400;

  /// Shows `figure`, one of report::report_figures(*report); the view shares ownership of `report`
  /// so a report replaced while a drawing is in progress stays alive. `report` must not be null.
  FigureView(std::shared_ptr<const report::RoiReport> report, report::Figure figure, QWidget* parent = nullptr);

  const report::Figure& figure() const { return figure_; }

  /// True when the picture is drawn for the view's current size.
  bool is_drawn() const;
  /// Draws the picture for the view's current size now (does nothing while already drawing or when
  /// the view has no area). A figure that cannot be drawn shows the error's message instead.
  void draw_now();
  /// The size, in logical pixels, the figure was last drawn at: the view's size then, scaled up
  /// (same aspect) to kMinimumDrawWidthPx wide when it was narrower; empty before the first drawing.
  QSize drawn_size() const { return drawn_size_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  /// `width` (at most kMaximumWidthPx) × the figure's own height / width.
  int heightForWidth(int width) const override;

 signals:
  /// The picture was (re)drawn; the view repaints with it.
  void drawn();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void schedule_draw();

  std::shared_ptr<const report::RoiReport> report_;
  report::Figure figure_;
  int height_px_ = 0;  ///< at render::kFigureWidth
  QImage picture_;     ///< at the device pixel ratio; null until drawn
  QSize drawn_for_;    ///< the view's size picture_ was drawn for
  QSize drawn_size_;   ///< the logical size picture_ was drawn at
  QString error_;      ///< why the figure could not be drawn; "" when it could
  QTimer draw_timer_;
  bool drawing_ = false;
};

}  // namespace slicewise::gui
