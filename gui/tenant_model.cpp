// Table model over a scenario's tenants (see tenant_model.hpp).
#include "gui/tenant_model.hpp"

#include "gui/model_text.hpp"
#include "scenario/enum_tables.hpp"

namespace slicewise::gui {

namespace {

bool is_numeric(int column) {
  return column == TenantModel::kSoloLatency || column == TenantModel::kMemory ||
         column == TenantModel::kMaxConcurrency || column == TenantModel::kSlaLatency;
}

}  // namespace

TenantModel::TenantModel(QObject* parent) : QAbstractTableModel(parent) {}

void TenantModel::set_scenario(const scenario::Scenario& scenario) {
  beginResetModel();
  tenants_ = scenario.tenants;
  endResetModel();
}

int TenantModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(tenants_.size());
}

int TenantModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kNumColumns; }

QVariant TenantModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const scenario::Tenant& tenant = tenants_[static_cast<std::size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole: return display_text(tenant, index.column());
    case Qt::TextAlignmentRole:
      return is_numeric(index.column()) ? QVariant(kNumberAlignment) : QVariant();
    default: return {};
  }
}

QString TenantModel::display_text(const scenario::Tenant& tenant, int column) const {
  const scenario::Workload& w = tenant.workload;
  switch (column) {
    case kName: return to_qstring(tenant.name);
    case kKind: return to_qstring(scenario::name_of(scenario::workload_kind_table(), w.kind));
    case kSoloLatency: return number_text(w.solo_latency_s);
    case kMemory: return number_text(w.memory_gib);
    case kMaxConcurrency: return QString::number(w.max_concurrency);
    case kLoad: return load_text(tenant.load);
    case kSlaLatency: return number_text(tenant.sla.latency_s);
    case kIsolation: return to_qstring(models::to_string(tenant.isolation));
    default: return {};
  }
}

QVariant TenantModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  switch (section) {
    case kName: return tr("Name");
    case kKind: return tr("Kind");
    case kSoloLatency: return tr("Solo latency (s)");
    case kMemory: return tr("Memory (GiB)");
    case kMaxConcurrency: return tr("Max concurrency");
    case kLoad: return tr("Load");
    case kSlaLatency: return tr("SLA latency (s)");
    case kIsolation: return tr("Isolation");
    default: return {};
  }
}

}  // namespace slicewise::gui
