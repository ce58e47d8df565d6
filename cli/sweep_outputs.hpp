// What `slicewise sweep` and `slicewise merge` both do to a sweep folder (docs/sweeps.md): create
// it, read the `--fail-if` gates, and write results.csv, results.json and junit.xml.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "report/sweep_results.hpp"

namespace slicewise::cli {

/// The exit code of a sweep or merge on which a gate tripped.
inline constexpr int kExitGate = 3;

/// Creates the --out folder `out` and its points/. Its parent folder must exist, as for simulate's
/// and report's --out (a mistyped path is refused, not created), except for an emitted job's
/// shards/ (JOB/shards/shard-K beside JOB/job.json), which the first shard to start creates.
/// Throws ConfigError naming --out otherwise or when it cannot.
void create_sweep_folder(const std::filesystem::path& out);

/// The `--fail-if` gates, each parsed against `table`; throws ConfigError for the first bad one.
std::vector<report::Gate> parse_gates(const std::vector<std::string>& texts, const report::SweepTable& table);

/// Writes results.csv, results.json and junit.xml into `folder` atomically and names every
/// tripped gate on io.err; returns the exit code the gates give (0 or kExitGate).
int write_sweep_outputs(const std::filesystem::path& folder, const report::SweepTable& table,
                        const std::vector<report::Gate>& gates, Io io);

}  // namespace slicewise::cli
