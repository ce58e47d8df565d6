// Uncertainty bands of a strategy's figures.
#include "scenario/uncertainty.hpp"

#include <algorithm>

namespace slicewise::scenario {

double quantile(std::vector<double>& values, double q) {
  std::sort(values.begin(), values.end());
  const double at = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (at - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

UncertaintySamples::UncertaintySamples(std::vector<std::string> strategies)
    : strategies_(std::move(strategies)), samples_(strategies_.size()) {}

void UncertaintySamples::add(std::size_t i, double monthly_savings_usd, const StrategyResult& run,
                             bool nominal_fleet_met_sla) {
  auto& samples = samples_[i];
  samples.savings.push_back(monthly_savings_usd);
  samples.gpus.push_back(run.num_gpus_used);
  double violated = 0.0, arrived = 0.0;
  for (const auto& tenant : run.tenants) {
    violated += static_cast<double>(tenant.sla_violations);
    arrived += static_cast<double>(tenant.num_arrived);
  }
  samples.violations.push_back(arrived > 0.0 ? violated / arrived : 0.0);
  samples.nominal_met += nominal_fleet_met_sla ? 1 : 0;
}

std::vector<UncertaintyBand> UncertaintySamples::bands() const {
  std::vector<UncertaintyBand> bands;
  for (std::size_t i = 0; i < strategies_.size(); ++i) {
    auto samples = samples_[i];  // quantile sorts
    const std::size_t n = samples.savings.size();
    UncertaintyBand band;
    band.strategy = strategies_[i];
    band.num_samples = static_cast<int>(n);
    if (n > 0) {
      band.monthly_savings_p05_usd = quantile(samples.savings, 0.05);
      band.monthly_savings_p50_usd = quantile(samples.savings, 0.5);
      band.monthly_savings_p95_usd = quantile(samples.savings, 0.95);
      band.sla_violation_p05_frac = quantile(samples.violations, 0.05);
      band.sla_violation_p50_frac = quantile(samples.violations, 0.5);
      band.sla_violation_p95_frac = quantile(samples.violations, 0.95);
      band.num_gpus_p05 = quantile(samples.gpus, 0.05);
      band.num_gpus_p50 = quantile(samples.gpus, 0.5);
      band.num_gpus_p95 = quantile(samples.gpus, 0.95);
      band.fleet_meets_sla_frac = static_cast<double>(samples.nominal_met) / static_cast<double>(n);
    }
    bands.push_back(band);
  }
  return bands;
}

}  // namespace slicewise::scenario
