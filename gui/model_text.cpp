// Display text of scenario fields (see model_text.hpp).
#include "gui/model_text.hpp"

#include <vector>

#include "core/json_reader.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/strategies/policy.hpp"

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

/// Collects `key=value` items, skipping unset optionals.
class ParameterList {
 public:
  void add(const char* key, const std::string& value) { items_.push_back(std::string(key) + "=" + value); }
  void add(const char* key, const std::optional<double>& value) {
    if (value) add(key, format_number(*value));
  }
  const std::vector<std::string>& items() const { return items_; }

 private:
  std::vector<std::string> items_;
};

std::vector<std::string> strategy_parameters(const StrategySpec& s) {
  ParameterList p;
  if (s.placement != scenario::PlacementPolicy::pack) {
    p.add("placement", scenario::name_of(scenario::placement_policy_table(), s.placement));
  }
  if (s.replicas > 0) p.add("replicas", std::to_string(s.replicas));
  p.add("quantum_ms", s.quantum_ms);
  p.add("switch_cost_ms", s.switch_cost_ms);
  if (s.exact) p.add("exact", "true");
  p.add("active_thread_pct", s.active_thread_pct);
  p.add("pinned_memory_limit_gib", s.pinned_memory_limit_gib);
  p.add("low_priority_thread_pct", s.low_priority_thread_pct);
  if (!s.layout.empty()) p.add("layout", s.layout);
  if (!s.layouts.empty()) p.add("layouts", join(s.layouts, " / "));
  if (s.layout_schedule) {
    std::vector<std::string> phases;  // "day from 8 h: 3g.40gb+4g.40gb"
    for (const auto& phase : s.layout_schedule->phases) {
      phases.push_back(phase.name + " from " + format_number(phase.from_hour) + " h: " + phase.layout);
    }
    p.add("layout_schedule", join(phases, " / "));
  }
  const auto& policy = scenario::policy_of(s.kind);
  if (policy.reads_key("mps_daemon") && s.mps_daemon != scenario::MpsDaemon::device_plugin) {
    p.add("mps_daemon", scenario::name_of(scenario::mps_daemon_table(), s.mps_daemon));
  }
  p.add("gpucores_pct", s.gpucores_pct);
  p.add("gpumem_gib", s.gpumem_gib);
  if (policy.reads_key("vgpu_scheduler")) {
    p.add("vgpu_scheduler", scenario::name_of(scenario::vgpu_scheduler_table(), s.vgpu_scheduler));
  }
  p.add("timeslice_ms", s.timeslice_ms);
  std::vector<std::string> sidecars;
  for (const auto& sidecar : s.sidecars)
    sidecars.push_back(std::to_string(sidecar.count) + "×" + sidecar.instance_type);
  if (!sidecars.empty()) p.add("sidecars", join(sidecars, "+"));
  return p.items();
}

std::string tenant_settings_text(const TenantStrategySettings& t) {
  ParameterList p;
  if (!t.mig_profile.empty()) p.add("mig_profile", t.mig_profile);
  p.add("active_thread_pct", t.active_thread_pct);
  p.add("gpucores_pct", t.gpucores_pct);
  p.add("gpumem_gib", t.gpumem_gib);
  p.add("weight", t.weight);
  return join(p.items(), ", ");
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
