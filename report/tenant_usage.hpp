// What each tenant of a simulated strategy used (GPU work, throughput, requests within its SLA,
// latency) and what it holds of the fleet (its devices' parts of their GPUs, split over the contexts
// on each by the weight the strategy's policy gives them, at its GPUs' price): what
// pricing::chargeback splits a strategy's monthly cost by (docs/roi.md "Chargeback").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "pricing/roi.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// Per tenant of `strategy`, what it used and what it holds (`usd_per_gpu_hour`: by GPU model, the
/// price of one GPU of the instances that carry it; empty for what the baseline needs: latency).
std::vector<pricing::TenantUsage> usage_of(const scenario::Scenario& scenario, const scenario::StrategyResult& strategy,
                                           const scenario::StrategySpec* spec = nullptr,
                                           const std::map<std::string, double>& usd_per_gpu_hour = {});

}  // namespace slicewise::report
