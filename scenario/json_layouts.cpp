// A MIG strategy's layouts in JSON (see json_layouts.hpp).
#include "scenario/json_layouts.hpp"

#include "scenario/json_read_fields.hpp"

namespace slicewise::scenario::detail {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

/// An hour of the day: [0, 24).
const NumberRange kHourOfDay{0.0, false, 24.0, true};

/// What one tenant gets in one phase of a layout schedule.
PhaseTenant read_phase_tenant(JsonReader& parent, const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, parent.diagnostics(), parent.file());
  PhaseTenant t;
  t.mig_profile = nonempty_string(r, "mig_profile", true);
  t.num_contexts = read_count(r, "num_contexts", 0, 0);
  r.finish();
  return t;
}

/// One phase of a layout schedule.
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

}  // namespace

std::optional<LayoutSchedule> read_layout_schedule(JsonReader& parent) {
  const json* value = parent.optional_object("layout_schedule");
  if (!value) return std::nullopt;
  JsonReader r(*value, parent.pointer("layout_schedule"), parent.diagnostics(), parent.file());
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

ordered_json layout_schedule_json(const LayoutSchedule& schedule) {
  ordered_json phases = ordered_json::array();
  for (const auto& p : schedule.phases) {
    ordered_json tenants = ordered_json::object();
    for (const auto& [name, t] : p.tenants) {
      ordered_json entry;
      entry["mig_profile"] = t.mig_profile;
      if (t.num_contexts != 0) entry["num_contexts"] = t.num_contexts;  // absent: the tenant's num_contexts
      tenants[name] = entry;
    }
    ordered_json phase;
    phase["name"] = p.name;
    phase["from_hour"] = p.from_hour;
    phase["layout"] = p.layout;
    phase["tenants"] = tenants;
    phases.push_back(phase);
  }
  ordered_json out;
  out["start_hour"] = schedule.start_hour;
  out["repartition_s"] = schedule.repartition_s;
  out["rolling"] = schedule.rolling;
  out["phases"] = phases;
  return out;
}

}  // namespace slicewise::scenario::detail
