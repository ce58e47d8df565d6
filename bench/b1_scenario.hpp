// B1's scenario, shared by the engine bench (B1) and the requests axis of the scale bench (B3):
// 16 tenants on 8 A100-80GB under MPS (2 per GPU), Poisson arrivals at 6.25 requests/s each,
// generic requests of 0.1 s solo time, duty 0.8, SM and bandwidth 0.3, max_concurrency 4.
#pragma once

#include <string>

#include "scenario/scenario.hpp"

namespace slicewise::bench {

constexpr int kTenants = 16;
constexpr int kGpus = 8;
constexpr double kRatePerTenant = 6.25;  // 100 requests/s in all
constexpr double kSoloS = 0.1;

/// B1 over `horizon_s` seconds: about horizon_s × 100 requests.
inline scenario::Scenario make_b1(double horizon_s) {
  scenario::Scenario s;
  s.name = "B1";
  s.seed = 1;
  s.horizon_s = horizon_s;
  s.metrics_interval_s = horizon_s / 100.0;
  s.fleet.push_back({"A100-80GB", "", kGpus, {}});
  for (int t = 0; t < kTenants; ++t) {
    scenario::Tenant tenant;
    tenant.name = "tenant" + std::to_string(t);
    tenant.workload.solo_latency_s = kSoloS;
    tenant.workload.gpu_duty_frac = 0.8;
    tenant.workload.sm_occupancy_frac = 0.3;
    tenant.workload.mem_bw_frac = 0.3;
    tenant.workload.memory_gib = 8.0;
    tenant.workload.max_concurrency = 4;
    tenant.load.kind = scenario::LoadKind::poisson;
    tenant.load.rate_per_s = kRatePerTenant;
    s.tenants.push_back(tenant);
  }
  scenario::StrategySpec mps;
  mps.kind = models::StrategyKind::mps;
  mps.name = "mps";
  mps.replicas = kTenants / kGpus;
  s.strategies.push_back(mps);
  return s;
}

}  // namespace slicewise::bench
