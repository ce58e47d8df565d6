// MainWindow, shown offscreen: opening a valid scenario fills the views; a broken one lists its
// diagnostics and keeps the previous scenario on screen.
#include <memory>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "gui/main_window.hpp"
#include "gui_test.hpp"

namespace slicewise::gui::test {

class MainWindowTest : public QObject {
  Q_OBJECT

 private:
  QString write(const QString& name, const QByteArray& text) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    file.write(text);
    return path;
  }

  QAbstractItemModel* model_of(const char* view_name) const {
    auto* view = window_->findChild<QTableView*>(view_name);
    return view ? view->model() : nullptr;
  }

  QString cell(const char* view_name, int row, int column) const {
    QAbstractItemModel* model = model_of(view_name);
    return model->data(model->index(row, column)).toString();
  }

  QStringList diagnostics() const {
    QStringList lines;
    auto* list = window_->findChild<QListWidget*>("diagnosticsList");
    for (int row = 0; row < list->count(); ++row) lines << list->item(row)->text();
    return lines;
  }

  QTemporaryDir dir_;
  QString valid_path_;
  QString broken_path_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    valid_path_ = write("valid.json", valid_scenario_json());
    broken_path_ = write("broken.json", broken_scenario_json());
  }

  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void cleanup() { window_.reset(); }

  void hasNamedWidgets() {
    for (const char* name : {"fleetView", "tenantView", "strategyView"}) {
      QVERIFY2(window_->findChild<QTableView*>(name), name);
    }
    QVERIFY(window_->findChild<QListWidget*>("diagnosticsList"));
    QVERIFY(window_->findChild<QLabel*>("scenarioHeader"));
    QVERIFY(window_->findChild<QAction*>("openAction"));
    QVERIFY(window_->findChild<QAction*>("quitAction"));
    QCOMPARE(model_of("tenantView")->rowCount(), 0);
    QVERIFY(!window_->current_scenario());
  }

  void openValidScenarioShowsRows() {
    QSignalSpy loaded(window_.get(), &MainWindow::scenarioLoaded);
    QAbstractItemModelTester tester(model_of("tenantView"), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(window_->open_scenario(valid_path_));
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(loaded.front().front().toString(), valid_path_);

    QCOMPARE(model_of("fleetView")->rowCount(), 1);
    QCOMPARE(cell("fleetView", 0, 0), QStringLiteral("L40S"));
    QCOMPARE(model_of("tenantView")->rowCount(), 2);
    QCOMPARE(cell("tenantView", 0, 0), QStringLiteral("alpha"));
    QCOMPARE(cell("tenantView", 0, 3), QStringLiteral("19.2"));
    QCOMPARE(cell("tenantView", 1, 5), QStringLiteral("poisson 2/s"));
    QCOMPARE(model_of("strategyView")->rowCount(), 2);
    QCOMPARE(cell("strategyView", 1, 0), QStringLiteral("time_slicing"));
    QCOMPARE(cell("strategyView", 1, 2), QStringLiteral("replicas=4"));

    QVERIFY(window_->findChild<QLabel*>("scenarioHeader")->text().contains("gui-test"));
    QVERIFY(window_->findChild<QLabel*>("scenarioHeader")->text().contains("Two generic tenants on one L40S."));
    QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Loaded %1: 2 tenants, 2 strategies").arg(valid_path_));
    QVERIFY(diagnostics().isEmpty());
    QVERIFY(window_->findChild<QListWidget*>("diagnosticsList")->isHidden());
  }

  void brokenScenarioListsDiagnosticsAndKeepsPrevious() {
    QVERIFY(window_->open_scenario(valid_path_));
    QSignalSpy loaded(window_.get(), &MainWindow::scenarioLoaded);

    QVERIFY(!window_->open_scenario(broken_path_));
    QCOMPARE(diagnostics(),
             QStringList{broken_path_ + QStringLiteral(": /horizon: unknown key (did you mean \"horizon_s\"?)")});
    QCOMPARE(window_->findChild<QListWidget*>("diagnosticsList")->item(0)->data(Qt::UserRole).toString(),
             QStringLiteral("/horizon"));
    QVERIFY(window_->findChild<QListWidget*>("diagnosticsList")->isVisible());
    QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Could not load %1: 1 problem").arg(broken_path_));
    QCOMPARE(loaded.count(), 0);

    // The previous scenario stays on screen.
    QCOMPARE(model_of("tenantView")->rowCount(), 2);
    QCOMPARE(cell("tenantView", 0, 0), QStringLiteral("alpha"));
    QVERIFY(window_->findChild<QLabel*>("scenarioHeader")->text().contains("gui-test"));
    QCOMPARE(window_->current_scenario()->name, std::string("gui-test"));
  }

  void reopeningValidScenarioClearsDiagnostics() {
    QVERIFY(!window_->open_scenario(broken_path_));
    QCOMPARE(diagnostics().size(), 1);
    QCOMPARE(model_of("tenantView")->rowCount(), 0);
    QVERIFY(window_->open_scenario(valid_path_));
    QVERIFY(diagnostics().isEmpty());
    QCOMPARE(model_of("tenantView")->rowCount(), 2);
  }

  void missingFileIsReported() {
    const QString path = dir_.filePath("absent.json");
    QVERIFY(!window_->open_scenario(path));
    QCOMPARE(diagnostics().size(), 1);
    QVERIFY2(diagnostics().front().startsWith(path + ": "), qPrintable(diagnostics().front()));
  }
};

int run_main_window_test(int argc, char** argv) {
  MainWindowTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "main_window_test.moc"
