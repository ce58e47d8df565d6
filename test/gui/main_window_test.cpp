// MainWindow, offscreen, driven as a user would: open the bundled example, change a tenant's load
// and a strategy, run it with the real `slicewise simulate` (SLICEWISE_CLI), see the results and
// charts, re-price, export the PDF; cancel a long run; open files that are broken in two ways.
#include <memory>

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "gui/main_window.hpp"
#include "gui/pointer_form.hpp"
#include "gui/results_panel.hpp"
#include "gui/scenario_editor.hpp"
#include "gui/simulation_runner.hpp"
#include "gui_test.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

namespace slicewise::gui::test {

class MainWindowTest : public QObject {
  Q_OBJECT

 private:
  QString write(const QString& name, const QByteArray& text) { return write_file(dir_, name, text); }

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

  /// Runs and waits for the result (the CLI simulates the example in about a second).
  bool run_and_wait() {
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QSignalSpy stopped(window_.get(), &MainWindow::runStopped);
    window_->findChild<QPushButton*>("runButton")->click();
    if (!window_->is_running()) return false;
    if (!QTest::qWaitFor([&] { return finished.count() + stopped.count() > 0; }, 60000)) return false;
    if (!stopped.isEmpty()) qWarning("run stopped: %s", qPrintable(stopped.front().front().toString()));
    return finished.count() == 1;
  }

  QTemporaryDir dir_;
  QString valid_path_;
  QString example_path_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // recent files go to a test settings file
    QSettings().clear();
    QVERIFY(dir_.isValid());
    valid_path_ = write("valid.json", valid_scenario_json());
    example_path_ = QStringLiteral(SW_SOURCE_DIR "/examples/mixed-mig-h100.json");
    QVERIFY2(QFileInfo(SimulationRunner::default_program()).isExecutable(),
             qPrintable(SimulationRunner::default_program()));
  }

  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  void cleanup() { window_.reset(); }

  void hasNamedWidgets() {
    for (const char* name : {"fleetView", "tenantView", "strategyView", "strategyTenantView"}) {
      QVERIFY2(window_->findChild<QTableView*>(name), name);
    }
    for (const char* name : {"openAction", "saveAction", "saveAsAction", "importTelemetryAction", "exportAction",
                             "quitAction", "undoAction", "redoAction", "runAction", "cancelAction"}) {
      QVERIFY2(window_->findChild<QAction*>(name), name);
    }
    QVERIFY(window_->findChild<QListWidget*>("diagnosticsList")->isHidden());
    QVERIFY(!window_->findChild<QPushButton*>("runButton")->isEnabled());
    QVERIFY(!window_->findChild<QAction*>("exportAction")->isEnabled());
    QCOMPARE(model_of("tenantView")->rowCount(), 0);
  }

  void openValidScenarioShowsRows() {
    QSignalSpy loaded(window_.get(), &MainWindow::scenarioLoaded);
    QVERIFY(window_->open_scenario(valid_path_));
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(model_of("fleetView")->rowCount(), 1);
    QCOMPARE(cell("fleetView", 0, 0), QStringLiteral("L40S"));
    QCOMPARE(cell("fleetView", 0, 3), QStringLiteral("$1.86/h (g6e.xlarge)"));
    QCOMPARE(model_of("tenantView")->rowCount(), 2);
    QCOMPARE(cell("tenantView", 0, 3), QStringLiteral("19.2"));
    QCOMPARE(cell("tenantView", 1, 5), QStringLiteral("poisson 2/s"));
    QCOMPARE(cell("strategyView", 1, 2), QStringLiteral("replicas=4"));
    QVERIFY(window_->findChild<QLabel*>("scenarioHeader")->text().contains("Two generic tenants on one L40S."));
    QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Opened %1").arg(valid_path_));
    QVERIFY(window_->findChild<QPushButton*>("runButton")->isEnabled());
    QCOMPARE(window_->recent_files().front(), QFileInfo(valid_path_).absoluteFilePath());
  }

