// The energy of a strategy's run (docs/energy.md), computed after the run from what the result
// already keeps: each used GPU's mean SM utilisation on its linear power curve
// (models/power_model.hpp), over the run's horizon. For a linear curve the mean power is the power
// at the mean utilisation, so the utilisation integral the run keeps gives the energy exactly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/gpu_catalog.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

/// Per physical GPU of `strategy` that carries a device, in gpu_index order: its id and its SM
/// utilisation, Σ over its devices of gpu_share × sm_util_frac (a MIG GPU's instances by their
/// share of its SMs; SMs MIG leaves unused, and slices with no instance, count as idle), clamped
/// to [0, 1].
struct GpuUtilisation {
  int gpu_index = 0;
  std::string gpu;
  double util_frac = 0.0;
};
std::vector<GpuUtilisation> gpu_utilisation(const StrategyResult& strategy);

/// The energy of `strategy` over `horizon_s`: every used GPU on its catalog power curve at its
/// utilisation; `fleet_gpu_ids` (the strategy's whole fleet by gpu_index, as simulated; may be
/// empty when unknown) gives the GPUs left unused, counted apart at their idle power. nullopt when
/// a used or unused GPU has no power curve (no TDP in `catalog`).
std::optional<EnergyRecord> strategy_energy(const StrategyResult& strategy,
                                            const std::vector<std::string>& fleet_gpu_ids, double horizon_s,
                                            const models::GpuCatalog& catalog);

/// The result's energy of strategy `index`: the one it carries, else computed from its devices
/// (a result written before energy was modelled; its unused GPUs are not known and count 0).
std::optional<EnergyRecord> energy_of(const SimResult& result, std::size_t index);

/// The GPU ids of `strategy` without a power curve in `catalog` (no TDP), each once: why its
/// energy is absent. Empty when every GPU it used has one.
std::vector<std::string> gpus_without_power(const StrategyResult& strategy, const models::GpuCatalog& catalog);

}  // namespace slicewise::scenario
