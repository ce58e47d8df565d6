// What a run places (engine.cpp): a sized run's scenario, and the strategy's placement or, with a
// layout schedule, every phase's devices together. Internal to sw_sim.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"
#include "sim/placed_device.hpp"
#include "sim/simulation.hpp"

namespace slicewise::sim {

/// The placement a run simulates: the strategy's, or with a layout schedule every phase's devices
/// together (named "device:phase"), each phase's contexts down while another is in force.
struct PlacedRun {
  Placement placement;
  std::vector<Placement> phases;         ///< per phase of a schedule; empty without one
  std::vector<double> day_fracs;         ///< per phase, its share of the day
  std::vector<int> phase_of_device;      ///< per device of `placement`; -1 without a schedule
  std::vector<std::string> phase_names;  ///< empty without a schedule
};

/// The placement of `strategy` on `fleet` (balanced by `balance_loads` when given): the strategy's,
/// or its layout schedule's phases. ConfigError for a sized run with a schedule.
PlacedRun place_run(const scenario::Scenario& scenario, const scenario::StrategySpec& strategy,
                    const std::vector<FleetGpu>& fleet, const scenario::Catalogs& catalogs, const RunOptions& options,
                    const std::vector<double>& balance_loads);

/// A scheduled strategy's tenants: their contexts are those of the phase that has the most.
void count_phase_contexts(const PlacedRun& placed, scenario::StrategyResult& out);

/// A sized run's scenario: the search's contexts on its fleet's GPUs (sets `balance_loads` when
/// the search balances); none when the run is as the scenario says.
std::optional<scenario::Scenario> sized_run_scenario(const scenario::Scenario& scenario, const RunOptions& options,
                                                     const scenario::Catalogs& catalogs,
                                                     std::vector<double>& balance_loads);

}  // namespace slicewise::sim
