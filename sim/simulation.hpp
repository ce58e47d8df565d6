// The one entry point of the simulator (docs/architecture.md): run one strategy of a scenario on SimGrid.
// No printing, no exit(). One simulation per process: SimGrid allows one Engine per process, so
// callers that run several strategies do so in child processes (cli/ forks one per strategy).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"
#include "scenario/sizing.hpp"
#include "scenario/validate.hpp"
#include "sim/placement.hpp"

namespace slicewise::sim {

/// The default bound on a run's requests in the system: 16 million, about 2.4 GB.
inline constexpr std::int64_t kMaxRequestsInSystem = 16'000'000;

struct RunOptions {
  int strategy_index = 0;  ///< which of Scenario::strategies to run
  /// The run stops at horizon × drain_factor; requests still in the system then are unfinished.
  double drain_factor = 2.0;
  models::SharingDefaults defaults;  ///< sharing constants where the scenario leaves them unset
  /// Called about every `progress_interval_s` of simulated time with (simulated_s, horizon_s), the
  /// simulated time capped at the horizon (the drain after it counts as the last step), and once at
  /// the end with (horizon_s, horizon_s).
  std::function<void(double, double)> progress;
  double progress_interval_s = 0.0;  ///< 0 = horizon / 100
  /// A run of sizing for SLA (scenario/sizing.hpp): the fleet is `num_gpus` GPUs of the
  /// scenario's fleet type and each tenant has `contexts` contexts; absent = as the scenario says.
  std::optional<scenario::SizedRun> sized;
  /// Requests a run may hold at once (waiting and in service, about 150 B each); beyond it the
  /// run fails with a ConfigError that names the tenant (docs/overload.md).
  std::int64_t max_requests_in_system = kMaxRequestsInSystem;
};

/// Runs one strategy; the result holds exactly one StrategyResult. The scenario must have passed
/// validate_scenario. Throws ConfigError for problems only the run finds (e.g. an LLM reference
/// GPU without TFLOPS). Must be called at most once per process.
scenario::SimResult run_simulation(const scenario::Scenario& scenario, const RunOptions& options);

/// The scenario's fleet as one entry per physical GPU (instance entries expanded), in order.
std::vector<FleetGpu> expand_fleet(const scenario::Scenario& scenario, const scenario::Catalogs& catalogs);

}  // namespace slicewise::sim
