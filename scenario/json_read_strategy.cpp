// Reading one strategy: its kind and name, the keys of that kind (with a MIG strategy's layout or
// layout schedule), the per-tenant settings and the CPU-only sidecar instances.
#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_read_fields.hpp"
#include "scenario/json_read_sections.hpp"
#include "scenario/kind_keys.hpp"

namespace slicewise::scenario::detail {

using models::StrategyKind;
using nlohmann::json;

namespace {

/// A percentage of a GPU: (0, 100].
const NumberRange kPercent{0.0, true, 100.0, false};
/// An hour of the day: [0, 24).
const NumberRange kHourOfDay{0.0, false, 24.0, true};

StrategyKind strategy_kind_of(JsonReader& r, bool& known) {
  const std::size_t before = r.diagnostics().size();
  const auto kind = r.required_enum("kind", models::strategy_kind_table());
  known = r.diagnostics().size() == before && r.valid();
  return kind;
}

/// One entry of the strategy's "tenants" object: the settings of the tenant named by its key.
TenantStrategySettings read_setting(JsonReader& parent, const json& value, const std::string& pointer,
                                    StrategyKind kind, bool known) {
  JsonReader r(value, pointer, parent.diagnostics(), parent.file());
  TenantStrategySettings t;
  reject_foreign_keys(r, value, tenant_setting_keys(), kind, known, models::strategy_kind_table(), "strategy kind");
  auto use = [&](const char* key) { return known && uses(tenant_setting_keys(), key, kind); };
  if (use("mig_profile")) t.mig_profile = nonempty_string(r, "mig_profile", false);
  if (use("active_thread_pct")) t.active_thread_pct = r.maybe_number("active_thread_pct", kPercent);
  if (use("gpucores_pct")) t.gpucores_pct = r.maybe_number("gpucores_pct", kPercent);
  if (use("gpumem_gib")) t.gpumem_gib = r.maybe_number("gpumem_gib", NumberRange::positive());
  if (use("weight")) t.weight = r.maybe_number("weight", NumberRange::positive());
  r.finish();
  return t;
}

/// What one tenant gets in one phase of a layout schedule.
PhaseTenant read_phase_tenant(JsonReader& parent, const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, parent.diagnostics(), parent.file());
  PhaseTenant t;
  t.mig_profile = nonempty_string(r, "mig_profile", true);
  t.num_contexts = read_count(r, "num_contexts", 0, 0);
  r.finish();
  return t;
}

/// One phase of a layout schedule. Its order among the phases, its name's uniqueness and whether
/// its tenants and profiles exist are checked by validate_scenario (strategies/mig_checks.cpp).
LayoutPhase read_phase(JsonReader& parent, const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, parent.diagnostics(), parent.file());
  LayoutPhase p;
  p.name = read_name(r, "name", true);
  p.from_hour = r.required_number("from_hour", kHourOfDay);
  p.layout = nonempty_string(r, "layout", true);
  if (const json* tenants = r.required_object("tenants")) {
    for (const auto& [name, entry] : tenants->items()) {
      p.tenants[name] = read_phase_tenant(r, entry, r.pointer("tenants") + "/" + json_pointer_token(name));
    }
  }
  r.finish();
  return p;
}

LayoutSchedule read_layout_schedule(JsonReader& parent, const json& value) {
  JsonReader r(value, parent.pointer("layout_schedule"), parent.diagnostics(), parent.file());
  const LayoutSchedule defaults;
  LayoutSchedule s;
  s.start_hour = r.optional_number("start_hour", defaults.start_hour, kHourOfDay);
  s.repartition_s = r.optional_number("repartition_s", defaults.repartition_s, NumberRange::non_negative());
  s.rolling = r.optional_bool("rolling", defaults.rolling);
  if (const json* phases = r.required_array("phases")) {
    for (std::size_t i = 0; i < phases->size(); ++i) {
      s.phases.push_back(read_phase(r, (*phases)[i], element_pointer(r.pointer("phases"), i)));
    }
  }
  r.finish();
  return s;
}

/// `layouts`: at least two non-empty layout strings (whether each is valid is validation's question).
std::vector<std::string> read_gpu_layouts(JsonReader& r) {
  std::vector<std::string> layouts;
  const json* list = r.optional_array("layouts");
  if (!list) return layouts;
  if (list->size() < 2) {
    r.error("layouts", "must list at least two layouts, which the GPUs take in turn (got " +
                           std::to_string(list->size()) + "; for one, give \"layout\")");
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& item = (*list)[i];
    if (!item.is_string() || item.get<std::string>().empty()) {
      r.diagnostics().push_back({r.file(), 0, 0, r.pointer("layouts") + "/" + std::to_string(i),
                                 "must be a MIG layout such as 7x1g.10gb (got " + describe_json(item) + ")"});
    } else {
      layouts.push_back(item.get<std::string>());
    }
  }
  return layouts;
}

