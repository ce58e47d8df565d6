// Running a scenario's strategies as child processes (SimGrid allows one engine per process), with
// their progress, and the samples of `--uncertainty N`: what `simulate`, `sweep` and `advise` share.
#include "cli/simulate_run.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration/calibrate.hpp"
#include "calibration/sharing_defaults.hpp"
#include "cli/child_pool.hpp"
#include "cli/progress_meter.hpp"
#include "cli/sim_batch.hpp"
#include "report/costing.hpp"
#include "scenario/catalogs.hpp"
#include "scenario/sizing.hpp"
#include "scenario/uncertainty.hpp"
#include "sim/simulation.hpp"

namespace slicewise::cli {

namespace {

/// The strategies' progress on stderr: a bar, or JSON lines `progress` and `done`
/// (docs/architecture.md, "Progress"), or nothing. The whole run's fraction is the mean of the
/// strategies' fractions; a strategy's is its simulated time over the horizon, or, for a sizing
/// search of unknown length, search_fraction() (cli/progress_meter.hpp) until the search ends.
class StrategyProgress {
 public:
  /// `observer` (optional) is told the whole run's fraction at every step, whatever the mode.
  StrategyProgress(const scenario::Scenario& scenario, const std::vector<std::size_t>& selected, ProgressMode mode,
                   std::ostream& err, std::function<void(double)> observer = {})
      : scenario_(scenario),
        selected_(selected),
        mode_(mode),
        err_(err),
        meter_(mode, err, "simulating"),
        observer_(std::move(observer)),
        fraction_(selected.size(), 0.0) {}

  /// Strategy `position` (in `selected`) reached `simulated` of `horizon` seconds.
  void update(std::size_t position, double simulated, double horizon) {
    set(position, horizon > 0.0 ? simulated / horizon : 1.0, simulated, horizon);
  }

  /// Sizing search `position` is in its run number `round` (from 1), `simulated` of `horizon` into it.
  void update_search(std::size_t position, int round, double simulated, double horizon) {
    set(position, search_fraction(round, simulated, horizon), simulated, horizon);
  }

  /// Strategy `position` ended, successfully or not.
  void finish(std::size_t position, bool ok) {
    ++num_finished_;
    fraction_[position] = 1.0;
    show();
    if (mode_ == ProgressMode::json) {
      emit(
          {{"event", "done"}, {"strategy", name(position)}, {"index", position}, {"of", selected_.size()}, {"ok", ok}});
    }
  }

  /// Ends the bar's line.
  void close() { meter_.close(); }

 private:
  void set(std::size_t position, double fraction, double simulated, double horizon) {
    fraction_[position] = std::max(fraction_[position], std::clamp(fraction, 0.0, 1.0));
    show();
    if (mode_ == ProgressMode::json) {
      nlohmann::json line{{"event", "progress"},
                          {"strategy", name(position)},
                          {"index", position},
                          {"of", selected_.size()},
                          {"simulated_s", simulated},
                          {"stop_s", horizon},
                          {"fraction", fraction_[position]}};
      meter_.annotate(line);
      emit(line);
    }
  }

  void show() {
    double total = 0.0;
    for (double f : fraction_) total += f;
    total /= static_cast<double>(selected_.size());
    if (observer_) observer_(total);
    meter_.update(total, std::to_string(num_finished_) + "/" + std::to_string(selected_.size()) + " strategies");
  }

  const std::string& name(std::size_t position) const { return scenario_.strategies[selected_[position]].name; }
  void emit(const nlohmann::json& line) { err_ << line.dump() << "\n" << std::flush; }

