// Per-tenant settings of one strategy (see strategy_tenant_model.hpp).
#include "gui/strategy_tenant_model.hpp"

#include "core/json_reader.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::gui {

StrategyTenantModel::StrategyTenantModel(ScenarioDocument* document, QObject* parent)
    : JsonTableModel(document, "/strategies", parent) {
  add_derived(tr("Tenant"), [this](int row) { return tenant_name(row); });
  add_field(FieldSpec(tr("MIG profile"), "/mig_profile", FieldType::choice)
                .with_tooltip(tr("mig, mig_time_slicing: the GPU instance profile the tenant's contexts get")));
  add_field(FieldSpec(tr("Active threads (%)"), "/active_thread_pct", FieldType::number)
                .with_tooltip(tr("mps: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, (0, 100]")),
            {}, true);
  add_field(
      FieldSpec(tr("GPU cores (%)"), "/gpucores_pct", FieldType::number).with_tooltip(tr("hami: core cap, (0, 100]")),
      {}, true);
  add_field(FieldSpec(tr("GPU memory (GiB)"), "/gpumem_gib", FieldType::number).with_tooltip(tr("hami: memory limit")),
            {}, true);
  add_field(FieldSpec(tr("Weight"), "/weight", FieldType::number)
                .with_tooltip(tr("time_slicing, vgpu fixed_share: relative share, > 0")),
            {}, true);
}

void StrategyTenantModel::set_strategy(int index) {
  strategy_ = index;
  beginResetModel();
  endResetModel();
  refresh_rows();
}

void StrategyTenantModel::set_mig_profiles(const QStringList& profiles) {
  mig_profiles_ = profiles;
  refresh_rows();
}

int StrategyTenantModel::array_size() const {
  const Json* strategies = document()->value_at("/strategies");
  if (strategy_ < 0 || !strategies || !strategies->is_array() || strategy_ >= static_cast<int>(strategies->size())) {
    return 0;
  }
  const Json* tenants = document()->value_at("/tenants");
  return tenants && tenants->is_array() ? static_cast<int>(tenants->size()) : 0;
}

QString StrategyTenantModel::tenant_name(int row) const {
  const Json* name = document()->value_at("/tenants/" + std::to_string(row) + "/name");
  return name && name->is_string() ? QString::fromStdString(name->get<std::string>()) : QString();
}

std::string StrategyTenantModel::row_pointer(int row) const {
  return "/strategies/" + std::to_string(strategy_) + "/tenants/" + json_pointer_token(tenant_name(row).toStdString());
}

bool StrategyTenantModel::column_applies(int column) const {
  static const char* const keys[kNumColumns] = {"",           "mig_profile", "active_thread_pct", "gpucores_pct",
                                                "gpumem_gib", "weight"};
  if (column <= kTenant || column >= kNumColumns) return true;
  // The policy of the strategy's kind (dedicated, the reader's default, while it has none) says.
  const Json* kind = document()->value_at("/strategies/" + std::to_string(strategy_) + "/kind");
  const auto* policy = scenario::policy_named(kind && kind->is_string() ? kind->get<std::string>() : "dedicated");
  return policy && policy->reads_tenant_key(keys[column]);
}

Qt::ItemFlags StrategyTenantModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags flags = JsonTableModel::flags(index);
  if (index.isValid() && !column_applies(index.column())) flags &= ~(Qt::ItemIsEditable | Qt::ItemIsEnabled);
  return flags;
}

QVariant StrategyTenantModel::data(const QModelIndex& index, int role) const {
  if (role == kChoicesRole && index.isValid() && index.column() == kMigProfile) return mig_profiles_;
  return JsonTableModel::data(index, role);
}

}  // namespace slicewise::gui
