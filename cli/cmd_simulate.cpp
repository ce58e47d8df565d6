// `slicewise simulate SCENARIO`: run each strategy in its own child process (SimGrid allows one
// engine per process), merge the results, print a side-by-side table and optionally write JSON.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include <CLI/CLI.hpp>

#include "calibration/calibrate.hpp"
#include "calibration/sharing_defaults.hpp"
#include "cli/child_pool.hpp"
#include "cli/commands.hpp"
#include "cli/sim_batch.hpp"
#include "cli/simulate_run.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/costing.hpp"
#include "report/money_tables.hpp"
#include "report/text_table.hpp"
#include "scenario/json_io.hpp"
#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"
#include "sim/simulation.hpp"

namespace slicewise::cli {

CLI::App* setup_simulate(CLI::App& app, SimulateOptions& options) {
  auto* sub = app.add_subcommand("simulate", "Run every strategy of a scenario and compare them");
  sub->add_option("scenario", options.file, "Scenario JSON file")->required();
  sub->add_option("--strategy", options.strategies, "Run only this strategy (by name); repeatable");
  sub->add_option("--out", options.out, "Write the merged result JSON here")
      ->check(CLI::Validator(
          [](std::string& text) { return text.empty() ? std::string("must not be empty") : std::string(); }, "FILE"));
  sub->add_option("--progress", options.progress,
                  "Progress on stderr: bar, json (one JSON object per line) or none; default: bar on a terminal")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, ProgressMode>{
              {"bar", ProgressMode::bar}, {"json", ProgressMode::json}, {"none", ProgressMode::none}},
          CLI::ignore_case));
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

/// The strategies' progress on stderr: a bar, or JSON lines `progress` and `done`
/// (docs/architecture.md), or nothing.
class StrategyProgress {
 public:
  StrategyProgress(const scenario::Scenario& scenario, const std::vector<std::size_t>& selected, ProgressMode mode,
                   std::ostream& err)
      : scenario_(scenario), selected_(selected), mode_(mode), err_(err), fraction_(selected.size(), 0.0) {}

  /// Strategy `position` (in `selected`) reached `simulated` of `stop` seconds.
  void update(std::size_t position, double simulated, double stop) {
    fraction_[position] = stop > 0.0 ? std::min(1.0, simulated / stop) : 1.0;
    if (mode_ == ProgressMode::json) {
      emit({{"event", "progress"},
            {"strategy", name(position)},
            {"index", position},
            {"of", selected_.size()},
            {"simulated_s", simulated},
            {"stop_s", stop},
            {"fraction", fraction_[position]}});
    } else if (mode_ == ProgressMode::bar) {
      double total = 0.0;
      for (double f : fraction_) total += f;
      total /= static_cast<double>(selected_.size());
      const int percent_now = static_cast<int>(100.0 * total);
      if (percent_now == last_percent_ && num_finished_ == last_finished_) return;
      last_percent_ = percent_now;
      last_finished_ = num_finished_;
      const int filled = static_cast<int>(total * 30.0);
      err_ << "\rsimulating [" << std::string(static_cast<std::size_t>(filled), '#')
           << std::string(static_cast<std::size_t>(30 - filled), ' ') << "] " << report::format_fixed(100.0 * total, 0)
           << "% (" << num_finished_ << "/" << selected_.size() << " strategies)" << std::flush;
    }
  }

  /// Strategy `position` ended, successfully or not.
  void finish(std::size_t position, bool ok) {
    ++num_finished_;
    update(position, 1.0, 1.0);
    if (mode_ == ProgressMode::json) {
      emit(
          {{"event", "done"}, {"strategy", name(position)}, {"index", position}, {"of", selected_.size()}, {"ok", ok}});
    }
  }

  /// Ends the bar's line.
  void close() {
    if (mode_ == ProgressMode::bar) err_ << "\n";
  }

 private:
  const std::string& name(std::size_t position) const { return scenario_.strategies[selected_[position]].name; }
  void emit(const nlohmann::json& line) { err_ << line.dump() << "\n" << std::flush; }

