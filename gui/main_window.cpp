// The slicewise-gui main window (see main_window.hpp).
#include "gui/main_window.hpp"

#include <cmath>
#include <exception>

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QUndoStack>
#include <QVBoxLayout>

#include "core/error.hpp"
#include "gui/model_text.hpp"
#include "gui/results_panel.hpp"
#include "gui/scenario_editor.hpp"
#include "gui/simulation_runner.hpp"
#include "report/costing.hpp"
#include "report/render/report_render.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/validate.hpp"

namespace slicewise::gui {

namespace {

constexpr int kMaxRecentFiles = 8;
const char* const kRecentKey = "recentFiles";

QString count_text(std::size_t count, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

/// Whether tenant `t`'s load kind takes a multiplier (a closed loop does not: its users are its
/// load).
bool takes_multiplier(const ScenarioDocument& document, std::size_t t) {
  const Json* kind = document.value_at("/tenants/" + std::to_string(t) + "/load/kind");
  const std::string name = kind && kind->is_string() ? kind->get<std::string>() : "poisson";
  for (const auto& [kind_name, value] : scenario::load_kind_table()) {
    if (kind_name == name) return scenario::uses(scenario::load_keys(), "multiplier", value);
  }
  return false;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), document_(new ScenarioDocument(this)), runner_(new SimulationRunner(this)) {
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
  auto* horizontal = new QSplitter(Qt::Horizontal, vertical);
  editor_ = new ScenarioEditor(document_, horizontal);
  editor_->setObjectName(QStringLiteral("scenarioEditor"));
  horizontal->addWidget(editor_);
  horizontal->addWidget(create_run_panel());
  horizontal->setStretchFactor(0, 1);
  horizontal->setStretchFactor(1, 1);
  vertical->addWidget(horizontal);
  diagnostics_list_ = new QListWidget(vertical);
  diagnostics_list_->setObjectName(QStringLiteral("diagnosticsList"));
  diagnostics_list_->setWordWrap(true);
  diagnostics_list_->hide();
  vertical->addWidget(diagnostics_list_);
  vertical->setStretchFactor(0, 4);
  vertical->setStretchFactor(1, 1);
  layout->addWidget(vertical, 1);
  setCentralWidget(central);

  connect(diagnostics_list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    editor_->navigate_to(item->data(Qt::UserRole).toString().toStdString());
  });
  connect(document_, &ScenarioDocument::validated, this, [this] {
    refresh_diagnostics();
    refresh_what_if();
    refresh_title();
  });
  connect(document_, &ScenarioDocument::modifiedChanged, this, &MainWindow::refresh_title);
  connect(document_, &ScenarioDocument::pathChanged, this, &MainWindow::refresh_title);
  connect(editor_, &ScenarioEditor::traceFileRequested, this, &MainWindow::choose_trace);
  connect(runner_, &SimulationRunner::progress, this, [this](double fraction, const QString& strategy) {
    progress_->setValue(static_cast<int>(std::lround(1000.0 * fraction)));
    run_status_->setText(tr("Simulating %1...").arg(strategy));
  });
  connect(runner_, &SimulationRunner::finished, this, &MainWindow::on_run_finished);
  connect(runner_, &SimulationRunner::failed, this, [this](const QString& message) {
    set_running(false);
    run_status_->setText(tr("Run failed: %1").arg(message));
    statusBar()->showMessage(tr("The run failed"));
    emit runStopped(message);
  });
  connect(runner_, &SimulationRunner::cancelled, this, [this] {
    set_running(false);
    run_status_->setText(tr("Run cancelled."));
    statusBar()->showMessage(tr("Run cancelled"));
    emit runStopped(QString());
  });

  set_running(false);
  refresh_diagnostics();
  refresh_title();
  statusBar()->showMessage(tr("Open a scenario (File > Open...)"));
  resize(1400, 860);
}

MainWindow::~MainWindow() = default;

void MainWindow::create_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  auto add = [this](QMenu* menu, const QString& text, const char* name, auto slot, QKeySequence key = {}) {
    QAction* action = menu->addAction(text, this, slot);
    action->setObjectName(QString::fromLatin1(name));
    if (!key.isEmpty()) action->setShortcut(key);
    return action;
  };
  add(file, tr("&Open..."), "openAction", &MainWindow::choose_and_open, QKeySequence::Open);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  recent_menu_->setObjectName(QStringLiteral("recentMenu"));
  add(file, tr("&Save"), "saveAction", [this] { save(); }, QKeySequence::Save);
  add(file, tr("Save &As..."), "saveAsAction", [this] { choose_and_save_as(); }, QKeySequence::SaveAs);
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
  run_action_ = add(run_menu, tr("&Run Simulation"), "runAction", [this] { run(); }, QKeySequence(tr("Ctrl+R")));
  cancel_action_ = add(run_menu, tr("&Cancel Run"), "cancelAction", &MainWindow::cancel_run, QKeySequence(tr("Esc")));
  rebuild_recent_menu();
}

QWidget* MainWindow::create_run_panel() {
  auto* panel = new QWidget(this);
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 0);

