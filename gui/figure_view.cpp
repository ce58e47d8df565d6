// A widget showing one ROI report figure (see figure_view.hpp).
#include "gui/figure_view.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include <QPainter>
#include <QPointer>
#include <QResizeEvent>

#include "gui/model_text.hpp"
#include "report/render/figure_painter.hpp"

namespace slicewise::gui {

namespace {
/// Delay before a resized view redraws, so that dragging a window edge draws once at the end.
constexpr int kRedrawDelayMs = 60;
}  // namespace

FigureView::FigureView(std::shared_ptr<const report::RoiReport> report, report::Figure figure, QWidget* parent)
    : QWidget(parent), report_(std::move(report)), figure_(std::move(figure)) {
  height_px_ = std::max(1, render::figure_height(*report_, figure_));
  QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
  setMaximumWidth(kMaximumWidthPx);
  setAttribute(Qt::WA_OpaquePaintEvent);
  draw_timer_.setSingleShot(true);
  draw_timer_.setInterval(0);
  connect(&draw_timer_, &QTimer::timeout, this, [this] {
    if (isVisible()) draw_now();
  });
}

bool FigureView::is_drawn() const { return (!picture_.isNull() && drawn_for_ == size()) || !error_.isEmpty(); }

void FigureView::draw_now() {
  if (drawing_ || width() <= 0 || height() <= 0) return;
  drawing_ = true;
  // draw_figure runs the event loop, which may resize or even delete this view: draw with local
  // copies and look at `self` afterwards.
  const QPointer<FigureView> self(this);
  const auto report = report_;
  const auto figure = figure_;
  const QSize view_px = size();
  // Narrower than kMinimumDrawWidthPx, Qt Charts would elide the axis labels and the legend: draw
  // wider at the same aspect, and let paintEvent scale the picture down.
  const QSize size_px =
      view_px.width() >= kMinimumDrawWidthPx
          ? view_px
          : QSize(kMinimumDrawWidthPx, static_cast<int>(std::lround(static_cast<double>(view_px.height()) *
                                                                    kMinimumDrawWidthPx / view_px.width())));
  const qreal ratio = devicePixelRatioF();
  QImage image((QSizeF(size_px) * ratio).toSize(), QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(ratio);
  image.fill(Qt::white);
  QString error;
  try {
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);  // as the PDF's figure images
    render::draw_figure(*report, figure, painter, QRectF(QPointF(0, 0), QSizeF(size_px)));
  } catch (const std::exception& e) {
    error = to_qstring(e.what());
  }
  if (!self) return;
  drawing_ = false;
  picture_ = std::move(image);
  drawn_for_ = view_px;
  drawn_size_ = size_px;
  error_ = error;
  if (size() != view_px) schedule_draw();
  update();
  emit drawn();
}

QSize FigureView::sizeHint() const { return {render::kFigureWidth, height_px_}; }

QSize FigureView::minimumSizeHint() const { return {kMinimumWidthPx, heightForWidth(kMinimumWidthPx)}; }

int FigureView::heightForWidth(int width) const {
  // A layout may ask for a width beyond the view's maximum, which it then does not get.
  const int shown = std::min(width, maximumWidth());
  return static_cast<int>(std::lround(static_cast<double>(shown) * height_px_ / render::kFigureWidth));
}

void FigureView::paintEvent(QPaintEvent* /*event*/) {
  QPainter painter(this);
  if (!error_.isEmpty() || picture_.isNull()) {
    painter.fillRect(rect(), Qt::white);
    painter.setPen(error_.isEmpty() ? Qt::gray : Qt::red);
    const QString text = error_.isEmpty() ? tr("Drawing %1…").arg(to_qstring(figure_.title)) : error_;
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, text);
    return;
  }
  painter.setRenderHint(QPainter::SmoothPixmapTransform);
  // Scaled down when drawn wider than the view; stretched only until the redraw at a new size.
  painter.drawImage(QRectF(rect()), picture_);
}

void FigureView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (!is_drawn()) schedule_draw();
}

void FigureView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (!is_drawn()) schedule_draw();
}

void FigureView::schedule_draw() {
  draw_timer_.setInterval(picture_.isNull() ? 0 : kRedrawDelayMs);
  draw_timer_.start();
}

}  // namespace slicewise::gui
