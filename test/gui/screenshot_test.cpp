// Under a real X server (xvfb-run, see CMakeLists.txt): the main window after a run of
// examples/mixed-mig-h100.json, at a fixed size (kWindowSize) so the pictures keep their layout from
// one run to the next, grabbed from the screen. They are docs/gui.md's screenshots
// (scripts/update-screenshots copies them to docs/images/), so each slot first checks what the page
// says they show, then that the picture is not a blank rectangle, and saves it in the build folder:
// - gui-main.png: the summary (recommendation, savings, SLA risk), the strategy table and the
//   tenants' latencies, whole;
// - gui-charts.png: the Charts tab, each figure as wide as the area, at its own aspect;
// - gui-mig-layout.png: the Strategies tab on the mig strategy, with the MIG layout editor.
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include <QDir>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QPixmap>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextDocument>

#include "gui/figure_view.hpp"
#include "gui/main_window.hpp"
#include "gui/mig_layout_editor.hpp"
#include "gui/results_panel.hpp"
#include "gui/scenario_editor.hpp"
#include "gui_test.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

namespace slicewise::gui::test {

namespace {

/// The window's size in every screenshot (xvfb-run's screen is 1600x1000).
constexpr int kWindowWidth = 1400;
constexpr int kWindowHeight = 900;
/// The figures' least width at kWindowWidth: about the exports' (render::kFigureWidth, 900 px).
constexpr int kFigureWidthAtWindowPx = 700;

/// Why `image` looks blank, or "" when it does not: at most 64 colours, or one covering 90 % of it
/// (every other pixel of every other line counted).
QString blankness(const QImage& image) {
  std::map<QRgb, int> colours;
  for (int y = 0; y < image.height(); y += 2) {
    const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    for (int x = 0; x < image.width(); x += 2) ++colours[line[x]];
  }
  int most = 0;
  int total = 0;
  for (const auto& [colour, count] : colours) {
    most = std::max(most, count);
    total += count;
  }
  if (colours.size() <= 64) return QStringLiteral("%1 colours: a blank window?").arg(colours.size());
  if (most >= 0.9 * total) return QStringLiteral("one colour covers %1 % of the window").arg(100.0 * most / total);
  return {};
}

/// `label`'s text as shown, without markup.
QString plain_text(const QLabel* label) {
  if (label->textFormat() == Qt::PlainText) return label->text();
  QTextDocument html;
  html.setHtml(label->text());
  return html.toPlainText();
}

}  // namespace

class ScreenshotTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

  template <typename T>
  T* child(const char* name) const {
    auto* found = window_->findChild<T*>(name);
    if (!found) qFatal("no child \"%s\"", name);
    return found;
  }

