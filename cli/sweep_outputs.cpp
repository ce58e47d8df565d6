// A sweep folder's shared outputs (docs/sweeps.md): the folder itself, the gates, and the three
// files CI reads (results.csv, results.json, junit.xml).
#include "cli/sweep_outputs.hpp"

#include <system_error>

#include "core/error.hpp"
#include "core/json_file.hpp"

namespace slicewise::cli {

namespace fs = std::filesystem;

void create_sweep_folder(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw ConfigError("--out", "", "cannot create folder " + folder.string() + ": " + ec.message());
}

std::vector<report::Gate> parse_gates(const std::vector<std::string>& texts, const report::SweepTable& table) {
  std::vector<report::Gate> gates;
  gates.reserve(texts.size());
  for (const auto& text : texts) gates.push_back(report::parse_gate(text, table));
  return gates;
}

int write_sweep_outputs(const fs::path& folder, const report::SweepTable& table, const std::vector<report::Gate>& gates,
                        Io io) {
  write_file_atomically(folder / "results.csv", report::sweep_results_csv(table));
  write_file_atomically(folder / "results.json", report::sweep_results_json(table));
  write_file_atomically(folder / "junit.xml", report::sweep_junit_xml(table, gates));
  const auto trips = report::evaluate_gates(table, gates);
  for (const auto& trip : trips) io.err << "gate tripped: " << report::gate_trip_text(table, gates, trip) << "\n";
  return trips.empty() ? 0 : kExitGate;
}

}  // namespace slicewise::cli