  auto* what_if = new QGroupBox(tr("What if..."), panel);
  auto* form = new QFormLayout(what_if);
  what_if_load_ = new QDoubleSpinBox(what_if);
  what_if_load_->setObjectName(QStringLiteral("whatIfLoad"));
  what_if_load_->setRange(0.01, 1000.0);
  what_if_load_->setDecimals(2);
  what_if_load_->setSingleStep(0.25);
  what_if_load_->setValue(1.0);
  what_if_load_->setToolTip(tr("The load multiplier (load/multiplier) of every open-loop tenant; closed-loop "
                                "tenants keep their users"));
  form->addRow(tr("Load multiplier"), what_if_load_);
  auto* sla_row = new QHBoxLayout;
  what_if_tenant_ = new QComboBox(what_if);
  what_if_tenant_->setObjectName(QStringLiteral("whatIfTenant"));
  what_if_sla_ = new QDoubleSpinBox(what_if);
  what_if_sla_->setObjectName(QStringLiteral("whatIfSla"));
  what_if_sla_->setRange(0.0, 1e6);
  what_if_sla_->setDecimals(3);
  what_if_sla_->setSpecialValueText(tr("none"));
  what_if_sla_->setSuffix(tr(" s"));
  sla_row->addWidget(what_if_tenant_, 1);
  sla_row->addWidget(what_if_sla_);
  form->addRow(tr("SLA latency target"), sla_row);
  what_if_price_ = new QComboBox(what_if);
  what_if_price_->setObjectName(QStringLiteral("whatIfPrice"));
  for (const auto& [name, option] : pricing::purchase_option_table()) what_if_price_->addItem(QString::fromStdString(name));
  what_if_price_->setToolTip(tr("Re-prices the current run without simulating again"));
  form->addRow(tr("Pricing option"), what_if_price_);
  auto* apply = new QPushButton(tr("Apply and re-run"), what_if);
  apply->setObjectName(QStringLiteral("applyWhatIf"));
  form->addRow(apply);
  layout->addWidget(what_if);

  auto* run_row = new QHBoxLayout;
  run_button_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"), panel);
  run_button_->setObjectName(QStringLiteral("runButton"));
  cancel_button_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), panel);
  cancel_button_->setObjectName(QStringLiteral("cancelButton"));
  progress_ = new QProgressBar(panel);
  progress_->setObjectName(QStringLiteral("runProgress"));
  progress_->setRange(0, 1000);
  progress_->setTextVisible(false);
  run_row->addWidget(run_button_);
  run_row->addWidget(cancel_button_);
  run_row->addWidget(progress_, 1);
  layout->addLayout(run_row);
  run_status_ = new QLabel(tr("Not run yet."), panel);
  run_status_->setObjectName(QStringLiteral("runStatus"));
  run_status_->setWordWrap(true);
  run_status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(run_status_);

  results_ = new ResultsPanel(panel);
  results_->setObjectName(QStringLiteral("resultsPanel"));
  layout->addWidget(results_, 1);

  connect(run_button_, &QPushButton::clicked, this, [this] { run(); });
  connect(cancel_button_, &QPushButton::clicked, this, &MainWindow::cancel_run);
  connect(apply, &QPushButton::clicked, this, &MainWindow::apply_what_if);
  connect(what_if_tenant_, &QComboBox::currentIndexChanged, this, [this] {
    if (!refreshing_) refresh_what_if();
  });
  connect(what_if_price_, &QComboBox::activated, this, &MainWindow::reprice);
  connect(results_, &ResultsPanel::currentReportChanged, this,
          [this] { export_action_->setEnabled(results_->current_report() != nullptr); });
  return panel;
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
  results_->clear();
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
  const bool valid = document_->is_valid();
  run_button_->setEnabled(valid && !runner_->is_running());
  run_action_->setEnabled(valid && !runner_->is_running());
}

