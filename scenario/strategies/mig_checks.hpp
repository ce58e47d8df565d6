// The checks mig and mig_time_slicing share: a layout, a MIG-capable fleet, a layout valid on every
// fleet GPU, per-tenant profiles that are instances of it, tenants that fit their instances.
#pragma once

#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

void check_mig_layout(const StrategySpec& spec, const StrategyCheck& check);

}  // namespace slicewise::scenario
