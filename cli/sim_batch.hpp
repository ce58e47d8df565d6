// Simulations in child processes (SimGrid allows one engine per process): a batch of jobs run N at
// a time, each writing its result to a temporary file that the parent reads back; and the sizing
// driver that advances several SizingSearches in rounds, one batch per round. Shared by
// `simulate`, `sweep` (through simulate) and `advise`.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "models/sharing_defaults.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"
#include "scenario/sizing.hpp"

namespace slicewise::cli {

/// One simulation: a strategy of a scenario, as given or as a sized run.
struct SimJob {
  const scenario::Scenario* scenario = nullptr;
  std::size_t strategy = 0;
  std::optional<scenario::SizedRun> sized;
};

/// What a batch tells its caller while it runs (all optional).
struct BatchEvents {
  /// Job `index` reached `simulated` of `stop` seconds.
  std::function<void(std::size_t index, double simulated, double stop)> progress;
  /// Job `index` ended.
  std::function<void(std::size_t index, bool ok)> done;
};

/// Runs `jobs` in child processes, `max_running` at a time; one StrategyResult per job, in job
/// order, or nullopt when one failed (each distinct message printed once on stderr). Throws
/// Interrupted, every child gone and the temporary folder removed, on SIGINT or SIGTERM.
std::optional<std::vector<scenario::StrategyResult>> run_batch(const std::vector<SimJob>& jobs,
                                                               const models::SharingDefaults& defaults, int max_running,
                                                               const BatchEvents& events, Io io);

/// Runs sizing searches to the end, all of their next runs of a round in one batch; a run asked
/// twice (the same strategy of the same scenario with the same SizedRun) is simulated once.
class SizingDriver {
 public:
  SizingDriver(const models::SharingDefaults& defaults, int max_running, Io io)
      : defaults_(defaults), max_running_(max_running), io_(io) {}

  /// Runs every search until done; false when a simulation failed. `round` (optional) is told
  /// each round's number of runs before they start; `events` as run_batch's, by search index.
  bool run(std::vector<scenario::SizingSearch*>& searches, const std::vector<SimJob>& of_search,
           const std::function<void(std::size_t num_runs)>& round = {}, const BatchEvents& events = {});

  /// Simulations run so far (not counting those found in the memo).
  int num_simulations() const { return num_simulations_; }
  /// Runs asked for again and taken from the memo.
  int num_reused() const { return num_reused_; }

 private:
  /// What one round asks for: the searches that need a run, each with its run's memo key, and the
  /// runs not in the memo (each once, with its memo key and the first search that asked for it).
  struct RoundRuns {
    std::vector<std::pair<std::size_t, std::string>> asking;  ///< (search, memo key)
    std::vector<SimJob> jobs;
    std::vector<std::string> keys;
    std::vector<std::size_t> search_of_job;
  };
  static std::string key(const SimJob& job);
  RoundRuns next_round(const std::vector<scenario::SizingSearch*>& searches,
                       const std::vector<SimJob>& of_search) const;
  /// Simulates the round's runs into the memo; false when one failed.
  bool simulate(const RoundRuns& runs, const BatchEvents& events);
  models::SharingDefaults defaults_;
  int max_running_;
  Io io_;
  std::map<std::string, scenario::StrategyResult> memo_;
  int num_simulations_ = 0;
  int num_reused_ = 0;
};

/// An autoscaled fleet: sizes each strategy of `sized` (its index in the scenario, its result sized
/// at the peaks) once per group of hours of day of the scenario's diurnal loads
/// (scenario::hour_groups), each search at most the peak's GPUs, and fills the result's
/// sizing.hourly (an hour whose search found no fleet keeps the peak's, marked infeasible). Does
/// nothing without diurnal loads or for a result whose peak sizing missed. false when a simulation
/// failed.
bool size_every_hour(const scenario::Scenario& scenario,
                     const std::vector<std::pair<std::size_t, scenario::StrategyResult*>>& sized, SizingDriver& driver);

}  // namespace slicewise::cli