  void brokenScenarioOpensWithItsProblems() {
    const QString broken = write("broken.json", broken_scenario_json());
    QVERIFY(window_->open_scenario(broken));
    QCOMPARE(diagnostics(),
             QStringList{broken + QStringLiteral(": /horizon: unknown key (did you mean \"horizon_s\"?)")});
    auto* list = window_->findChild<QListWidget*>("diagnosticsList");
    QCOMPARE(list->item(0)->data(Qt::UserRole).toString(), QStringLiteral("/horizon"));
    QVERIFY(list->isVisible());
    QVERIFY(!window_->findChild<QPushButton*>("runButton")->isEnabled());
    QVERIFY(!window_->run());
    QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Fix the 1 problem listed below before running"));

    // Fixing it in place: the key renamed, the list empties and Run is enabled.
    Json fixed = window_->document()->json();
    fixed["horizon_s"] = fixed["horizon"];
    fixed.erase("horizon");
    restore_parents(fixed);  // nlohmann 3.11.2's ordered_json loses them on insert and erase
    window_->document()->set_value("", fixed);
    QVERIFY(diagnostics().isEmpty());
    QVERIFY(list->isHidden());
    QVERIFY(window_->findChild<QPushButton*>("runButton")->isEnabled());
  }

  void notJsonKeepsTheCurrentScenario() {
    QVERIFY(window_->open_scenario(valid_path_));
    const QString path = write("garbage.json", "not json at all");
    QVERIFY(!window_->open_scenario(path));
    QCOMPARE(diagnostics().size(), 1);
    QCOMPARE(diagnostics().front(),
             path + QStringLiteral(":1:2: parse error: syntax error while parsing value - invalid "
                                   "literal; last read: 'no'"));
    QCOMPARE(model_of("tenantView")->rowCount(), 2);
    QCOMPARE(window_->document()->path(), valid_path_);
  }

