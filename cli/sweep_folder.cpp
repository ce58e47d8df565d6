// Reading a sweep folder (docs/sweeps.md): its manifest sweep.json, every key checked, and its
// points/<id>.json files, each checked to belong to the sweep and to its own name.
#include "cli/sweep_folder.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "scenario/sweep.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::int64_t kMaxManifestPoints = 100000;  // the most points a sweep file may give (scenario/sweep.cpp)

/// Checks every key the commands use, so that a damaged manifest is named instead of failing
/// inside them; throws ConfigError listing every problem.
void check_manifest_keys(const json& manifest, const fs::path& file) {
  Diagnostics problems;
  JsonReader r(manifest, "", problems, file.string());
  r.required_integer("schema_version");
  r.required_string("kind");
  r.required_string("name");
  r.required_string("fingerprint");
  for (const char* key : {"axes", "strategies"}) {
    if (const json* names = r.required_array(key)) {
      for (std::size_t i = 0; i < names->size(); ++i) {
        if (!(*names)[i].is_string()) {
          problems.push_back({file.string(), 0, 0, r.pointer(key) + "/" + std::to_string(i),
                              "expected string (got " + describe_json((*names)[i]) + ")"});
        }
      }
    }
  }
  if (const auto n = r.required_integer("num_points", NumberRange::at_least(1)); n > kMaxManifestPoints) {
    r.error("num_points", "must be <= " + std::to_string(kMaxManifestPoints) + " (got " + std::to_string(n) + ")");
  }
  r.required_string("shard");
  r.required_object("sweep");
  r.required_object("base");
  r.required_string("base_file");
  r.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
}

/// The point files of points/ (p*.json), in name order.
std::vector<fs::path> point_files(const fs::path& points) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(points)) {
    const auto name = entry.path().filename().string();
    if (entry.is_regular_file() && entry.path().extension() == ".json" && name[0] == 'p') files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Throws ConfigError unless `document` (the point file `file`) belongs to the sweep of `fingerprint`.
void check_fingerprint(const json& document, const fs::path& file, const std::string& fingerprint) {
  const json* found = document.is_object() && document.contains("fingerprint") ? &document["fingerprint"] : nullptr;
  if (!found || !found->is_string() || found->get<std::string>() != fingerprint) {
    throw ConfigError(
        file.string(), "/fingerprint",
        "belongs to another sweep (fingerprint " +
            (found ? (found->is_string() ? found->get<std::string>() : describe_json(*found)) : std::string("none")) +
            ", expected " + fingerprint + ")");
  }
}

/// Throws ConfigError unless `record` (read from `file`) is point `index` < `num_points` of the
/// file name's id.
void check_point_identity(const report::SweepPointRecord& record, const fs::path& file, std::size_t num_points) {
  if (record.index >= num_points) {
    throw ConfigError(file.string(), "/point/index",
                      "must be < " + std::to_string(num_points) + ", the sweep's number of points (got " +
                          std::to_string(record.index) + ")");
  }
  if (record.id != scenario::sweep_point_id(record.index)) {
    throw ConfigError(file.string(), "/point/id",
                      "must be \"" + scenario::sweep_point_id(record.index) + "\" for index " +
                          std::to_string(record.index) + " (got \"" + record.id + "\")");
  }
  if (file.stem().string() != record.id) {
    throw ConfigError(file.string(), "/point/id",
                      "is \"" + record.id + "\", but the file is " + file.filename().string());
  }
}

}  // namespace

fs::path point_file(const fs::path& folder, const std::string& id) { return folder / "points" / (id + ".json"); }

json read_manifest(const fs::path& folder) {
  const auto file = folder / "sweep.json";
  if (!fs::is_regular_file(file)) {
    throw ConfigError(folder.string(), "", "not a sweep folder (no sweep.json; `slicewise sweep --out` makes one)");
  }
  json manifest = read_json_file(file);
  auto is = [&](const char* key, const json& value) { return manifest.contains(key) && manifest[key] == value; };
  if (!manifest.is_object() || !is("kind", "slicewise-sweep") || !is("schema_version", 1)) {
    throw ConfigError(file.string(), "",
                      "not a slicewise sweep manifest (expected kind \"slicewise-sweep\", schema_version 1)");
  }
  check_manifest_keys(manifest, file);
  return manifest;
}

void read_points(const fs::path& folder, const std::string& fingerprint, std::size_t num_points,
                 std::map<std::size_t, report::SweepPointRecord>& out) {
  const auto points = folder / "points";
  if (!fs::is_directory(points)) return;
  for (const auto& file : point_files(points)) {
    const json document = read_json_file(file);
    check_fingerprint(document, file, fingerprint);
    if (!document.contains("point")) throw ConfigError(file.string(), "/", "missing required key \"point\"");
    // A copy of the point: nlohmann's pointers in messages start at it.
    auto record = report::point_from_json(json(document.at("point")), file.string(), "/point");
    check_point_identity(record, file, num_points);
    out[record.index] = std::move(record);
  }
}

report::SweepTable table_of(const json& manifest, const std::map<std::size_t, report::SweepPointRecord>& points) {
  report::SweepTable table;
  table.name = manifest.at("name").get<std::string>();
  table.fingerprint = manifest.at("fingerprint").get<std::string>();
  table.axes = manifest.at("axes").get<std::vector<std::string>>();
  table.strategies = manifest.at("strategies").get<std::vector<std::string>>();
  table.num_points = manifest.at("num_points").get<std::size_t>();
  for (const auto& [index, record] : points) table.points.push_back(record);
  return table;
}

}  // namespace slicewise::cli
