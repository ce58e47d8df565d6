// A sweep's axes (sweep.hpp, namespace detail): reading one, and applying one of its values to
// the base scenario's document.
#include "scenario/sweep.hpp"

#include <cmath>
#include <string>

#include "core/spell.hpp"

namespace slicewise::scenario::detail {

using nlohmann::json;

namespace {

/// A closed loop's users a load_multiplier may scale to, at most (num_users of a scenario).
constexpr double kMaxUsers = 1000000;

/// The type a value of `kind` must have; "" when it is fine, otherwise what is expected.
std::string value_problem(AxisKind kind, const json& value) {
  switch (kind) {
    case AxisKind::pointer:
      return value.is_null() ? "a pointer axis cannot set null (leave the key out of the base instead)" : "";
    case AxisKind::load_multiplier: return value.is_number() && value.get<double>() > 0.0 ? "" : "must be a number > 0";
    case AxisKind::gpu:
    case AxisKind::instance_type:
    case AxisKind::pricing_table:
    case AxisKind::pricing_option:
      return value.is_string() && !value.get<std::string>().empty() ? "" : "must be a non-empty string";
    case AxisKind::trace_window: {
      const bool ok = value.is_array() && value.size() == 2 && value[0].is_number() && value[0].get<double>() >= 0.0 &&
                      (value[1].is_null() || (value[1].is_number() && value[1].get<double>() > value[0].get<double>()));
      return ok ? "" : "must be [start_s, end_s] with 0 <= start_s < end_s (end_s may be null: to the end)";
    }
    case AxisKind::seed: return value.is_number_unsigned() ? "" : "must be an integer >= 0";
    case AxisKind::sizing: return value == "as_given" || value == "sla" ? "" : "must be \"as_given\" or \"sla\"";
  }
  return "";
}

/// The axis's "pointer" key: required on a pointer axis (an RFC 6901 pointer), refused on others.
void read_axis_pointer(const json& value, JsonReader& r, SweepAxis& axis) {
  // An unknown kind is reported once, not again as a pointer axis missing its pointer.
  const bool is_pointer = value.is_object() && value.value("kind", json()) == "pointer";
  if (!is_pointer && axis.kind == AxisKind::pointer) {
    r.allow("pointer");
  } else if (axis.kind == AxisKind::pointer) {
    axis.pointer = r.required_string("pointer");
    try {
      if (axis.pointer.empty() || axis.pointer[0] != '/') throw std::invalid_argument("");
      [[maybe_unused]] const json::json_pointer parsed(axis.pointer);
    } catch (const std::exception&) {
      r.error("pointer",
              "must be an RFC 6901 JSON pointer such as \"/strategies/1/quantum_ms\" (got \"" + axis.pointer + "\")");
    }
  } else if (r.has("pointer")) {
    r.error("pointer", "applies only to axes of kind \"pointer\"");
  }
}

/// The axis's optional "tenants" (load_multiplier axes only): tenant names.
void read_axis_tenants(JsonReader& r, SweepAxis& axis) {
  const auto* tenants = r.optional_array("tenants");
  if (!tenants) return;
  if (axis.kind != AxisKind::load_multiplier) r.error("tenants", "applies only to axes of kind \"load_multiplier\"");
  for (std::size_t i = 0; i < tenants->size(); ++i) {
    if (!(*tenants)[i].is_string()) {
      r.diagnostics().push_back(
          {r.file(), 0, 0, r.pointer("tenants") + "/" + std::to_string(i), "must be a tenant name (string)"});
    } else {
      axis.tenants.push_back((*tenants)[i].get<std::string>());
    }
  }
}

/// A pointer axis: sets the value at the pointer, whose parent must exist (and, in an array, the element).
std::string apply_pointer(const SweepAxis& axis, const json& value, json& doc) {
  const json::json_pointer pointer(axis.pointer);
  const auto parent = pointer.parent_pointer();
  if (!doc.contains(parent) || !(doc.at(parent).is_object() || doc.at(parent).is_array())) {
    return "pointer " + axis.pointer + ": the base scenario has no object or array at " +
           (parent.empty() ? std::string("/") : parent.to_string());
  }
  if (doc.at(parent).is_array() && !doc.contains(pointer)) {
    return "pointer " + axis.pointer + ": the base scenario's array has no such element";
  }
  doc[pointer] = value;
  return "";
}

/// Scales tenant `name`'s load by `m`: a closed loop's users (a whole number, at most kMaxUsers),
/// any other load's multiplier. Returns "" or why the users cannot be scaled.
std::string scale_load(const std::string& name, json& load, double m) {
  if (load.value("kind", "") != "closed_loop") {
    load["multiplier"] = load.value("multiplier", 1.0) * m;
    return "";
  }
  const double users = load.value("num_users", 1.0) * m;
  if (std::abs(users - std::round(users)) > 1e-9 || users < 1.0) {
    return "tenant \"" + name + "\" has a closed_loop load: " + format_number(m) + " x " +
           format_number(load.value("num_users", 1.0)) +
           " users is not a whole number of users >= 1 (list the tenants to scale in \"tenants\")";
  }
  if (users > kMaxUsers) {
    return "tenant \"" + name + "\" has a closed_loop load: " + format_number(m) + " x " +
           format_number(load.value("num_users", 1.0)) + " users is more than " +
           std::to_string(static_cast<long>(kMaxUsers)) + " users";
  }
  load["num_users"] = static_cast<std::int64_t>(std::llround(users));
  return "";
}

/// A load_multiplier axis: scales the listed tenants' loads (all when none are listed).
std::string apply_load_multiplier(const SweepAxis& axis, const json& value, json& doc) {
  const double m = value.get<double>();
  bool any = false;
  for (auto& tenant : doc["tenants"]) {
    const std::string name = tenant.value("name", "");
    if (!axis.tenants.empty() && std::find(axis.tenants.begin(), axis.tenants.end(), name) == axis.tenants.end())
      continue;
    any = true;
    if (std::string problem = scale_load(name, tenant["load"], m); !problem.empty()) return problem;
  }
  if (!any) return "none of the tenants " + join(axis.tenants, ", ") + " is in the base scenario";
  return "";
}

/// A trace_window axis: sets the window of every trace-loaded tenant (end null: to the trace's end).
std::string apply_trace_window(const json& value, json& doc) {
  bool any = false;
  for (auto& tenant : doc["tenants"]) {
    auto& load = tenant["load"];
    if (load.value("kind", "") != "trace") continue;
    any = true;
    load["window_start_s"] = value[0];
    if (value[1].is_null()) {
      load.erase("window_end_s");
    } else {
      load["window_end_s"] = value[1];
    }
  }
  return any ? "" : "no tenant of the base scenario has a trace load";
}

std::string apply_unchecked(const SweepAxis& axis, const json& value, json& doc) {
  switch (axis.kind) {
    case AxisKind::pointer: return apply_pointer(axis, value, doc);
    case AxisKind::load_multiplier: return apply_load_multiplier(axis, value, doc);
    case AxisKind::gpu:
    case AxisKind::instance_type:
      for (auto& entry : doc["fleet"]) {
        const auto count = entry.value("count", json(1));
        entry = json::object();
        entry[axis.kind == AxisKind::gpu ? "gpu" : "instance_type"] = value;
        entry["count"] = count;
      }
      return "";
    case AxisKind::pricing_table: doc["pricing"]["table"] = value; return "";
    case AxisKind::pricing_option: doc["pricing"]["option"] = value; return "";
    case AxisKind::trace_window: return apply_trace_window(value, doc);
    case AxisKind::seed: doc["seed"] = value; return "";
    case AxisKind::sizing:
      for (auto& strategy : doc["strategies"]) strategy["sizing"] = value;
      return "";
  }
  return "";
}

}  // namespace

SweepAxis read_axis(const json& value, JsonReader& r) {
  SweepAxis axis;
  axis.name = read_name(r, "name", true);
  axis.kind = r.required_enum("kind", axis_kind_table());
  read_axis_pointer(value, r, axis);
  read_axis_tenants(r, axis);
  if (const auto* values = r.required_array("values")) {
    if (values->empty()) r.error("values", "must list at least one value");
    for (std::size_t i = 0; i < values->size(); ++i) {
      const std::string problem = value_problem(axis.kind, (*values)[i]);
      if (!problem.empty()) {
        r.diagnostics().push_back({r.file(), 0, 0, r.pointer("values") + "/" + std::to_string(i),
                                   problem + " (got " + describe_json((*values)[i]) + ")"});
      }
      axis.values.push_back((*values)[i]);
    }
  }
  r.finish();
  return axis;
}

std::string apply(const SweepAxis& axis, const json& value, json& doc) {
  try {
    return apply_unchecked(axis, value, doc);
  } catch (const json::exception& e) {
    return std::string("cannot apply ") + describe_json(value) + ": " + e.what();
  }
}

}  // namespace slicewise::scenario::detail
