// What mig and mig_time_slicing share. The checks: a layout or a layout schedule (not both), a
// MIG-capable fleet, each layout valid on every fleet GPU, per-tenant profiles that are instances of
// it, tenants that fit their instances; for a schedule also its phases' order, names and tenants,
// and a clock that agrees with the tenants' diurnal loads.
#pragma once

#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

void check_mig_layout(const StrategySpec& spec, const StrategyCheck& check);

/// Why a per-tenant key cannot apply to a MIG strategy: `mig_profile` next to a layout schedule,
/// whose phases give each tenant its profile; "" when it can.
std::string mig_tenant_key_problem(const StrategySpec& spec, const std::string& key);

/// "MIG 3g.40gb+3g.40gb" (`mechanism` and the layout, the layouts the GPUs take in turn, or "on a
/// layout schedule"): the configuration() of both MIG kinds.
std::string mig_configuration(const std::string& mechanism, const StrategySpec& spec);

/// The layouts worth sizing in `slicewise advise` (mig_advice.cpp): every valid maximal layout, and
/// two layouts the GPUs take in turn where the layout of the most instances cannot hold the largest
/// tenant that shares. None on a GPU without MIG.
std::vector<AdvisorSetting> mig_advisor_settings(models::StrategyKind kind, const AdvisorGpu& gpu);

}  // namespace slicewise::scenario
