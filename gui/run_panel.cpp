// The run half of the main window (see run_panel.hpp).
#include "gui/run_panel.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QUndoStack>
#include <QVBoxLayout>

#include "gui/cli_runner.hpp"
#include "gui/json_field.hpp"
#include "gui/model_text.hpp"
#include "gui/results_panel.hpp"
#include "gui/simulation_runner.hpp"
#include "report/render/report_render.hpp"
#include "report/roi_report.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"

namespace slicewise::gui {

namespace {

/// Whether tenant `t`'s load kind takes a multiplier (a closed loop does not: its users are its
/// load).
bool takes_multiplier(const ScenarioDocument& document, std::size_t t) {
  static const QStringList kinds = kinds_using_key(scenario::load_keys(), "multiplier", scenario::load_kind_table());
  const Json* kind = document.value_at("/tenants/" + std::to_string(t) + "/load/kind");
  return kinds.contains(kind && kind->is_string() ? to_qstring(kind->get<std::string>()) : QStringLiteral("poisson"));
}

}  // namespace

RunPanel::RunPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), runner_(new SimulationRunner(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(create_what_if_group());
  layout->addLayout(create_run_row());
  run_status_ = new QLabel(tr("Not run yet."), this);
  run_status_->setObjectName(QStringLiteral("runStatus"));
  run_status_->setWordWrap(true);
  run_status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(run_status_);
  results_ = new ResultsPanel(this);
  results_->setObjectName(QStringLiteral("resultsPanel"));
  layout->addWidget(results_, 1);
  connect_signals();
  refresh();
}

QWidget* RunPanel::create_what_if_group() {
  auto* what_if = new QGroupBox(tr("What if..."), this);
  what_if_load_ = new QDoubleSpinBox(what_if);
  what_if_load_->setObjectName(QStringLiteral("whatIfLoad"));
  what_if_load_->setRange(0.01, 1000.0);
  what_if_load_->setDecimals(2);
  what_if_load_->setSingleStep(0.25);
  what_if_load_->setValue(1.0);
  what_if_load_->setToolTip(
      tr("The load multiplier (load/multiplier) of every open-loop tenant; closed-loop "
         "tenants keep their users"));
  what_if_tenant_ = new QComboBox(what_if);
  what_if_tenant_->setObjectName(QStringLiteral("whatIfTenant"));
  what_if_sla_ = new QDoubleSpinBox(what_if);
  what_if_sla_->setObjectName(QStringLiteral("whatIfSla"));
  what_if_sla_->setRange(0.0, 1e6);
  what_if_sla_->setDecimals(3);
  what_if_sla_->setSpecialValueText(tr("none"));
  what_if_sla_->setSuffix(tr(" s"));
  what_if_price_ = new QComboBox(what_if);
  what_if_price_->setObjectName(QStringLiteral("whatIfPrice"));
  for (const auto& [name, option] : pricing::purchase_option_table())
    what_if_price_->addItem(QString::fromStdString(name));
  what_if_price_->setToolTip(tr("Re-prices the current run without simulating again"));
  apply_button_ = new QPushButton(tr("Apply and re-run"), what_if);
  apply_button_->setObjectName(QStringLiteral("applyWhatIf"));
  // Two rows instead of four: the height goes to the results below.
  auto* grid = new QGridLayout(what_if);
  grid->addWidget(new QLabel(tr("Load multiplier"), what_if), 0, 0);
  grid->addWidget(what_if_load_, 0, 1);
  grid->addWidget(new QLabel(tr("Pricing option"), what_if), 0, 2);
  grid->addWidget(what_if_price_, 0, 3);
  grid->addWidget(new QLabel(tr("SLA latency target"), what_if), 1, 0);
  auto* sla_row = new QHBoxLayout;
  sla_row->addWidget(what_if_tenant_, 1);
  sla_row->addWidget(what_if_sla_);
  grid->addLayout(sla_row, 1, 1);
  grid->addWidget(apply_button_, 1, 2, 1, 2);
  grid->setColumnStretch(1, 1);
  grid->setColumnStretch(3, 1);
  return what_if;
}

QLayout* RunPanel::create_run_row() {
  auto* run_row = new QHBoxLayout;
  run_button_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"), this);
  run_button_->setObjectName(QStringLiteral("runButton"));
  cancel_button_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), this);
  cancel_button_->setObjectName(QStringLiteral("cancelButton"));
  progress_ = new QProgressBar(this);
  progress_->setObjectName(QStringLiteral("runProgress"));
  progress_->setRange(0, 1000);
  progress_->setTextVisible(false);
  run_time_ = new QLabel(this);
  run_time_->setObjectName(QStringLiteral("runTime"));
  // Room from the start for the times of a run under an hour ("59 min 59 s elapsed, about 59 min
  // 59 s left"), so the bar does not change width at every line.
  run_time_->setMinimumWidth(run_time_->fontMetrics().horizontalAdvance(progress_time_text(3599.0, 3599.0)));
  run_row->addWidget(run_button_);
  run_row->addWidget(cancel_button_);
  run_row->addWidget(progress_, 1);
  run_row->addWidget(run_time_);
  return run_row;
}