void MainWindow::refresh_what_if() {
  refreshing_ = true;
  const Json* tenants = document_->value_at("/tenants");
  const QString chosen = what_if_tenant_->currentText();
  what_if_tenant_->clear();
  double common_multiplier = 1.0;
  bool first = true;
  for (std::size_t t = 0; tenants && tenants->is_array() && t < tenants->size(); ++t) {
    const Json& tenant = (*tenants)[t];
    if (tenant.contains("name") && tenant["name"].is_string()) {
      what_if_tenant_->addItem(to_qstring(tenant["name"].get<std::string>()));
    }
    if (!takes_multiplier(*document_, t)) continue;
    const Json* multiplier = document_->value_at("/tenants/" + std::to_string(t) + "/load/multiplier");
    const double value = multiplier && multiplier->is_number() ? multiplier->get<double>() : 1.0;
    if (first) common_multiplier = value;
    first = false;
  }
  what_if_load_->setValue(common_multiplier);
  if (const int at = what_if_tenant_->findText(chosen); at >= 0) what_if_tenant_->setCurrentIndex(at);
  const int tenant = what_if_tenant_->currentIndex();
  const Json* sla = tenant >= 0 ? document_->value_at("/tenants/" + std::to_string(tenant) + "/sla/latency_s") : nullptr;
  what_if_sla_->setValue(sla && sla->is_number() ? sla->get<double>() : 0.0);
  const Json* option = document_->value_at("/pricing/option");
  what_if_price_->setCurrentText(option && option->is_string() ? to_qstring(option->get<std::string>())
                                                               : QStringLiteral("on_demand"));
  refreshing_ = false;
}

void MainWindow::apply_what_if() {
  const Json* tenants = document_->value_at("/tenants");
  if (!tenants || !tenants->is_array()) return;
  document_->begin_macro(tr("What if: load ×%1").arg(what_if_load_->value()));
  const double multiplier = what_if_load_->value();
  for (std::size_t t = 0; t < tenants->size(); ++t) {
    if (!takes_multiplier(*document_, t)) continue;
    document_->set_value("/tenants/" + std::to_string(t) + "/load/multiplier",
                         multiplier == 1.0 ? std::nullopt : std::optional<Json>(multiplier));
  }
  if (const int tenant = what_if_tenant_->currentIndex(); tenant >= 0) {
    const double target = what_if_sla_->value();
    document_->set_value("/tenants/" + std::to_string(tenant) + "/sla/latency_s",
                         target > 0.0 ? std::optional<Json>(target) : std::nullopt);
  }
  document_->end_macro();
  run();
}

report::RoiReport MainWindow::report_for(const scenario::SimResult& result, const std::string& option,
                                         QString* error) const {
  scenario::Scenario scenario = result.input;
  if (!option.empty()) {
    for (const auto& [name, value] : pricing::purchase_option_table()) {
      if (name == option) scenario.pricing.option = value;
    }
  }
  try {
    const auto table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
    return report::build_roi_report(result, report::cost_result(result, scenario, table, scenario.pricing.option));
  } catch (const std::exception& e) {
    if (error) *error = to_qstring(e.what());
    return {};
  }
}

