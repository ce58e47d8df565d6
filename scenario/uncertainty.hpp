// `simulate --uncertainty N`: each strategy's figures over N samples of the fitted constants,
// summarised as a median and a 90 % interval.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

/// The q-quantile (linear interpolation between order statistics) of `values`, sorted in place;
/// `values` must not be empty.
double quantile(std::vector<double>& values, double q);

/// Collects, per strategy, what each sample gave; bands() summarises them.
class UncertaintySamples {
 public:
  explicit UncertaintySamples(std::vector<std::string> strategies);

  /// Strategy `i`'s sample: its monthly savings, its SLA violations over arrivals (all tenants),
  /// its GPUs, and whether the nominal fleet met every SLA under this sample's constants.
  void add(std::size_t i, double monthly_savings_usd, const StrategyResult& run, bool nominal_fleet_met_sla);

  /// One band per strategy, in the constructor's order: p05, p50 and p95 of each figure.
  std::vector<UncertaintyBand> bands() const;

 private:
  struct Samples {
    std::vector<double> savings, violations, gpus;
    int nominal_met = 0;
  };
  std::vector<std::string> strategies_;
  std::vector<Samples> samples_;
};

}  // namespace slicewise::scenario
