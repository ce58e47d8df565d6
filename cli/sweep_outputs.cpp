// A sweep folder's shared outputs (docs/sweeps.md): the folder itself, the gates, and the three
// files CI reads (results.csv, results.json, junit.xml).
#include "cli/sweep_outputs.hpp"

#include <system_error>

#include "core/error.hpp"
#include "core/json_file.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;

void create_sweep_folder(const fs::path& out) {
  const fs::path normal = out.lexically_normal();
  fs::path parent = (normal.has_filename() ? normal : normal.parent_path()).parent_path();
  if (parent.empty()) parent = ".";
  std::error_code ec;
  const bool job_shard = parent.filename() == "shards" && fs::is_regular_file(parent.parent_path() / "job.json", ec);
  if (!job_shard && !fs::is_directory(parent, ec)) {
    throw ConfigError("--out", "",
                      (fs::exists(parent, ec) ? "not a folder: " : "folder does not exist: ") + parent.string());
  }
  fs::create_directories(out / "points", ec);
  if (ec) throw ConfigError("--out", "", "cannot create folder " + (out / "points").string() + ": " + ec.message());
}

std::vector<report::Gate> parse_gates(const std::vector<std::string>& texts, const report::SweepTable& table) {
  std::vector<report::Gate> gates;
  gates.reserve(texts.size());
  for (const auto& text : texts) gates.push_back(report::parse_gate(text, table));
  return gates;
}

int write_sweep_outputs(const fs::path& folder, const report::SweepTable& table, const std::vector<report::Gate>& gates,
                        Io io) {
  write_files_atomically({{folder / "results.csv", report::sweep_results_csv(table)},
                          {folder / "results.json", report::sweep_results_json(table)},
                          {folder / "junit.xml", report::sweep_junit_xml(table, gates)}});
  const auto trips = report::evaluate_gates(table, gates);
  for (const auto& trip : trips) io.err << "gate tripped: " << report::gate_trip_text(table, gates, trip) << "\n";
  return trips.empty() ? 0 : kExitGate;
}

}  // namespace slicewise::cli
