// The Advise action, offscreen, with the real `slicewise advise` (SLICEWISE_CLI): open the seed,
// ask for advice, see the answer, the Pareto chart and the explanation, export the configs; cancel
// a long search.
#include <memory>

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include "gui/advice_dialog.hpp"
#include "gui/advise_runner.hpp"
#include "gui/main_window.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class AdviseTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void cleanup() { window_.reset(); }

  void advisesTheSeedShowsTheFrontAndExportsTheConfigs() {
    // The seed with a 3 s target: sharing one L40S meets it (the example's 2 s does not).
    QVERIFY(window_->open_scenario(QStringLiteral(SW_SOURCE_DIR "/test/data/scenarios/seed-relaxed-sla.json")));
    QVERIFY(window_->findChild<QAction*>("adviseAction")->isEnabled());
    QSignalSpy shown(window_.get(), &MainWindow::adviceShown);
    QSignalSpy stopped(window_.get(), &MainWindow::adviceStopped);
    QVERIFY(window_->advise());
    QVERIFY(!window_->advise());  // one search at a time
    QVERIFY(QTest::qWaitFor([&] { return shown.count() + stopped.count() > 0; }, 60000));
    QVERIFY2(stopped.isEmpty(), stopped.isEmpty() ? "" : qPrintable(stopped.front().front().toString()));
    auto* dialog = window_->advice_dialog();
    QVERIFY(dialog);
    QVERIFY2(dialog->summary().startsWith(QStringLiteral("hami on L40S (on_demand): 1 GPU(s), $1636.72 a month")),
             qPrintable(dialog->summary()));
    // Which saving it is, and why the run summary may answer otherwise.
    QVERIFY2(dialog->summary().contains(QStringLiteral("against dedicated on L40S (baseline) on the same option")),
             qPrintable(dialog->summary()));
    QVERIFY(dialog->summary().contains(
        QStringLiteral("the run summary compares only the scenario's strategies as given, so the two can differ")));
    QVERIFY(!dialog->pareto()->pixmap().isNull());
    QVERIFY(dialog->explanation()->toPlainText().contains(QStringLiteral("Answer: hami on L40S")));
    QTemporaryDir out;
    QString error;
    QVERIFY2(dialog->export_configs(out.path(), &error), qPrintable(error));
    for (const char* name : {"README.md", "deployments.yaml"}) {  // HAMi: its own scheduler, no device-plugin config
      QVERIFY2(QFileInfo(QDir(out.path()).filePath(QString::fromLatin1(name))).isFile(), name);
    }
    QVERIFY(!dialog->export_configs(QStringLiteral("/proc/no-such-folder/x"), &error));
    QVERIFY(!error.isEmpty());
  }

  void cancelStopsALongSearchAndShowsNothing() {
    QVERIFY(window_->open_scenario(QStringLiteral(SW_SOURCE_DIR "/examples/ten-light-jobs-a100.json")));
    QSignalSpy stopped(window_.get(), &MainWindow::adviceStopped);
    QSignalSpy progress(window_->advise_runner(), &AdviseRunner::progress);
    QVERIFY(window_->advise());
    QVERIFY(QTest::qWaitFor([&] { return progress.count() > 0; }, 30000));
    window_->advise_runner()->cancel();
    QVERIFY(QTest::qWaitFor([&] { return stopped.count() > 0; }, 15000));
    QCOMPARE(stopped.front().front().toString(), QString());
    QVERIFY(window_->advice_dialog() == nullptr);
  }
};

int run_advise_test(int argc, char** argv) {
  AdviseTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "advise_test.moc"
