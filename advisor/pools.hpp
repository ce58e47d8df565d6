// What the advisor's files share: pools of whole GPUs for the tenants that cannot share a
// candidate's devices (the GPU types that hold each tenant and their prices), and the advisor's
// small helpers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "advisor/advice.hpp"
#include "models/gpu_catalog.hpp"
#include "pricing/price_table.hpp"
#include "report/text_table.hpp"
#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::advisor {

/// "$1234.50"
inline std::string usd(double value) { return "$" + report::format_fixed(value, 2); }

/// Each tenant's slack in the baseline's run, in scenario order (a tenant the run lacks has none:
/// 0).
std::vector<double> baseline_slacks(const scenario::Scenario& s, const scenario::StrategyResult& baseline);

/// The lowest monthly price of `num_gpus` GPUs of `gpu` under any of `options`; -1 when none has one.
double cheapest_monthly_usd(const pricing::PriceTable& table, const std::string& gpu, int num_gpus,
                            const std::vector<pricing::PurchaseOption>& options, const std::string& region,
                            int node_gpus = 1);

/// A pool of whole GPUs for one tenant: the GPU type and the GPUs per context.
struct PoolHome {
  std::string gpu;
  int tensor_parallel = 1;
  double monthly_usd = -1.0;  ///< one context's GPUs at their cheapest; -1 unpriced
};

/// The fewest GPUs of `gpu` (its own tensor_parallel at least) on which the tenant's context runs
/// alone; nullopt when none does.
std::optional<int> gpus_that_hold(const scenario::Tenant& t, const models::GpuSpec& gpu);

/// What the advisor knows to place tenants in pools: the GPU types it may use, and their prices.
struct PoolMarket {
  const scenario::Catalogs& catalogs;
  const pricing::PriceTable& table;
  std::vector<pricing::PurchaseOption> options;
  std::string region;
  std::vector<std::string> gpus;  ///< the types searched

  /// One context's `n` GPUs of `gpu` (a tensor-parallel group: on one instance) at their cheapest
  /// under the options; -1 when unpriced.
  double monthly(const std::string& gpu, int n) const;
  /// A pool for `t` on `gpu`, when it holds it.
  std::optional<PoolHome> on(const scenario::Tenant& t, const std::string& gpu) const;
  /// The cheapest pool for `t` among the types searched (ties: the first).
  std::optional<PoolHome> cheapest(const scenario::Tenant& t) const;
};

/// Where a candidate's tenants that cannot share its devices run.
struct PoolPlan {
  std::map<std::string, std::string> pools;
  std::map<std::string, int> tensor_parallel;
  std::string label;  ///< "; pools: llm-70b on 2 H100-SXM-80GB"
  bool operator==(const PoolPlan& o) const { return pools == o.pools && tensor_parallel == o.tensor_parallel; }
};

/// One context's GPUs in its pool under `c`: its tensor parallelism as the candidate sets it.
int pool_gpus_of(const scenario::Tenant& t, const AdviceCandidate& c);
/// Puts tenant `t` in `plan` at `home`, saying so in its label.
void add_to_plan(PoolPlan& plan, const scenario::Tenant& t, const PoolHome& home);
/// `c` with the pools of `plan`, its label ending with theirs.
AdviceCandidate with_plan(AdviceCandidate c, const PoolPlan& plan);

/// The pool plans for a candidate on `gpu` whose devices hold `device_gib`: every tenant that needs
/// a pool on `gpu` where that holds it (else on its cheapest type), and, when it differs, every one
/// on its cheapest type. Empty when some tenant has no pool anywhere, when nothing is left to share
/// (unless `all_pooled` allows that: the baseline), or when a tenant that needs a pool needs no
/// more than `least_pooled_gib` (a partitioned GPU: a tenant of half a GPU or less is for its
/// layout to hold, and a layout that cannot is not worth searching).
std::vector<PoolPlan> pool_plans(const scenario::Scenario& s, const PoolMarket& market, const std::string& gpu,
                                 double device_gib, bool all_pooled = false, double least_pooled_gib = 0.0);

}  // namespace slicewise::advisor
