// The slicewise-gui main window (see main_window.hpp); importing tenants from telemetry is
// main_window_import.cpp's.
#include "gui/main_window.hpp"

#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QUndoStack>
#include <QVBoxLayout>

#include "gui/advice_dialog.hpp"
#include "gui/advise_runner.hpp"
#include "gui/model_text.hpp"
#include "gui/results_panel.hpp"
#include "gui/run_panel.hpp"
#include "gui/scenario_editor.hpp"
#include "gui/simulation_runner.hpp"
#include "gui/telemetry_import_runner.hpp"

namespace slicewise::gui {

namespace {

constexpr int kMaxRecentFiles = 8;
/// The results side's share of the window's width after the first run: 2/3.
constexpr int kResultsShareNum = 2;
constexpr int kResultsShareDen = 3;
const char* const kRecentKey = "recentFiles";

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), document_(new ScenarioDocument(this)) {
  setWindowTitle(tr("slicewise"));
  create_actions();

  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  header_ = new QLabel(tr("No scenario loaded."), central);
  header_->setObjectName(QStringLiteral("scenarioHeader"));
  header_->setWordWrap(true);
  header_->setTextFormat(Qt::RichText);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(header_);

  auto* vertical = new QSplitter(Qt::Vertical, central);
  sides_ = new QSplitter(Qt::Horizontal, vertical);
  sides_->setObjectName(QStringLiteral("sidesSplitter"));
  sides_->setChildrenCollapsible(false);
  editor_ = new ScenarioEditor(document_, sides_);
  editor_->setObjectName(QStringLiteral("scenarioEditor"));
  sides_->addWidget(editor_);
  run_panel_ = new RunPanel(document_, sides_);
  advise_runner_ = new AdviseRunner(this);
  import_runner_ = new TelemetryImportRunner(this);
  sides_->addWidget(run_panel_);
  // A wider window widens the results more than the editor: they carry the tables and figures.
  sides_->setStretchFactor(0, 2);
  sides_->setStretchFactor(1, 3);
  vertical->addWidget(sides_);
  diagnostics_list_ = new QListWidget(vertical);
  diagnostics_list_->setObjectName(QStringLiteral("diagnosticsList"));
  diagnostics_list_->setWordWrap(true);
  diagnostics_list_->hide();
  vertical->addWidget(diagnostics_list_);
  vertical->setStretchFactor(0, 4);
  vertical->setStretchFactor(1, 1);
  layout->addWidget(vertical, 1);
  setCentralWidget(central);

  connect(diagnostics_list_, &QListWidget::itemActivated, this,
          [this](QListWidgetItem* item) { editor_->navigate_to(item->data(Qt::UserRole).toString().toStdString()); });
  connect(document_, &ScenarioDocument::validated, this, [this] {
    refresh_diagnostics();
    refresh_title();
  });
  connect(document_, &ScenarioDocument::modifiedChanged, this, &MainWindow::refresh_title);
  connect(document_, &ScenarioDocument::pathChanged, this, &MainWindow::refresh_title);
  connect(editor_, &ScenarioEditor::traceFileRequested, this, &MainWindow::choose_trace);
  connect(run_panel_, &RunPanel::runFinished, this, [this] {
    favour_results();
    emit runFinished();
  });
  connect(run_panel_, &RunPanel::runStopped, this, &MainWindow::runStopped);
  connect(run_panel_, &RunPanel::statusMessage, this,
          [this](const QString& message) { statusBar()->showMessage(message); });
  connect(run_panel_, &RunPanel::stateChanged, this, &MainWindow::refresh_actions);
  connect(import_runner_, &TelemetryImportRunner::finished, this, &MainWindow::add_imported_tenants);
  connect(import_runner_, &TelemetryImportRunner::failed, this, &MainWindow::show_import_error);
  connect(import_runner_, &TelemetryImportRunner::cancelled, this, &MainWindow::refresh_actions);

  refresh_diagnostics();
  refresh_title();
  refresh_actions();
  statusBar()->showMessage(tr("Open a scenario (File > Open...)"));
  resize(1400, 860);
}

MainWindow::~MainWindow() = default;

void MainWindow::create_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  auto add = [this](QMenu* menu, const QString& text, const char* name, auto slot, const QKeySequence& key = {}) {
    QAction* action = menu->addAction(text, this, slot);
    action->setObjectName(QString::fromLatin1(name));
    if (!key.isEmpty()) action->setShortcut(key);
    return action;
  };
  add(file, tr("&Open..."), "openAction", &MainWindow::choose_and_open, QKeySequence::Open);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  recent_menu_->setObjectName(QStringLiteral("recentMenu"));
  add(
      file, tr("&Save"), "saveAction", [this] { save(); }, QKeySequence::Save);
  add(
      file, tr("Save &As..."), "saveAsAction", [this] { choose_and_save_as(); }, QKeySequence::SaveAs);
  file->addSeparator();
  import_action_ = add(file, tr("&Import Tenants from Telemetry..."), "importTelemetryAction",
                       &MainWindow::choose_and_import_telemetry);
  file->addSeparator();
  export_action_ = add(file, tr("&Export ROI Report..."), "exportAction", &MainWindow::choose_and_export,
                       QKeySequence(tr("Ctrl+E")));
  file->addSeparator();
  add(file, tr("&Quit"), "quitAction", &QWidget::close, QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = document_->undo_stack()->createUndoAction(this, tr("&Undo"));
  undo->setObjectName(QStringLiteral("undoAction"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = document_->undo_stack()->createRedoAction(this, tr("&Redo"));
  redo->setObjectName(QStringLiteral("redoAction"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);

  QMenu* run_menu = menuBar()->addMenu(tr("&Run"));
  run_action_ = add(
      run_menu, tr("&Run Simulation"), "runAction", [this] { run(); }, QKeySequence(tr("Ctrl+R")));
  cancel_action_ = add(run_menu, tr("&Cancel Run"), "cancelAction", &MainWindow::cancel_run, QKeySequence(tr("Esc")));
  run_menu->addSeparator();
  advise_action_ = add(
      run_menu, tr("&Advise..."), "adviseAction", [this] { advise(); }, QKeySequence(tr("Ctrl+Shift+A")));
  rebuild_recent_menu();
}

bool MainWindow::open_scenario(const QString& path) {
  last_dir_ = QFileInfo(path).absolutePath();
  QString error;
  if (!document_->open(path, &error)) {
    diagnostics_list_->clear();
    auto* item = new QListWidgetItem(error, diagnostics_list_);
    item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxCritical));
    diagnostics_list_->show();
    statusBar()->showMessage(tr("Could not open %1").arg(path));
    return false;
  }
  results()->clear();
  add_recent(QFileInfo(path).absoluteFilePath());
  const auto& diagnostics = document_->diagnostics();
  statusBar()->showMessage(diagnostics.empty()
                               ? tr("Opened %1").arg(path)
                               : tr("Opened %1: %2 to fix before running")
                                     .arg(path, count_text(diagnostics.size(), tr("problem"), tr("problems"))));
  emit scenarioLoaded(path);
  return true;
}

void MainWindow::refresh_title() {
  const Json& json = document_->json();
  const QString name = json.contains("name") && json["name"].is_string() ? to_qstring(json["name"].get<std::string>())
                                                                         : document_->display_name();
  QString header = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
  if (json.contains("description") && json["description"].is_string()) {
    header += QStringLiteral("<br>") + to_qstring(json["description"].get<std::string>()).toHtmlEscaped();
  }
  header_->setText(document_->path().isEmpty() && json.empty() ? tr("No scenario loaded.") : header);
  setWindowTitle(tr("%1%2 - slicewise").arg(document_->display_name(), document_->is_modified() ? "*" : ""));
  setWindowFilePath(document_->path());
}

void MainWindow::refresh_diagnostics() {
  diagnostics_list_->clear();
  const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
  for (const Diagnostic& d : document_->diagnostics()) {
    if (document_->json().empty() && document_->path().isEmpty()) break;  // nothing opened yet
    auto* item = new QListWidgetItem(warning, to_qstring(d.format()), diagnostics_list_);
    item->setData(Qt::UserRole, to_qstring(d.pointer));
  }
  diagnostics_list_->setVisible(diagnostics_list_->count() > 0);
}

bool MainWindow::run() { return run_panel_->run(); }

bool MainWindow::advise() {
  if (advise_runner_->is_running()) {
    statusBar()->showMessage(tr("Advice is being computed"));
    return false;
  }
  if (!document_->is_valid()) {
    statusBar()->showMessage(tr("Fix the problems listed below before asking for advice"));
    return false;
  }
  QString error;
  if (!advise_runner_->start(document_->json(), document_->base_dir(), {QStringLiteral("--jobs"), QStringLiteral("2")},
                             &error)) {
    statusBar()->showMessage(tr("Cannot advise: %1").arg(error));
    return false;
  }
  auto* progress = new QProgressDialog(tr("Sizing every configuration for the SLA..."), tr("Cancel"), 0, 1000, this);
  progress->setObjectName(QStringLiteral("adviseProgress"));
  progress->setAttribute(Qt::WA_DeleteOnClose);
  progress->setMinimumDuration(0);
  progress->setValue(0);
  connect(progress, &QProgressDialog::canceled, advise_runner_, &AdviseRunner::cancel);
  auto close_progress = [progress] {
    progress->disconnect();
    progress->close();
  };
  connect(advise_runner_, &AdviseRunner::progress, progress,
          [progress](int done, int of, int simulations, double fraction, const QString& time_text) {
            progress->setValue(static_cast<int>(std::lround(1000.0 * fraction)));
            QString label = tr("Sizing every configuration for the SLA: %1 of %2 candidates, %3 simulations")
                                .arg(done)
                                .arg(of)
                                .arg(simulations);
            if (!time_text.isEmpty()) label += QLatin1Char('\n') + time_text;
            progress->setLabelText(label);
          });
  auto once = std::make_shared<std::vector<QMetaObject::Connection>>();
  auto disconnect_all = [once] {
    for (const auto& c : *once) QObject::disconnect(c);
  };
  once->push_back(connect(advise_runner_, &AdviseRunner::finished, this, [this, close_progress, disconnect_all] {
    disconnect_all();
    close_progress();
    delete advice_dialog_;
    advice_dialog_ = new AdviceDialog(advise_runner_->advice_dir(), advise_runner_->program(), this);
    advice_dialog_->show();
    statusBar()->showMessage(tr("Advice: %1").arg(advice_dialog_->summary()));
    emit adviceShown();
  }));
  once->push_back(
      connect(advise_runner_, &AdviseRunner::failed, this, [this, close_progress, disconnect_all](const QString& m) {
        disconnect_all();
        close_progress();
        statusBar()->showMessage(tr("Advice failed: %1").arg(m));
        emit adviceStopped(m);
      }));
  once->push_back(connect(advise_runner_, &AdviseRunner::cancelled, this, [this, close_progress, disconnect_all] {
    disconnect_all();
    close_progress();
    statusBar()->showMessage(tr("Advice cancelled"));
    emit adviceStopped(QString());
  }));
  statusBar()->showMessage(tr("Advising with %1").arg(advise_runner_->program()));
  return true;
}

void MainWindow::favour_results() {
  // Once per window: a divider the user moves afterwards stays where it was put.
  if (results_favoured_) return;
  results_favoured_ = true;
  const QList<int> sizes = sides_->sizes();
  const int total = sizes.value(0) + sizes.value(1);
  const int wanted = total * kResultsShareNum / kResultsShareDen;
  if (sizes.size() != 2 || total <= 0 || sizes.value(1) >= wanted) return;
  sides_->setSizes({total - wanted, wanted});
}

void MainWindow::cancel_run() { run_panel_->cancel_run(); }

bool MainWindow::is_running() const { return run_panel_->is_running(); }

bool MainWindow::export_report(const QString& path, QString* error) { return run_panel_->export_report(path, error); }

ResultsPanel* MainWindow::results() const { return run_panel_->results(); }

SimulationRunner* MainWindow::runner() const { return run_panel_->runner(); }

void MainWindow::refresh_actions() {
  run_action_->setEnabled(run_panel_->can_run());
  cancel_action_->setEnabled(run_panel_->is_running());
  export_action_->setEnabled(!run_panel_->is_running() && results()->current_report() != nullptr);
  advise_action_->setEnabled(document_->is_valid());
  import_action_->setEnabled(!import_runner_->is_running());
}

void MainWindow::choose_and_export() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export ROI report"), last_dir_,
                                   tr("PDF (*.pdf);;HTML (*.html);;Excel workbook (*.xlsx);;Markdown (*.md)"));
  if (path.isEmpty()) return;
  QString error;
  if (!export_report(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::choose_and_open() {
  if (!maybe_save()) return;
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open scenario"), last_dir_, tr("Scenarios (*.json);;All files (*)"));
  if (!path.isEmpty()) open_scenario(path);
}

bool MainWindow::save() {
  if (document_->path().isEmpty()) return choose_and_save_as();
  QString error;
  if (!document_->save(&error)) {
    QMessageBox::warning(this, tr("Save failed"), error);
    return false;
  }
  statusBar()->showMessage(tr("Saved %1").arg(document_->path()));
  return true;
}

bool MainWindow::save_scenario_as(const QString& path) {
  QString error;
  if (!document_->save_as(path, &error)) {
    statusBar()->showMessage(tr("Could not save %1: %2").arg(path, error));
    return false;
  }
  add_recent(QFileInfo(path).absoluteFilePath());
  statusBar()->showMessage(tr("Saved %1").arg(path));
  return true;
}

bool MainWindow::choose_and_save_as() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario as"), last_dir_, tr("Scenarios (*.json)"));
  return !path.isEmpty() && save_scenario_as(path);
}

void MainWindow::choose_trace(int tenant) {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Choose a trace"), QString::fromStdString(document_->base_dir().string()),
      tr("Traces (*.csv *.csv.gz *.csv.zst *.jsonl *.jsonl.gz *.json *.gz *.zst);;All files (*)"));
  if (!path.isEmpty()) editor_->set_trace_file(tenant, path);
}

bool MainWindow::maybe_save() {
  if (!document_->is_modified()) return true;
  const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                            tr("%1 has unsaved changes. Save them?").arg(document_->display_name()),
                                            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybe_save()) {
    event->ignore();
    return;
  }
  if (run_panel_->is_running()) run_panel_->cancel_run();
  event->accept();
}

QStringList MainWindow::recent_files() const { return QSettings().value(kRecentKey).toStringList(); }

void MainWindow::add_recent(const QString& path) {
  QStringList files = recent_files();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  QSettings().setValue(kRecentKey, files);
  rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList files = recent_files();
  for (const QString& file : files) {
    recent_menu_
        ->addAction(QFileInfo(file).fileName(), this,
                    [this, file] {
                      if (maybe_save()) open_scenario(file);
                    })
        ->setToolTip(file);
  }
  recent_menu_->setEnabled(!files.isEmpty());
}

}  // namespace slicewise::gui
