// The arrival-rate preview (see arrival_chart.hpp).
#include "gui/arrival_chart.hpp"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/json_reader.hpp"

namespace slicewise::gui {

ArrivalChart::ArrivalChart(QWidget* parent)
    : QWidget(parent), chart_(new QChart), series_(new QLineSeries), x_axis_(new QValueAxis), y_axis_(new QValueAxis) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  chart_->addSeries(series_);
  chart_->legend()->hide();
  chart_->setMargins(QMargins(4, 4, 4, 4));
  x_axis_->setTitleText(tr("simulated time (s)"));
  y_axis_->setTitleText(tr("arrivals per second"));
  x_axis_->setLabelFormat(QStringLiteral("%g"));
  y_axis_->setLabelFormat(QStringLiteral("%g"));
  chart_->addAxis(x_axis_, Qt::AlignBottom);
  chart_->addAxis(y_axis_, Qt::AlignLeft);
  series_->attachAxis(x_axis_);
  series_->attachAxis(y_axis_);
  view_ = new QChartView(chart_, this);
  view_->setObjectName(QStringLiteral("arrivalChart"));
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(180);
  layout->addWidget(view_, 1);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("arrivalSummary"));
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  clear();
}

void ArrivalChart::clear() {
  series_->clear();
  chart_->setTitle(QString());
  summary_->setText(tr("Select a tenant to preview its arrivals."));
}

void ArrivalChart::set_preview(const ArrivalPreview& preview, const QString& tenant) {
  series_->clear();
  chart_->setTitle(tr("Arrivals of %1").arg(tenant));
  if (!preview.note.empty()) {
    summary_->setText(QString::fromStdString(preview.note));
    view_->setVisible(false);
    return;
  }
  view_->setVisible(true);
  QList<QPointF> points;
  for (std::size_t b = 0; b < preview.rate_per_s.size(); ++b) {
    // A step line: each bin's rate held over its width.
    const double start = static_cast<double>(b) * preview.bin_s;
    points << QPointF(start, preview.rate_per_s[b]) << QPointF(start + preview.bin_s, preview.rate_per_s[b]);
  }
  series_->replace(points);
  const double end = points.isEmpty() ? 1.0 : points.back().x();
  x_axis_->setRange(0.0, end);
  y_axis_->setRange(0.0, preview.peak_rate_per_s > 0.0 ? preview.peak_rate_per_s * 1.1 : 1.0);
  y_axis_->applyNiceNumbers();
  x_axis_->applyNiceNumbers();
  QString text = tr("%1 arrivals, mean %2/s, peak %3/s over %4 s bins")
                     .arg(preview.num_arrivals)
                     .arg(QString::number(preview.mean_rate_per_s, 'g', 4))
                     .arg(QString::number(preview.peak_rate_per_s, 'g', 4))
                     .arg(QString::fromStdString(format_number(preview.bin_s)));
  if (preview.truncated) text += tr(" (first %1 requests only)").arg(preview.num_arrivals);
  summary_->setText(text);
}

QList<QPointF> ArrivalChart::points() const { return series_->points(); }

QString ArrivalChart::summary() const { return summary_->text(); }

}  // namespace slicewise::gui
