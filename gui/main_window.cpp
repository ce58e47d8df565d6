// The slicewise-gui main window (see main_window.hpp).
#include "gui/main_window.hpp"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/fleet_model.hpp"
#include "gui/model_text.hpp"
#include "gui/scenario_loader.hpp"
#include "gui/strategy_model.hpp"
#include "gui/tenant_model.hpp"

namespace slicewise::gui {

namespace {

/// A read-only, row-selecting table over `model`.
QTableView* make_table_view(QAbstractItemModel* model, const QString& object_name, QWidget* parent) {
  auto* view = new QTableView(parent);
  view->setObjectName(object_name);
  view->setModel(model);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setAlternatingRowColors(true);
  view->setWordWrap(false);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setStretchLastSection(true);
  return view;
}

/// "1 tenant", "2 tenants".
QString count_text(std::size_t count, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      fleet_model_(new FleetModel(this)),
      tenant_model_(new TenantModel(this)),
      strategy_model_(new StrategyModel(this)) {
  setWindowTitle(tr("slicewise"));
  create_menus();
  setCentralWidget(create_central_widget());
  statusBar()->showMessage(tr("Open a scenario (File > Open...)"));
  resize(1100, 700);
}

MainWindow::~MainWindow() = default;

void MainWindow::create_menus() {
  QMenu* file_menu = menuBar()->addMenu(tr("&File"));
  QAction* open_action = file_menu->addAction(tr("&Open..."), this, &MainWindow::choose_and_open);
  open_action->setObjectName(QStringLiteral("openAction"));
  open_action->setShortcut(QKeySequence::Open);
  file_menu->addSeparator();
  QAction* quit_action = file_menu->addAction(tr("&Quit"), this, &QWidget::close);
  quit_action->setObjectName(QStringLiteral("quitAction"));
  quit_action->setShortcut(QKeySequence::Quit);
}

QWidget* MainWindow::create_central_widget() {
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);

  header_ = new QLabel(tr("No scenario loaded."), central);
  header_->setObjectName(QStringLiteral("scenarioHeader"));
  header_->setWordWrap(true);
  header_->setTextFormat(Qt::RichText);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(header_);

  auto* splitter = new QSplitter(Qt::Vertical, central);
  auto* tabs = new QTabWidget(splitter);
  tabs->setObjectName(QStringLiteral("scenarioTabs"));
  fleet_view_ = make_table_view(fleet_model_, QStringLiteral("fleetView"), tabs);
  tenant_view_ = make_table_view(tenant_model_, QStringLiteral("tenantView"), tabs);
  strategy_view_ = make_table_view(strategy_model_, QStringLiteral("strategyView"), tabs);
  tabs->addTab(fleet_view_, tr("Fleet"));
  tabs->addTab(tenant_view_, tr("Tenants"));
  tabs->addTab(strategy_view_, tr("Strategies"));
  splitter->addWidget(tabs);

  diagnostics_list_ = new QListWidget(splitter);
  diagnostics_list_->setObjectName(QStringLiteral("diagnosticsList"));
  diagnostics_list_->setWordWrap(true);
  diagnostics_list_->setIconSize(QSize(16, 16));
  diagnostics_list_->hide();
  splitter->addWidget(diagnostics_list_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  layout->addWidget(splitter, 1);
  return central;
}

void MainWindow::choose_and_open() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), last_dir_,
                                                    tr("Scenarios (*.json);;All files (*)"));
  if (!path.isEmpty()) open_scenario(path);
}

bool MainWindow::open_scenario(const QString& path) {
  last_dir_ = QFileInfo(path).absolutePath();
  LoadResult result = try_load_scenario(std::filesystem::path(path.toStdString()));
  if (!result.ok()) {
    show_diagnostics(result.diagnostics, path);
    return false;
  }
  scenario_ = std::move(result.scenario);
  show_scenario(*scenario_, path);
  emit scenarioLoaded(path);
  return true;
}

void MainWindow::show_scenario(const scenario::Scenario& scenario, const QString& path) {
  fleet_model_->set_scenario(scenario);
  tenant_model_->set_scenario(scenario);
  strategy_model_->set_scenario(scenario);
  for (QTableView* view : {fleet_view_, tenant_view_, strategy_view_}) view->resizeColumnsToContents();

  const QString name = to_qstring(scenario.name);
  QString header = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
  if (!scenario.description.empty()) header += QStringLiteral("<br>") + to_qstring(scenario.description).toHtmlEscaped();
  header_->setText(header);

  diagnostics_list_->clear();
  diagnostics_list_->hide();
  setWindowTitle(tr("%1 - slicewise").arg(name));
  setWindowFilePath(path);
  statusBar()->showMessage(tr("Loaded %1: %2, %3")
                               .arg(path, count_text(scenario.tenants.size(), tr("tenant"), tr("tenants")),
                                    count_text(scenario.strategies.size(), tr("strategy"), tr("strategies"))));
}

void MainWindow::show_diagnostics(const Diagnostics& diagnostics, const QString& path) {
  diagnostics_list_->clear();
  const QIcon warning_icon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
  for (const Diagnostic& d : diagnostics) {
    auto* item = new QListWidgetItem(to_qstring(d.format()), diagnostics_list_);
    item->setData(Qt::UserRole, to_qstring(d.pointer));
    item->setIcon(warning_icon);
  }
  diagnostics_list_->show();
  statusBar()->showMessage(
      tr("Could not load %1: %2").arg(path, count_text(diagnostics.size(), tr("problem"), tr("problems"))));
}

}  // namespace slicewise::gui
