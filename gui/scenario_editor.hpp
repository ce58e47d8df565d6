// The scenario editor: the scenario's settings and pricing, its fleet, its tenants (table, form,
// trace picker and arrival preview), its strategies (table, form, MIG layout editor and
// per-tenant settings) and its faults (a form), all editing one ScenarioDocument.
#pragma once

#include <string>

#include <QWidget>

#include "gui/scenario_document.hpp"

class QCheckBox;
class QTabWidget;
class QTableView;
class QTimer;

namespace slicewise::gui {

class ArrivalChart;
class FleetModel;
class MigLayoutEditor;
class PointerForm;
class StrategyModel;
class StrategyTenantModel;
class TenantModel;

/// Object names: "editorTabs" (QTabWidget: Scenario, Fleet, Tenants, Strategies, Faults),
/// "scenarioForm", "tenantForm", "strategyForm", "faultForm" (PointerForm over /faults: disabled
/// while the scenario has no faults), "faultsEnabled" (QCheckBox: adds an empty /faults, which
/// injects GPU failures at the default rate, or removes the whole section), "fleetView", "tenantView", "strategyView",
/// "strategyTenantView" (QTableView), "addFleetEntry", "removeFleetEntry", "addTenant",
/// "removeTenant", "addStrategy", "removeStrategy", "browseTrace" (QPushButton), "migEditor"
/// (MigLayoutEditor), "arrivalPreview" (ArrivalChart).
class ScenarioEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ScenarioEditor(ScenarioDocument* document, QWidget* parent = nullptr);

  /// Shows the tenant (or strategy) at `index` in its form; -1 clears the selection.
  void select_tenant(int index);
  void select_strategy(int index);
  int selected_tenant() const;
  int selected_strategy() const;
  /// Brings the field at `pointer` on screen: its tab, row and form.
  void navigate_to(const std::string& pointer);
  /// Recomputes the arrival preview now (it otherwise follows edits after a short pause).
  void update_preview();

 signals:
  /// The trace picker wants a file: the main window (or a test) answers with set_trace_file.
  void traceFileRequested(int tenant);

 public:
  /// Sets the selected tenant's trace file (stored relative to the scenario's folder).
  void set_trace_file(int tenant, const QString& path);

 private:
  QWidget* create_scenario_page();
  QWidget* create_fleet_page();
  QWidget* create_tenant_page();
  QWidget* create_strategy_page();
  QWidget* create_fault_page();
  /// The Faults tab from the document: the check box, and the form on /faults when it exists.
  void refresh_faults();
  /// Fits the tables' columns and selects the first tenant and strategy (a new document).
  void show_first_rows();
  void on_tenant_selected();
  void on_strategy_selected();
  void refresh_strategy_extras();
  void append_element(const std::string& array_pointer, Json element, const QString& label);
  void remove_selected(QTableView* view, const std::string& array_pointer, const QString& label);

  ScenarioDocument* document_;
  QTabWidget* tabs_;
  FleetModel* fleet_model_;
  TenantModel* tenant_model_;
  StrategyModel* strategy_model_;
  StrategyTenantModel* strategy_tenant_model_;
  QTableView* fleet_view_ = nullptr;
  QTableView* tenant_view_ = nullptr;
  QTableView* strategy_view_ = nullptr;
  QTableView* strategy_tenant_view_ = nullptr;
  PointerForm* scenario_form_ = nullptr;
  PointerForm* tenant_form_ = nullptr;
  PointerForm* strategy_form_ = nullptr;
  PointerForm* fault_form_ = nullptr;
  QCheckBox* faults_enabled_ = nullptr;
  MigLayoutEditor* mig_editor_ = nullptr;
  QWidget* mig_box_ = nullptr;
  ArrivalChart* preview_ = nullptr;
  QTimer* preview_timer_;
};

}  // namespace slicewise::gui
