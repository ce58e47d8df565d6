// A sweep (docs/sweeps.md): a base scenario plus axes, each axis a list of values that rewrite the
// base document; the points are the axes' grid (or their zip). Pure: loading, expanding a point
// into a scenario and the sweep's fingerprint. Running points is cli/sweep_runner.cpp's job.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario {

enum class AxisKind {
  pointer,          ///< sets the value at a JSON pointer of the base scenario
  load_multiplier,  ///< scales every (or the listed) tenant's load
  gpu,              ///< every fleet entry becomes `count` GPUs of this model
  instance_type,    ///< every fleet entry becomes `count` instances of this type
  pricing_table,    ///< /pricing/table
  pricing_option,   ///< /pricing/option
  trace_window,     ///< [start_s, end_s] (end may be null) on every trace-loaded tenant
  seed,             ///< /seed
  sizing,           ///< every strategy's sizing: as_given or sla
};
const std::vector<std::pair<std::string, AxisKind>>& axis_kind_table();

struct SweepAxis {
  std::string name;  ///< column name in results.csv
  AxisKind kind = AxisKind::pointer;
  std::string pointer;               ///< kind == pointer: RFC 6901 pointer into the base scenario
  std::vector<std::string> tenants;  ///< kind == load_multiplier: tenants to scale; empty = all
  std::vector<nlohmann::json> values;
};

enum class SweepMode { grid, zip };

struct Sweep {
  std::string name;
  std::string description;
  std::filesystem::path file;       ///< the sweep file as given
  std::filesystem::path base_file;  ///< the base scenario, resolved against the sweep's folder
  std::string calibration;          ///< calibration profile path (resolved), "" = shipped default
  SweepMode mode = SweepMode::grid;
  std::vector<SweepAxis> axes;
  nlohmann::json base;      ///< the base scenario document
  nlohmann::json document;  ///< the sweep document as read
};

/// One point: an index into the grid and the value chosen on each axis.
struct SweepPoint {
  std::size_t index = 0;
  std::string id;                      ///< "p0007"
  std::vector<nlohmann::json> values;  ///< one per axis
};

/// Reads and checks a sweep file and its base scenario; throws ConfigError listing every problem
/// (JSON pointers into the sweep file). Each point's scenario is checked too, so a value that
/// makes an impossible scenario (a MIG layout on a GPU without MIG) is reported before anything
/// runs, naming the point and its values.
Sweep load_sweep(const std::filesystem::path& file);

/// Points in order: grid = the first axis varies slowest; zip = i-th value of every axis.
std::size_t num_points(const Sweep& sweep);
SweepPoint sweep_point(const Sweep& sweep, std::size_t index);
/// "p0007" for index 7 (at least four digits).
std::string sweep_point_id(std::size_t index);
std::vector<SweepPoint> sweep_points(const Sweep& sweep);

/// The base document with the point's values applied (throws ConfigError naming the point when a
/// value does not apply, e.g. a pointer whose parent is missing).
nlohmann::json point_document(const Sweep& sweep, const SweepPoint& point);
/// point_document parsed and validated as a scenario whose relative paths resolve against the base
/// scenario's folder; its name is "<base name> [<id>]". Throws ConfigError naming the point.
Scenario point_scenario(const Sweep& sweep, const SweepPoint& point);

/// A value as shown in results.csv: strings bare, numbers shortest, windows "0..600".
std::string value_label(const nlohmann::json& value);
/// "load=2, option=spot".
std::string point_label(const Sweep& sweep, const SweepPoint& point);

/// 16 hex digits identifying the sweep (its document, the base scenario and the calibration
/// profile file), so that --resume and merge refuse folders of a different sweep.
std::string sweep_fingerprint(const Sweep& sweep);

namespace detail {  // sweep_axes.cpp, for load_sweep and point_document

/// One element of "axes", read strictly by `r` (its kind, pointer, tenants and values, each value
/// of the kind's type): every problem goes to r's diagnostics.
SweepAxis read_axis(const nlohmann::json& value, JsonReader& r);
/// Applies one axis value to the base scenario's document (a pointer, a load multiplier, a trace
/// window, ...); returns "" or what went wrong.
std::string apply(const SweepAxis& axis, const nlohmann::json& value, nlohmann::json& doc);

}  // namespace detail

}  // namespace slicewise::scenario
