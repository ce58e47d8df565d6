// Placement: which contexts run on which device under one strategy, and how that device shares
// itself (the devices and contexts it gives are placed_device.hpp's). Pure C++ (no SimGrid), so it
// is unit-tested directly.
#pragma once

#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "models/sharing_defaults.hpp"
#include "scenario/scenario.hpp"
#include "sim/placed_device.hpp"

namespace slicewise::sim {

/// Places every context of `scenario` under `strategy` on the scenario's fleet (expanded to GPUs:
/// instance entries give count × GPUs per instance). Unplaceable contexts are counted and explained
/// in `issues`, never dropped silently. The scenario must have passed validate_scenario. A tenant
/// of a reserved pool gets whole GPUs of its pool, one context (or tensor-parallel group) each, as
/// under dedicated; the strategy shares and partitions only the other GPUs.
///
/// With `balance_loads` (one context's load per tenant, as sizing measured it) the strategy's
/// pack/spread gives way to balancing: contexts, heaviest first, each go to the device with the
/// least load per SM where they fit, so that every GPU of the fleet is used (sizing's step 2).
Placement place_contexts(const scenario::Scenario& scenario, const scenario::StrategySpec& strategy,
                         const std::vector<FleetGpu>& fleet, const models::GpuCatalog& gpus,
                         const models::MigCatalog& mig, const models::SharingDefaults& defaults = {},
                         const std::vector<double>* balance_loads = nullptr);

}  // namespace slicewise::sim
