// What each tenant used and holds of a strategy's fleet: chargeback's inputs (tenant_usage.hpp).
#include "report/tenant_usage.hpp"

#include <algorithm>
#include <cctype>

#include "models/mig_catalog.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

namespace {

/// The part of its GPU a device is: 1 for a whole GPU; a MIG instance's compute slices over the
/// GPU's (3g.40gb on an H100: 3/7). A profile the catalog lacks counts by the digits before its "g"
/// over 7, the slices of every 7-slice GPU.
double gpu_fraction(const scenario::DeviceResult& device) {
  if (device.mig_profile.empty()) return 1.0;
  if (const auto* gpu = models::MigCatalog::shipped().find(device.gpu)) {
    if (const auto* profile = gpu->find(device.mig_profile); profile && gpu->compute_slices > 0)
      return static_cast<double>(profile->compute_slices) / gpu->compute_slices;
  }
  int slices = 0;
  for (const char c : device.mig_profile) {
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    slices = slices * 10 + (c - '0');
  }
  return std::clamp(slices / 7.0, 0.0, 1.0);
}

/// What one context of `tenant` holds of a device it shares, relative to the others there, as the
/// strategy's policy says (its thread or core cap, its weight); 1 for every context without a spec.
double context_weight(const scenario::StrategySpec* spec, const std::string& tenant) {
  if (!spec) return 1.0;
  const auto it = spec->tenants.find(tenant);
  const scenario::TenantStrategySettings* own = it == spec->tenants.end() ? nullptr : &it->second;
  return scenario::policy_of(spec->kind).chargeback_weight(*spec, own);
}

/// Adds what each device of `strategy` reserves to its tenants' usage (same order as the strategy's
/// tenants): the device's part of its GPU, split over the contexts on it by their weights, in
/// GPU-equivalents and at `usd_per_gpu_hour` of its GPU model. A device with no context, a MIG slice
/// with no instance and a GPU of an instance that carries no device are reserved for nobody.
void add_reservations(const scenario::StrategyResult& strategy, const scenario::StrategySpec* spec,
                      const std::map<std::string, double>& usd_per_gpu_hour, std::vector<pricing::TenantUsage>& usage) {
  for (const auto& device : strategy.devices) {
    double total_weight = 0.0;
    for (const auto& context : device.contexts)
      total_weight += context_weight(spec, scenario::tenant_of_context(context));
    if (total_weight <= 0.0) continue;
    const auto price = usd_per_gpu_hour.find(device.gpu);
    const double gpu_usd_per_hour = price == usd_per_gpu_hour.end() ? 0.0 : price->second;
    const double fraction = gpu_fraction(device);
    for (const auto& context : device.contexts) {
      const std::string tenant = scenario::tenant_of_context(context);
      const double gpus = fraction * context_weight(spec, tenant) / total_weight;
      for (auto& u : usage) {
        if (u.name != tenant) continue;
        u.reserved_gpus += gpus;
        u.reserved_usd_per_hour += gpus * gpu_usd_per_hour;
      }
    }
  }
}

}  // namespace

std::vector<pricing::TenantUsage> usage_of(const scenario::Scenario& scenario, const scenario::StrategyResult& strategy,
                                           const scenario::StrategySpec* spec,
                                           const std::map<std::string, double>& usd_per_gpu_hour) {
  std::vector<pricing::TenantUsage> out;
  for (const auto& t : strategy.tenants) {
    pricing::TenantUsage u;
    u.name = t.name;
    const auto* tenant = scenario::find_tenant(scenario, t.name);
    u.revenue_bearing = !tenant || scenario::revenue_bearing(*tenant);
    u.gpu_work_s = t.gpu_work_s;
    u.throughput_per_s = t.throughput_per_s;
    // Requests served within the SLA: its violations (late, dropped, unfinished) taken out.
    u.in_sla_per_s = t.throughput_per_s * std::clamp(1.0 - t.sla_violation_frac, 0.0, 1.0);
    u.p95_latency_s = t.latency_s.p95;
    out.push_back(std::move(u));
  }
  add_reservations(strategy, spec, usd_per_gpu_hour, out);
  return out;
}

}  // namespace slicewise::report
