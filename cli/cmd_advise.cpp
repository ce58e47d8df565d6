// `slicewise advise SCENARIO --out DIR`: size every configuration worth trying (GPU types,
// strategies and their settings, purchase options) for the SLA and say which is cheapest, with the
// Pareto front of cost against SLA margin and why each other candidate lost (docs/advisor.md).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "advisor/advice.hpp"
#include "calibration/calibration_profile.hpp"
#include "calibration/sharing_defaults.hpp"
#include "cli/app.hpp"
#include "cli/child_pool.hpp"
#include "cli/commands.hpp"
#include "cli/progress_meter.hpp"
#include "cli/sim_batch.hpp"
#include "cli/simulate_run.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "pricing/roi.hpp"
#include "report/render/scatter_chart.hpp"
#include "report/text_table.hpp"
#include "scenario/json_io.hpp"
#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"

namespace slicewise::cli {

namespace {

/// The names of a name -> value table, in its order.
template <class E>
std::vector<std::string> names_of(const std::vector<std::pair<std::string, E>>& table) {
  std::vector<std::string> names;
  names.reserve(table.size());
  for (const auto& [name, value] : table) names.push_back(name);
  return names;
}

}  // namespace

CLI::App* setup_advise(CLI::App& app, AdviseOptions& options) {
  auto* sub =
      app.add_subcommand("advise", "Find the cheapest GPU fleet and sharing configuration that meets every SLA");
  sub->add_option("scenario", options.file, "Scenario JSON file (its tenants; its strategies are not used)")
      ->required();
  sub->add_option("--out", options.out,
                  "Folder for advice.json, advice.md, candidates.csv, pareto.csv/.svg, result.json")
      ->required();
  plain_choices(
      sub->add_option("--strategies", options.strategies, "Strategy kinds to search, comma-separated")->delimiter(','),
      names_of(models::strategy_kind_table()), "all seven");
  sub->add_option("--gpus", options.gpus, "GPU ids to search (default: every GPU the price table sells)")
      ->delimiter(',');
  plain_choices(
      sub->add_option("--options", options.options, "Purchase options to price, comma-separated")->delimiter(','),
      names_of(pricing::purchase_option_table()), "the scenario's");
  sub->add_option("--max-gpus", options.max_gpus, "Most GPUs a fleet may have (default: 16)")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--jobs", options.jobs, "Simulations at once, one process each")->check(CLI::Range(1, 64));
  sub->add_option("--calibration", options.calibration, "Calibration profile JSON (default: the shipped one)");
  sub->add_flag("--no-prune", options.no_prune,
                "Size every candidate, even those whose memory bound already costs as much as the baseline (the whole "
                "Pareto front, at more simulations)");
  add_progress_option(*sub, options.progress, "Progress on stderr");
  return sub;
}

namespace {

template <class E>
std::vector<E> parse_names(const std::vector<std::string>& given, const std::vector<std::pair<std::string, E>>& table,
                           const std::string& flag) {
  const std::vector<std::string> names = names_of(table);
  std::vector<E> out;
  for (const auto& text : given) {
    const auto it = std::find_if(table.begin(), table.end(), [&](const auto& entry) { return entry.first == text; });
    if (it == table.end()) {
      throw ConfigError(
          flag, "",
          "unknown " + quoted_excerpt(text) + "; expected " + join(names, "|") + did_you_mean_suffix(text, names));
    }
    if (std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
  }
  return out;
}

/// The advisor's progress: candidates sized and simulations run, as a bar or JSON lines. The whole
/// run's fraction is the mean over the candidates: a candidate pruned or sized counts 1, one being
/// sized its search_fraction() (cli/progress_meter.hpp), as a strategy sized for SLA under `simulate`.
class AdviceProgress {
 public:
  AdviceProgress(ProgressMode mode, std::ostream& err, std::size_t num_candidates)
      : mode_(mode),
        err_(err),
        meter_(mode, err, "advising"),
        fraction_(num_candidates, 0.0),
        rounds_(num_candidates) {}

  /// Candidates `which` start a round of their searches.
  void round(const std::vector<std::size_t>& which) {
    for (std::size_t c : which) ++rounds_[c];
  }
  /// Candidate `c`'s current run reached `simulated` of `horizon` seconds.
  void run(std::size_t c, double simulated, double horizon) {
    fraction_[c] = std::max(fraction_[c], search_fraction(rounds_[c], simulated, horizon));
  }
  /// Candidate `c` is sized, or needs no sizing (pruned).
  void done(std::size_t c) { fraction_[c] = 1.0; }
  /// The search has `num_candidates` now (the baseline's settings added some after it ran).
  void resize(std::size_t num_candidates) {
    if (num_candidates > fraction_.size()) meter_.work_grew();
    fraction_.resize(num_candidates, 0.0);
    rounds_.resize(num_candidates, 0);
  }

  void show(int simulations) {
    const auto of = fraction_.size();
    const auto finished = static_cast<std::size_t>(std::count(fraction_.begin(), fraction_.end(), 1.0));
    double total = 0.0;
    for (double f : fraction_) total += f;
    total = of > 0 ? total / static_cast<double>(of) : 1.0;
    meter_.update(total, std::to_string(finished) + "/" + std::to_string(of) + " candidates, " +
                             std::to_string(simulations) + " simulations");
    if (mode_ == ProgressMode::json) {
      nlohmann::json line{
          {"event", "advise_progress"}, {"simulations", simulations}, {"candidates_done", finished}, {"of", of}};
      meter_.annotate(line);
      err_ << line.dump() << "\n" << std::flush;
    }
  }
  void close() { meter_.close(); }

 private:
  ProgressMode mode_;
  std::ostream& err_;
  ProgressMeter meter_;
  std::vector<double> fraction_;
  std::vector<int> rounds_;
};

std::string pareto_svg(const advisor::Advice& advice) {
  render::ScatterChartSpec spec;
  spec.title = "Monthly cost against the worst tenant's SLA margin";
  spec.x_axis_title = "USD per month";
  spec.y_axis_title = "worst tenant's SLA margin, % of its target";
  render::ScatterSeries others{"meets every SLA", {}, false};
  render::ScatterSeries front{"Pareto front", {}, true};
  render::ScatterSeries answer{"answer", {}, false};
  for (std::size_t i = 0; i < advice.rows.size(); ++i) {
    const auto& r = advice.rows[i];
    if (r.status != "meets") continue;
    const render::ScatterPoint p{r.monthly_usd, 100.0 * r.worst_margin};
    (r.on_front ? front : others).points.push_back(p);
    if (advice.answer && i == *advice.answer) answer.points.push_back(p);
  }
  std::sort(front.points.begin(), front.points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  spec.series = {others, front, answer};
  return render::scatter_chart_svg(spec);
}

/// Throws ConfigError when `out` is not a folder, or its parent folder does not exist.
void check_out_folder(const std::filesystem::path& out) {
  if (std::filesystem::exists(out) && !std::filesystem::is_directory(out)) {
    throw ConfigError("--out", "", "is not a folder: " + out.string());
  }
  if (out.has_parent_path() && !std::filesystem::is_directory(out.parent_path())) {
    throw ConfigError("--out", "", "folder does not exist: " + out.parent_path().string());
  }
}

/// One scenario per candidate, each checked: the first with problems throws them as a ConfigError.
std::vector<scenario::Scenario> candidate_variants(const scenario::Scenario& scenario,
                                                   const std::vector<advisor::AdviceCandidate>& candidates,
                                                   int max_gpus, const scenario::Catalogs& catalogs) {
  std::vector<scenario::Scenario> variants;
  variants.reserve(candidates.size());
  for (const auto& candidate : candidates) {
    variants.push_back(advisor::candidate_scenario(scenario, candidate, max_gpus));
    if (auto problems = scenario::validate_scenario(variants.back(), catalogs); !problems.empty()) {
      throw ConfigError(std::move(problems));
    }
  }
  return variants;
}

/// Runs the searches of the candidates `which` to the end in one driver run; false when a
/// simulation failed.
bool size_candidates(SizingDriver& driver, std::vector<scenario::SizingSearch>& searches,
                     const std::vector<scenario::Scenario>& variants, const std::vector<std::size_t>& which,
                     AdviceProgress& progress) {
  std::vector<scenario::SizingSearch*> pointers;
  std::vector<SimJob> templates;
  pointers.reserve(which.size());
  templates.reserve(which.size());
  for (std::size_t c : which) {
    pointers.push_back(&searches[c]);
    templates.push_back(SimJob{&variants[c], 0, std::nullopt});
  }
  BatchEvents events;
  events.progress = [&](std::size_t search, double simulated, double horizon) {
    progress.run(which[search], simulated, horizon);
    progress.show(driver.num_simulations());
  };
  const auto round = [&](std::size_t) {
    std::vector<std::size_t> running;
    for (std::size_t c : which) {
      if (searches[c].done()) {
        progress.done(c);
      } else {
        running.push_back(c);
      }
    }
    progress.round(running);
    progress.show(driver.num_simulations());
  };
  const bool ok = driver.run(pointers, templates, round, events);
  if (ok) {
    for (std::size_t c : which) progress.done(c);
    progress.show(driver.num_simulations());
  }
  return ok;
}

/// What the candidates after the baseline are searched against.
struct PruneInputs {
  const scenario::Scenario& scenario;
  const scenario::Catalogs& catalogs;
  const pricing::PriceTable& table;
  const advisor::AdviceSelection& selection;
  double baseline_monthly = 0.0;  ///< 0 (unpriced): nothing is pruned for its cost
  bool no_prune = false;
};

/// The candidates after the baseline worth sizing, in order; each other one gets in `outcomes` the
/// reason it was pruned. Every candidate's outcome gets its lower bound.
std::vector<std::size_t> candidates_to_size(const PruneInputs& in,
                                            const std::vector<advisor::AdviceCandidate>& candidates,
                                            std::vector<advisor::CandidateOutcome>& outcomes) {
  const int max_gpus = in.selection.max_gpus;
  const auto searched = advisor::advice_options(in.scenario, in.selection);
  std::vector<std::size_t> to_size;
  for (std::size_t c = 1; c < candidates.size(); ++c) {
    const int lower = advisor::candidate_lower_bound(in.scenario, candidates[c], in.catalogs);
    outcomes[c].lower_bound_gpus = lower;
    if (lower > max_gpus) {
      outcomes[c].pruned = "needs at least " + scenario::gpus_text(lower) +
                           " (memory, contexts per device), more than " + std::to_string(max_gpus);
      continue;
    }
    const double cheapest =
        advisor::candidate_floor_monthly_usd(in.scenario, candidates[c], in.catalogs, in.table, searched);
    if (!in.no_prune && in.baseline_monthly > 0.0 && cheapest >= in.baseline_monthly) {
      outcomes[c].pruned = "its " + scenario::gpus_text(lower) + " at least (memory, contexts per device) cost $" +
                           report::format_fixed(cheapest, 2) + " per month, no less than the baseline";
      continue;
    }
    to_size.push_back(c);
  }
  return to_size;
}

/// The answer's sized run as a result, for `report` and `export-config`; the baseline's after it
/// (for the savings) unless the answer is the baseline.
scenario::SimResult answer_result(const scenario::Scenario& scenario, const advisor::Advice& advice,
                                  const std::vector<scenario::Scenario>& variants,
                                  const std::vector<advisor::CandidateOutcome>& outcomes,
                                  const calibration::CalibrationProfile& profile) {
  const auto& answer = advice.rows[*advice.answer];
  scenario::SimResult result;
  result.scenario = scenario.name;
  result.input = variants[answer.candidate];
  result.input.pricing.option = answer.option;
  result.seed = scenario.seed;
  result.horizon_s = scenario.horizon_s;
  result.strategies = {*outcomes[answer.candidate].result};
  if (answer.candidate != 0) {
    result.strategies.push_back(*outcomes[0].result);
    // A dedicated answer other than the baseline (other GPUs, pools) needs a name of its own.
    if (result.strategies[0].name == result.strategies[1].name) {
      const std::string name = result.strategies[0].name + "-advised";
      for (auto& spec : result.input.strategies) {
        if (spec.name == result.strategies[0].name) spec.name = name;
      }
      result.strategies[0].name = name;
      result.input.strategies.push_back(variants[0].strategies.front());  // the baseline's
    }
  }
  result.calibration = record_of(profile);
  result.origin = "advise: the cheapest of " + std::to_string(advice.candidates.size()) +
                  " configurations searched (GPU types, strategies and their settings, pools, purchase options), each "
                  "sized for SLA; the baseline is dedicated on the scenario's GPU, sized too";
  return result;
}

/// Writes the advice files and the answer's result into `out`, then the summary and the files
/// written on stdout.
void write_advice(const std::filesystem::path& out, const advisor::Advice& advice, const scenario::SimResult& result,
                  Io io) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"advice.json", advisor::advice_to_json_text(advice)},
      {"advice.md", advisor::advice_markdown(advice)},
      {"candidates.csv", advisor::advice_candidates_csv(advice)},
      {"pareto.csv", advisor::advice_pareto_csv(advice)},
      {"pareto.svg", pareto_svg(advice)},
      {"result.json", scenario::result_to_text(result)}};
  std::vector<OutputFile> outputs;
  outputs.reserve(files.size());
  for (const auto& [name, text] : files) outputs.push_back({out / name, text});
  write_files_atomically(outputs);

