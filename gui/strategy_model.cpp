// Table model over a scenario's strategies (see strategy_model.hpp).
#include "gui/strategy_model.hpp"

#include "gui/model_text.hpp"

namespace slicewise::gui {

StrategyModel::StrategyModel(QObject* parent) : QAbstractTableModel(parent) {}

void StrategyModel::set_scenario(const scenario::Scenario& scenario) {
  beginResetModel();
  strategies_ = scenario.strategies;
  endResetModel();
}

int StrategyModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(strategies_.size());
}

int StrategyModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kNumColumns; }

QVariant StrategyModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const scenario::StrategySpec& strategy = strategies_[static_cast<std::size_t>(index.row())];
  if (role == Qt::ToolTipRole && index.column() == kParameters) return strategy_parameters_detail(strategy);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kName: return to_qstring(strategy.name.empty() ? models::to_string(strategy.kind) : strategy.name);
    case kKind: return to_qstring(models::to_string(strategy.kind));
    case kParameters: return strategy_parameters_text(strategy);
    default: return {};
  }
}

QVariant StrategyModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  switch (section) {
    case kName: return tr("Name");
    case kKind: return tr("Kind");
    case kParameters: return tr("Parameters");
    default: return {};
  }
}

}  // namespace slicewise::gui
