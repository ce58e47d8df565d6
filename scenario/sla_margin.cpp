// A run's margin against its tenants' SLAs (sizing.hpp): each tenant's figure at the quantile its
// SLA allows against its target, the tenant nearest its SLA, and a shortfall in words. The search
// that sizes a fleet on them is sizing.cpp's.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "scenario/sizing.hpp"

namespace slicewise::scenario {

namespace {

/// Linear interpolation of a quantile curve given at increasing `levels`.
double interpolate(const std::vector<std::pair<double, double>>& points, double level) {
  if (points.empty()) return 0.0;
  if (level <= points.front().first) return points.front().second;
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (level <= points[i].first) {
      const auto& [l0, v0] = points[i - 1];
      const auto& [l1, v1] = points[i];
      return v0 + (v1 - v0) * (level - l0) / (l1 - l0);
    }
  }
  return points.back().second;
}

std::vector<std::pair<double, double>> quantiles_of(const Distribution& d) {
  return {{0.5, d.p50}, {0.9, d.p90}, {0.95, d.p95}, {0.99, d.p99}, {1.0, d.max}};
}

/// "42 ms" below a second, "1.25 s" above.
std::string duration(double seconds) {
  char text[48];
  if (std::abs(seconds) < 1.0) {
    std::snprintf(text, sizeof text, "%.3g ms", 1000.0 * seconds);
  } else {
    std::snprintf(text, sizeof text, "%.3g s", seconds);
  }
  return text;
}

std::string percent(double frac) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %%", 100.0 * frac);
  return text;
}

}  // namespace

SlaMargin sla_margin(const Tenant& tenant, const TenantResult& result) {
  const double level = 1.0 - result.sla_max_violation_frac;
  std::optional<SlaMargin> worst;
  auto consider = [&](const char* metric, std::optional<double> target, double value, bool measured) {
    if (!target) return;
    SlaMargin m{metric, level, value, *target, measured ? (*target - value) / *target : -1.0};
    if (!worst || m.relative < worst->relative) worst = m;
  };
  std::vector<std::pair<double, double>> cdf;
  for (std::size_t i = 0; i < result.latency_cdf_s.size() && i < kLatencyCdfLevels.size(); ++i) {
    cdf.emplace_back(kLatencyCdfLevels[i], result.latency_cdf_s[i]);
  }
  if (!cdf.empty()) cdf.emplace_back(1.0, result.latency_s.max);
  consider("latency", tenant.sla.latency_s, interpolate(cdf, level), !cdf.empty());
  consider("TTFT", tenant.sla.ttft_s, interpolate(quantiles_of(result.ttft_s), level), result.ttft_s.count > 0);
  consider("TPOT", tenant.sla.tpot_s, interpolate(quantiles_of(result.tpot_s), level), result.tpot_s.count > 0);
  SlaMargin margin = worst.value_or(SlaMargin{"", level, 0.0, 0.0, 1.0});
  // Dropped and unfinished requests violate too: a tenant that missed with its quantile in time
  // missed by its violation fraction.
  if (!result.sla_met && margin.relative >= 0.0) {
    margin.relative = std::min(-1e-9, result.sla_max_violation_frac - result.sla_violation_frac);
  }
  return margin;
}

WorstTenant worst_tenant(const Scenario& scenario, const StrategyResult& result) {
  WorstTenant worst;
  for (const auto& tr : result.tenants) {
    const Tenant* tenant = find_tenant(scenario, tr.name);
    if (!tenant) continue;
    const double margin = tr.num_contexts_unplaced > 0 ? -1.0 : sla_margin(*tenant, tr).relative;
    if (margin < worst.margin) worst = {tr.name, margin};
  }
  return worst;
}

std::string worst_shortfall(const Scenario& scenario, const StrategyResult& result) {
  const Tenant* worst = nullptr;
  const TenantResult* worst_result = nullptr;
  double worst_margin = 2.0;
  for (const auto& tr : result.tenants) {
    if (tr.sla_met && tr.num_contexts_unplaced == 0) continue;
    const Tenant* tenant = find_tenant(scenario, tr.name);
    if (!tenant) continue;
    const double margin = tr.num_contexts_unplaced > 0 ? -2.0 : sla_margin(*tenant, tr).relative;
    if (margin < worst_margin) {
      worst_margin = margin;
      worst = tenant;
      worst_result = &tr;
    }
  }
  return worst ? sla_shortfall(*worst, *worst_result) : "";
}

std::string sla_shortfall(const Tenant& tenant, const TenantResult& result) {
  if (result.num_contexts_unplaced > 0) {
    return tenant.name + ": " + std::to_string(result.num_contexts_unplaced) + " of its " +
           std::to_string(result.num_contexts + result.num_contexts_unplaced) + " contexts could not be placed";
  }
  const SlaMargin m = sla_margin(tenant, result);
  const std::string share =
      percent(result.sla_violation_frac) + " of requests over, " + percent(result.sla_max_violation_frac) + " allowed";
  if (m.metric.empty() || m.value_s <= m.target_s) {
    return tenant.name + ": " + share + " (dropped or unfinished)";
  }
  char level[16];
  std::snprintf(level, sizeof level, "p%.4g", 100.0 * m.level);
  return tenant.name + ": " + level + " " + m.metric + " " + duration(m.value_s) + " against its " +
         duration(m.target_s) + " target (misses by " + duration(m.value_s - m.target_s) + "; " + share + ")";
}

bool meets_every_sla(const StrategyResult& result) {
  return std::all_of(result.tenants.begin(), result.tenants.end(),
                     [](const TenantResult& t) { return t.sla_met && t.num_contexts_unplaced == 0; }) &&
         std::none_of(result.devices.begin(), result.devices.end(), [](const DeviceResult& d) { return d.oom_risk; });
}

}  // namespace slicewise::scenario
