// `slicewise simulate SCENARIO`: run each strategy in its own child process (SimGrid allows one
// engine per process), merge the results, print a side-by-side table and optionally write JSON.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>

#include <CLI/CLI.hpp>

#include "calibration/calibrate.hpp"
#include "cli/commands.hpp"
#include "cli/simulate_run.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/costing.hpp"
#include "report/money_tables.hpp"
#include "report/text_table.hpp"
#include "scenario/validate.hpp"
#include "scenario/json_io.hpp"
#include "scenario/result_json.hpp"
#include "sim/simulation.hpp"

namespace slicewise::cli {

CLI::App* setup_simulate(CLI::App& app, SimulateOptions& options) {
  auto* sub = app.add_subcommand("simulate", "Run every strategy of a scenario and compare them");
  sub->add_option("scenario", options.file, "Scenario JSON file")->required();
  sub->add_option("--strategy", options.strategies, "Run only this strategy (by name); repeatable");
  sub->add_option("--out", options.out, "Write the merged result JSON here");
  sub->add_option("--progress", options.progress,
                  "Progress on stderr: bar, json (one JSON object per line) or none; default: bar on a terminal")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, ProgressMode>{{"bar", ProgressMode::bar}, {"json", ProgressMode::json}, {"none", ProgressMode::none}},
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

struct Child {
  pid_t pid = -1;
  int progress_fd = -1;
  std::size_t strategy = 0;
  std::string result_file;
  std::string buffer;
};

/// In the child: run one strategy, write its result, report progress lines "simulated stop\n".
[[noreturn]] void run_child(const scenario::Scenario& scenario, std::size_t strategy,
                            const sim::SharingDefaults& defaults, const std::string& result_file, int progress_fd) {
  int code = 0;
  try {
    sim::RunOptions options;
    options.strategy_index = static_cast<int>(strategy);
    options.defaults = defaults;
    options.progress = [progress_fd](double simulated, double stop) {
      char line[96];
      const int n = std::snprintf(line, sizeof line, "%.9g %.9g\n", simulated, stop);
      if (n > 0) [[maybe_unused]] auto written = ::write(progress_fd, line, static_cast<std::size_t>(n));
    };
    const auto result = sim::run_simulation(scenario, options);
    write_file_atomically(result_file, scenario::result_to_text(result));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    code = 1;
  }
  std::fflush(stderr);
  ::_exit(code);
}

std::string seconds(double value) { return report::format_fixed(value, 3); }
std::string percent(double frac) { return report::format_fixed(100.0 * frac, 1); }

}  // namespace

/// Runs the selected strategies as child processes, `options.jobs` at a time, with progress on
/// io.err; nullopt when one failed (its message is already on stderr).
std::optional<scenario::SimResult> simulate_strategies(const scenario::Scenario& scenario,
                                                       const std::vector<std::size_t>& selected,
                                                       const sim::SharingDefaults& defaults,
                                                       const SimulateOptions& options, Io io) {
  char directory_template[] = "/tmp/slicewise-simulate-XXXXXX";
  const char* directory = ::mkdtemp(directory_template);
  if (!directory) throw Error(std::string("cannot create a temporary folder: ") + std::strerror(errno));

  std::vector<double> fraction(selected.size(), 0.0);
  std::vector<bool> failed(selected.size(), false);
  std::vector<Child> running;
  std::size_t next = 0;
  std::size_t finished = 0;
  int last_percent = -1;
  std::size_t last_finished = 0;
  auto report_progress = [&](std::size_t position, double simulated, double stop) {
    fraction[position] = stop > 0.0 ? std::min(1.0, simulated / stop) : 1.0;
    if (options.progress == ProgressMode::json) {
      nlohmann::json line = {{"event", "progress"}, {"strategy", scenario.strategies[selected[position]].name},
                             {"index", position}, {"of", selected.size()}, {"simulated_s", simulated},
                             {"stop_s", stop}, {"fraction", fraction[position]}};
      io.err << line.dump() << "\n" << std::flush;
    } else if (options.progress == ProgressMode::bar) {
      double total = 0.0;
      for (double f : fraction) total += f;
      total /= static_cast<double>(selected.size());
      const int percent_now = static_cast<int>(100.0 * total);
      if (percent_now == last_percent && finished == last_finished) return;
      last_percent = percent_now;
      last_finished = finished;
      const int filled = static_cast<int>(total * 30.0);
      io.err << "\rsimulating [" << std::string(static_cast<std::size_t>(filled), '#')
             << std::string(static_cast<std::size_t>(30 - filled), ' ') << "] " << report::format_fixed(100.0 * total, 0)
             << "% (" << finished << "/" << selected.size() << " strategies)" << std::flush;
    }
  };

  while (finished < selected.size()) {
    while (next < selected.size() && static_cast<int>(running.size()) < options.jobs) {
      int fds[2];
      if (::pipe(fds) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
      Child child;
      child.strategy = next;
      child.result_file = std::string(directory) + "/strategy-" + std::to_string(next) + ".json";
      io.out.flush();
      io.err.flush();
      child.pid = ::fork();
      if (child.pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
      if (child.pid == 0) {
        ::close(fds[0]);
        run_child(scenario, selected[next], defaults, child.result_file, fds[1]);
      }
      ::close(fds[1]);
      child.progress_fd = fds[0];
      running.push_back(std::move(child));
      ++next;
    }
    std::vector<pollfd> polls;
    for (const auto& child : running) polls.push_back({child.progress_fd, POLLIN, 0});
    ::poll(polls.data(), polls.size(), -1);
    for (std::size_t i = 0; i < running.size();) {
      auto& child = running[i];
      char chunk[512];
      const auto n = ::read(child.progress_fd, chunk, sizeof chunk);
      if (n > 0) {
        child.buffer.append(chunk, static_cast<std::size_t>(n));
        std::size_t end;
        while ((end = child.buffer.find('\n')) != std::string::npos) {
          double simulated = 0.0;
          double stop = 0.0;
          if (std::sscanf(child.buffer.c_str(), "%lf %lf", &simulated, &stop) == 2) {
            report_progress(child.strategy, simulated, stop);
          }
          child.buffer.erase(0, end + 1);
        }
        ++i;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      ::close(child.progress_fd);
      int status = 0;
      ::waitpid(child.pid, &status, 0);
      failed[child.strategy] = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
      if (WIFSIGNALED(status)) {  // a crash prints nothing of its own
        io.err << "slicewise simulate: strategy \"" << scenario.strategies[selected[child.strategy]].name
               << "\" was killed by signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")\n";
      }
      ++finished;
      report_progress(child.strategy, 1.0, 1.0);
      running.erase(running.begin() + static_cast<long>(i));
    }
  }
  if (options.progress == ProgressMode::bar) io.err << "\n";

  scenario::SimResult merged;
  merged.scenario = scenario.name;
  merged.input = scenario;
  merged.seed = scenario.seed;
  merged.horizon_s = scenario.horizon_s;
  bool any_failed = false;
  for (std::size_t position = 0; position < selected.size(); ++position) {
    const std::string file = std::string(directory) + "/strategy-" + std::to_string(position) + ".json";
    if (failed[position]) {
      any_failed = true;
      continue;
    }
    auto part = scenario::load_result(file);
    std::filesystem::remove(file);
    for (auto& strategy : part.strategies) merged.strategies.push_back(std::move(strategy));
  }
  std::filesystem::remove_all(directory);
  if (any_failed) return std::nullopt;
  return merged;
}

/// The sharing constants of a calibration profile, as the simulator's defaults. The time-slicing
/// efficiency becomes a switch cost at the default quantum: c = q (1/η − 1).
sim::SharingDefaults defaults_from(const calibration::CalibrationProfile& profile) {
  sim::SharingDefaults d;
  if (const auto* c = profile.find("time_slicing_efficiency")) {
    d.switch_cost_ms = d.quantum_ms * std::max(0.0, 1.0 / c->value - 1.0);
  }
  if (const auto* c = profile.find("mps_efficiency")) d.mps_efficiency = std::min(1.0, c->value);
  if (const auto* c = profile.find("hami_launch_overhead_frac")) d.hami_launch_overhead_frac = c->value;
  for (const auto& c : profile.constants) {
    if (c.name == "roofline_sharpness" && c.gpu != "*") d.roofline_sharpness[c.gpu] = c.value;
  }
  return d;
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
/// scenario's seed), prices each run, and gives each strategy's savings and SLA-violation rate as a
/// median with a 90 % interval. Empty when a run failed.
std::vector<scenario::UncertaintyBand> sample_uncertainty(const scenario::Scenario& scenario,
                                                          const std::vector<std::size_t>& selected,
                                                          const calibration::CalibrationProfile& profile,
                                                          const pricing::PriceTable& price_table,
                                                          const SimulateOptions& options, Io io) {
  const auto n = static_cast<std::size_t>(options.uncertainty);
  std::vector<std::vector<double>> savings(selected.size()), violations(selected.size());
  SimulateOptions quiet = options;
  quiet.progress = ProgressMode::none;
  for (std::size_t sample = 0; sample < n; ++sample) {
    if (options.progress != ProgressMode::none) {
      io.err << "uncertainty sample " << sample + 1 << "/" << n << "\n" << std::flush;
    }
    const auto drawn = calibration::sample_profile(profile, scenario.seed * 1000003ULL + sample + 1);
    const auto run = simulate_strategies(scenario, selected, defaults_from(drawn), quiet, io);
    if (!run) return {};
    const auto costs = report::cost_result(*run, scenario, price_table, scenario.pricing.option);
    for (std::size_t i = 0; i < run->strategies.size(); ++i) {
      savings[i].push_back(costs.strategies[i].monthly_savings_usd);
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
    bands.push_back(band);
  }
  return bands;
}

int run_simulate(const SimulateOptions& given, Io io) {
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
      selected.push_back(static_cast<std::size_t>(it - names.begin()));
    }
  }

  const auto profile = options.calibration.empty() ? calibration::CalibrationProfile::shipped()
                                                   : calibration::CalibrationProfile::load(options.calibration);
  auto simulated = simulate_strategies(scenario, selected, defaults_from(profile), options, io);
  if (!simulated) return 1;
  scenario::SimResult merged = std::move(*simulated);
  merged.calibration = record_of(profile);
  const auto price_table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
  if (options.uncertainty > 0) {
    merged.uncertainty = sample_uncertainty(scenario, selected, profile, price_table, options, io);
    if (merged.uncertainty.empty()) return 1;
  }

  if (!options.out.empty()) write_file_atomically(options.out, scenario::result_to_text(merged));

  using report::Align;
  report::TextTable table({{"strategy"}, {"GPUs", Align::right}, {"busy %", Align::right}, {"SM util %", Align::right},
                           {"tenant"}, {"done", Align::right}, {"p50 s", Align::right}, {"p95 s", Align::right},
                           {"p99 s", Align::right}, {"TTFT p95 s", Align::right}, {"SLA viol %", Align::right},
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
  io.out << scenario.name << ": " << format_number(scenario.horizon_s) << " s simulated, seed " << scenario.seed << "\n\n"
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
  if (!merged.uncertainty.empty()) {
    report::TextTable bands({{"strategy"}, {"samples", Align::right}, {"savings $/month p50", Align::right},
                             {"90 % interval", Align::right}, {"SLA viol % p50", Align::right}, {"90 % interval", Align::right}});
    for (const auto& b : merged.uncertainty) {
      bands.add_row({b.strategy, std::to_string(b.num_samples), report::format_fixed(b.monthly_savings_p50_usd, 2),
                     report::format_fixed(b.monthly_savings_p05_usd, 2) + " .. " + report::format_fixed(b.monthly_savings_p95_usd, 2),
                     percent(b.sla_violation_p50_frac),
                     percent(b.sla_violation_p05_frac) + " .. " + percent(b.sla_violation_p95_frac)});
    }
    io.out << "\nuncertainty of the fitted constants\n" << bands.to_text();
  }
  io.out << "\ncalibration: " << merged.calibration.profile_id << " (worst fit MAPE "
         << percent(merged.calibration.fit_mape) << " %)\n";
  if (!options.out.empty()) io.out << "result written to " << options.out << "\n";
  return 0;
}

}  // namespace slicewise::cli