void MainWindow::reprice() {
  const std::string option = what_if_price_->currentText().toStdString();
  document_->set_value("/pricing/option", option == "on_demand" ? std::nullopt : std::optional<Json>(option),
                       tr("Pricing option %1").arg(what_if_price_->currentText()));
  const report::RoiReport* current = results_->current_report();
  if (!current) return;
  QString error;
  report::RoiReport repriced = report_for(current->result, option, &error);
  if (!error.isEmpty()) {
    run_status_->setText(tr("Cannot re-price under %1: %2").arg(what_if_price_->currentText(), error));
    return;
  }
  results_->replace_current(std::move(repriced));
  run_status_->setText(tr("Re-priced under %1.").arg(what_if_price_->currentText()));
}

bool MainWindow::run() {
  if (runner_->is_running()) {
    statusBar()->showMessage(tr("A run is going on"));
    return false;
  }
  if (!document_->is_valid()) {
    statusBar()->showMessage(tr("Fix the %1 listed below before running")
                                 .arg(count_text(document_->diagnostics().size(), tr("problem"), tr("problems"))));
    return false;
  }
  QString error;
  const QString what = document_->undo_stack()->undoText();
  run_label_ = tr("Run %1").arg(runs_started_ + 1) + (what.isEmpty() ? QString() : QStringLiteral(" · ") + what);
  if (!runner_->start(document_->json(), document_->base_dir(), {QStringLiteral("--jobs"), QStringLiteral("2")}, &error)) {
    run_status_->setText(tr("Cannot run: %1").arg(error));
    return false;
  }
  ++runs_started_;
  set_running(true);
  progress_->setValue(0);
  run_status_->setText(tr("Starting %1...").arg(runner_->program()));
  statusBar()->showMessage(tr("Running %1").arg(run_label_));
  return true;
}

void MainWindow::cancel_run() { runner_->cancel(); }

bool MainWindow::is_running() const { return runner_->is_running(); }

void MainWindow::set_running(bool running) {
  const bool valid = document_->is_valid();
  run_button_->setEnabled(!running && valid);
  run_action_->setEnabled(!running && valid);
  cancel_button_->setEnabled(running);
  cancel_action_->setEnabled(running);
  export_action_->setEnabled(!running && results_->current_report() != nullptr);
}

void MainWindow::on_run_finished() {
  set_running(false);
  progress_->setValue(progress_->maximum());
  QString error;
  report::RoiReport report = report_for(runner_->result(), {}, &error);
  if (!error.isEmpty()) {
    run_status_->setText(tr("The run finished but cannot be priced: %1").arg(error));
    emit runStopped(error);
    return;
  }
  const QString summary = report.recommendation.empty() ? QString() : to_qstring(report.recommendation);
  results_->add_run(run_label_, std::move(report));
  set_running(false);
  run_status_->setText(tr("%1 done. %2").arg(run_label_, summary));
  statusBar()->showMessage(tr("%1 done").arg(run_label_));
  emit runFinished();
}

bool MainWindow::export_report(const QString& path, QString* error) {
  const report::RoiReport* current = results_->current_report();
  if (!current) {
    if (error) *error = tr("run the scenario first: there is no result to report");
    return false;
  }
  try {
    const auto format = render::report_format_from(std::filesystem::path(path.toStdString()).extension().string(), "export");
    render::write_report(*current, format, path.toStdString());
  } catch (const std::exception& e) {
    if (error) *error = to_qstring(e.what());
    return false;
  }
  statusBar()->showMessage(tr("Report written to %1").arg(path));
  return true;
}

void MainWindow::choose_and_export() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export ROI report"), last_dir_,
      tr("PDF (*.pdf);;HTML (*.html);;Excel workbook (*.xlsx);;Markdown (*.md)"));
  if (path.isEmpty()) return;
  QString error;
  if (!export_report(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::choose_and_open() {
  if (!maybe_save()) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), last_dir_,
                                                    tr("Scenarios (*.json);;All files (*)"));
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
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save scenario as"), last_dir_, tr("Scenarios (*.json)"));
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
  if (runner_->is_running()) runner_->cancel();
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
    recent_menu_->addAction(QFileInfo(file).fileName(), this, [this, file] {
      if (maybe_save()) open_scenario(file);
    })->setToolTip(file);
  }
  recent_menu_->setEnabled(!files.isEmpty());
}

}  // namespace slicewise::gui
