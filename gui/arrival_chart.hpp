// The tenant form's preview of a load's arrival rate over the horizon (a Qt Charts line), or the
// reason there is none (a closed loop, an unreadable trace).
#pragma once

#include <QWidget>

#include "gui/arrival_preview.hpp"

class QLabel;
QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace slicewise::gui {

/// Object names: "arrivalChart" (QChartView), "arrivalSummary" (QLabel: arrivals, mean and peak
/// rate, or the note).
class ArrivalChart : public QWidget {
  Q_OBJECT

 public:
  explicit ArrivalChart(QWidget* parent = nullptr);
  void set_preview(const ArrivalPreview& preview, const QString& tenant);
  void clear();
  /// Points of the line now shown (time s, rate /s), for tests.
  QList<QPointF> points() const;
  QString summary() const;

 private:
  QChart* chart_;
  QChartView* view_;
  QLineSeries* series_;
  QValueAxis* x_axis_;
  QValueAxis* y_axis_;
  QLabel* summary_;
};

}  // namespace slicewise::gui