void RunPanel::connect_signals() {
  connect(run_button_, &QPushButton::clicked, this, [this] { run(); });
  connect(cancel_button_, &QPushButton::clicked, this, &RunPanel::cancel_run);
  connect(apply_button_, &QPushButton::clicked, this, &RunPanel::apply_what_if);
  connect(what_if_tenant_, &QComboBox::currentIndexChanged, this, [this] {
    if (!refreshing_) refresh();
  });
  connect(what_if_price_, &QComboBox::activated, this, &RunPanel::reprice);
  connect(results_, &ResultsPanel::currentReportChanged, this, &RunPanel::stateChanged);
  connect(document_, &ScenarioDocument::validated, this, &RunPanel::refresh);
  connect(runner_, &SimulationRunner::progress, this,
          [this](double fraction, const QString& strategy, const QString& time_text) {
            // The runner's fraction never goes back within a run; the bar restarts from 0 at run().
            progress_->setValue(std::max(progress_->value(), static_cast<int>(std::lround(1000.0 * fraction))));
            run_time_->setText(time_text);
            if (!strategy.isEmpty()) run_status_->setText(tr("Simulating %1...").arg(strategy));
          });
  connect(runner_, &SimulationRunner::finished, this, &RunPanel::on_run_finished);
  connect(runner_, &SimulationRunner::failed, this, [this](const QString& message) {
    refresh();
    run_time_->clear();
    run_status_->setText(tr("Run failed: %1").arg(message));
    emit statusMessage(tr("The run failed"));
    emit runStopped(message);
  });
  connect(runner_, &SimulationRunner::cancelled, this, [this] {
    refresh();
    run_time_->clear();
    run_status_->setText(tr("Run cancelled."));
    emit statusMessage(tr("Run cancelled"));
    emit runStopped(QString());
  });
}

RunPanel::~RunPanel() = default;

void RunPanel::refresh() {
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
  const Json* sla =
      tenant >= 0 ? document_->value_at("/tenants/" + std::to_string(tenant) + "/sla/latency_s") : nullptr;
  what_if_sla_->setValue(sla && sla->is_number() ? sla->get<double>() : 0.0);
  const Json* option = document_->value_at("/pricing/option");
  what_if_price_->setCurrentText(option && option->is_string() ? to_qstring(option->get<std::string>())
                                                               : QStringLiteral("on_demand"));
  refreshing_ = false;
  const bool running = runner_->is_running();
  run_button_->setEnabled(!running && document_->is_valid());
  cancel_button_->setEnabled(running);
  emit stateChanged();
}

void RunPanel::apply_what_if() {
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

report::RoiReport RunPanel::report_for(const scenario::SimResult& result, const std::string& option,
                                       QString* error) const {
  scenario::Scenario scenario = result.input;
  // Messages name the open scenario file, whose /pricing the what-if edits (the result's own copy
  // has no file). Its price table path was made absolute for the run.
  scenario.source_file = document_->path().toStdString();
  if (!option.empty()) {
    for (const auto& [name, value] : pricing::purchase_option_table()) {
      if (name == option) scenario.pricing.option = value;
    }
  }
  try {
    return report::priced_roi_report(result, scenario);
  } catch (const std::exception& e) {
    if (error) *error = to_qstring(e.what());
    return {};
  }
}

void RunPanel::reprice() {
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

bool RunPanel::run() {
  if (runner_->is_running()) {
    emit statusMessage(tr("A run is going on"));
    return false;
  }
  if (!document_->is_valid()) {
    emit statusMessage(tr("Fix the %1 listed below before running")
                           .arg(count_text(document_->diagnostics().size(), tr("problem"), tr("problems"))));
    return false;
  }
  QString error;
  const QString what = document_->undo_stack()->undoText();
  run_label_ = tr("Run %1").arg(runs_started_ + 1) + (what.isEmpty() ? QString() : QStringLiteral(" · ") + what);
  if (!runner_->start(document_->json(), document_->base_dir(), {QStringLiteral("--jobs"), QStringLiteral("2")},
                      &error)) {
    run_status_->setText(tr("Cannot run: %1").arg(error));
    return false;
  }
  ++runs_started_;
  run_clock_.start();
  progress_->setValue(0);
  run_time_->clear();
  run_status_->setText(tr("Starting %1...").arg(runner_->program()));
  refresh();
  emit statusMessage(tr("Running %1").arg(run_label_));
  return true;
}

void RunPanel::cancel_run() { runner_->cancel(); }

bool RunPanel::is_running() const { return runner_->is_running(); }

bool RunPanel::can_run() const { return document_->is_valid() && !runner_->is_running(); }

void RunPanel::on_run_finished() {
  refresh();
  progress_->setValue(progress_->maximum());
  run_time_->clear();
  QString error;
  report::RoiReport report = report_for(runner_->result(), {}, &error);
  if (!error.isEmpty()) {
    run_status_->setText(tr("The run finished but cannot be priced: %1").arg(error));
    emit runStopped(error);
    return;
  }
  results_->add_run(run_label_, std::move(report));
  // The answer itself is the results' summary, right below.
  run_status_->setText(tr("%1 done in %2.").arg(run_label_, duration_text(run_clock_.elapsed() / 1000.0)));
  emit statusMessage(tr("%1 done").arg(run_label_));
  emit runFinished();
}

bool RunPanel::export_report(const QString& path, QString* error) {
  const report::RoiReport* current = results_->current_report();
  if (!current) {
    if (error) *error = tr("run the scenario first: there is no result to report");
    return false;
  }
  try {
    const auto format =
        render::report_format_from(std::filesystem::path(path.toStdString()).extension().string(), "export");
    render::write_report(*current, format, path.toStdString());
  } catch (const std::exception& e) {
    if (error) *error = to_qstring(e.what());
    return false;
  }
  emit statusMessage(tr("Report written to %1").arg(path));
  return true;
}

}  // namespace slicewise::gui
