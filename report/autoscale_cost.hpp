// The money of a fleet scaled by the hour of day (docs/roi.md, "Autoscaled by hour of day"): each
// hour's sized fleet (SizingRecord::hourly) at its price, and the lead time a scale-up pays for.
#pragma once

#include <optional>
#include <string>

#include "pricing/price_table.hpp"
#include "pricing/roi.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// Seconds from asking for a GPU to its contexts serving: instance_ready_s() with the shipped
/// assumption of data/spot_interruptions.json (replacement_s).
double scale_up_s(const scenario::Scenario& scenario);

/// The autoscaled fleet of `strategy` (sized for every hour: sizing.hourly) under `option`: per
/// hour, its shared GPUs and pools on their instances, its licence and sidecars; GPUs added for
/// an hour paid from scale_up_s() before it. nullopt without hourly fleets, and under reserved
/// options (a reservation is paid every hour: scaling down saves nothing).
std::optional<pricing::AutoscaledCost> autoscaled_cost(const scenario::StrategyResult& strategy,
                                                       const scenario::Scenario& scenario,
                                                       const pricing::PriceTable& table, pricing::PurchaseOption option,
                                                       double peak_monthly_usd);

/// The note a reader of the autoscaled figure must see: GPUs by hour, its cost against the peak
/// fleet all day, the smallest fleet and the scale-up lead.
std::string autoscaled_note(const pricing::AutoscaledCost& cost);

}  // namespace slicewise::report
