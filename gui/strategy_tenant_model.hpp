// Per-tenant settings of one strategy (/strategies/i/tenants/<name>): one row per tenant of the
// scenario, whether or not the strategy overrides anything for it, with a column per setting
// scenario/strategy_params.cpp declares, enabled where the strategy's kind reads it.
#pragma once

#include <string_view>

#include "gui/json_table_model.hpp"

namespace slicewise::gui {

class StrategyTenantModel : public JsonTableModel {
  Q_OBJECT

 public:
  /// The tenant's name; then the settings, in declaration order (column_of()).
  static constexpr int kTenant = 0;

  explicit StrategyTenantModel(ScenarioDocument* document, QObject* parent = nullptr);

  /// The strategy whose settings are shown; -1 = none (no rows).
  void set_strategy(int index);
  int strategy() const { return strategy_; }
  /// The MIG profiles offered in the profile column (those of the strategy's layout).
  void set_mig_profiles(const QStringList& profiles);

  /// The column of per-tenant setting `key`; -1 when none has it.
  static int column_of(std::string_view key);
  /// Whether `column` is used by the strategy's kind (validate.cpp rejects the others).
  bool column_applies(int column) const;

  std::string row_pointer(int row) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

 protected:
  int array_size() const override;

 private:
  QString tenant_name(int row) const;

  int strategy_ = -1;
  QStringList mig_profiles_;
};

}  // namespace slicewise::gui