  io.out << advisor::advice_summary_text(advice);
  for (const auto& [name, text] : files) io.out << "wrote " << (out / name).string() << "\n";
}

int advise(const AdviseOptions& given, Io io) {
  AdviseOptions options = given;
  if (options.progress == ProgressMode::automatic) {
    options.progress = ::isatty(STDERR_FILENO) ? ProgressMode::bar : ProgressMode::none;
  }
  const std::filesystem::path out = options.out;
  check_out_folder(out);
  const auto scenario = scenario::load_scenario(options.file);
  const auto catalogs = scenario::Catalogs::shipped();
  advisor::AdviceSelection selection;
  selection.kinds = parse_names(options.strategies, models::strategy_kind_table(), "--strategies");
  selection.options = parse_names(options.options, pricing::purchase_option_table(), "--options");
  selection.gpus = options.gpus;
  selection.max_gpus = options.max_gpus;
  const auto table = scenario::resolve_price_table(scenario, catalogs);
  auto candidates = advisor::advice_candidates(scenario, catalogs, table, selection);
  const auto profile = calibration::CalibrationProfile::load_or_shipped(options.calibration);

  AdviceProgress progress(options.progress, io.err, candidates.size());
  SizingDriver driver(calibration::sharing_defaults(profile), options.jobs, io);
  // The baseline first: what a candidate must beat to be worth sizing, and whose tenants' SLA slack
  // sets the per-tenant settings (advisor::with_baseline_settings).
  const auto baseline_variants = candidate_variants(scenario, {candidates.front()}, selection.max_gpus, catalogs);
  std::vector<scenario::SizingSearch> baseline_search;
  baseline_search.emplace_back(baseline_variants[0], 0, selection.max_gpus, catalogs);
  if (!size_candidates(driver, baseline_search, baseline_variants, {0}, progress)) {
    progress.close();
    return 1;
  }
  const auto baseline = baseline_search[0].result();
  candidates = advisor::with_baseline_settings(std::move(candidates), scenario, baseline);
  progress.resize(candidates.size());

  // One scenario per candidate (kept alive: the runs point into them), each checked.
  const auto variants = candidate_variants(scenario, candidates, selection.max_gpus, catalogs);
  std::vector<advisor::CandidateOutcome> outcomes(candidates.size());
  outcomes[0].result = baseline;
  std::vector<scenario::SizingSearch> searches;
  searches.reserve(candidates.size());
  for (std::size_t c = 0; c < candidates.size(); ++c)
    searches.emplace_back(variants[c], 0, selection.max_gpus, catalogs);

  const auto baseline_cost = advisor::price_candidate(variants[0], baseline, table, scenario.pricing.option);
  const double baseline_monthly = baseline_cost ? baseline_cost->monthly_usd : 0.0;  // unpriced: nothing is pruned
  const PruneInputs prune{scenario, catalogs, table, selection, baseline_monthly, options.no_prune};
  const auto to_size = candidates_to_size(prune, candidates, outcomes);
  for (std::size_t c = 1; c < candidates.size(); ++c) {
    if (std::find(to_size.begin(), to_size.end(), c) == to_size.end()) progress.done(c);  // pruned
  }
  progress.show(driver.num_simulations());
  if (!size_candidates(driver, searches, variants, to_size, progress)) {
    progress.close();
    return 1;
  }
  progress.close();
  for (std::size_t c : to_size) outcomes[c].result = searches[c].result();

  auto advice = advisor::build_advice(scenario, table, selection, candidates, outcomes, driver.num_simulations(),
                                      driver.num_reused());
  if (!advice.answer) {
    throw ConfigError("slicewise advise", "", advisor::no_answer_message(advice, scenario, outcomes));
  }
  // With diurnal loads: the answer and the baseline once more per hour of day (an autoscaled fleet).
  const std::size_t chosen = advice.rows[*advice.answer].candidate;
  if (!size_every_hour(variants[chosen], {{0, &*outcomes[chosen].result}}, driver) ||
      (chosen != 0 && !size_every_hour(variants[0], {{0, &*outcomes[0].result}}, driver))) {
    return 1;
  }
  advisor::add_autoscaled(advice, variants[chosen], *outcomes[chosen].result, table);
  InterruptScope::throw_if_received();  // nothing is written once interrupted
  write_advice(out, advice, answer_result(scenario, advice, variants, outcomes, profile), io);
  return 0;
}

}  // namespace

int run_advise(const AdviseOptions& options, Io io) {
  InterruptScope interrupts;
  try {
    return advise(options, io);
  } catch (const Interrupted& e) {  // the children are gone; nothing was written
    io.err << "slicewise advise: " << e.what() << "\n";
    return 128 + e.signal_number();
  }
}

}  // namespace slicewise::cli
