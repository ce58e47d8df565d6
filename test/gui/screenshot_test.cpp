// Under a real X server (xvfb-run, see CMakeLists.txt): the main window after a run, grabbed from
// the screen, is a picture and not a blank rectangle. The PNG is kept for CI artifacts.
#include <map>

#include <QDir>
#include <QImage>
#include <QPixmap>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include "gui/main_window.hpp"
#include "gui/results_panel.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class ScreenshotTest : public QObject {
  Q_OBJECT

 private slots:
  void mainWindowAfterARunIsNotBlank() {
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) {
      QSKIP("needs a real X server: run under xvfb-run with QT_QPA_PLATFORM=xcb");
    }
    MainWindow window;
    window.resize(1400, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.open_scenario(QStringLiteral(SW_SOURCE_DIR "/examples/mixed-mig-h100.json")));
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QVERIFY(window.run());
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 60000));
    // Show the charts, then let the window paint.
    if (auto* tabs = window.results()->findChild<QTabWidget*>()) tabs->setCurrentIndex(1);
    QTest::qWait(500);

    const QImage image = window.screen()->grabWindow(window.winId()).toImage().convertToFormat(QImage::Format_RGB32);
    QVERIFY(!image.isNull());
    QVERIFY2(image.width() >= 1000 && image.height() >= 600,
             qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
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
    const QString path = QDir(QStringLiteral(SW_BINARY_DIR)).filePath(QStringLiteral("gui-screenshot.png"));
    image.save(path);
    qInfo("screenshot: %s, %zu colours, the commonest covers %.1f %%", qPrintable(path), colours.size(),
          100.0 * most / total);
    QVERIFY2(colours.size() > 64, "too few colours: a blank window?");
    QVERIFY2(most < 0.9 * total, "one colour covers 90 % of the window");
  }
};

int run_screenshot_test(int argc, char** argv) {
  ScreenshotTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "screenshot_test.moc"
