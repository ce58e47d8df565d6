// `slicewise merge DIR... --out DIR` (docs/sweeps.md): joins the folders of a sharded sweep into
// one, checking that they hold the same sweep and agree on every point they share, then writes the
// merged folder's results.csv, results.json and junit.xml.
#include <algorithm>
#include <map>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/sweep_folder.hpp"
#include "cli/sweep_outputs.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "report/sweep_results.hpp"
#include "scenario/sweep.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// The folders read so far: their common manifest, and each point once with the folder it came from.
struct MergedPoints {
  json manifest;                                           ///< the first folder's; null before it
  std::map<std::size_t, report::SweepPointRecord> points;  ///< by index
  std::map<std::size_t, fs::path> sources;                 ///< index -> folder holding its point file
};

/// Adds the points of `folder` to `merged`; throws ConfigError when it is the --out folder, holds
/// another sweep than `first` (the first folder named), or disagrees on a point.
void add_folder(MergedPoints& merged, const fs::path& folder, const fs::path& out, const std::string& first) {
  if (fs::exists(out) && fs::exists(folder) && fs::equivalent(folder, out)) {
    throw ConfigError(folder.string(), "", "is also the --out folder; merge into a new folder");
  }
  const json m = read_manifest(folder);
  if (merged.manifest.is_null()) {
    merged.manifest = m;
  } else if (m.value("fingerprint", "") != merged.manifest.value("fingerprint", "")) {
    throw ConfigError(folder.string(), "",
                      "is a different sweep (fingerprint " + m.value("fingerprint", std::string()) + ") than " + first +
                          " (" + merged.manifest.value("fingerprint", std::string()) + ")");
  }
  std::map<std::size_t, report::SweepPointRecord> these;
  read_points(folder, merged.manifest.at("fingerprint").get<std::string>(),
              merged.manifest.at("num_points").get<std::size_t>(), these);
  for (auto& [index, record] : these) {
    if (merged.points.count(index)) {
      // The same point run twice (overlapping shards) must agree: results are deterministic.
      if (report::point_json(merged.points[index]) != report::point_json(record)) {
        throw ConfigError(folder.string(), "",
                          "point " + record.id + " differs from the one in " + merged.sources[index].string());
      }
      continue;
    }
    merged.sources[index] = folder;
    merged.points[index] = std::move(record);
  }
}

/// Makes `out` the merged sweep folder: checks it is new, empty or holding the same sweep, writes
/// the manifest (now shard 1/1) and copies in every point file.
void write_merged_folder(const fs::path& out, MergedPoints& merged) {
  if (fs::exists(out / "sweep.json")) {
    if (read_manifest(out).value("fingerprint", "") != merged.manifest.value("fingerprint", "")) {
      throw ConfigError(out.string(), "", "already holds a different sweep; choose another --out");
    }
  } else if (fs::exists(out) && !fs::is_empty(out)) {
    throw ConfigError(out.string(), "", "exists and is not a sweep folder; choose an empty or new --out");
  }
  create_sweep_folder(out);
  merged.manifest["shard"] = "1/1";
  write_file_atomically(out / "sweep.json", merged.manifest.dump(1) + "\n");
  for (const auto& [index, folder] : merged.sources) {
    const auto& id = merged.points[index].id;
    if (fs::exists(out) && fs::equivalent(folder, out)) continue;
    write_file_atomically(point_file(out, id), read_text_file(point_file(folder, id)));
  }
}

/// The ids of the sweep's `total` points that no folder held, in order.
std::vector<std::string> missing_points(const std::map<std::size_t, report::SweepPointRecord>& points,
                                        std::size_t total) {
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < total; ++i) {
    if (!points.count(i)) missing.push_back(scenario::sweep_point_id(i));
  }
  return missing;
}

}  // namespace

CLI::App* setup_merge(CLI::App& app, MergeOptions& options) {
  auto* sub = app.add_subcommand("merge", "Join the folders of a sharded sweep into one");
  sub->add_option("folders", options.folders, "Sweep folders (shards of one sweep)")->required();
  sub->add_option("--out", options.out, "Merged sweep folder")->required();
  sub->add_option("--fail-if", options.fail_if, "Gate, as for sweep; repeatable");
  return sub;
}

int run_merge(const MergeOptions& options, Io io) {
  const fs::path out = options.out;
  MergedPoints merged;
  for (const auto& name : options.folders) add_folder(merged, name, out, options.folders.front());
  write_merged_folder(out, merged);
  const auto table = table_of(merged.manifest, merged.points);
  const auto gates = parse_gates(options.fail_if, table);
  const int gate_code = write_sweep_outputs(out, table, gates, io);
  const auto total = merged.manifest.at("num_points").get<std::size_t>();
  const auto missing = missing_points(merged.points, total);
  io.out << merged.manifest.value("name", std::string()) << ": merged " << merged.points.size() << " of " << total
         << " points from " << options.folders.size() << " folder(s) into " << out.string() << "\n";
  if (!missing.empty()) {
    io.err << "slicewise merge: " << missing.size() << " of " << total << " points missing: "
           << join(std::vector<std::string>(
                       missing.begin(), missing.begin() + static_cast<long>(std::min<std::size_t>(missing.size(), 20))),
                   ", ")
           << (missing.size() > 20 ? ", ..." : "") << " (a shard not run or not finished; rerun it with --resume)\n";
    return 1;
  }
  return gate_code;
}

}  // namespace slicewise::cli