  void importTenantsFromTelemetry() {
    QVERIFY(window_->open_scenario(valid_path_));
    QSignalSpy imported(window_.get(), &MainWindow::telemetryImported);
    QSignalSpy failed(window_.get(), &MainWindow::telemetryImportFailed);
    const QString telemetry = QStringLiteral(SW_SOURCE_DIR "/examples/telemetry/dcgm-exporter-h100.prom");
    const auto import_and_wait = [&] {
      imported.clear();
      if (!window_->import_telemetry(telemetry, QStringLiteral("dcgm-prometheus"), QString())) return false;
      if (!QTest::qWaitFor([&] { return imported.count() + failed.count() > 0; }, 60000)) return false;
      if (!failed.isEmpty()) qWarning("import failed: %s", qPrintable(failed.front().front().toString()));
      return imported.count() == 1;
    };
    QVERIFY(window_->findChild<QAction*>("importTelemetryAction"));
    QVERIFY(import_and_wait());
    // Two busy workloads (the idle GPU is skipped), after alpha and beta.
    QCOMPARE(imported.front().at(0).toInt(), 2);
    QCOMPARE(imported.front().at(1).toInt(), 2);
    QCOMPARE(model_of("tenantView")->rowCount(), 4);
    QCOMPARE(cell("tenantView", 2, 0), QStringLiteral("inference/vllm-0/vllm"));
    QCOMPARE(cell("tenantView", 3, 0), QStringLiteral("training/resnet-train-0/pytorch"));
    const Json* vllm = window_->document()->value_at("/tenants/2");
    QVERIFY(vllm);
    QCOMPARE(QString::fromStdString((*vllm)["workload"]["kind"].get<std::string>()), QStringLiteral("generic"));
    QCOMPARE((*vllm)["workload"]["solo_latency_s"].get<double>(), 0.1);
    QCOMPARE((*vllm)["workload"]["gpu_duty_frac"].get<double>(), 0.7);
    QCOMPARE((*vllm)["workload"]["memory_gib"].get<double>(), 41.0);
    QCOMPARE(QString::fromStdString((*vllm)["workload"]["reference_gpu"].get<std::string>()),
             QStringLiteral("H100-SXM-80GB"));
    QCOMPARE(QString::fromStdString((*vllm)["load"].dump()), QStringLiteral(R"({"kind":"poisson","rate_per_s":1})"));
    QCOMPARE(QString::fromStdString((*vllm)["sla"].dump()), QStringLiteral(R"({"environment":"internal"})"));
    // The first new tenant is shown, and the status line says its solo latency is to be set.
    QCOMPARE(window_->findChild<QTabWidget*>("editorTabs")->currentIndex(), 2);
    QCOMPARE(window_->editor()->selected_tenant(), 2);
    QCOMPARE(window_->statusBar()->currentMessage(),
             QStringLiteral("Imported 2 tenants from dcgm-exporter-h100.prom: enter each one's measured solo latency "
                            "(0.1 s is a placeholder); load poisson 1/s and SLA internal are defaults to adjust"));
    QVERIFY(window_->document()->is_modified());

    // Again: the names are taken, so the new ones get "-2".
    QVERIFY(import_and_wait());
    QCOMPARE(model_of("tenantView")->rowCount(), 6);
    QCOMPARE(cell("tenantView", 4, 0), QStringLiteral("inference/vllm-0/vllm-2"));
    QCOMPARE(cell("tenantView", 5, 0), QStringLiteral("training/resnet-train-0/pytorch-2"));
    // Each import is one undo step.
    window_->document()->undo_stack()->undo();
    QCOMPARE(model_of("tenantView")->rowCount(), 4);
    window_->document()->undo_stack()->undo();
    QCOMPARE(model_of("tenantView")->rowCount(), 2);
    QVERIFY(failed.isEmpty());
  }