  const scenario::Scenario& scenario_;
  const std::vector<std::size_t>& selected_;
  ProgressMode mode_;
  std::ostream& err_;
  std::vector<double> fraction_;
  std::size_t num_finished_ = 0;
  int last_percent_ = -1;
  std::size_t last_finished_ = 0;
};

std::string seconds(double value) { return report::format_fixed(value, 3); }

/// "sized for SLA in 5 simulations: 3 GPUs (memory and contexts per device allow 1; at most 10);
/// contexts: job-03 x2, the others as given".
std::string sizing_text(const scenario::SizingRecord& record, const scenario::Scenario& scenario) {
  std::string text = std::string(record.feasible ? "sized for SLA" : "not sizable for SLA") + " in " +
                     std::to_string(record.steps.size()) +
                     (record.steps.size() == 1 ? " simulation: " : " simulations: ") +
                     scenario::gpus_text(record.num_gpus) + " (lower bound " + std::to_string(record.lower_bound_gpus) +
                     ", at most " + std::to_string(record.max_gpus) + ")";
  std::vector<std::string> grown;
  for (std::size_t t = 0; t < record.contexts.size() && t < scenario.tenants.size(); ++t) {
    if (record.contexts[t] != scenario.tenants[t].num_contexts) {
      grown.push_back(scenario.tenants[t].name + " x" + std::to_string(record.contexts[t]));
    }
  }
  text += grown.empty() ? "; contexts as given" : "; contexts: " + join(grown, ", ") + ", the others as given";
  return text;  // a shortfall is in the money table's notes
}
std::string percent(double frac) { return report::format_fixed(100.0 * frac, 1); }

}  // namespace

/// Runs the selected strategies as child processes, `options.jobs` at a time, with progress on
/// io.err; nullopt when one failed (its message is already on stderr). A strategy sized for SLA
/// runs its sizing search (several simulations, in rounds). Throws Interrupted, with every child
/// gone and the temporary folder removed, when SIGINT or SIGTERM arrives.
std::optional<scenario::SimResult> simulate_strategies(const scenario::Scenario& scenario,
                                                       const std::vector<std::size_t>& selected,
                                                       const models::SharingDefaults& defaults,
                                                       const SimulateOptions& options, Io io) {
  StrategyProgress progress(scenario, selected, options.progress, io.err);
  std::vector<std::optional<scenario::StrategyResult>> results(selected.size());
  // Strategies as given: one run each, all in one batch.
  std::vector<SimJob> jobs;
  std::vector<std::size_t> position_of_job;
  std::vector<std::size_t> sized_positions;
  for (std::size_t position = 0; position < selected.size(); ++position) {
    if (scenario.strategies[selected[position]].sizing == scenario::Sizing::sla) {
      sized_positions.push_back(position);
    } else {
      jobs.push_back(SimJob{&scenario, selected[position], std::nullopt});
      position_of_job.push_back(position);
    }
  }
  BatchEvents events;
  events.progress = [&](std::size_t job, double simulated, double stop) {
    progress.update(position_of_job[job], simulated, stop);
  };
  events.done = [&](std::size_t job, bool ok) { progress.finish(position_of_job[job], ok); };
  if (!jobs.empty()) {
    auto ran = run_batch(jobs, defaults, options.jobs, events, io);
    if (!ran) {
      progress.close();
      return std::nullopt;
    }
    for (std::size_t j = 0; j < jobs.size(); ++j) results[position_of_job[j]] = std::move((*ran)[j]);
  }
  // Strategies sized for SLA: their searches, in rounds; the fleet's count is the most GPUs.
  if (!sized_positions.empty()) {
    const auto catalogs = scenario::Catalogs::shipped();
    const int max_gpus = static_cast<int>(sim::expand_fleet(scenario, catalogs).size());
    std::vector<scenario::SizingSearch> searches;
    searches.reserve(sized_positions.size());
    std::vector<scenario::SizingSearch*> pointers;
    std::vector<SimJob> templates;
    for (std::size_t position : sized_positions) {
      searches.emplace_back(scenario, selected[position], max_gpus, catalogs);
      pointers.push_back(&searches.back());
      templates.push_back(SimJob{&scenario, selected[position], std::nullopt});
    }
    BatchEvents sizing_events;  // a search's bar stays below 90 % until it is done
    sizing_events.progress = [&](std::size_t search, double simulated, double stop) {
      progress.update(sized_positions[search], 0.9 * simulated / std::max(stop, 1e-9), 1.0);
    };
    SizingDriver driver(defaults, options.jobs, io);
    if (!driver.run(pointers, templates, {}, sizing_events)) {
      progress.close();
      return std::nullopt;
    }
    for (std::size_t i = 0; i < searches.size(); ++i) {
      results[sized_positions[i]] = searches[i].result();
      progress.finish(sized_positions[i], true);
    }
  }
  progress.close();

  scenario::SimResult merged;
  merged.scenario = scenario.name;
  merged.input = scenario;
  merged.seed = scenario.seed;
  merged.horizon_s = scenario.horizon_s;
  for (auto& result : results) merged.strategies.push_back(std::move(*result));
  InterruptScope::throw_if_received();  // during the merge
  return merged;
}