  /// Lets the window lay out and paint, grabs it from the X server, checks it is a picture, and
  /// saves it as SW_BINARY_DIR/<name>.
  void shoot(const char* name) {
    QTest::qWait(500);
    const QImage image =
        window_->screen()->grabWindow(window_->winId()).toImage().convertToFormat(QImage::Format_RGB32);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(kWindowWidth, kWindowHeight));
    const QString why = blankness(image);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString path = QDir(QStringLiteral(SW_BINARY_DIR)).filePath(QString::fromLatin1(name));
    QVERIFY2(image.save(path), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));
  }

 private slots:
  void initTestCase() {
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) {
      QSKIP("needs a real X server: run under xvfb-run with QT_QPA_PLATFORM=xcb");
    }
    QStandardPaths::setTestModeEnabled(true);  // the recent files go to a test settings file
    window_ = std::make_unique<MainWindow>();
    window_->resize(kWindowWidth, kWindowHeight);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(window_->open_scenario(QStringLiteral(SW_SOURCE_DIR "/examples/mixed-mig-h100.json")));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QSignalSpy stopped(window_.get(), &MainWindow::runStopped);
    QVERIFY(window_->run());
    QVERIFY(QTest::qWaitFor([&] { return finished.count() + stopped.count() > 0; }, 60000));
    QVERIFY2(stopped.isEmpty(), stopped.isEmpty() ? "" : qPrintable(stopped.front().front().toString()));
  }

  void cleanupTestCase() { window_.reset(); }

  /// gui-main.png: the answer at the top, then the strategy table with nothing cut short.
  void theSummaryAndTheWholeTable() {
    child<QTabWidget>("editorTabs")->setCurrentIndex(0);
    child<QTabWidget>("resultTabs")->setCurrentIndex(0);
    QTest::qWait(200);

    // The summary names the recommended strategy and what it saves, in full.
    const report::RoiReport& report = *window_->results()->current_report();
    QVERIFY(report.recommended >= 0);
    const auto& best = report.strategies[static_cast<std::size_t>(report.recommended)];
    auto* headline = child<QLabel>("summaryHeadline");
    QVERIFY(headline->isVisible());
    const QString shown = plain_text(headline);
    QVERIFY2(shown.startsWith(QString::fromStdString("Recommended strategy: " + best.name + " (MIG ")),
             qPrintable(shown));
    QVERIFY2(shown.contains(QString::fromStdString(report::format_usd(best.monthly_savings_usd))), qPrintable(shown));
    QVERIFY(plain_text(child<QLabel>("summaryAnswer")).startsWith(QStringLiteral("The answer: Run MIG ")));
    for (const char* name :
         {"summaryAnswer", "summaryHeadline", "summaryRecommendation", "summarySavings", "summarySlaRisk"}) {
      auto* label = child<QLabel>(name);
      QVERIFY2(label->isVisible() && !label->text().isEmpty(), name);
      QVERIFY2(label->height() >= label->heightForWidth(label->width()),
               qPrintable(QStringLiteral("%1 is cut: %2 px of %3")
                              .arg(name)
                              .arg(label->height())
                              .arg(label->heightForWidth(label->width()))));
    }

    // Every column as wide as its header and its widest cell; every row on screen.
    auto* table = child<QTableView>("resultTable");
    QCOMPARE(table->model()->rowCount(), int(report.strategies.size()));
    const QString cut = column_cut_short(table);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
    QVERIFY2(table->viewport()->height() >= table->verticalHeader()->length(),
             qPrintable(QStringLiteral("%1 px for rows of %2")
                            .arg(table->viewport()->height())
                            .arg(table->verticalHeader()->length())));
    QCOMPARE(table->verticalScrollBar()->maximum(), 0);
    // Whole across too: it scrolled sideways with half the pane empty below it, when it carried
    // each tenant's latencies and reserved a header's height for every sort indicator.
    QVERIFY2(table->horizontalScrollBar()->maximum() == 0, qPrintable(QStringLiteral("%1 px of columns in %2 px")
                                                                          .arg(table->horizontalHeader()->length())
                                                                          .arg(table->viewport()->width())));
    // The tenants' latencies below it, one row per tenant: whole, across and down.
    auto* latency = child<QTableView>("latencyTable");
    QCOMPARE(latency->model()->rowCount(), 4);
    QVERIFY2(column_cut_short(latency).isEmpty(), qPrintable(column_cut_short(latency)));
    QVERIFY2(latency->horizontalScrollBar()->maximum() == 0, qPrintable(QStringLiteral("%1 px of columns in %2 px")
                                                                            .arg(latency->horizontalHeader()->length())
                                                                            .arg(latency->viewport()->width())));
    QCOMPARE(latency->verticalScrollBar()->maximum(), 0);
    shoot("gui-main.png");
  }

  /// gui-charts.png: the figures at their own aspect, about the exports' width, legends whole.
  void theChartsFitTheArea() {
    child<QTabWidget>("resultTabs")->setCurrentIndex(1);
    auto* area = child<QScrollArea>("chartArea");
    const auto views = area->widget()->findChildren<FigureView*>();
    QCOMPARE(views.size(), qsizetype(report::report_figures(*window_->results()->current_report()).size()));
    for (FigureView* view : views) {
      const QString id = QString::fromStdString(view->figure().id);
      QTRY_VERIFY2_WITH_TIMEOUT(view->is_drawn(), qPrintable(id), 20000);
      QCOMPARE(view->height(), view->heightForWidth(view->width()));
      // Drawn at least as wide as the axis labels and legend need, scaled to the view if narrower.
      QVERIFY2(view->drawn_size().width() >= FigureView::kMinimumDrawWidthPx,
               qPrintable(QStringLiteral("%1 drawn %2 px wide").arg(id).arg(view->drawn_size().width())));
      QVERIFY2(view->width() >= kFigureWidthAtWindowPx,
               qPrintable(QStringLiteral("%1 is %2 px wide").arg(id).arg(view->width())));
    }
    QVERIFY(!area->horizontalScrollBar()->isVisible());
    shoot("gui-charts.png");
  }

  /// gui-mig-layout.png: the mig strategy's layout in the editor, next to the results.
  void theMigLayoutEditor() {
    child<QTabWidget>("editorTabs")->setCurrentIndex(3);
    child<QTabWidget>("resultTabs")->setCurrentIndex(0);
    window_->editor()->select_strategy(1);  // mig, 3g.40gb+2g.20gb+1g.10gb+1g.10gb
    auto* mig = child<MigLayoutEditor>("migEditor");
    QTRY_VERIFY_WITH_TIMEOUT(mig->isVisible(), 5000);
    const QString status = child<QLabel>("migStatus")->text();
    QVERIFY2(status.startsWith(QStringLiteral("H100-SXM-80GB: 7 of 7 compute slices")), qPrintable(status));
    shoot("gui-mig-layout.png");
  }

  /// At the screen's full 1600x1000, every shipped example's tenants, strategies and fleet show
  /// every name whole (the Tenants table cut "llm-8b" to "llm-…" and two notebooks became
  /// indistinguishable; the Strategies list showed "ded…", "mi…").
  void theShippedExamplesShowEveryNameWhole() {
    window_->resize(1600, 1000);
    QDir examples(QStringLiteral(SW_SOURCE_DIR "/examples"));
    int opened = 0;
    for (const QString& file : examples.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
      if (file.startsWith(QStringLiteral("sweep-"))) continue;  // a sweep, not a scenario
      QVERIFY2(window_->open_scenario(examples.filePath(file)), qPrintable(file));
      ++opened;
      auto* tabs = child<QTabWidget>("editorTabs");
      for (int tab = 0; tab < tabs->count(); ++tab) {
        tabs->setCurrentIndex(tab);
        QTest::qWait(50);
        for (const char* name : {"fleetView", "tenantView", "strategyView"}) {
          auto* view = child<QTableView>(name);
          if (!view->isVisible()) continue;
          const QString cut = column_cut_short(view);
          QVERIFY2(cut.isEmpty(), qPrintable(file + ": " + name + ": " + cut));
        }
        // The arrival preview is a chart, not a 70 px strip with labels "0 … …".
        if (auto* preview = child<QWidget>("arrivalPreview"); preview->isVisible()) {
          QVERIFY2(preview->height() >= 180,
                   qPrintable(file + QStringLiteral(": preview %1 px").arg(preview->height())));
        }
      }
    }
    QVERIFY(opened >= 10);
    window_->resize(kWindowWidth, kWindowHeight);
    QVERIFY(window_->open_scenario(QStringLiteral(SW_SOURCE_DIR "/examples/mixed-mig-h100.json")));
  }
};

int run_screenshot_test(int argc, char** argv) {
  ScreenshotTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "screenshot_test.moc"
