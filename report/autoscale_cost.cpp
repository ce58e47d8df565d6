// Autoscaled fleet money.
#include "report/autoscale_cost.hpp"

#include <algorithm>
#include <map>

#include "core/units.hpp"
#include "pricing/spot_interruptions.hpp"
#include "report/cost_lines.hpp"
#include "report/spot_exposure.hpp"
#include "report/text_table.hpp"
#include "scenario/sizing.hpp"

namespace slicewise::report {

double scale_up_s(const scenario::Scenario& scenario) {
  return instance_ready_s(scenario, pricing::shipped_spot_interruptions());
}

namespace {

constexpr int kHoursPerDay = 24;

/// What one hour's fleet costs an hour: its pools and shared GPUs on their instances, the
/// strategy's licence on the shared GPUs, its sidecars.
double hour_usd(const scenario::HourFleet& hour, const scenario::StrategyResult& strategy,
                const scenario::StrategySpec* spec, const scenario::Scenario& scenario,
                const pricing::PriceTable& table, pricing::PurchaseOption option) {
  // The peak's fleet says which GPU model is shared and how wide each part's groups are.
  const auto parts = fleet_parts(strategy);
  auto width = [&](bool reserved, const std::string& gpu) {
    const auto it = parts.find({reserved, gpu});
    return it == parts.end() ? 1 : it->second.widest;
  };
  const auto shared_part = std::find_if(parts.begin(), parts.end(), [](const auto& p) { return !p.first.first; });
  const std::string shared = shared_part == parts.end() ? std::string() : shared_part->first.second;
  auto usd_of = [](const pricing::CostLine& line) { return line.usd_per_hour_each * line.count; };
  int pooled = 0;
  double usd = 0.0;
  for (const auto& pool : hour.pools) {
    pooled += pool.count;
    if (pool.count > 0)
      usd += usd_of(gpu_line(scenario, table, option, pool.gpu, pool.count, width(true, pool.gpu), true));
  }
  const int shared_gpus = hour.num_gpus - pooled;
  if (shared_gpus > 0 && !shared.empty()) {
    usd += usd_of(gpu_line(scenario, table, option, shared, shared_gpus, width(false, shared), false));
  }
  if (!spec) return usd;
  if (const auto licence = licence_line(*spec, std::max(0, shared_gpus))) usd += usd_of(*licence);
  for (const auto& sidecar : spec->sidecars) usd += usd_of(sidecar_line(scenario, table, option, sidecar));
  return usd;
}

}  // namespace

std::optional<pricing::AutoscaledCost> autoscaled_cost(const scenario::StrategyResult& strategy,
                                                       const scenario::Scenario& scenario,
                                                       const pricing::PriceTable& table, pricing::PurchaseOption option,
                                                       double peak_monthly_usd) {
  if (!strategy.sizing || strategy.sizing->hourly.size() != kHoursPerDay) return std::nullopt;
  if (option == pricing::PurchaseOption::reserved_1y || option == pricing::PurchaseOption::reserved_3y) {
    return std::nullopt;
  }
  const scenario::StrategySpec* spec = scenario::find_strategy(scenario, strategy.name);
  pricing::AutoscaledCost out;
  out.scale_up_s = scale_up_s(scenario);
  out.peak_monthly_usd = peak_monthly_usd;
  for (const auto& hour : strategy.sizing->hourly) {
    out.gpus_by_hour.push_back(hour.num_gpus);
    out.usd_per_hour_by_hour.push_back(hour_usd(hour, strategy, spec, scenario, table, option));
  }
  out.min_gpus = *std::min_element(out.gpus_by_hour.begin(), out.gpus_by_hour.end());
  out.max_gpus = *std::max_element(out.gpus_by_hour.begin(), out.gpus_by_hour.end());
  double daily = 0.0;
  double lead = 0.0;
  for (int h = 0; h < kHoursPerDay; ++h) {
    const double now = out.usd_per_hour_by_hour[static_cast<std::size_t>(h)];
    const double before = out.usd_per_hour_by_hour[static_cast<std::size_t>((h + kHoursPerDay - 1) % kHoursPerDay)];
    daily += now;
    lead += std::max(0.0, now - before) * out.scale_up_s / kSecondsPerHour;
  }
  const double days_per_month = kHoursPerMonth / kHoursPerDay;
  out.scale_up_usd = lead * days_per_month;
  out.monthly_usd = (daily + lead) * days_per_month;
  return out;
}

std::string autoscaled_note(const pricing::AutoscaledCost& cost) {
  std::string by_hour;
  for (const int g : cost.gpus_by_hour) by_hour += (by_hour.empty() ? "" : " ") + std::to_string(g);
  const double saved = cost.peak_monthly_usd - cost.monthly_usd;
  return "autoscaled by hour of day (GPUs from 00:00: " + by_hour + "), $" + format_fixed(cost.monthly_usd, 2) +
         " a month against $" + format_fixed(cost.peak_monthly_usd, 2) + " for the peak's fleet all day (" +
         format_percent(cost.peak_monthly_usd > 0.0 ? saved / cost.peak_monthly_usd : 0.0) +
         " less); it never goes below " + scenario::gpus_text(cost.min_gpus) +
         " (the quietest hour's fleet), and the GPUs added for an hour are paid from " +
         format_fixed(cost.scale_up_s, 0) + " s before it (a new instance and the model's load: $" +
         format_fixed(cost.scale_up_usd, 2) + " a month)";
}

}  // namespace slicewise::report