scenario::CalibrationRecord record_of(const calibration::CalibrationProfile& profile) {
  scenario::CalibrationRecord record;
  record.profile_id = profile.id;
  record.fit_mape = profile.worst_fit_mape();
  record.sources = profile.sources();
  for (const auto& c : profile.constants) {
    char text[160];
    std::snprintf(text, sizeof text, "%s (%s) = %.4g", c.name.c_str(), c.gpu.c_str(), c.value);
    std::string line = text;
    if (c.fitted) {
      std::snprintf(text, sizeof text, " ± %.2g, fitted, MAPE %.1f %%", c.std_error, 100.0 * c.mape);
      line += text;
    } else {
      line += ", uncalibrated default";
    }
    record.constants.push_back(line);
  }
  return record;
}

/// The q-quantile (linear interpolation) of `values`, sorted in place.
double quantile(std::vector<double>& values, double q) {
  std::sort(values.begin(), values.end());
  const double at = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (at - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

/// Re-runs the strategies with the profile's fitted constants drawn N times (seeded by the
/// scenario's seed), prices each run, and gives each strategy's savings, SLA-violation rate and GPUs
/// as a median with a 90 % interval. A strategy sized for SLA is re-sized per sample, and its
/// nominal fleet (`nominal`'s) is run under the same draw: the share of samples in which it met
/// every SLA. Empty when a run failed.
std::vector<scenario::UncertaintyBand> sample_uncertainty(const scenario::Scenario& scenario,
                                                          const std::vector<std::size_t>& selected,
                                                          const scenario::SimResult& nominal,
                                                          const calibration::CalibrationProfile& profile,
                                                          const pricing::PriceTable& price_table,
                                                          const SimulateOptions& options, Io io) {
  const auto n = static_cast<std::size_t>(options.uncertainty);
  std::vector<std::vector<double>> savings(selected.size()), violations(selected.size()), gpus(selected.size());
  std::vector<int> nominal_met(selected.size(), 0);
  SimulateOptions quiet = options;
  quiet.progress = ProgressMode::none;
  for (std::size_t sample = 0; sample < n; ++sample) {
    InterruptScope::throw_if_received();  // a signal between two samples' runs
    if (options.progress != ProgressMode::none) {
      io.err << "uncertainty sample " << sample + 1 << "/" << n << "\n" << std::flush;
    }
    const auto drawn = calibration::sample_profile(profile, scenario.seed * 1000003ULL + sample + 1);
    const auto defaults = calibration::sharing_defaults(drawn);
    const auto run = simulate_strategies(scenario, selected, defaults, quiet, io);
    if (!run) return {};
    // The nominal sized fleets under this draw (as-given fleets are the run itself).
    std::vector<SimJob> fixed;
    std::vector<std::size_t> fixed_of;
    for (std::size_t i = 0; i < selected.size(); ++i) {
      if (const auto& sizing = nominal.strategies[i].sizing) {
        fixed.push_back(SimJob{&scenario, selected[i], scenario::sized_run_of(*sizing)});
        fixed_of.push_back(i);
      } else {
        nominal_met[i] += scenario::meets_every_sla(run->strategies[i]) ? 1 : 0;
      }
    }
    if (!fixed.empty()) {
      const auto again = run_batch(fixed, defaults, options.jobs, {}, io);
      if (!again) return {};
      for (std::size_t j = 0; j < fixed.size(); ++j)
        nominal_met[fixed_of[j]] += scenario::meets_every_sla((*again)[j]) ? 1 : 0;
    }
    const auto costs = report::cost_result(*run, scenario, price_table, scenario.pricing.option);
    for (std::size_t i = 0; i < run->strategies.size(); ++i) {
      savings[i].push_back(costs.strategies[i].monthly_savings_usd);
      gpus[i].push_back(run->strategies[i].num_gpus_used);
      double violated = 0.0, arrived = 0.0;
      for (const auto& tenant : run->strategies[i].tenants) {
        violated += static_cast<double>(tenant.sla_violations);
        arrived += static_cast<double>(tenant.num_arrived);
      }
      violations[i].push_back(arrived > 0.0 ? violated / arrived : 0.0);
    }
  }
  std::vector<scenario::UncertaintyBand> bands;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    scenario::UncertaintyBand band;
    band.strategy = scenario.strategies[selected[i]].name;
    band.num_samples = static_cast<int>(n);
    band.monthly_savings_p05_usd = quantile(savings[i], 0.05);
    band.monthly_savings_p50_usd = quantile(savings[i], 0.5);
    band.monthly_savings_p95_usd = quantile(savings[i], 0.95);
    band.sla_violation_p05_frac = quantile(violations[i], 0.05);
    band.sla_violation_p50_frac = quantile(violations[i], 0.5);
    band.sla_violation_p95_frac = quantile(violations[i], 0.95);
    band.num_gpus_p05 = quantile(gpus[i], 0.05);
    band.num_gpus_p50 = quantile(gpus[i], 0.5);
    band.num_gpus_p95 = quantile(gpus[i], 0.95);
    band.fleet_meets_sla_frac = static_cast<double>(nominal_met[i]) / static_cast<double>(n);
    bands.push_back(band);
  }
  return bands;
}

namespace {

/// `slicewise simulate` up to its output; throws Interrupted.
int simulate_and_report(const SimulateOptions& given, Io io) {
  SimulateOptions options = given;
  if (options.progress == ProgressMode::automatic) {
    options.progress = ::isatty(STDERR_FILENO) ? ProgressMode::bar : ProgressMode::none;
  }
  const auto scenario = scenario::load_scenario(options.file);
  std::vector<std::size_t> selected;
  if (options.strategies.empty()) {
    for (std::size_t i = 0; i < scenario.strategies.size(); ++i) selected.push_back(i);
  } else {
    std::vector<std::string> names;
    for (const auto& s : scenario.strategies) names.push_back(s.name);
    for (const auto& wanted : options.strategies) {
      const auto it = std::find(names.begin(), names.end(), wanted);
      if (it == names.end()) {
        throw ConfigError("slicewise simulate", "--strategy",
                          "unknown strategy \"" + wanted + "\"; the scenario has " + join(names, "|") +
                              did_you_mean_suffix(wanted, names));
      }
      const auto index = static_cast<std::size_t>(it - names.begin());
      if (std::find(selected.begin(), selected.end(), index) != selected.end()) {
        throw ConfigError("slicewise simulate", "--strategy", "strategy \"" + wanted + "\" is given twice");
      }
      selected.push_back(index);
    }
  }
  // --out is checked before the run, not after it: a wrong path must not cost a simulation.
  if (const std::filesystem::path out = options.out; !out.empty()) {
    if (std::filesystem::is_directory(out))
      throw ConfigError("--out", "", "is a folder: " + out.string() + "; give a file name");
    if (out.has_parent_path() && !std::filesystem::is_directory(out.parent_path())) {
      throw ConfigError("--out", "", "folder does not exist: " + out.parent_path().string());
    }
  }

  const auto profile = options.calibration.empty() ? calibration::CalibrationProfile::shipped()
                                                   : calibration::CalibrationProfile::load(options.calibration);
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

  using report::Align;
  report::TextTable table({{"strategy"},
                           {"GPUs", Align::right},
                           {"busy %", Align::right},
                           {"SM util %", Align::right},
                           {"tenant"},
                           {"done", Align::right},
                           {"p50 s", Align::right},
                           {"p95 s", Align::right},
                           {"p99 s", Align::right},
                           {"TTFT p95 s", Align::right},
                           {"SLA viol %", Align::right},
                           {"SLA"}});
  for (const auto& strategy : merged.strategies) {
    bool first = true;
    for (const auto& tenant : strategy.tenants) {
      table.add_row({first ? strategy.name : "", first ? std::to_string(strategy.num_gpus_used) : "",
                     first ? percent(strategy.fleet_busy_frac) : "", first ? percent(strategy.fleet_sm_util_frac) : "",
                     tenant.name, std::to_string(tenant.num_completed), seconds(tenant.latency_s.p50),
                     seconds(tenant.latency_s.p95), seconds(tenant.latency_s.p99),
                     tenant.ttft_s.count > 0 ? seconds(tenant.ttft_s.p95) : "-", percent(tenant.sla_violation_frac),
                     tenant.sla_met ? "met" : "MISSED"});
      first = false;
    }
  }
  io.out << scenario.name << ": " << format_number(scenario.horizon_s) << " s simulated, seed " << scenario.seed
         << "\n\n"
         << table.to_text();

  // Money: every strategy's fleet priced against the dedicated baseline.
  const auto costs = report::cost_result(merged, scenario, price_table, scenario.pricing.option);
  io.out << "\n" << report::money_table_text(costs);
  if (const auto business = report::business_text(costs, scenario.pricing.monthly_revenue_usd,
                                                  scenario.pricing.abandonment_per_100ms_frac);
      !business.empty()) {
    io.out << "\n" << business;
  }
  for (const auto& strategy : merged.strategies) {
    for (const auto& issue : strategy.issues) io.out << strategy.name << ": " << issue << "\n";
  }
  for (const auto& strategy : merged.strategies) {
    if (strategy.sizing) io.out << strategy.name << ": " << sizing_text(*strategy.sizing, scenario) << "\n";
  }
  if (!merged.uncertainty.empty()) {
    report::TextTable bands({{"strategy"},
                             {"samples", Align::right},
                             {"savings $/month p50", Align::right},
                             {"90 % interval", Align::right},
                             {"SLA viol % p50", Align::right},
                             {"90 % interval", Align::right},
                             {"GPUs p50", Align::right},
                             {"90 % interval", Align::right},
                             {"fleet meets SLA %", Align::right}});
    for (const auto& b : merged.uncertainty) {
      bands.add_row({b.strategy, std::to_string(b.num_samples), report::format_fixed(b.monthly_savings_p50_usd, 2),
                     report::format_fixed(b.monthly_savings_p05_usd, 2) + " .. " +
                         report::format_fixed(b.monthly_savings_p95_usd, 2),
                     percent(b.sla_violation_p50_frac),
                     percent(b.sla_violation_p05_frac) + " .. " + percent(b.sla_violation_p95_frac),
                     report::format_fixed(b.num_gpus_p50, 1),
                     report::format_fixed(b.num_gpus_p05, 1) + " .. " + report::format_fixed(b.num_gpus_p95, 1),
                     percent(b.fleet_meets_sla_frac)});
    }
    io.out << "\nuncertainty of the fitted constants\n" << bands.to_text();
  }
  io.out << "\ncalibration: " << merged.calibration.profile_id << " (worst fit MAPE "
         << percent(merged.calibration.fit_mape) << " %)\n";
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
