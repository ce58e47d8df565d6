// `slicewise simulate SCENARIO`: its options, and the command itself: load, run the strategies
// (cli/simulate_run.hpp), write the result JSON and print the summary (report/simulate_text.hpp).
#include <unistd.h>

#include <filesystem>

#include <CLI/CLI.hpp>

#include "calibration/sharing_defaults.hpp"
#include "cli/child_pool.hpp"
#include "cli/commands.hpp"
#include "cli/simulate_run.hpp"
#include "core/atomic_output.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "report/costing.hpp"
#include "report/simulate_text.hpp"
#include "scenario/json_io.hpp"
#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"

namespace slicewise::cli {

CLI::App* setup_simulate(CLI::App& app, SimulateOptions& options) {
  auto* sub = app.add_subcommand("simulate", "Run every strategy of a scenario and compare them");
  sub->add_option("scenario", options.file, "Scenario JSON file")->required();
  sub->add_option("--strategy", options.strategies, "Run only this strategy (by name); repeatable");
  sub->add_option("--out", options.out, "Write the merged result JSON here")
      ->check(CLI::Validator(
          [](std::string& text) { return text.empty() ? std::string("must not be empty") : std::string(); }, "FILE"));
  add_progress_option(*sub, options.progress, "Progress on stderr, json as one JSON object per line");
  sub->add_option("--jobs", options.jobs, "Strategies simulated at once, one process each")->check(CLI::Range(1, 64));
  sub->add_option("--calibration", options.calibration,
                  "Calibration profile JSON (default: data/calibration/default.json)");
  sub->add_option("--uncertainty", options.uncertainty,
                  "Also re-run N times with the fitted constants sampled from their errors; report savings and "
                  "SLA violations as median and 90 % interval")
      ->check(CLI::Range(0, 1000));
  return sub;
}

namespace {

/// `slicewise simulate` up to its output; throws Interrupted.
int simulate_and_report(const SimulateOptions& given, Io io) {
  SimulateOptions options = given;
  if (options.progress == ProgressMode::automatic) {
    options.progress = ::isatty(STDERR_FILENO) ? ProgressMode::bar : ProgressMode::none;
  }
  const auto scenario = scenario::load_scenario(options.file);
  const auto selected = scenario::select_strategies(scenario, options.strategies, "slicewise simulate");
  // --out is checked before the run, not after it: a wrong path must not cost a simulation.
  if (const std::filesystem::path out = options.out; !out.empty()) {
    if (std::filesystem::is_directory(out))
      throw ConfigError("--out", "", "is a folder: " + out.string() + "; give a file name");
    if (out.has_parent_path() && !std::filesystem::is_directory(out.parent_path())) {
      throw ConfigError("--out", "", "folder does not exist: " + out.parent_path().string());
    }
    check_writable_output(out);  // a read-only folder, found now and not after the run
  }

  const auto profile = calibration::CalibrationProfile::load_or_shipped(options.calibration);
  auto simulated = simulate_strategies(scenario, selected, calibration::sharing_defaults(profile), options, io);
  if (!simulated) return 1;
  scenario::SimResult merged = std::move(*simulated);
  merged.calibration = record_of(profile);
  const auto price_table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
  if (options.uncertainty > 0) {
    merged.uncertainty = sample_uncertainty(scenario, selected, merged, profile, price_table, options, io);
    if (merged.uncertainty.empty()) return 1;
  }

  InterruptScope::throw_if_received();  // nothing is written once interrupted
  if (!options.out.empty()) write_file_atomically(options.out, scenario::result_to_text(merged));
  const auto costs = report::cost_result(merged, scenario, price_table, scenario.pricing.option);
  io.out << report::simulate_text(merged, scenario, costs);
  if (!options.out.empty()) io.out << "result written to " << options.out << "\n";
  return 0;
}

}  // namespace

int run_simulate(const SimulateOptions& options, Io io) {
  // Caught over the whole command, not only while strategies run: a signal while the scenario
  // loads, between --uncertainty samples or while results are priced stops the run at the next
  // check, with the same message and exit code.
  InterruptScope interrupts;
  try {
    return simulate_and_report(options, io);
  } catch (const Interrupted& e) {  // the children are gone, the temporary folder removed, --out not written
    io.err << "slicewise simulate: " << e.what() << "\n";
    return 128 + e.signal_number();
  }
}

}  // namespace slicewise::cli
