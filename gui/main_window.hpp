// The slicewise-gui main window: a scenario's fleet, tenants and strategies as tables, and the
// problems of the last failed load as a diagnostics list.
#pragma once

#include <optional>

#include <QMainWindow>
#include <QString>

#include "core/diagnostic.hpp"
#include "scenario/scenario.hpp"

class QLabel;
class QListWidget;
class QTabWidget;
class QTableView;

namespace slicewise::gui {

class FleetModel;
class StrategyModel;
class TenantModel;

/// Object names, for tests and style sheets: "scenarioHeader" (QLabel), "scenarioTabs"
/// (QTabWidget), "fleetView", "tenantView", "strategyView" (QTableView), "diagnosticsList"
/// (QListWidget, hidden while empty; each item's text is Diagnostic::format() and its Qt::UserRole
/// the JSON pointer), "openAction", "quitAction" (QAction).
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Loads and validates the scenario at `path` and shows it; returns true on success. On failure
  /// lists every diagnostic (`file: /pointer: message`), keeps showing the previously loaded
  /// scenario and returns false. No dialogs either way.
  bool open_scenario(const QString& path);

  /// The scenario shown; nullopt until a load succeeds.
  const std::optional<scenario::Scenario>& current_scenario() const { return scenario_; }

 signals:
  /// Emitted after `path` loaded successfully and the views show it.
  void scenarioLoaded(const QString& path);

 private:
  void create_menus();
  QWidget* create_central_widget();
  void choose_and_open();
  void show_scenario(const scenario::Scenario& scenario, const QString& path);
  void show_diagnostics(const Diagnostics& diagnostics, const QString& path);

  std::optional<scenario::Scenario> scenario_;
  QString last_dir_;
  FleetModel* fleet_model_;
  TenantModel* tenant_model_;
  StrategyModel* strategy_model_;
  QLabel* header_ = nullptr;
  QTableView* fleet_view_ = nullptr;
  QTableView* tenant_view_ = nullptr;
  QTableView* strategy_view_ = nullptr;
  QListWidget* diagnostics_list_ = nullptr;
};

}  // namespace slicewise::gui