  const scenario::Scenario& scenario_;
  const std::vector<std::size_t>& selected_;
  ProgressMode mode_;
  std::ostream& err_;
  ProgressMeter meter_;
  std::function<void(double)> observer_;
  std::vector<double> fraction_;
  std::size_t num_finished_ = 0;
};

}  // namespace

/// Runs the selected strategies as child processes, `options.jobs` at a time, with progress on
/// io.err; nullopt when one failed (its message is already on stderr). A strategy sized for SLA
/// runs its sizing search (several simulations, in rounds). Throws Interrupted, with every child
/// gone and the temporary folder removed, when SIGINT or SIGTERM arrives.
std::optional<scenario::SimResult> simulate_strategies(const scenario::Scenario& scenario,
                                                       const std::vector<std::size_t>& selected,
                                                       const models::SharingDefaults& defaults,
                                                       const SimulateOptions& options, Io io,
                                                       const std::function<void(double)>& observer) {
  StrategyProgress progress(scenario, selected, options.progress, io.err, observer);
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
    int round = 0;
    BatchEvents sizing_events;
    sizing_events.progress = [&](std::size_t search, double simulated, double horizon) {
      progress.update_search(sized_positions[search], round, simulated, horizon);
    };
    SizingDriver driver(defaults, options.jobs, io);
    if (!driver.run(
            pointers, templates, [&](std::size_t) { ++round; }, sizing_events)) {
      progress.close();
      return std::nullopt;
    }
    for (std::size_t i = 0; i < searches.size(); ++i) results[sized_positions[i]] = searches[i].result();
    // With diurnal loads, each sized strategy again for every hour of day: the autoscaled fleet.
    std::vector<std::pair<std::size_t, scenario::StrategyResult*>> hourly;
    for (std::size_t i = 0; i < searches.size(); ++i) {
      hourly.emplace_back(selected[sized_positions[i]], &*results[sized_positions[i]]);
    }
    if (!size_every_hour(scenario, hourly, driver)) {
      progress.close();
      return std::nullopt;
    }
    for (const std::size_t position : sized_positions) progress.finish(position, true);
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

/// Re-runs the strategies with the profile's fitted constants drawn N times (seeded by the
/// scenario's seed), prices each run, and gives each strategy's savings, SLA-violation rate and GPUs
/// as a median with a 90 % interval (scenario/uncertainty.hpp). A strategy sized for SLA is re-sized
/// per sample, and its nominal fleet (`nominal`'s) is run under the same draw: the share of samples
/// in which it met every SLA. Empty when a run failed.
std::vector<scenario::UncertaintyBand> sample_uncertainty(const scenario::Scenario& scenario,
                                                          const std::vector<std::size_t>& selected,
                                                          const scenario::SimResult& nominal,
                                                          const calibration::CalibrationProfile& profile,
                                                          const pricing::PriceTable& price_table,
                                                          const SimulateOptions& options, Io io) {
  const auto n = static_cast<std::size_t>(options.uncertainty);
  std::vector<std::string> names;
  names.reserve(selected.size());
  for (std::size_t index : selected) names.push_back(scenario.strategies[index].name);
  scenario::UncertaintySamples samples(names);
  SimulateOptions quiet = options;
  quiet.progress = ProgressMode::none;
  // One meter over the N samples: sample k of N at fraction f of its runs is (k + f) / N done.
  const ProgressMode mode = options.progress == ProgressMode::automatic ? ProgressMode::none : options.progress;
  ProgressMeter meter(mode, io.err, "uncertainty");
  for (std::size_t sample = 0; sample < n; ++sample) {
    InterruptScope::throw_if_received();  // a signal between two samples' runs
    const auto observe = [&](double fraction) {
      const double total = (static_cast<double>(sample) + 0.95 * fraction) / static_cast<double>(n);
      meter.update(total, "sample " + std::to_string(sample + 1) + "/" + std::to_string(n));
      if (mode == ProgressMode::json) {
        nlohmann::json line{{"event", "uncertainty_progress"}, {"sample", sample + 1}, {"of", n}};
        meter.annotate(line);
        io.err << line.dump() << "\n" << std::flush;
      }
    };
    const auto drawn = calibration::sample_profile(profile, scenario.seed * 1000003ULL + sample + 1);
    const auto defaults = calibration::sharing_defaults(drawn);
    const auto run = simulate_strategies(scenario, selected, defaults, quiet, io, observe);
    if (!run) {
      meter.close();
      return {};
    }
    // The nominal sized fleets under this draw (as-given fleets are the run itself).
    std::vector<bool> nominal_met(selected.size());
    std::vector<SimJob> fixed;
    std::vector<std::size_t> fixed_of;
    for (std::size_t i = 0; i < selected.size(); ++i) {
      if (const auto& sizing = nominal.strategies[i].sizing) {
        fixed.push_back(SimJob{&scenario, selected[i], scenario::sized_run_of(*sizing)});
        fixed_of.push_back(i);
      } else {
        nominal_met[i] = scenario::meets_every_sla(run->strategies[i]);
      }
    }
    if (!fixed.empty()) {
      const auto again = run_batch(fixed, defaults, options.jobs, {}, io);
      if (!again) {
        meter.close();
        return {};
      }
      for (std::size_t j = 0; j < fixed.size(); ++j) nominal_met[fixed_of[j]] = scenario::meets_every_sla((*again)[j]);
    }
    const auto costs = report::cost_result(*run, scenario, price_table, scenario.pricing.option);
    for (std::size_t i = 0; i < run->strategies.size(); ++i) {
      samples.add(i, costs.strategies[i].monthly_savings_usd, run->strategies[i], nominal_met[i]);
    }
    meter.update(static_cast<double>(sample + 1) / static_cast<double>(n),
                 "sample " + std::to_string(sample + 1) + "/" + std::to_string(n));
  }
  meter.close();
  return samples.bands();
}

}  // namespace slicewise::cli
