// The scenario editor (see scenario_editor.hpp).
#include "gui/scenario_editor.hpp"

#include <QCheckBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "core/json_reader.hpp"
#include "gui/arrival_chart.hpp"
#include "gui/arrival_preview.hpp"
#include "gui/editor_fields.hpp"
#include "gui/editor_panes.hpp"
#include "gui/fleet_model.hpp"
#include "gui/mig_layout_editor.hpp"
#include "gui/pointer_form.hpp"
#include "gui/strategy_model.hpp"
#include "gui/strategy_tenant_model.hpp"
#include "gui/tenant_model.hpp"
#include "models/mig_layout.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/validate.hpp"

namespace slicewise::gui {

namespace {

/// The index in `pointer` after `prefix` ("/tenants/3/load" → 3), or -1.
int index_after(const std::string& pointer, const std::string& prefix) {
  if (pointer.compare(0, prefix.size(), prefix) != 0) return -1;
  const std::string rest = pointer.substr(prefix.size());
  const auto end = rest.find('/');
  try {
    return std::stoi(rest.substr(0, end));
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

ScenarioEditor::ScenarioEditor(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      fleet_model_(new FleetModel(document, this)),
      tenant_model_(new TenantModel(document, this)),
      strategy_model_(new StrategyModel(document, this)),
      strategy_tenant_model_(new StrategyTenantModel(document, this)),
      preview_timer_(new QTimer(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("editorTabs"));
  tabs_->addTab(create_scenario_page(), tr("Scenario"));
  tabs_->addTab(create_fleet_page(), tr("Fleet"));
  tabs_->addTab(create_tenant_page(), tr("Tenants"));
  tabs_->addTab(create_strategy_page(), tr("Strategies"));
  tabs_->addTab(create_fault_page(), tr("Faults"));
  layout->addWidget(tabs_);

  preview_timer_->setSingleShot(true);
  preview_timer_->setInterval(200);
  connect(preview_timer_, &QTimer::timeout, this, &ScenarioEditor::update_preview);
  connect(document_, &ScenarioDocument::changed, this, [this](const QString& pointer) {
    if (pointer.isEmpty()) {  // a new document (its first tenant's preview follows)
      show_first_rows();
    } else if (pointer.startsWith(QStringLiteral("/tenants/%1/").arg(selected_tenant())) ||
               pointer.startsWith(QLatin1String("/horizon_s")) || pointer.startsWith(QLatin1String("/seed"))) {
      preview_timer_->start();
    }
  });
  connect(document_, &ScenarioDocument::validated, this, [this] {
    // Rows may have come or gone: keep the forms on rows that exist.
    if (selected_tenant() < 0) tenant_form_->clear_base();
    if (selected_strategy() < 0) strategy_form_->clear_base();
    refresh_strategy_extras();
    refresh_faults();
  });
  show_first_rows();
}

void ScenarioEditor::show_first_rows() {
  select_tenant(tenant_model_->rowCount() > 0 ? 0 : -1);
  select_strategy(strategy_model_->rowCount() > 0 ? 0 : -1);
}

QWidget* ScenarioEditor::create_scenario_page() {
  scenario_form_ = new PointerForm(document_, scenario_fields(), this);
  scenario_form_->setObjectName(QStringLiteral("scenarioForm"));
  scenario_form_->set_base("");
  return scrolled(scenario_form_, this);
}

QWidget* ScenarioEditor::create_fleet_page() {
  const TablePane pane =
      table_pane(fleet_model_, QStringLiteral("fleetView"), tr("Add GPUs"), QStringLiteral("addFleetEntry"),
                 tr("Remove"), QStringLiteral("removeFleetEntry"), this);
  fleet_view_ = pane.view;
  QPushButton* add = pane.add;
  QPushButton* remove = pane.remove;
  connect(add, &QPushButton::clicked, this, [this] {
    const Json* first = document_->value_at("/fleet/0");
    Json entry = first ? *first : Json{{"gpu", "L40S"}, {"count", 1}};
    append_element("/fleet", entry, tr("Add fleet entry"));
  });
  connect(remove, &QPushButton::clicked, this,
          [this] { remove_selected(fleet_view_, "/fleet", tr("Remove fleet entry")); });
  return pane.widget;
}

QWidget* ScenarioEditor::create_tenant_page() {
  auto* splitter = new QSplitter(Qt::Vertical, this);
  const TablePane pane =
      table_pane(tenant_model_, QStringLiteral("tenantView"), tr("Add tenant"), QStringLiteral("addTenant"),
                 tr("Remove tenant"), QStringLiteral("removeTenant"), splitter);
  tenant_view_ = pane.view;
  QPushButton* add = pane.add;
  QPushButton* remove = pane.remove;
  splitter->addWidget(pane.widget);

  auto* detail = new QSplitter(Qt::Horizontal, splitter);
  tenant_form_ = new PointerForm(document_, tenant_fields(), detail);
  tenant_form_->setObjectName(QStringLiteral("tenantForm"));
  auto* browse = make_button(tr("Browse..."), QStringLiteral("browseTrace"), tenant_form_);
  tenant_form_->add_beside("/load/trace_file", browse);
  detail->addWidget(scrolled(tenant_form_, detail));
  preview_ = new ArrivalChart(detail);
  preview_->setObjectName(QStringLiteral("arrivalPreview"));
  detail->addWidget(preview_);
  splitter->addWidget(detail);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 2);

  connect(add, &QPushButton::clicked, this, [this] {
    const int n = tenant_model_->rowCount();
    std::string name = "tenant-" + std::to_string(n + 1);
    append_element("/tenants",
                   Json{{"name", name},
                        {"workload", {{"kind", "generic"}, {"solo_latency_s", 0.1}, {"memory_gib", 8}}},
                        {"load", {{"kind", "poisson"}, {"rate_per_s", 1}}}},
                   tr("Add tenant"));
    select_tenant(n);
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    const int row = selected_tenant();
    if (row < 0) return;
    // The strategies' settings for the tenant go with it (the check would reject them).
    const QString name = tenant_model_->data(tenant_model_->index(row, TenantModel::kName)).toString();
    document_->begin_macro(tr("Remove tenant %1").arg(name));
    const Json* strategies = document_->value_at("/strategies");
    for (std::size_t s = 0; strategies && strategies->is_array() && s < strategies->size(); ++s) {
      const std::string pointer =
          "/strategies/" + std::to_string(s) + "/tenants/" + json_pointer_token(name.toStdString());
      if (document_->value_at(pointer)) document_->set_value(pointer, std::nullopt);
    }
    remove_selected(tenant_view_, "/tenants", tr("Remove tenant"));
    document_->end_macro();
  });
  connect(tenant_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &ScenarioEditor::on_tenant_selected);
  connect(tenant_model_, &QAbstractItemModel::modelReset, this, &ScenarioEditor::on_tenant_selected);
  connect(browse, &QPushButton::clicked, this, [this] {
    if (selected_tenant() >= 0) emit traceFileRequested(selected_tenant());
  });
  return splitter;
}

QWidget* ScenarioEditor::create_strategy_page() {
  auto* page = new QWidget(this);
  auto* page_layout = new QVBoxLayout(page);
  auto* splitter = new QSplitter(Qt::Vertical, page);
  const TablePane pane =
      table_pane(strategy_model_, QStringLiteral("strategyView"), tr("Add strategy"), QStringLiteral("addStrategy"),
                 tr("Remove strategy"), QStringLiteral("removeStrategy"), splitter);
  strategy_view_ = pane.view;
  QPushButton* add = pane.add;
  QPushButton* remove = pane.remove;
  splitter->addWidget(pane.widget);

  auto* detail = new QWidget(splitter);
  auto* detail_layout = new QVBoxLayout(detail);
  strategy_form_ = new PointerForm(document_, strategy_fields(), detail);
  strategy_form_->setObjectName(QStringLiteral("strategyForm"));
  detail_layout->addWidget(strategy_form_);
  auto* mig_group = new QGroupBox(tr("MIG layout (per GPU)"), detail);
  auto* mig_layout = new QVBoxLayout(mig_group);
  mig_editor_ = new MigLayoutEditor(mig_group);
  mig_editor_->setObjectName(QStringLiteral("migEditor"));
  mig_layout->addWidget(mig_editor_);
  mig_box_ = mig_group;
  detail_layout->addWidget(mig_group);
  auto* tenants_group = new QGroupBox(tr("Per-tenant settings"), detail);
  auto* tenants_layout = new QVBoxLayout(tenants_group);
  strategy_tenant_view_ = make_table_view(strategy_tenant_model_, QStringLiteral("strategyTenantView"), tenants_group);
  tenants_layout->addWidget(strategy_tenant_view_);
  detail_layout->addWidget(tenants_group, 1);
  splitter->addWidget(scrolled(detail, splitter));
  splitter->setStretchFactor(1, 2);
  page_layout->addWidget(splitter);

  connect(add, &QPushButton::clicked, this, [this] {
    const int n = strategy_model_->rowCount();
    append_element("/strategies", Json{{"name", "strategy-" + std::to_string(n + 1)}, {"kind", "time_slicing"}},
                   tr("Add strategy"));
    select_strategy(n);
  });
  connect(remove, &QPushButton::clicked, this,
          [this] { remove_selected(strategy_view_, "/strategies", tr("Remove strategy")); });
  connect(strategy_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &ScenarioEditor::on_strategy_selected);
  connect(strategy_model_, &QAbstractItemModel::modelReset, this, &ScenarioEditor::on_strategy_selected);
  connect(mig_editor_, &MigLayoutEditor::layoutChosen, this, [this](const QString& layout) {
    const int row = selected_strategy();
    if (row < 0) return;
    document_->set_value("/strategies/" + std::to_string(row) + "/layout",
                         layout.isEmpty() ? std::nullopt : std::optional<Json>(layout.toStdString()),
                         tr("Set MIG layout %1").arg(layout));
  });
  return page;
}

QWidget* ScenarioEditor::create_fault_page() {
  auto* page = new QWidget(this);
  auto* layout = new QVBoxLayout(page);
  faults_enabled_ = new QCheckBox(tr("Inject faults"), page);
  faults_enabled_->setObjectName(QStringLiteral("faultsEnabled"));
  faults_enabled_->setToolTip(
      tr("Adds the faults section (GPU failures at the default rate until you set "
         "others), or removes it with every setting in it"));
  auto* note = new QLabel(tr("Rates are per hour of exposure: a GPU in use, or a context. What a fault takes down "
                             "follows what the strategy isolates (docs/faults.md). A strategy's MIG layout "
                             "schedule is edited in the scenario file (docs/mig-schedule.md)."),
                          page);
  note->setWordWrap(true);
  fault_form_ = new PointerForm(document_, fault_fields(), page);
  fault_form_->setObjectName(QStringLiteral("faultForm"));
  layout->addWidget(faults_enabled_);
  layout->addWidget(note);
  layout->addWidget(fault_form_, 1);
  connect(faults_enabled_, &QCheckBox::clicked, this, [this](bool checked) {
    document_->set_value("/faults", checked ? std::optional<Json>(Json::object()) : std::nullopt,
                         checked ? tr("Inject faults") : tr("Remove faults"));
  });
  refresh_faults();
  return scrolled(page, this);
}

void ScenarioEditor::refresh_faults() {
  const Json* faults = document_->value_at("/faults");
  faults_enabled_->setChecked(faults != nullptr);
  // Again on every change: a form whose base was absent stays disabled until it is set again.
  if (faults) {
    fault_form_->set_base("/faults");
  } else {
    fault_form_->clear_base();
  }
}

void ScenarioEditor::append_element(const std::string& array_pointer, Json element, const QString& label) {
  const Json* array = document_->value_at(array_pointer);
  Json updated = array && array->is_array() ? *array : Json::array();
  updated.push_back(std::move(element));
  document_->set_value(array_pointer, updated, label);
}

void ScenarioEditor::remove_selected(QTableView* view, const std::string& array_pointer, const QString& label) {
  const QModelIndex current = view->currentIndex();
  const Json* array = document_->value_at(array_pointer);
  if (!current.isValid() || !array || !array->is_array() || current.row() >= static_cast<int>(array->size())) return;
  Json updated = *array;
  updated.erase(updated.begin() + current.row());
  document_->set_value(array_pointer, updated, label);
}

int ScenarioEditor::selected_tenant() const {
  const QModelIndex current = tenant_view_->currentIndex();
  return current.isValid() && current.row() < tenant_model_->rowCount() ? current.row() : -1;
}

int ScenarioEditor::selected_strategy() const {
  const QModelIndex current = strategy_view_->currentIndex();
  return current.isValid() && current.row() < strategy_model_->rowCount() ? current.row() : -1;
}

void ScenarioEditor::select_tenant(int index) {
  if (index < 0 || index >= tenant_model_->rowCount()) {
    tenant_view_->setCurrentIndex({});
  } else {
    tenant_view_->setCurrentIndex(tenant_model_->index(index, 0));
  }
  on_tenant_selected();
}

void ScenarioEditor::select_strategy(int index) {
  if (index < 0 || index >= strategy_model_->rowCount()) {
    strategy_view_->setCurrentIndex({});
  } else {
    strategy_view_->setCurrentIndex(strategy_model_->index(index, 0));
  }
  on_strategy_selected();
}

void ScenarioEditor::on_tenant_selected() {
  const int row = selected_tenant();
  if (row < 0) {
    tenant_form_->clear_base();
    preview_->clear();
    return;
  }
  tenant_form_->set_base(tenant_model_->row_pointer(row));
  preview_timer_->start();
}

void ScenarioEditor::on_strategy_selected() {
  const int row = selected_strategy();
  if (row < 0) {
    strategy_form_->clear_base();
  } else {
    strategy_form_->set_base(strategy_model_->row_pointer(row));
  }
  strategy_tenant_model_->set_strategy(row);
  refresh_strategy_extras();
}

void ScenarioEditor::refresh_strategy_extras() {
  const int row = selected_strategy();
  const std::string base = "/strategies/" + std::to_string(row);
  const Json* kind = row >= 0 ? document_->value_at(base + "/kind") : nullptr;
  const auto* policy = kind && kind->is_string() ? scenario::policy_named(kind->get<std::string>()) : nullptr;
  const bool mig = policy && policy->partitions_gpus();
  mig_box_->setVisible(mig);
  for (int column = StrategyTenantModel::kTenant + 1; column < strategy_tenant_model_->columnCount(); ++column) {
    strategy_tenant_view_->setColumnHidden(column, !strategy_tenant_model_->column_applies(column));
  }
  if (!mig) return;
  std::string gpu;
  if (const auto& parsed = document_->scenario(); parsed && !parsed->fleet.empty()) {
    gpu = scenario::fleet_gpu_id(parsed->fleet.front(), *parsed, scenario::Catalogs::shipped());
  }
  const Json* layout = document_->value_at(base + "/layout");
  const std::string layout_text = layout && layout->is_string() ? layout->get<std::string>() : std::string();
  mig_editor_->set_state(gpu, layout_text);
  QStringList profiles;
  std::string error;
  for (const auto& profile : models::split_mig_layout(layout_text, error)) {
    if (!profiles.contains(QString::fromStdString(profile))) profiles << QString::fromStdString(profile);
  }
  strategy_tenant_model_->set_mig_profiles(profiles);
}

void ScenarioEditor::update_preview() {
  const int row = selected_tenant();
  if (row < 0) {
    preview_->clear();
    return;
  }
  const QString name = tenant_model_->data(tenant_model_->index(row, TenantModel::kName)).toString();
  const auto& parsed = document_->scenario();
  if (!parsed || row >= static_cast<int>(parsed->tenants.size())) {
    ArrivalPreview none;
    none.note = tr("Fix the problems listed below to see the arrivals.").toStdString();
    preview_->set_preview(none, name);
    return;
  }
  preview_->set_preview(preview_arrivals(*parsed, static_cast<std::size_t>(row)), name);
}

void ScenarioEditor::set_trace_file(int tenant, const QString& path) {
  std::filesystem::path chosen(path.toStdString());
  const auto base = std::filesystem::absolute(document_->base_dir()).lexically_normal();
  const auto relative = std::filesystem::absolute(chosen).lexically_normal().lexically_relative(base);
  const std::string stored = relative.empty() ? chosen.string() : relative.string();
  const std::string pointer = "/tenants/" + std::to_string(tenant) + "/load";
  document_->begin_macro(tr("Replay %1").arg(QFileInfo(path).fileName()));
  document_->set_value(pointer + "/kind", Json("trace"));
  for (const char* key : {"rate_per_s", "num_users", "think_time_s", "hourly_profile", "start_hour", "states"}) {
    if (document_->value_at(pointer + "/" + key)) document_->set_value(pointer + "/" + key, std::nullopt);
  }
  document_->set_value(pointer + "/trace_file", Json(stored));
  document_->end_macro();
}

void ScenarioEditor::navigate_to(const std::string& pointer) {
  if (const int tenant = index_after(pointer, "/tenants/"); tenant >= 0) {
    tabs_->setCurrentIndex(2);
    select_tenant(tenant);
  } else if (const int strategy = index_after(pointer, "/strategies/"); strategy >= 0) {
    tabs_->setCurrentIndex(3);
    select_strategy(strategy);
  } else if (pointer.rfind("/faults", 0) == 0) {
    tabs_->setCurrentIndex(4);
  } else if (pointer.rfind("/fleet", 0) == 0) {
    tabs_->setCurrentIndex(1);
    if (const int entry = index_after(pointer, "/fleet/"); entry >= 0) fleet_view_->selectRow(entry);
  } else {
    tabs_->setCurrentIndex(0);
  }
}

}  // namespace slicewise::gui
