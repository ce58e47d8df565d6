// Sweep files: strict loading, grid/zip expansion, and a point's scenario.
#include "scenario/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "scenario/json_io.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario {

using nlohmann::json;

const std::vector<std::pair<std::string, AxisKind>>& axis_kind_table() {
  static const std::vector<std::pair<std::string, AxisKind>> table = {
      {"pointer", AxisKind::pointer},
      {"load_multiplier", AxisKind::load_multiplier},
      {"gpu", AxisKind::gpu},
      {"instance_type", AxisKind::instance_type},
      {"pricing_table", AxisKind::pricing_table},
      {"pricing_option", AxisKind::pricing_option},
      {"trace_window", AxisKind::trace_window},
      {"seed", AxisKind::seed},
      {"sizing", AxisKind::sizing},
  };
  return table;
}

namespace {

constexpr std::size_t kMaxPoints = 100000;
constexpr double kMaxUsers = 1000000;  // num_users of a scenario

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

std::string apply_unchecked(const SweepAxis& axis, const json& value, json& doc);

/// Applies one axis value to the document; returns "" or what went wrong.
std::string apply(const SweepAxis& axis, const json& value, json& doc) {
  try {
    return apply_unchecked(axis, value, doc);
  } catch (const json::exception& e) {
    return std::string("cannot apply ") + describe_json(value) + ": " + e.what();
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

/// Axis names repeated (each reported once, against its first use: one line per pair grew with the
/// square of the axes, a 1.2 MB sweep file took 23 GB) and, in zip mode, axes of other lengths.
void check_axes(const Sweep& sweep, const std::filesystem::path& file, Diagnostics& problems) {
  std::map<std::string, std::size_t> first_use;
  for (std::size_t i = 0; i < sweep.axes.size(); ++i) {
    const auto& name = sweep.axes[i].name;
    if (!name.empty()) {
      const auto [first, inserted] = first_use.emplace(name, i);
      if (!inserted) {
        problems.push_back(
            {file.string(), 0, 0, "/axes/" + std::to_string(i) + "/name",
             "duplicate axis name \"" + name + "\" (also /axes/" + std::to_string(first->second) + "/name)"});
      }
    }
    if (sweep.mode == SweepMode::zip && sweep.axes[i].values.size() != sweep.axes.front().values.size()) {
      problems.push_back({file.string(), 0, 0, "/axes/" + std::to_string(i) + "/values",
                          "mode \"zip\" needs every axis to have as many values as the first (" +
                              std::to_string(sweep.axes.front().values.size()) + "; got " +
                              std::to_string(sweep.axes[i].values.size()) + ")"});
    }
  }
}

/// At most kMaxPoints points, checked only when nothing else is wrong.
void check_num_points(const Sweep& sweep, const std::filesystem::path& file, Diagnostics& problems) {
  if (problems.empty() && sweep.mode == SweepMode::grid) {
    double n = 1.0;
    for (const auto& axis : sweep.axes) n *= static_cast<double>(axis.values.size());
    if (n > static_cast<double>(kMaxPoints)) {
      problems.push_back({file.string(), 0, 0, "/axes",
                          "the grid has " + format_number(n) + " points; at most " + std::to_string(kMaxPoints) +
                              " are allowed (use mode \"zip\" or fewer values)"});
    }
  } else if (problems.empty() && !sweep.axes.empty() && sweep.axes.front().values.size() > kMaxPoints) {
    problems.push_back({file.string(), 0, 0, "/axes/0/values",
                        "mode \"zip\" gives " + std::to_string(sweep.axes.front().values.size()) + " points; at most " +
                            std::to_string(kMaxPoints) + " are allowed"});
  }
}

/// Resolves the base scenario and calibration profile against the sweep file; both must exist.
void resolve_files(Sweep& sweep, const std::string& base, const std::string& calibration, Diagnostics& problems) {
  const std::filesystem::path& file = sweep.file;
  auto resolve = [&](const std::string& path) { return path_in_document(file, path); };
  if (!base.empty()) {
    sweep.base_file = resolve(base);
    if (!std::filesystem::is_regular_file(sweep.base_file)) {
      problems.push_back({file.string(), 0, 0, "/base", "base scenario not found: " + sweep.base_file.string()});
    }
  }
  if (!calibration.empty()) {
    sweep.calibration = resolve(calibration).string();
    if (!std::filesystem::is_regular_file(sweep.calibration)) {
      problems.push_back({file.string(), 0, 0, "/calibration", "calibration profile not found: " + sweep.calibration});
    }
  }
}

/// Every tenant an axis lists must be one of the base scenario's.
void check_axis_tenants(const Sweep& sweep, Diagnostics& problems) {
  std::vector<std::string> names;
  for (const auto& tenant : sweep.base.at("tenants")) names.push_back(tenant.value("name", ""));
  for (std::size_t i = 0; i < sweep.axes.size(); ++i) {
    const auto& axis = sweep.axes[i];
    for (const auto& wanted : axis.tenants) {
      if (std::find(names.begin(), names.end(), wanted) == names.end()) {
        problems.push_back({sweep.file.string(), 0, 0, "/axes/" + std::to_string(i) + "/tenants",
                            "unknown tenant " + quoted_excerpt(wanted) + "; the base scenario has " + join(names, "|") +
                                did_you_mean_suffix(wanted, names)});
      }
    }
  }
}

/// Every point's scenario must be valid; stops once 20 problems are listed (enough to see the pattern).
void check_points(const Sweep& sweep, Diagnostics& problems) {
  for (std::size_t i = 0; i < num_points(sweep); ++i) {
    try {
      point_scenario(sweep, sweep_point(sweep, i));
    } catch (const ConfigError& e) {
      for (const auto& d : e.diagnostics()) problems.push_back(d);
      if (problems.size() >= 20) break;
    }
  }
}

std::uint64_t fnv1a(std::uint64_t hash, const std::string& text) {
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace

std::size_t num_points(const Sweep& sweep) {
  if (sweep.axes.empty()) return 1;
  if (sweep.mode == SweepMode::zip) return sweep.axes.front().values.size();
  std::size_t n = 1;
  for (const auto& axis : sweep.axes) n *= axis.values.size();
  return n;
}

std::string sweep_point_id(std::size_t index) {
  char id[32];
  std::snprintf(id, sizeof id, "p%04zu", index);
  return id;
}

SweepPoint sweep_point(const Sweep& sweep, std::size_t index) {
  SW_CHECK(index < num_points(sweep), "point index out of range");
  SweepPoint point;
  point.index = index;
  point.id = sweep_point_id(index);
  point.values.resize(sweep.axes.size());
  std::size_t rest = index;
  for (std::size_t a = sweep.axes.size(); a-- > 0;) {  // the last axis varies fastest
    const auto& values = sweep.axes[a].values;
    if (sweep.mode == SweepMode::zip) {
      point.values[a] = values[index];
    } else {
      point.values[a] = values[rest % values.size()];
      rest /= values.size();
    }
  }
  return point;
}

std::vector<SweepPoint> sweep_points(const Sweep& sweep) {
  std::vector<SweepPoint> points;
  for (std::size_t i = 0; i < num_points(sweep); ++i) points.push_back(sweep_point(sweep, i));
  return points;
}

std::string value_label(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return format_number(value.get<double>());
  if (value.is_array() && value.size() == 2 && value[0].is_number()) {
    return format_number(value[0].get<double>()) + ".." +
           (value[1].is_number() ? format_number(value[1].get<double>()) : "end");
  }
  return value.dump();
}

std::string point_label(const Sweep& sweep, const SweepPoint& point) {
  std::vector<std::string> parts;
  for (std::size_t a = 0; a < sweep.axes.size(); ++a)
    parts.push_back(sweep.axes[a].name + "=" + value_label(point.values[a]));
  return join(parts, ", ");
}

json point_document(const Sweep& sweep, const SweepPoint& point) {
  json doc = sweep.base;
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
    if (const std::string problem = apply(sweep.axes[a], point.values[a], doc); !problem.empty()) {
      throw ConfigError(sweep.file.string(), "/axes/" + std::to_string(a),
                        "point " + point.id + " (" + point_label(sweep, point) + "): " + problem);
    }
  }
  doc["name"] = doc.value("name", std::string("sweep")) + " [" + point.id + "]";
  return doc;
}

Scenario point_scenario(const Sweep& sweep, const SweepPoint& point) {
  const json doc = point_document(sweep, point);
  const std::string context = sweep.file.string() + ": point " + point.id + " (" + point_label(sweep, point) + ")";
  try {
    Scenario s = parse_scenario(doc, sweep.base_file.string());
    const Catalogs catalogs = Catalogs::shipped();
    if (Diagnostics problems = validate_scenario(s, catalogs); !problems.empty())
      throw ConfigError(std::move(problems));
    for (auto& entry : s.fleet) {
      if (!entry.instance_type.empty()) entry.gpu = fleet_gpu_id(entry, s, catalogs);
    }
    return s;
  } catch (const ConfigError& e) {
    // Prefix every problem with the point, so that the message says which values caused it.
    Diagnostics located;
    for (auto d : e.diagnostics()) {
      d.message = "in " + context + ": " + d.message;
      located.push_back(std::move(d));
    }
    throw ConfigError(std::move(located));
  }
}

Sweep load_sweep(const std::filesystem::path& file) {
  Sweep sweep;
  sweep.file = file;
  sweep.document = read_json_file(file);
  Diagnostics problems;
  JsonReader r(sweep.document, "", problems, file.string());
  r.schema_version(1);
  sweep.name = read_name(r, "name", true);
  sweep.description = r.optional_string("description", "");
  const std::string base = r.required_string("base");
  const std::string calibration = r.optional_string("calibration", "");
  sweep.mode = r.optional_enum("mode", SweepMode::grid,
                               EnumTable<SweepMode>{{"grid", SweepMode::grid}, {"zip", SweepMode::zip}});
  if (const auto* axes = r.required_array("axes")) {
    for (std::size_t i = 0; i < axes->size(); ++i) {
      JsonReader axis_reader((*axes)[i], "/axes/" + std::to_string(i), problems, file.string());
      sweep.axes.push_back(read_axis((*axes)[i], axis_reader));
    }
  }
  r.finish();

  check_axes(sweep, file, problems);
  check_num_points(sweep, file, problems);
  resolve_files(sweep, base, calibration, problems);
  if (!problems.empty()) throw ConfigError(std::move(problems));

  // The base must be a valid scenario on its own, and every point a valid scenario.
  sweep.base = read_json_file(sweep.base_file);
  parse_scenario(sweep.base, sweep.base_file.string());
  check_axis_tenants(sweep, problems);
  if (!problems.empty()) throw ConfigError(std::move(problems));
  check_points(sweep, problems);
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return sweep;
}

std::string sweep_fingerprint(const Sweep& sweep) {
  std::uint64_t hash = 1469598103934665603ULL;
  hash = fnv1a(hash, sweep.document.dump());
  hash = fnv1a(hash, sweep.base.dump());
  if (!sweep.calibration.empty()) hash = fnv1a(hash, read_text_file(sweep.calibration));
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace slicewise::scenario
