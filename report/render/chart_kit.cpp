// What every chart of the report's figures is drawn with (see chart_kit.hpp).
#include "report/render/chart_kit.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QGuiApplication>
#include <QLocale>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>

#include "report/text_table.hpp"

namespace slicewise::render {

namespace {

/// A nice step as mantissa (1, 2 or 5) × 10^exponent, so that multiples of it are computed exactly
/// where they can be (0.2 is the double nearest 0.2, not 2 × 0.1 rounded twice).
struct Step {
  int mantissa = 1;
  int exponent = 0;

  double times(double k) const {
    double power = 1.0;
    for (int i = 0; i < std::abs(exponent); ++i) power *= 10.0;  // exact up to 1e22
    return exponent >= 0 ? k * mantissa * power : k * mantissa / power;
  }
  double value() const { return times(1.0); }
  Step next() const {
    return mantissa == 1 ? Step{2, exponent} : mantissa == 2 ? Step{5, exponent} : Step{1, exponent + 1};
  }
};

/// The smallest nice step not below `raw` (> 0).
Step nice_step_at_least(double raw) {
  Step step{1, std::clamp(static_cast<int>(std::floor(std::log10(raw))) - 1, -300, 300)};
  // The relative slack keeps a raw step that is a nice one but for rounding (2.0000000001).
  while (step.value() < raw * (1.0 - 1e-9) && step.exponent < 300) step = step.next();
  return step;
}

QLocale chart_locale() { return QLocale(QLocale::English, QLocale::UnitedStates); }

/// Labels Qt Charts shortened to fit, over the figure being drawn (draw_figure() counts them).
thread_local int labels_shortened = 0;

/// The labels of `scene` Qt Charts shortened to fit their room ("mig_time_sl..."): it ends them
/// with "..." (ChartPresenter::truncatedText), in the QGraphicsTextItem of an axis label or title.
int shortened_labels(const QGraphicsScene& scene) {
  int shortened = 0;
  for (const QGraphicsItem* item : scene.items()) {
    const auto* text = qgraphicsitem_cast<const QGraphicsTextItem*>(item);
    if (text && text->isVisible() && text->toPlainText().endsWith(QStringLiteral("..."))) ++shortened;
  }
  return shortened;
}

/// Turns a category axis's labels (the strategies' names under the bars) to 45°, then 90°, while
/// Qt Charts still shortens some to fit its category's width: a figure of seven strategies showed
/// "mig_ti...", "time_sl...". The value axes' labels are numbers that fit.
void turn_category_labels_to_fit(QChart& chart, QChartView& view) {
  QBarCategoryAxis* categories = nullptr;
  for (QAbstractAxis* axis : chart.axes(Qt::Horizontal)) {
    if (auto* found = qobject_cast<QBarCategoryAxis*>(axis)) categories = found;
  }
  if (!categories) return;
  for (const int angle : {-45, -90}) {
    if (shortened_labels(*view.scene()) == 0) return;
    categories->setLabelsAngle(angle);
    QCoreApplication::processEvents();
  }
}

/// The font of the values written over a chart.
QFont value_font() {
  QFont font = QGuiApplication::font();
  font.setPointSizeF(8.0);
  return font;
}

/// Each bar's value in money over (under, when negative) its bar; none when they would not fit
/// their bars' width.
void draw_bar_values(QChart& chart, const ToPainter& to_painter, QBarSeries* bars,
                     const std::vector<std::vector<double>>& values, QPainter& painter) {
  const std::size_t sets = values.size();
  if (sets == 0) return;
  const double width = bars->barWidth();
  const double slot = width / static_cast<double>(sets);
  const QFontMetricsF metrics(value_font(), painter.device());
  const double slot_px = std::abs(to_painter(chart.mapToPosition(QPointF(slot, 0.0), bars)).x() -
                                  to_painter(chart.mapToPosition(QPointF(0.0, 0.0), bars)).x());
  // A lone bar has its category's gaps beside it; bars of one category touch.
  const double room_px = slot_px * (sets == 1 ? 1.6 : 1.0);
  for (const auto& set : values) {
    for (double v : set) {
      if (metrics.horizontalAdvance(QString::fromStdString(report::format_usd(v, 0))) > room_px)
        return;  // would overlap
    }
  }
  painter.save();
  painter.setFont(value_font());
  painter.setPen(QColor(0x33, 0x33, 0x33));
  for (std::size_t s = 0; s < sets; ++s) {
    for (std::size_t i = 0; i < values[s].size(); ++i) {
      const double v = values[s][i];
      const double x = static_cast<double>(i) - width / 2.0 + slot * (static_cast<double>(s) + 0.5);
      const QPointF end = to_painter(chart.mapToPosition(QPointF(x, v), bars));
      const double h = metrics.height();
      const QRectF box(end.x() - slot_px, v >= 0.0 ? end.y() - h - 2.0 : end.y() + 2.0, 2.0 * slot_px, h);
      painter.drawText(box, Qt::AlignHCenter | (v >= 0.0 ? Qt::AlignBottom : Qt::AlignTop),
                       QString::fromStdString(report::format_usd(v, 0)));
    }
  }
  painter.restore();
}

}  // namespace

int& shortened_labels_drawn() { return labels_shortened; }

QChart* new_chart(const std::string& title) {
  auto* chart = new QChart();
  chart->setTitle(QString::fromStdString(title));
  chart->setLocale(chart_locale());
  chart->setLocalizeNumbers(true);
  return chart;
}

QValueAxis* nice_axis(double low, double high, int max_ticks, const std::string& title) {
  const NiceTicks ticks = nice_ticks(low, high, max_ticks);
  auto* axis = new QValueAxis();
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(ticks.low);
  axis->setTickInterval(ticks.step);
  // Qt Charts adds the interval to the first tick while the sum stays within the range: a hair of
  // range above the last tick keeps it when the sum rounds past it.
  axis->setRange(ticks.low, ticks.high + ticks.step * 1e-6);
  axis->setLabelFormat(QString::fromStdString("%." + std::to_string(ticks.decimals) + "f"));
  axis->setTitleText(QString::fromStdString(title));
  return axis;
}

void paint_chart(QChart* chart, QPainter& painter, const QRectF& target, const ChartOverlay& overlay) {
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setBackgroundRoundness(0);
  QChartView view(chart);
  view.setRenderHint(QPainter::Antialiasing);
  view.setAttribute(Qt::WA_DontShowOnScreen);  // shown for its layout, never on screen (the GUI)
  view.resize(target.size().toSize());
  view.show();
  QCoreApplication::processEvents();
  turn_category_labels_to_fit(*chart, view);
  labels_shortened += shortened_labels(*view.scene());
  view.render(&painter, target);
  if (!overlay) return;
  const QSize viewport = view.viewport()->size();
  const double sx = target.width() / std::max(1, viewport.width());
  const double sy = target.height() / std::max(1, viewport.height());
  const QTransform to_viewport = view.viewportTransform();
  overlay(*chart, [&](const QPointF& point) {
    const QPointF v = to_viewport.map(chart->mapToScene(point));
    return QPointF(target.left() + v.x() * sx, target.top() + v.y() * sy);
  });
}

void draw_money_bars(const std::string& title, const std::vector<std::string>& categories,
                     const std::vector<std::pair<std::string, std::vector<double>>>& series,
                     const std::string& axis_title, QPainter& painter, const QRectF& target) {
  auto* bars = new QBarSeries();
  bars->setBarWidth(0.6);
  double low = 0.0, high = 0.0;
  std::vector<std::vector<double>> values;
  for (std::size_t k = 0; k < series.size(); ++k) {
    auto* set = new QBarSet(QString::fromStdString(series[k].first));
    set->setColor(series_colour(k));
    set->setBorderColor(series_colour(k));
    values.emplace_back();
    for (double value : series[k].second) {
      const double v = std::isnan(value) ? 0.0 : value;
      *set << v;
      values.back().push_back(v);
      low = std::min(low, v);
      high = std::max(high, v);
    }
    bars->append(set);
  }
  // The values are written over the chart in the report's money format (draw_bar_values), which
  // Qt Charts' own labels cannot do; room for them above (and below) the bars.
  bars->setLabelsVisible(false);
  const double room = 0.1 * std::max(1.0, high - low);
  auto* chart = new_chart(title);
  chart->addSeries(bars);
  auto* x = new QBarCategoryAxis();
  for (const auto& category : categories) x->append(QString::fromStdString(category));
  chart->addAxis(x, Qt::AlignBottom);
  bars->attachAxis(x);
  auto* y = nice_axis(low < 0.0 ? low - room : 0.0, high > 0.0 ? high + room : 0.0, 6, axis_title);
  chart->addAxis(y, Qt::AlignLeft);
  bars->attachAxis(y);
  chart->legend()->setVisible(series.size() > 1);
  chart->legend()->setAlignment(Qt::AlignBottom);
  const bool labelled = categories.size() * series.size() <= 16;
  paint_chart(chart, painter, target, [&](QChart& c, const ToPainter& to_painter) {
    if (labelled) draw_bar_values(c, to_painter, bars, values, painter);
  });
}

int NiceTicks::count() const { return static_cast<int>(std::lround((high - low) / step)) + 1; }

double nice_step(double span, int max_ticks) {
  const double raw = std::abs(span) / std::max(1, max_ticks - 1);
  if (!(raw > 0.0) || !std::isfinite(raw)) return 1.0;
  return nice_step_at_least(raw).value();
}

NiceTicks nice_ticks(double low, double high, int max_ticks) {
  if (!std::isfinite(low) || !std::isfinite(high)) low = 0.0, high = 1.0;
  if (high < low) std::swap(low, high);
  if (high - low <= 0.0) high = low + 1.0;
  const int intervals = std::max(1, max_ticks - 1);
  Step step = nice_step_at_least((high - low) / intervals);
  for (;;) {
    const double s = step.value();
    // The slack counts a bound that is a multiple but for rounding as one.
    const double k_low = std::floor(low / s + 1e-9);
    const double k_high = std::ceil(high / s - 1e-9);
    if (k_high - k_low <= intervals || step.exponent >= 300) {
      return {step.times(k_low), step.times(k_high), s, std::max(0, -step.exponent)};
    }
    step = step.next();
  }
}

std::string tick_label(double value, int decimals) {
  return chart_locale().toString(value, 'f', decimals).toStdString();
}

QColor series_colour(std::size_t index) {
  // Tableau 10: distinct in print and for the common colour-vision deficiencies.
  static const QColor colours[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
                                   QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                   QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
                                   QColor(0xba, 0xb0, 0xac)};
  return colours[index % std::size(colours)];
}

}  // namespace slicewise::render
