// A widget showing one figure of an ROI report, drawn by render::draw_figure: the GUI shows the
// same pictures as the PDF and HTML reports.
#pragma once

#include <memory>

#include <QImage>
#include <QString>
#include <QTimer>
#include <QWidget>

#include "report/roi_report.hpp"

namespace slicewise::gui {

/// Paints one report figure at the view's size. draw_figure() runs the event loop once (Qt Charts
/// lay out in a helper view), which must not happen inside a paintEvent, so the view draws into a
/// picture from a timer after it is shown or resized (draw_now() draws at once) and paintEvent()
/// only copies that picture. Its height is fixed at render::figure_height(), its preferred width
/// render::kFigureWidth, as the figure appears in the exports.
class FigureView : public QWidget {
  Q_OBJECT

 public:
  /// Shows `figure`, one of report::report_figures(*report); the view shares ownership of `report`
  /// so a report replaced while a drawing is in progress stays alive. `report` must not be null.
  FigureView(std::shared_ptr<const report::RoiReport> report, report::Figure figure, QWidget* parent = nullptr);

  const report::Figure& figure() const { return figure_; }

  /// True when the picture is drawn at the view's current size.
  bool is_drawn() const;
  /// Draws the picture at the view's current size now (does nothing while already drawing or when
  /// the view has no area). A figure that cannot be drawn shows the error's message instead.
  void draw_now();

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

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
  int height_px_ = 0;
  QImage picture_;  ///< at the device pixel ratio; null until drawn
  QString error_;   ///< why the figure could not be drawn; "" when it could
  QTimer draw_timer_;
  bool drawing_ = false;
};

}  // namespace slicewise::gui
