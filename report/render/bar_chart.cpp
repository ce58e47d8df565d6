// Offscreen Qt Charts rendering.
#include "report/render/bar_chart.hpp"

#include <cstdio>
#include <memory>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include <QApplication>
#include <QPainter>
#include <QSvgGenerator>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include "core/error.hpp"
#include "report/text_table.hpp"

namespace slicewise::render {

namespace {
/// The offscreen platform warns about things that do not matter when nothing is on screen; the
/// CLI's stderr is for the user, so those lines are dropped and everything else passes through.
void quiet_offscreen_messages(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (message.contains("propagateSizeHints") || message.contains("XDG_RUNTIME_DIR")) return;
  std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}
}  // namespace

void ensure_qt_application() {
  if (QCoreApplication::instance()) return;
  qputenv("QT_QPA_PLATFORM", "offscreen");
  qInstallMessageHandler(quiet_offscreen_messages);
  static int argc = 1;
  static char name[] = "slicewise";
  static char* argv[] = {name, nullptr};
  // Lives until exit on purpose: destroying a QApplication during static destruction crashes Qt.
  static auto* app = new QApplication(argc, argv);
#if defined(__SANITIZE_ADDRESS__)
  __lsan_ignore_object(app);
#else
  (void)app;
#endif
}

void render_bar_chart_svg(const BarChartSpec& spec, const std::filesystem::path& out) {
  for (const auto& series : spec.series) {
    if (series.values.size() != spec.categories.size()) {
      throw Error("chart \"" + spec.title + "\": series \"" + series.name + "\" has " +
                  std::to_string(series.values.size()) + " values for " + std::to_string(spec.categories.size()) +
                  " categories");
    }
  }
  ensure_qt_application();

  auto* bars = new QBarSeries();
  double top = 0.0;
  for (const auto& series : spec.series) {
    auto* set = new QBarSet(QString::fromStdString(series.name));
    for (double value : series.values) {
      *set << value;
      top = std::max(top, value);
    }
    bars->append(set);
  }
  auto* chart = new QChart();
  chart->addSeries(bars);
  chart->setTitle(QString::fromStdString(spec.title));
  chart->setAnimationOptions(QChart::NoAnimation);

  auto* categories = new QBarCategoryAxis();
  for (const auto& category : spec.categories) categories->append(QString::fromStdString(category));
  chart->addAxis(categories, Qt::AlignBottom);
  bars->attachAxis(categories);
  auto* values = new QValueAxis();
  values->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
  values->setTitleText(QString::fromStdString(spec.value_axis_title));
  chart->addAxis(values, Qt::AlignLeft);
  bars->attachAxis(values);
  chart->legend()->setVisible(spec.series.size() > 1);

  QChartView view(chart);  // owns the chart
  view.setRenderHint(QPainter::Antialiasing);
  view.resize(spec.width_px, spec.height_px);
  // The chart lays itself out on the view's resize event, which only comes once the view is shown
  // (offscreen in the CLI): without it the labels are elided to "...".
  view.show();
  QCoreApplication::processEvents();

  QSvgGenerator generator;
  generator.setFileName(QString::fromStdString(out.string()));
  generator.setSize(QSize(spec.width_px, spec.height_px));
  generator.setViewBox(QRect(0, 0, spec.width_px, spec.height_px));
  generator.setTitle(QString::fromStdString(report::escape_markup(spec.title)));  // written raw by Qt 6.4
  QPainter painter;
  if (!painter.begin(&generator)) throw Error("cannot write " + out.string());
  view.render(&painter);
  painter.end();
}

}  // namespace slicewise::render