/// A MIG strategy's instances: one `layout` for the whole run, `layouts` the GPUs take in turn, or
/// a `layout_schedule`; exactly one.
void read_layouts(JsonReader& r, StrategySpec& s) {
  const int given = int{r.has("layout")} + int{r.has("layouts")} + int{r.has("layout_schedule")};
  if (r.valid() && given > 1) {
    r.error_here("give one of \"layout\", \"layouts\" or \"layout_schedule\", not several");
  } else if (r.valid() && given == 0) {
    r.error_here("missing required key \"layout\", \"layouts\" or \"layout_schedule\" (give exactly one)");
  }
  s.layout = nonempty_string(r, "layout", false);
  s.layouts = read_gpu_layouts(r);
  if (const json* schedule = r.optional_object("layout_schedule"))
    s.layout_schedule = read_layout_schedule(r, *schedule);
}

/// The keys of the strategy's kind (none when the kind is invalid).
void read_kind_fields(JsonReader& r, StrategySpec& s, bool known) {
  auto use = [&](const char* key) { return known && uses(strategy_keys(), key, s.kind); };
  if (use("replicas")) s.replicas = read_count(r, "replicas", 0, 0);
  if (use("quantum_ms")) s.quantum_ms = r.maybe_number("quantum_ms", NumberRange::positive());
  if (use("switch_cost_ms")) s.switch_cost_ms = r.maybe_number("switch_cost_ms", NumberRange::non_negative());
  if (use("exact")) s.exact = r.optional_bool("exact", false);
  if (use("active_thread_pct")) s.active_thread_pct = r.maybe_number("active_thread_pct", kPercent);
  if (use("pinned_memory_limit_gib")) {
    s.pinned_memory_limit_gib = r.maybe_number("pinned_memory_limit_gib", NumberRange::positive());
  }
  if (use("low_priority_thread_pct")) s.low_priority_thread_pct = r.maybe_number("low_priority_thread_pct", kPercent);
  if (use("mps_daemon")) s.mps_daemon = r.optional_enum("mps_daemon", MpsDaemon::device_plugin, mps_daemon_table());
  if (use("layout")) read_layouts(r, s);
  if (use("gpucores_pct")) s.gpucores_pct = r.maybe_number("gpucores_pct", kPercent);
  if (use("gpumem_gib")) s.gpumem_gib = r.maybe_number("gpumem_gib", NumberRange::positive());
  if (use("vgpu_scheduler")) {
    s.vgpu_scheduler = r.optional_enum("vgpu_scheduler", VgpuScheduler::best_effort, vgpu_scheduler_table());
  }
  if (use("timeslice_ms")) s.timeslice_ms = r.maybe_number("timeslice_ms", NumberRange::positive());
}

void read_tenant_settings(JsonReader& r, StrategySpec& s, bool known) {
  const json* tenants = r.optional_object("tenants");
  if (!tenants) return;
  for (const auto& [name, settings] : tenants->items()) {
    s.tenants[name] = read_setting(r, settings, r.pointer("tenants") + "/" + json_pointer_token(name), s.kind, known);
  }
}

void read_sidecars(JsonReader& r, StrategySpec& s) {
  const json* sidecars = r.optional_array("sidecars");
  if (!sidecars) return;
  for (std::size_t i = 0; i < sidecars->size(); ++i) {
    JsonReader c((*sidecars)[i], element_pointer(r.pointer("sidecars"), i), r.diagnostics(), r.file());
    Sidecar sidecar;
    sidecar.instance_type = nonempty_string(c, "instance_type", true);
    sidecar.count = read_count(c, "count", 1);
    c.finish();
    s.sidecars.push_back(std::move(sidecar));
  }
}

}  // namespace

StrategySpec read_strategy(const json& value, const std::string& pointer, Diagnostics& out, const std::string& file) {
  JsonReader r(value, pointer, out, file);
  StrategySpec s;
  bool known = false;
  s.kind = strategy_kind_of(r, known);
  // An invalid kind gets no default name, so that it cannot clash with another strategy's.
  s.name = r.has("name") ? read_name(r, "name", false) : known ? models::to_string(s.kind) : "";
  s.placement = r.optional_enum("placement", PlacementPolicy::pack, placement_policy_table());
  s.sizing = r.optional_enum("sizing", Sizing::as_given, sizing_table());
  reject_foreign_keys(r, value, strategy_keys(), s.kind, known, models::strategy_kind_table(), "strategy kind");
  read_kind_fields(r, s, known);
  read_tenant_settings(r, s, known);
  read_sidecars(r, s);
  r.finish();
  return s;
}

}  // namespace slicewise::scenario::detail
