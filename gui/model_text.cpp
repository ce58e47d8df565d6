// Display text of scenario fields (see model_text.hpp).
#include "gui/model_text.hpp"

#include <vector>

#include "core/json_reader.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::gui {

namespace {

using scenario::StrategySpec;
using scenario::TenantStrategySettings;

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

/// `key=value` for each declared key set on `owner` (away from its default), in declaration order.
template <class Owner>
void add_set_params(const std::vector<scenario::ParamDecl<Owner>>& params, const Owner& owner,
                    std::vector<std::string>& items) {
  for (const auto& param : params) {
    if (param.is_set(owner)) items.push_back(param.key + "=" + param.value_text(owner));
  }
}

std::vector<std::string> strategy_parameters(const StrategySpec& s) {
  std::vector<std::string> items;
  if (s.placement != scenario::PlacementPolicy::pack) {
    items.push_back("placement=" + scenario::name_of(scenario::placement_policy_table(), s.placement));
  }
  add_set_params(scenario::strategy_params(), s, items);
  std::vector<std::string> sidecars;
  for (const auto& sidecar : s.sidecars)
    sidecars.push_back(std::to_string(sidecar.count) + "×" + sidecar.instance_type);
  if (!sidecars.empty()) items.push_back("sidecars=" + join(sidecars, "+"));
  return items;
}

std::string tenant_settings_text(const TenantStrategySettings& t) {
  std::vector<std::string> items;
  add_set_params(scenario::tenant_params(), t, items);
  return join(items, ", ");
}

/// The generic parameters as one item, then one item per tenant override.
std::vector<std::string> strategy_items(const StrategySpec& s) {
  std::vector<std::string> items;
  if (std::string general = join(strategy_parameters(s), ", "); !general.empty()) items.push_back(general);
  for (const auto& [tenant, settings] : s.tenants) items.push_back(tenant + ": " + tenant_settings_text(settings));
  return items;
}

}  // namespace

QString to_qstring(const std::string& text) { return QString::fromStdString(text); }

QString count_text(std::size_t count, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

QString number_text(double value) { return to_qstring(format_number(value)); }

QString number_text(const std::optional<double>& value) { return value ? number_text(*value) : QString(); }

QString load_text(const scenario::LoadSpec& load) {
  std::string text = scenario::name_of(scenario::load_kind_table(), load.kind);
  switch (load.kind) {
    case scenario::LoadKind::poisson: text += " " + format_number(load.rate_per_s) + "/s"; break;
    case scenario::LoadKind::closed_loop:
      text += " " + std::to_string(load.num_users) + (load.num_users == 1 ? " user" : " users") + ", think " +
              format_number(load.think_time_s) + " s";
      break;
    case scenario::LoadKind::trace:
      text += " " + load.trace_file;
      if (!load.trace_format.empty()) text += " (" + load.trace_format + ")";
      if (!load.split_column.empty()) text += " where " + load.split_column + " in " + join(load.split_values, "|");
      break;
    case scenario::LoadKind::diurnal:
      text += " " + format_number(load.rate_per_s) + "/s daily mean, from " + format_number(load.start_hour) + " h";
      break;
    case scenario::LoadKind::mmpp: text += " " + std::to_string(load.states.size()) + " states"; break;
  }
  if (load.multiplier != 1.0) text += " ×" + format_number(load.multiplier);
  return to_qstring(text);
}

QString strategy_parameters_text(const StrategySpec& strategy) {
  return to_qstring(join(strategy_items(strategy), "; "));
}

QString strategy_parameters_detail(const StrategySpec& strategy) {
  // Here the generic parameters get a line each too.
  std::vector<std::string> lines = strategy_parameters(strategy);
  for (const auto& [tenant, settings] : strategy.tenants)
    lines.push_back(tenant + ": " + tenant_settings_text(settings));
  return to_qstring(join(lines, "\n"));
}

}  // namespace slicewise::gui
