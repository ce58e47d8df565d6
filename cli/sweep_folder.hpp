// Reading a sweep folder (docs/sweeps.md): its manifest sweep.json and its points/<id>.json files.
// Shared by `sweep`, `merge` and `report`.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "report/sweep_results.hpp"

namespace slicewise::cli {

std::filesystem::path point_file(const std::filesystem::path& folder, const std::string& id);

/// The manifest, every key checked; throws ConfigError when `folder` is not a sweep folder or its
/// sweep.json is damaged.
nlohmann::json read_manifest(const std::filesystem::path& folder);

/// Adds every point record of `folder` to `out` (by index); throws ConfigError when a point file
/// belongs to another sweep, is not a point record, or is not point `index` < `num_points` of the
/// file name's id.
void read_points(const std::filesystem::path& folder, const std::string& fingerprint, std::size_t num_points,
                 std::map<std::size_t, report::SweepPointRecord>& out);

/// The table of `points` under the manifest's names.
report::SweepTable table_of(const nlohmann::json& manifest,
                            const std::map<std::size_t, report::SweepPointRecord>& points);

}  // namespace slicewise::cli
