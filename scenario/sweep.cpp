// Sweep files: strict loading, grid/zip expansion, and a point's scenario (an axis is read and
// applied by sweep_axes.cpp).
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

using detail::apply;
using detail::read_axis;
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
