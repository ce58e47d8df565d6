// Table model over a scenario's fleet (see fleet_model.hpp).
#include "gui/fleet_model.hpp"

#include "gui/model_text.hpp"

namespace slicewise::gui {

FleetModel::FleetModel(QObject* parent) : QAbstractTableModel(parent) {}

void FleetModel::set_scenario(const scenario::Scenario& scenario) {
  beginResetModel();
  fleet_ = scenario.fleet;
  endResetModel();
}

int FleetModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(fleet_.size());
}

int FleetModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kNumColumns; }

QVariant FleetModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const scenario::FleetEntry& entry = fleet_[static_cast<std::size_t>(index.row())];
  if (role == Qt::TextAlignmentRole && index.column() == kCount) {
    return kNumberAlignment;
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kGpu: return to_qstring(entry.gpu);
    case kInstanceType: return to_qstring(entry.instance_type);
    case kCount: return QString::number(entry.count);
    default: return {};
  }
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  switch (section) {
    case kGpu: return tr("GPU");
    case kInstanceType: return tr("Instance type");
    case kCount: return tr("Count");
    default: return {};
  }
}

}  // namespace slicewise::gui
