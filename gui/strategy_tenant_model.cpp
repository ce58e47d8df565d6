// Per-tenant settings of one strategy (see strategy_tenant_model.hpp).
#include "gui/strategy_tenant_model.hpp"

#include "core/json_reader.hpp"
#include "gui/param_fields.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::gui {

StrategyTenantModel::StrategyTenantModel(ScenarioDocument* document, QObject* parent)
    : JsonTableModel(document, "/strategies", parent) {
  add_derived(tr("Tenant"), [this](int row) { return tenant_name(row); });
  for (const auto& param : scenario::tenant_params()) {
    const bool numeric = param.type == scenario::ParamType::number || param.type == scenario::ParamType::count;
    if (auto field = param_field(param, scenario::kinds_reading_tenant_key(param.key))) {
      add_field(*field, {}, numeric);
    }
  }
}

int StrategyTenantModel::column_of(std::string_view key) {
  const auto& params = scenario::tenant_params();
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].key == key) return kTenant + 1 + static_cast<int>(i);
  }
  return -1;
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
  const auto& params = scenario::tenant_params();
  if (column <= kTenant || column > static_cast<int>(params.size())) return true;
  // The policy of the strategy's kind (dedicated, the reader's default, while it has none) says.
  const Json* kind = document()->value_at("/strategies/" + std::to_string(strategy_) + "/kind");
  const auto* policy = scenario::policy_named(kind && kind->is_string() ? kind->get<std::string>() : "dedicated");
  return policy && policy->reads_tenant_key(params[static_cast<std::size_t>(column - kTenant - 1)].key);
}

Qt::ItemFlags StrategyTenantModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags flags = JsonTableModel::flags(index);
  if (index.isValid() && !column_applies(index.column())) flags &= ~(Qt::ItemIsEditable | Qt::ItemIsEnabled);
  return flags;
}

QVariant StrategyTenantModel::data(const QModelIndex& index, int role) const {
  const auto& params = scenario::tenant_params();
  const int setting = index.column() - kTenant - 1;
  if (role == kChoicesRole && index.isValid() && setting >= 0 && setting < static_cast<int>(params.size()) &&
      params[static_cast<std::size_t>(setting)].type == scenario::ParamType::mig_profile) {
    return mig_profiles_;
  }
  return JsonTableModel::data(index, role);
}

}  // namespace slicewise::gui
