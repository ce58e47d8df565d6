// Pools of whole GPUs for the tenants that cannot share a candidate's devices (pools.hpp).
#include "advisor/pools.hpp"

#include <algorithm>

#include "core/units.hpp"
#include "pricing/roi.hpp"
#include "scenario/llm_serving.hpp"

namespace slicewise::advisor {

double cheapest_monthly_usd(const pricing::PriceTable& table, const std::string& gpu, int num_gpus,
                            const std::vector<pricing::PurchaseOption>& options, const std::string& region,
                            int node_gpus) {
  double cheapest = -1.0;
  for (const auto option : options) {
    if (const auto line = pricing::cheapest_gpu_instances(table, gpu, num_gpus, option, region, {}, node_gpus)) {
      const double monthly = line->count * line->usd_per_hour_each * kHoursPerMonth;
      if (cheapest < 0.0 || monthly < cheapest) cheapest = monthly;
    }
  }
  return cheapest;
}

std::optional<int> gpus_that_hold(const scenario::Tenant& t, const models::GpuSpec& gpu) {
  const auto& w = t.workload;
  if (w.kind != scenario::WorkloadKind::llm || !w.engine) {
    if (scenario::memory_need_gib(w) > gpu.memory_gib) return std::nullopt;
    return 1;
  }
  if (scenario::engine_on_device(w, gpu.id, gpu.memory_gib).problem.empty()) return w.engine->tensor_parallel;
  const auto tp = scenario::smallest_tensor_parallel(w, gpu.id, gpu.memory_gib);
  if (tp && gpu.interconnect_gbps <= 0.0) return std::nullopt;
  return tp;
}

double PoolMarket::monthly(const std::string& gpu, int n) const {
  return cheapest_monthly_usd(table, gpu, n, options, region, n);
}

std::optional<PoolHome> PoolMarket::on(const scenario::Tenant& t, const std::string& gpu) const {
  const auto* spec = catalogs.gpus->find(gpu);
  const auto n = spec ? gpus_that_hold(t, *spec) : std::nullopt;
  if (!n) return std::nullopt;
  return PoolHome{gpu, *n, monthly(gpu, *n)};
}

std::optional<PoolHome> PoolMarket::cheapest(const scenario::Tenant& t) const {
  std::optional<PoolHome> best;
  for (const auto& gpu : gpus) {
    const auto home = on(t, gpu);
    if (home && home->monthly_usd >= 0.0 && (!best || home->monthly_usd < best->monthly_usd)) best = home;
  }
  return best;
}

int pool_gpus_of(const scenario::Tenant& t, const AdviceCandidate& c) {
  const auto it = c.tensor_parallel.find(t.name);
  return it != c.tensor_parallel.end() ? it->second : scenario::tensor_parallel_of(t.workload);
}

void add_to_plan(PoolPlan& plan, const scenario::Tenant& t, const PoolHome& home) {
  plan.pools[t.name] = home.gpu;
  if (home.tensor_parallel != scenario::tensor_parallel_of(t.workload)) {
    plan.tensor_parallel[t.name] = home.tensor_parallel;
  }
  plan.label += std::string(plan.label.empty() ? "; pools: " : ", ") + t.name + " on " +
                std::to_string(home.tensor_parallel) + " " + home.gpu;
}

AdviceCandidate with_plan(AdviceCandidate c, const PoolPlan& plan) {
  c.pools = plan.pools;
  c.tensor_parallel = plan.tensor_parallel;
  c.label += plan.label;
  return c;
}

namespace {

/// The tenants of `s` that cannot share a device of `device_gib`: a model over several GPUs, or
/// more memory than the device has. (A pool the scenario reserves is how it runs today, not a
/// constraint on the search.)
std::vector<const scenario::Tenant*> needing_pools(const scenario::Scenario& s, double device_gib) {
  std::vector<const scenario::Tenant*> out;
  for (const auto& t : s.tenants) {
    if (scenario::tensor_parallel_of(t.workload) > 1 || scenario::memory_need_gib(t.workload) > device_gib + 1e-9) {
      out.push_back(&t);
    }
  }
  return out;
}

}  // namespace

std::vector<PoolPlan> pool_plans(const scenario::Scenario& s, const PoolMarket& market, const std::string& gpu,
                                 double device_gib, bool all_pooled, double least_pooled_gib) {
  const auto needing = needing_pools(s, device_gib);
  if (!all_pooled && needing.size() == s.tenants.size()) return {};
  for (const auto* t : needing) {
    const double need = scenario::memory_need_gib(t->workload);
    if (scenario::tensor_parallel_of(t->workload) == 1 && need > device_gib && need <= least_pooled_gib) return {};
  }
  PoolPlan same, cheap;
  for (const auto* t : needing) {
    const auto here = market.on(*t, gpu);
    const auto cheapest = market.cheapest(*t);
    if (!here && !cheapest) return {};
    add_to_plan(same, *t, here ? *here : *cheapest);
    add_to_plan(cheap, *t, cheapest ? *cheapest : *here);
  }
  if (same == cheap) return {same};
  return {same, cheap};
}

}  // namespace slicewise::advisor