  void aFailedImportShowsTheClisWholeMessage() {
    QVERIFY(window_->open_scenario(valid_path_));
    QSignalSpy failed(window_.get(), &MainWindow::telemetryImportFailed);
    const QString bad = QStringLiteral(SW_TEST_DATA_DIR "/telemetry/bad-label.prom");
    QVERIFY(window_->import_telemetry(bad, QStringLiteral("dcgm-prometheus"), QString()));
    QVERIFY(!window_->findChild<QAction*>("importTelemetryAction")->isEnabled());
    QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 60000));
    const QString expected = bad + QStringLiteral(":4: expected , or } after label \"pod\", got \"0.950000\"");
    QCOMPARE(failed.front().front().toString(), expected);
    auto* box = window_->findChild<QMessageBox*>("importErrorBox");
    QVERIFY(box);
    QCOMPARE(box->text(), expected);
    QVERIFY(box->isVisible());
    box->close();
    QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Import failed"));
    QVERIFY(window_->findChild<QAction*>("importTelemetryAction")->isEnabled());
    QCOMPARE(model_of("tenantView")->rowCount(), 2);  // nothing added
    QVERIFY(!window_->document()->is_modified());
  }

  /// The issue's "done when": open the example, change a tenant's load and a strategy, run, see
  /// the charts, export the PDF.
  void editRunSeeChartsExport() {
    QVERIFY(window_->open_scenario(example_path_));
    QVERIFY(window_->document()->is_valid());
    auto* editor = window_->editor();

    // The LLM tenant's load: 2/s -> 3/s, typed into the tenant form.
    editor->select_tenant(0);
    auto* rate = window_->findChild<PointerForm*>("tenantForm")->findChild<QLineEdit*>("load_rate_per_s");
    QCOMPARE(rate->text(), QStringLiteral("2"));
    rate->setText(QStringLiteral("3"));
    emit rate->editingFinished();
    QCOMPARE(cell("tenantView", 0, 5), QStringLiteral("poisson 3/s"));

    // The MPS strategy gets 12 replicas in the strategy table... through its form.
    editor->select_strategy(3);
    auto* replicas = window_->findChild<PointerForm*>("strategyForm")->findChild<QLineEdit*>("replicas");
    QCOMPARE(replicas->text(), QString());  // the device plugin's replicas, picked by placement
    replicas->setText(QStringLiteral("12"));
    emit replicas->editingFinished();
    QCOMPARE(cell("strategyView", 3, 2).left(11), QStringLiteral("replicas=12"));
    QVERIFY(window_->document()->is_modified());
    QVERIFY(window_->windowTitle().startsWith("mixed-mig-h100.json*"));

    QVERIFY(run_and_wait());
    auto* results = window_->results();
    QCOMPARE(results->run_count(), 1);
    QVERIFY(results->current_report());
    QCOMPARE(results->current_report()->result.input.tenants[0].load.rate_per_s, 3.0);
    QCOMPARE(results->current_report()->result.input.strategies[3].replicas, 12);
    auto* table = results->findChild<QTableView*>("resultTable");
    QCOMPARE(table->model()->rowCount(), 4);
    QCOMPARE(window_->findChild<QProgressBar*>("runProgress")->value(), 1000);
    QVERIFY(window_->findChild<QLabel*>("runStatus")->text().startsWith("Run 1 · "));
    QVERIFY(window_->findChild<QLabel*>("runTime")->text().isEmpty());  // times only while running

    // The answer at the top of the results: the recommended strategy and what it saves a month.
    const report::RoiReport& report = *results->current_report();
    QVERIFY(report.recommended >= 0);
    const auto& best = report.strategies[static_cast<std::size_t>(report.recommended)];
    auto* headline = results->findChild<QLabel*>("summaryHeadline");
    QVERIFY(headline->isVisible());
    QVERIFY2(headline->text().startsWith(QString::fromStdString("<b>Recommended strategy: " + best.name + " (")),
             qPrintable(headline->text()));
    QVERIFY2(headline->text().contains(QString::fromStdString(report::format_usd(best.monthly_savings_usd))),
             qPrintable(headline->text()));
    QCOMPARE(results->findChild<QLabel*>("summaryRecommendation")->text(),
             QString::fromStdString(report.recommendation + " " + report.scope));
    // ... with the room for it: the results side has 2/3 of the width (or the editor its least).
    const QList<int> sides = window_->findChild<QSplitter*>("sidesSplitter")->sizes();
    QCOMPARE(sides.size(), 2);
    QVERIFY2(3 * sides[1] >= 2 * (sides[0] + sides[1]) - 3 || sides[0] <= window_->editor()->minimumSizeHint().width(),
             qPrintable(QStringLiteral("editor %1 px, results %2 px").arg(sides[0]).arg(sides[1])));
    for (const char* figure :
         {"figure-cost", "figure-savings", "figure-latency-cdf", "figure-utilization", "figure-mig-layout"}) {
      QVERIFY2(results->findChild<QWidget*>(figure), figure);
    }

    // Export through the CLI's renderer.
    const QString pdf = dir_.filePath("roi.pdf");
    QString error;
    QVERIFY2(window_->export_report(pdf, &error), qPrintable(error));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.read(5), QByteArray("%PDF-"));
    QVERIFY(file.size() > 20000);
    QVERIFY(!window_->export_report(dir_.filePath("roi.docx"), &error));
    QCOMPARE(error, QStringLiteral("export: unknown report format \".docx\"; expected md|html|pdf|xlsx"));

    window_->document()->undo_stack()->setClean();  // no save prompt at teardown
  }

  void whatIfReRunsAndRePrices() {
    QVERIFY(window_->open_scenario(example_path_));
    QVERIFY(run_and_wait());
    const double first_cost = window_->results()->current_report()->strategies[0].monthly_usd;
    QCOMPARE(first_cost, 4 * 6.88 * 730);  // dedicated: 4 p5.4xlarge on demand, 730 h a month

    // Load ×2 for every tenant, re-run: a second run, both in the compare lists.
    auto* load = window_->findChild<QDoubleSpinBox*>("whatIfLoad");
    QCOMPARE(load->value(), 1.0);
    load->setValue(2.0);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    window_->findChild<QPushButton*>("applyWhatIf")->click();
    QVERIFY2(window_->is_running(), qPrintable(window_->statusBar()->currentMessage()));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 60000));
    QCOMPARE(window_->results()->run_count(), 2);
    // The open-loop tenants (LLM, vision) take the multiplier; the notebooks' closed loops keep theirs.
    const auto& tenants = window_->results()->current_report()->result.input.tenants;
    QCOMPARE(tenants[0].load.multiplier, 2.0);
    QCOMPARE(tenants[1].load.multiplier, 2.0);
    QCOMPARE(tenants[2].load.multiplier, 1.0);
    QCOMPARE(window_->document()->undo_stack()->undoText(), QStringLiteral("What if: load ×2"));

    // Re-pricing under an option the aws table lacks says why and keeps the run as it was.
    auto* price = window_->findChild<QComboBox*>("whatIfPrice");
    price->setCurrentText(QStringLiteral("spot"));
    emit price->activated(price->currentIndex());
    QCOMPARE(window_->findChild<QLabel*>("runStatus")->text(),
             QStringLiteral("Cannot re-price under spot: %1: /pricing: table \"aws\" has no spot price for "
                            "p5.4xlarge in us-east-1")
                 .arg(window_->document()->path()));
    QCOMPARE(window_->results()->run_count(), 2);
    window_->document()->undo_stack()->setClean();
  }

  void cancelStopsTheRun() {
    // A long horizon: the run takes far longer than the test waits.
    QByteArray text = valid_scenario_json();
    text.replace("\"horizon_s\": 60", "\"horizon_s\": 2000000");
    QVERIFY(window_->open_scenario(write("long.json", text)));
    QSignalSpy stopped(window_.get(), &MainWindow::runStopped);
    QVERIFY(window_->run());
    QVERIFY(window_->findChild<QPushButton*>("cancelButton")->isEnabled());
    QVERIFY(!window_->findChild<QPushButton*>("runButton")->isEnabled());
    QTest::qWait(300);
    window_->findChild<QPushButton*>("cancelButton")->click();
    QVERIFY(QTest::qWaitFor([&] { return stopped.count() == 1; }, 10000));
    QCOMPARE(stopped.front().front().toString(), QString());
    QVERIFY(!window_->is_running());
    QCOMPARE(window_->findChild<QLabel*>("runStatus")->text(), QStringLiteral("Run cancelled."));
    QVERIFY(window_->findChild<QLabel*>("runTime")->text().isEmpty());
    QCOMPARE(window_->results()->run_count(), 0);
    QVERIFY(window_->findChild<QPushButton*>("runButton")->isEnabled());
  }

  void saveAsWritesTheEditedScenario() {
    QVERIFY(window_->open_scenario(valid_path_));
    window_->document()->set_value("/seed", Json(42));
    const QString copy = dir_.filePath("copy.json");
    QVERIFY(window_->save_scenario_as(copy));
    QVERIFY(!window_->document()->is_modified());
    ScenarioDocument reread;
    QVERIFY(reread.open(copy, nullptr));
    QCOMPARE(reread.scenario()->seed, std::uint64_t(42));
    QCOMPARE(window_->recent_files().front(), QFileInfo(copy).absoluteFilePath());
  }
};

int run_main_window_test(int argc, char** argv) {
  MainWindowTest test;
  return QTest::qExec(&test, argc, argv);
}

}  // namespace slicewise::gui::test

#include "main_window_test.moc"
