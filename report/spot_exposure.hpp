// Spot interruptions priced into a strategy's fleet (docs/roi.md, "Spot interruptions"): which
// instances carry which contexts, what the published rates make expected per month for each
// tenant, and the spot/on-demand mix that keeps every revenue-bearing tenant serving.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pricing/roi.hpp"
#include "pricing/spot_interruptions.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// GPUs of a strategy bought as instances of one type (one cost line): its GPUs in use, in index
/// order, fill the instances in turn.
struct InstanceGroup {
  std::string instance_type;
  std::string gpu;  ///< catalog id
  int gpus_per_instance = 1;
  std::vector<int> gpus;           ///< indices of the strategy's GPUs, ascending
  double spot_usd_per_hour = 0.0;  ///< one instance
  std::optional<double> on_demand_usd_per_hour;
};

/// Seconds from asking for a new GPU instance to its contexts serving: the instance ready as a node
/// (`rates`' replacement_s) and the model's load (faults.context_restart_s, or its default).
double instance_ready_s(const scenario::Scenario& scenario, const pricing::SpotInterruptionTable& rates);

/// The exposure of `strategy`'s tenants to interruptions of its instances (`groups`), bought on
/// spot from the price table named `table`; `monthly_usd` is the strategy's cost on spot, to which
/// the mix adds the on-demand premium of the instances it keeps. First order, as the faults'
/// expected figures: interruptions do not overlap, and a tenant is down while every one of its
/// contexts is on an interrupted instance.
pricing::SpotExposure spot_exposure(const scenario::StrategyResult& strategy, const scenario::Scenario& scenario,
                                    const std::vector<InstanceGroup>& groups, const std::string& table,
                                    double monthly_usd, const pricing::SpotInterruptionTable& rates);

/// What a reader of a spot price must see, in one paragraph: the interruptions expected, what each
/// costs the worst-placed tenant, and the mix's price and what it protects.
std::string spot_note(const pricing::SpotExposure& exposure);

}  // namespace slicewise::report
