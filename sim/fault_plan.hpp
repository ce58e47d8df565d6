// Faults and MIG re-partitions before the run (docs/faults.md, docs/mig-schedule.md): what each
// fault takes down under a strategy, what the rates make expected per month over a placement, the
// faults of a run (drawn from the rates and scheduled), and the placements and switch times of a
// layout schedule. Pure C++ (no SimGrid), so that it is unit-tested directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/strategy_kind.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"
#include "sim/placed_device.hpp"

namespace slicewise::sim {

/// Hours in the month every monthly figure uses (as pricing does).
inline constexpr double kHoursPerMonth = 730.0;

/// A closed-loop user whose request failed waits this long (besides its think time) before it
/// sends again, as clients back off after an error (docs/faults.md).
inline constexpr double kFailureBackoffS = 1.0;

/// The faults' settings the run uses: the scenario's, or the defaults (no random faults) for a run
/// with a layout schedule only. The GPU failure rate left unset is models::kGpuFailurePerGpuHour.
struct FaultSettings {
  scenario::FaultSpec spec;
  double gpu_failure_per_gpu_hour = 0.0;
  bool any = false;  ///< the scenario gives faults
};
FaultSettings fault_settings(const scenario::Scenario& scenario);

/// How long what a fault of `kind` takes down stays down: a failed GPU is repaired and its contexts
/// restart; a reset GPU likewise; a crashed context restarts.
double outage_s(const scenario::FaultSpec& spec, scenario::FaultKind kind);

/// One phase's placement and its share of the day (1 for a strategy without a schedule).
struct PhasePlacement {
  const Placement* placement = nullptr;
  double day_frac = 1.0;
};

/// The expected faults per month over the strategy's placement(s), their blast radius, and each
/// tenant's interruptions, outage and availability (first order: outages do not overlap). A tenant
/// without a context in any phase has availability 0. Planned re-partitions are not in these
/// figures; the run measures them.
void expected_exposure(const FaultSettings& settings, models::StrategyKind kind,
                       const std::vector<PhasePlacement>& phases, const scenario::Scenario& scenario,
                       scenario::FaultRecord& out);

/// A fault of the run.
struct PlannedFault {
  double at_s = 0.0;
  scenario::FaultKind kind = scenario::FaultKind::gpu_failure;
  std::size_t gpu = 0;     ///< GPU kinds: the GPU
  std::size_t tenant = 0;  ///< tenant_crash
  int replica = 0;         ///< tenant_crash
  bool scheduled = false;
};

/// The run's faults in time order: the schedule's, and (unless `random` is off) Poisson arrivals at
/// each rate over [0, horizon) on each GPU in `gpus` and each (tenant, replica) in `contexts`. Each
/// GPU and context draws from a stream of its own, seeded by the scenario's seed and its identity,
/// so that strategies sharing a GPU index or a context see the same faults there.
std::vector<PlannedFault> plan_faults(const FaultSettings& settings, models::StrategyKind kind,
                                      const scenario::Scenario& scenario, const std::vector<std::size_t>& gpus,
                                      const std::vector<std::pair<std::size_t, int>>& contexts);

/// The scenario and strategy a phase of a layout schedule places: the phase's layout and
/// profiles, its tenants with their contexts, the others with none.
struct PhaseScenario {
  scenario::Scenario scenario;
  scenario::StrategySpec strategy;
};
PhaseScenario phase_scenario(const scenario::Scenario& scenario, const scenario::StrategySpec& strategy,
                             const scenario::LayoutPhase& phase);

/// The phase in force at hour of day `hour` (the last whose from_hour <= hour, else the last).
std::size_t phase_at(const scenario::LayoutSchedule& schedule, double hour);

/// Each phase's share of the day.
std::vector<double> phase_day_fracs(const scenario::LayoutSchedule& schedule);

/// A switch of the layout: at `at_s` the GPUs start re-partitioning to phase `to`.
struct LayoutSwitch {
  double at_s = 0.0;
  std::size_t from = 0;
  std::size_t to = 0;
};
/// The switches in [0, horizon_s), in time order.
std::vector<LayoutSwitch> layout_switches(const scenario::LayoutSchedule& schedule, double horizon_s);

}  // namespace slicewise::sim
