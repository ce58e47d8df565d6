// The strategy advisor's content (advice.hpp).
#include "report/advice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "core/units.hpp"
#include "models/mig_layout.hpp"
#include "report/autoscale_cost.hpp"
#include "report/cost_lines.hpp"
#include "report/costing.hpp"
#include "report/spot_exposure.hpp"
#include "report/text_table.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_io.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/sizing.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

using models::StrategyKind;
using scenario::gpus_text;
using scenario::StrategySpec;

namespace {

double largest_tenant_gib(const scenario::Scenario& s) {
  double most = 0.0;
  for (const auto& t : s.tenants) most = std::max(most, scenario::memory_need_gib(t.workload));
  return most;
}

/// The scenario's own GPUs: its first fleet entry that is not a pool reserved for named tenants
/// (else its first).
const scenario::FleetEntry& own_entry(const scenario::Scenario& s) {
  const auto shared =
      std::find_if(s.fleet.begin(), s.fleet.end(), [](const auto& e) { return !scenario::reserved(e); });
  return shared != s.fleet.end() ? *shared : s.fleet.front();
}

/// True when the table sells `gpu` in the region under at least one of `options`.
bool sells(const pricing::PriceTable& table, const std::string& gpu, const std::string& region,
           const std::vector<pricing::PurchaseOption>& options) {
  return std::any_of(table.instances.begin(), table.instances.end(), [&](const pricing::InstancePrice& row) {
    if (!row.gpu || *row.gpu != gpu || (!region.empty() && row.region != region)) return false;
    return std::any_of(options.begin(), options.end(),
                       [&](pricing::PurchaseOption o) { return row.usd_per_hour(o).has_value(); });
  });
}

StrategySpec sized(StrategyKind kind) {
  StrategySpec s;
  s.kind = kind;
  s.name = models::to_string(kind);
  s.sizing = scenario::Sizing::sla;
  return s;
}

std::string usd(double value) { return "$" + format_fixed(value, 2); }

/// The GPUs to search: the selection's (each must exist and be sold in the region under an option
/// searched), or else every catalog GPU the table sells there.
std::vector<std::string> searched_gpus(const scenario::Catalogs& catalogs, const pricing::PriceTable& table,
                                       const AdviceSelection& selection, const std::string& region,
                                       const std::vector<pricing::PurchaseOption>& options) {
  std::vector<std::string> gpus;
  if (selection.gpus.empty()) {
    for (const auto& gpu : catalogs.gpus->gpus()) {
      if (sells(table, gpu.id, region, options)) gpus.push_back(gpu.id);
    }
    return gpus;
  }
  for (const auto& id : selection.gpus) {
    const auto* gpu = catalogs.gpus->find(id);
    if (!gpu)
      throw ConfigError("--gpus", "", "unknown GPU " + quoted_excerpt(id) + catalogs.gpus->did_you_mean_suffix(id));
    if (!sells(table, gpu->id, region, options)) {
      throw ConfigError("--gpus", "",
                        "price table \"" + table.name + "\" sells no " + gpu->id +
                            (region.empty() ? "" : " in " + region) + " under the options searched");
    }
    gpus.push_back(gpu->id);
  }
  return gpus;
}

/// The strategy kinds to search: the selection's, or else every kind.
std::vector<StrategyKind> searched_kinds(const AdviceSelection& selection) {
  std::vector<StrategyKind> kinds = selection.kinds;
  if (kinds.empty()) {
    for (const auto& [name, kind] : models::strategy_kind_table()) kinds.push_back(kind);
  }
  return kinds;
}

/// Settings of one strategy kind worth sizing on one GPU, each as (label suffix, strategy, the
/// memory of its largest device: what a tenant must fit to share it).
struct Setting {
  std::string suffix;
  StrategySpec spec;
  double device_gib = 0.0;
};
using Settings = std::vector<Setting>;

/// MIG: every valid maximal layout.
Settings mig_settings(StrategyKind kind, const models::MigGpu& geometry) {
  Settings out;
  for (const auto& layout : models::enumerate_mig_layouts(geometry)) {
    const auto placed = models::place_mig_layout(geometry, layout);
    if (!placed.valid) continue;
    double biggest = 0.0;
    for (const auto& instance : placed.instances) biggest = std::max(biggest, instance.memory_gib);
    auto spec = sized(kind);
    spec.layout = layout;
    out.push_back({" " + layout, spec, biggest});
  }
  return out;
}

/// MIG with two layouts the GPUs take in turn, for tenants that one layout fits badly: when the
/// layout of the most instances cannot hold the largest tenant that shares (`largest_gib`), that
/// layout beside each of the (at most two, most instances first) maximal layouts whose every
/// instance holds it: large instances on some GPUs, many small ones on the others.
Settings mixed_mig_settings(StrategyKind kind, const models::MigGpu& geometry, double largest_gib) {
  struct Placed {
    std::string layout;
    std::size_t instances = 0;
    double smallest = 0.0;
    double biggest = 0.0;
  };
  std::vector<Placed> all;
  for (const auto& layout : models::enumerate_mig_layouts(geometry)) {
    const auto placed = models::place_mig_layout(geometry, layout);
    if (!placed.valid || placed.instances.empty()) continue;
    Placed p{layout, placed.instances.size(), placed.instances.front().memory_gib, 0.0};
    for (const auto& instance : placed.instances) {
      p.smallest = std::min(p.smallest, instance.memory_gib);
      p.biggest = std::max(p.biggest, instance.memory_gib);
    }
    all.push_back(std::move(p));
  }
  const auto most = std::max_element(all.begin(), all.end(),
                                     [](const Placed& a, const Placed& b) { return a.instances < b.instances; });
  if (most == all.end() || most->biggest + 1e-9 >= largest_gib) return {};
  std::vector<const Placed*> large;
  for (const auto& p : all) {
    if (p.smallest + 1e-9 >= largest_gib) large.push_back(&p);
  }
  std::stable_sort(large.begin(), large.end(),
                   [](const Placed* a, const Placed* b) { return a->instances > b->instances; });
  Settings out;
  for (std::size_t i = 0; i < large.size() && i < 2; ++i) {
    auto spec = sized(kind);
    spec.layouts = {large[i]->layout, most->layout};
    out.push_back({" " + large[i]->layout + " / " + most->layout, spec, large[i]->biggest});
  }
  return out;
}

/// vGPU: 2, 4 and 8 profiles per GPU.
Settings vgpu_settings(const models::GpuSpec& gpu) {
  Settings out;
  for (int profiles : {2, 4, 8}) {
    auto spec = sized(StrategyKind::vgpu);
    spec.replicas = profiles;
    out.push_back({" " + std::to_string(profiles) + " per GPU", spec, gpu.memory_gib / profiles});
  }
  return out;
}

/// The settings of `kind` worth sizing on `gpu` (see advice_candidates); `geometry` is the GPU's
/// MIG geometry (null when it has none), `own_gpu` whether it is the scenario's own GPU.
Settings kind_settings(StrategyKind kind, const models::GpuSpec& gpu, const models::MigGpu* geometry, bool own_gpu) {
  switch (kind) {
    case StrategyKind::dedicated:
      if (own_gpu) return {};  // the baseline already is this one
      return {{"", sized(kind), gpu.memory_gib}};
    case StrategyKind::time_slicing: return {{"", sized(kind), gpu.memory_gib}};
    case StrategyKind::mps:
    case StrategyKind::hami: {
      auto capped = sized(kind);
      (kind == StrategyKind::mps ? capped.active_thread_pct : capped.gpucores_pct) = 50.0;
      return {{"", sized(kind), gpu.memory_gib},
              {kind == StrategyKind::mps ? " 50 % threads" : " 50 % cores", capped, gpu.memory_gib}};
    }
    case StrategyKind::mig:
    case StrategyKind::mig_time_slicing: return geometry ? mig_settings(kind, *geometry) : Settings{};
    case StrategyKind::vgpu: return vgpu_settings(gpu);
  }
  return {};
}

/// "<strategy><setting> on <gpu>".
std::string candidate_label(const std::string& name, const std::string& setting, const std::string& on) {
  std::string label = name;
  label += setting;
  label += on;
  return label;
}

/// The lowest monthly price of `num_gpus` GPUs of `gpu` under any of `options`; -1 when none has one.
double cheapest_monthly_usd(const pricing::PriceTable& table, const std::string& gpu, int num_gpus,
                            const std::vector<pricing::PurchaseOption>& options, const std::string& region,
                            int node_gpus = 1) {
  double cheapest = -1.0;
  for (const auto option : options) {
    if (const auto line = pricing::cheapest_gpu_instances(table, gpu, num_gpus, option, region, {}, node_gpus)) {
      const double monthly = line->count * line->usd_per_hour_each * kHoursPerMonth;
      if (cheapest < 0.0 || monthly < cheapest) cheapest = monthly;
    }
  }
  return cheapest;
}

/// A pool of whole GPUs for one tenant: the GPU type and the GPUs per context.
struct PoolHome {
  std::string gpu;
  int tensor_parallel = 1;
  double monthly_usd = -1.0;  ///< one context's GPUs at their cheapest; -1 unpriced
};

/// The fewest GPUs of `gpu` (its own tensor_parallel at least) on which the tenant's context runs
/// alone; nullopt when none does.
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

/// What the advisor knows to place tenants in pools: the GPU types it may use, and their prices.
struct PoolMarket {
  const scenario::Catalogs& catalogs;
  const pricing::PriceTable& table;
  std::vector<pricing::PurchaseOption> options;
  std::string region;
  std::vector<std::string> gpus;  ///< the types searched

  /// One context's `n` GPUs of `gpu` (a tensor-parallel group: on one instance) at their cheapest
  /// under the options; -1 when unpriced.
  double monthly(const std::string& gpu, int n) const {
    return cheapest_monthly_usd(table, gpu, n, options, region, n);
  }
  /// A pool for `t` on `gpu`, when it holds it.
  std::optional<PoolHome> on(const scenario::Tenant& t, const std::string& gpu) const {
    const auto* spec = catalogs.gpus->find(gpu);
    const auto n = spec ? gpus_that_hold(t, *spec) : std::nullopt;
    if (!n) return std::nullopt;
    return PoolHome{gpu, *n, monthly(gpu, *n)};
  }
  /// The cheapest pool for `t` among the types searched (ties: the first).
  std::optional<PoolHome> cheapest(const scenario::Tenant& t) const {
    std::optional<PoolHome> best;
    for (const auto& gpu : gpus) {
      const auto home = on(t, gpu);
      if (home && home->monthly_usd >= 0.0 && (!best || home->monthly_usd < best->monthly_usd)) best = home;
    }
    return best;
  }
};

/// Where a candidate's tenants that cannot share its devices run.
struct PoolPlan {
  std::map<std::string, std::string> pools;
  std::map<std::string, int> tensor_parallel;
  std::string label;  ///< "; pools: llm-70b on 2 H100-SXM-80GB"
  bool operator==(const PoolPlan& o) const { return pools == o.pools && tensor_parallel == o.tensor_parallel; }
};

/// One context's GPUs in its pool under `c`: its tensor parallelism as the candidate sets it.
int pool_gpus_of(const scenario::Tenant& t, const AdviceCandidate& c) {
  const auto it = c.tensor_parallel.find(t.name);
  return it != c.tensor_parallel.end() ? it->second : scenario::tensor_parallel_of(t.workload);
}

/// Puts tenant `t` in `plan` at `home`, saying so in its label.
void add_to_plan(PoolPlan& plan, const scenario::Tenant& t, const PoolHome& home) {
  plan.pools[t.name] = home.gpu;
  if (home.tensor_parallel != scenario::tensor_parallel_of(t.workload)) {
    plan.tensor_parallel[t.name] = home.tensor_parallel;
  }
  plan.label += std::string(plan.label.empty() ? "; pools: " : ", ") + t.name + " on " +
                std::to_string(home.tensor_parallel) + " " + home.gpu;
}

/// `c` with the pools of `plan`, its label ending with theirs.
AdviceCandidate with_plan(AdviceCandidate c, const PoolPlan& plan) {
  c.pools = plan.pools;
  c.tensor_parallel = plan.tensor_parallel;
  c.label += plan.label;
  return c;
}

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

/// The pool plans for a candidate on `gpu` whose devices hold `device_gib`: every tenant that needs
/// a pool on `gpu` where that holds it (else on its cheapest type), and, when it differs, every one
/// on its cheapest type. Empty when some tenant has no pool anywhere, when nothing is left to share
/// (unless `all_pooled` allows that: the baseline), or when a tenant that needs a pool needs no
/// more than `least_pooled_gib` (a partitioned GPU: a tenant of half a GPU or less is for its
/// layout to hold, and a layout that cannot is not worth searching).
std::vector<PoolPlan> pool_plans(const scenario::Scenario& s, const PoolMarket& market, const std::string& gpu,
                                 double device_gib, bool all_pooled = false, double least_pooled_gib = 0.0) {
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

/// Appends the candidates of `kind` on `gpu`: each setting worth sizing with each pool plan.
void add_kind_candidates(std::vector<AdviceCandidate>& out, const scenario::Scenario& scenario,
                         const PoolMarket& market, const models::GpuSpec& gpu, StrategyKind kind,
                         const std::string& own_gpu) {
  const std::string on = " on " + gpu.id;
  const std::string name = models::to_string(kind);
  // A partitioned GPU's (MIG, vGPU) layout must hold every tenant of half a GPU or less.
  const bool partitioned =
      kind == StrategyKind::mig || kind == StrategyKind::mig_time_slicing || kind == StrategyKind::vgpu;
  auto settings = kind_settings(kind, gpu, market.catalogs.mig->find(gpu.id), gpu.id == own_gpu);
  if (const auto* geometry = market.catalogs.mig->find(gpu.id);
      geometry && (kind == StrategyKind::mig || kind == StrategyKind::mig_time_slicing)) {
    // The largest tenant that shares (of half a GPU or less, on one GPU; larger ones get pools).
    double largest = 0.0;
    for (const auto& t : scenario.tenants) {
      const double need = scenario::memory_need_gib(t.workload);
      if (scenario::tensor_parallel_of(t.workload) == 1 && need <= gpu.memory_gib / 2)
        largest = std::max(largest, need);
    }
    for (auto& mixed : mixed_mig_settings(kind, *geometry, largest)) settings.push_back(std::move(mixed));
  }
  for (auto& setting : settings) {
    for (const auto& plan :
         pool_plans(scenario, market, gpu.id, setting.device_gib, false, partitioned ? gpu.memory_gib / 2 : 0.0)) {
      out.push_back(with_plan(
          AdviceCandidate{candidate_label(name, setting.suffix, on), gpu.id, setting.spec, false, {}, {}, {}}, plan));
    }
  }
}

/// Dedicated with each tenant in a pool on the cheapest GPU type that holds it, when that mixes
/// types (on one type it is that type's dedicated candidate); nullopt otherwise.
std::optional<AdviceCandidate> each_on_its_cheapest(const scenario::Scenario& s, const PoolMarket& market,
                                                    const std::string& own_gpu) {
  PoolPlan each;
  std::set<std::string> types;
  for (const auto& t : s.tenants) {
    const auto home = market.cheapest(t);
    if (!home) return std::nullopt;
    add_to_plan(each, t, *home);
    types.insert(home->gpu);
  }
  if (types.size() < 2) return std::nullopt;
  return with_plan(AdviceCandidate{"dedicated, each tenant on the cheapest GPU that holds it",
                                   own_gpu,
                                   sized(StrategyKind::dedicated),
                                   false,
                                   {},
                                   {},
                                   {}},
                   each);
}

}  // namespace

std::vector<pricing::PurchaseOption> advice_options(const scenario::Scenario& s, const AdviceSelection& selection) {
  return selection.options.empty() ? std::vector<pricing::PurchaseOption>{s.pricing.option} : selection.options;
}

bool public_cloud_table(const pricing::PriceTable& table) {
  const auto shipped = [](const std::string& name) { return name == "aws" || name == "gcp" || name == "azure"; };
  return shipped(table.name) || shipped(table.extends);
}

std::vector<AdviceCandidate> advice_candidates(const scenario::Scenario& scenario, const scenario::Catalogs& catalogs,
                                               const pricing::PriceTable& table, const AdviceSelection& selection) {
  const auto options = advice_options(scenario, selection);
  const std::string region = scenario.pricing.region;
  const std::vector<std::string> gpus = searched_gpus(catalogs, table, selection, region, options);
  std::vector<StrategyKind> kinds = searched_kinds(selection);
  // vGPU runs on hosts with NVIDIA's vGPU manager in the hypervisor; public-cloud GPU instances are
  // VMs without one, so none of their prices can host it.
  if (public_cloud_table(table)) {
    if (kinds.size() == 1 && kinds.front() == StrategyKind::vgpu) {
      throw ConfigError("--strategies", "",
                        "vgpu needs hosts that run NVIDIA's vGPU manager, and " + table.name +
                            "'s GPU instances are VMs without one: price vGPU with a table of your own hosts");
    }
    std::erase(kinds, StrategyKind::vgpu);
  }
  // Pools may use every GPU type the table sells in the region, not only those searched.
  PoolMarket market{catalogs, table, options, region, searched_gpus(catalogs, table, {}, region, options)};
  std::vector<AdviceCandidate> out;
  // The baseline: dedicated on the scenario's own GPU, sized like everything else.
  const std::string own_gpu = scenario::fleet_gpu_id(own_entry(scenario), scenario, catalogs);
  const auto* own = catalogs.gpus->find(own_gpu);
  const auto baseline_plans = pool_plans(scenario, market, own_gpu, own->memory_gib, true);
  SW_CHECK(!baseline_plans.empty(), "the scenario's tenants fit its fleet (validate first)");
  out.push_back(with_plan(
      AdviceCandidate{
          "dedicated on " + own_gpu + " (baseline)", own_gpu, sized(StrategyKind::dedicated), true, {}, {}, {}},
      baseline_plans.front()));
  for (const auto& gpu_id : gpus) {
    for (StrategyKind kind : kinds)
      add_kind_candidates(out, scenario, market, *catalogs.gpus->find(gpu_id), kind, own_gpu);
  }
  // Dedicated with each tenant on the cheapest GPU type that holds it: a fleet of pools.
  if (std::find(kinds.begin(), kinds.end(), StrategyKind::dedicated) != kinds.end() && selection.gpus.empty()) {
    if (auto c = each_on_its_cheapest(scenario, market, own_gpu)) out.push_back(std::move(*c));
  }
  if (out.size() == 1 && !(kinds.size() == 1 && kinds.front() == StrategyKind::dedicated)) {
    throw ConfigError("slicewise advise", "",
                      "nothing to search: no selected GPU sells in " +
                          (region.empty() ? std::string("the table") : region) +
                          " that holds every tenant, alone or in a pool of whole GPUs");
  }
  return out;
}

double sla_slack(const scenario::Tenant& tenant, const scenario::TenantResult& result) {
  const auto margin = scenario::sla_margin(tenant, result);
  if (margin.metric.empty()) return std::numeric_limits<double>::infinity();  // no target
  return 1.0 / (1.0 - margin.relative);                                       // relative = 1 - value / target
}

double thread_cap_for_slack(double slack) {
  for (double cap : {25.0, 50.0, 75.0}) {
    if (100.0 / cap <= std::sqrt(slack)) return cap;
  }
  return 100.0;
}

namespace {

/// "a, b and c".
std::string names_text(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return text;
}

/// Each tenant's slack in the baseline's run, in scenario order (a tenant the run lacks has none:
/// 0).
std::vector<double> baseline_slacks(const scenario::Scenario& s, const scenario::StrategyResult& baseline) {
  std::vector<double> slack;
  for (const auto& t : s.tenants) {
    const auto it = std::find_if(baseline.tenants.begin(), baseline.tenants.end(),
                                 [&](const scenario::TenantResult& r) { return r.name == t.name; });
    slack.push_back(it == baseline.tenants.end() ? 0.0 : sla_slack(t, *it));
  }
  return slack;
}

/// MPS with each tenant's thread cap by its slack, as (label suffix, strategy); none when no tenant
/// gets a cap or every one gets 50 % (the uniform candidate).
std::optional<std::pair<std::string, StrategySpec>> mps_by_slack(const scenario::Scenario& s,
                                                                 const std::vector<double>& slack) {
  auto spec = sized(StrategyKind::mps);
  std::map<double, std::vector<std::string>> by_cap;
  for (std::size_t i = 0; i < s.tenants.size(); ++i) {
    const double cap = thread_cap_for_slack(slack[i]);
    if (cap >= 100.0) continue;
    spec.tenants[s.tenants[i].name].active_thread_pct = cap;
    by_cap[cap].push_back(s.tenants[i].name);
  }
  if (by_cap.empty() ||
      (by_cap.size() == 1 && by_cap.begin()->first == 50.0 && by_cap.begin()->second.size() == s.tenants.size())) {
    return std::nullopt;
  }
  std::string label;
  for (const auto& [cap, names] : by_cap) {
    label += (label.empty() ? ", " : "; ") + format_number(cap) + " % threads for " + names_text(names);
  }
  return std::make_pair(label, spec);
}

/// The tenants whose slack is under twice the least (the tightest), when that is some but not all.
std::vector<std::string> tightest_tenants(const scenario::Scenario& s, const std::vector<double>& slack) {
  const double least = *std::min_element(slack.begin(), slack.end());
  std::vector<std::string> tight;
  for (std::size_t i = 0; i < s.tenants.size(); ++i) {
    if (std::isfinite(least) && slack[i] < 2.0 * least) tight.push_back(s.tenants[i].name);
  }
  if (tight.size() == s.tenants.size()) tight.clear();
  return tight;
}

/// Where a candidate of `kind` on `gpu` with `pools` goes: after the last such candidate.
std::size_t insertion_point(const std::vector<AdviceCandidate>& candidates, StrategyKind kind, const std::string& gpu,
                            const std::map<std::string, std::string>& pools) {
  std::size_t at = candidates.size();
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    if (candidates[i].strategy.kind == kind && candidates[i].gpu == gpu && candidates[i].pools == pools) at = i + 1;
  }
  return at;
}

/// The text a candidate's label ends with for its pools ("; pools: ..."), "" without.
std::string pools_suffix(const AdviceCandidate& c) {
  const auto at = c.label.find("; pools: ");
  return at == std::string::npos ? "" : c.label.substr(at);
}

/// True for a candidate of `kind` with the kind's plain settings (no cap, no per-tenant setting).
bool plain(const AdviceCandidate& c, StrategyKind kind) {
  return !c.baseline && c.strategy.kind == kind && c.strategy.tenants.empty() && !c.strategy.active_thread_pct &&
         c.priorities.empty();
}

/// The candidate with the baseline's settings derived from a plain one (`base`, MPS or time
/// slicing): MPS with `mps`'s thread caps; time slicing with the `tight` tenants first (those not
/// in a pool, where a tenant runs alone and a priority buys nothing). nullopt when there is none.
std::optional<AdviceCandidate> derived_candidate(const AdviceCandidate& base,
                                                 const std::optional<std::pair<std::string, StrategySpec>>& mps,
                                                 const std::vector<std::string>& tight) {
  AdviceCandidate c = base;
  if (base.strategy.kind == StrategyKind::mps) {
    if (!mps) return std::nullopt;
    c.label = candidate_label("mps", mps->first, " on " + base.gpu) + pools_suffix(base);
    c.strategy = mps->second;
    return c;
  }
  std::vector<std::string> first;
  for (const auto& name : tight) {
    if (!base.pools.count(name)) first.push_back(name);
  }
  if (first.empty()) return std::nullopt;
  c.label =
      candidate_label("time_slicing", ", " + names_text(first) + " first", " on " + base.gpu) + pools_suffix(base);
  for (const auto& name : first) c.priorities[name] = scenario::Priority::high;
  return c;
}

}  // namespace

std::vector<AdviceCandidate> with_baseline_settings(std::vector<AdviceCandidate> candidates,
                                                    const scenario::Scenario& s,
                                                    const scenario::StrategyResult& baseline) {
  if (s.tenants.empty()) return candidates;
  const auto slack = baseline_slacks(s, baseline);
  const auto mps = mps_by_slack(s, slack);
  const bool priorities_given = std::any_of(s.tenants.begin(), s.tenants.end(), [](const scenario::Tenant& t) {
    return t.priority != scenario::Priority::normal;
  });
  const auto tight = priorities_given ? std::vector<std::string>{} : tightest_tenants(s, slack);
  // One derived candidate per plain one (its GPU and pools), after the last of its kind there.
  std::vector<AdviceCandidate> plains;
  for (const auto& c : candidates) {
    if (plain(c, StrategyKind::mps) || plain(c, StrategyKind::time_slicing)) plains.push_back(c);
  }
  for (const auto& base : plains) {
    auto c = derived_candidate(base, mps, tight);
    if (!c) continue;
    const auto at = insertion_point(candidates, base.strategy.kind, base.gpu, base.pools);
    candidates.insert(candidates.begin() + static_cast<std::ptrdiff_t>(at), std::move(*c));
  }
  return candidates;
}

scenario::Scenario candidate_scenario(const scenario::Scenario& base, const AdviceCandidate& candidate, int max_gpus) {
  scenario::Scenario s = base;
  // A generic tenant's figures were measured on the scenario's GPU, whatever the candidate runs on.
  const std::string own_gpu = own_entry(base).gpu;  // set by the loader for instance entries too
  for (auto& t : s.tenants) {
    if (const auto it = candidate.priorities.find(t.name); it != candidate.priorities.end()) t.priority = it->second;
    if (const auto it = candidate.tensor_parallel.find(t.name); it != candidate.tensor_parallel.end()) {
      t.workload.engine->tensor_parallel = it->second;
    }
    if (t.workload.kind == scenario::WorkloadKind::generic && t.workload.reference_gpu.empty() && !own_gpu.empty()) {
      t.workload.reference_gpu = own_gpu;
    }
  }
  // On the scenario's own GPU its own instance type (so that the baseline is priced as the user
  // buys it); other GPUs as the cheapest instances carrying them.
  const auto own = std::find_if(base.fleet.begin(), base.fleet.end(), [&](const scenario::FleetEntry& e) {
    return !e.instance_type.empty() && !scenario::reserved(e) && (e.gpu.empty() || e.gpu == candidate.gpu);
  });
  s.fleet = {scenario::FleetEntry{candidate.gpu, "", max_gpus, {}}};
  if (own != base.fleet.end()) s.fleet = {scenario::FleetEntry{"", own->instance_type, max_gpus, {}}};
  // A pool on a GPU type the scenario buys as an instance type: that instance type.
  const auto instance_for = [&](const std::string& gpu) {
    const auto e = std::find_if(base.fleet.begin(), base.fleet.end(), [&](const scenario::FleetEntry& f) {
      return !f.instance_type.empty() && !scenario::reserved(f) && f.gpu == gpu;
    });
    return e == base.fleet.end() ? std::string() : e->instance_type;
  };
  // The pools, one entry per GPU type, their tenants in the scenario's order.
  std::map<std::string, std::vector<std::string>> pools;
  for (const auto& t : base.tenants) {
    if (const auto it = candidate.pools.find(t.name); it != candidate.pools.end()) pools[it->second].push_back(t.name);
  }
  for (auto& [gpu, tenants] : pools) {
    const std::string instance = instance_for(gpu);
    s.fleet.push_back(instance.empty() ? scenario::FleetEntry{gpu, "", max_gpus, std::move(tenants)}
                                       : scenario::FleetEntry{"", instance, max_gpus, std::move(tenants)});
  }
  // The candidate first (the one sized), then the sized dedicated baseline that savings compare
  // against (a scenario with a sized strategy needs one).
  s.strategies = {candidate.strategy};
  if (candidate.strategy.kind != StrategyKind::dedicated) s.strategies.push_back(sized(StrategyKind::dedicated));
  // A strategy's sidecars (the CPU instances it needs) come with every candidate of its kind.
  for (auto& strategy : s.strategies) {
    const auto same = std::find_if(base.strategies.begin(), base.strategies.end(),
                                   [&](const StrategySpec& b) { return b.kind == strategy.kind; });
    if (same != base.strategies.end()) strategy.sidecars = same->sidecars;
  }
  return s;
}

namespace {

/// The candidate's pools' GPUs at the scenario's contexts, per GPU type.
std::map<std::string, int> pool_gpus(const scenario::Scenario& base, const AdviceCandidate& candidate) {
  std::map<std::string, int> gpus;
  for (const auto& t : base.tenants) {
    if (const auto it = candidate.pools.find(t.name); it != candidate.pools.end()) {
      gpus[it->second] += t.num_contexts * pool_gpus_of(t, candidate);
    }
  }
  return gpus;
}

/// The shared GPUs a candidate needs at least (no pools).
int shared_lower_bound(const scenario::Scenario& base, const AdviceCandidate& candidate,
                       const scenario::Catalogs& catalogs) {
  const auto& policy = scenario::policy_of(candidate.strategy.kind);
  const auto* gpu = catalogs.gpus->find(candidate.gpu);
  int contexts = 0;
  double memory = 0.0;
  for (const auto& t : base.tenants) {
    if (candidate.pools.count(t.name)) continue;
    contexts += t.num_contexts;
    memory += t.num_contexts * scenario::memory_on_gib(t.workload, gpu->id, gpu->memory_gib);
  }
  if (contexts == 0) return 0;
  if (policy.partitions_gpus()) {
    const int instances = scenario::most_mig_per_gpu(*catalogs.mig->find(candidate.gpu), candidate.strategy).first;
    const int per_gpu = instances * std::max(1, policy.context_limit(candidate.strategy));
    return std::max(1, (contexts + per_gpu - 1) / per_gpu);
  }
  if (policy.context_limit(candidate.strategy) == 1) return contexts;
  int bound = std::max(1, static_cast<int>(std::ceil(memory / gpu->memory_gib - 1e-9)));
  if (const int limit = policy.context_limit(candidate.strategy); limit > 0)
    bound = std::max(bound, (contexts + limit - 1) / limit);
  return bound;
}

}  // namespace

int candidate_lower_bound(const scenario::Scenario& base, const AdviceCandidate& candidate,
                          const scenario::Catalogs& catalogs) {
  int bound = shared_lower_bound(base, candidate, catalogs);
  for (const auto& [gpu, n] : pool_gpus(base, candidate)) bound += n;
  return std::max(1, bound);
}

double candidate_floor_monthly_usd(const scenario::Scenario& base, const AdviceCandidate& candidate,
                                   const scenario::Catalogs& catalogs, const pricing::PriceTable& table,
                                   const std::vector<pricing::PurchaseOption>& options) {
  const std::string& region = base.pricing.region;
  double total = 0.0;
  if (const int shared = shared_lower_bound(base, candidate, catalogs); shared > 0) {
    const double usd = cheapest_monthly_usd(table, candidate.gpu, shared, options, region);
    if (usd < 0.0) return -1.0;
    total += usd;
  }
  for (const auto& [gpu, n] : pool_gpus(base, candidate)) {
    const double usd = cheapest_monthly_usd(table, gpu, n, options, region);
    if (usd < 0.0) return -1.0;
    total += usd;
  }
  return total;
}

std::optional<pricing::StrategyCost> price_candidate(const scenario::Scenario& variant,
                                                     const scenario::StrategyResult& result,
                                                     const pricing::PriceTable& table, pricing::PurchaseOption option) {
  scenario::SimResult one;
  one.scenario = variant.name;
  one.input = variant;
  one.strategies = {result};
  try {
    return cost_result(one, one.input, table, option).strategies.front();
  } catch (const ConfigError&) {
    return std::nullopt;  // no price under this option
  }
}

void add_autoscaled(Advice& advice, const scenario::Scenario& variant, const scenario::StrategyResult& answer,
                    const pricing::PriceTable& table) {
  if (!advice.answer) return;
  const auto cost = price_candidate(variant, answer, table, advice.rows[*advice.answer].option);
  if (!cost || !cost->autoscaled) return;
  advice.autoscaled = cost->autoscaled;
  auto note = autoscaled_note(*cost->autoscaled);
  note[0] = 'A';
  advice.explanation.push_back("The loads follow the day, so the answer was sized again for each hour. " + note +
                               ". The fleet above is the peak's; an autoscaler that follows this schedule "
                               "pays the autoscaled figure.");
}

namespace {

/// "Settings from the baseline: ..." when some candidate has per-tenant settings; "" otherwise.
std::string baseline_settings_text(const Advice& advice, const scenario::Scenario& s,
                                   const scenario::StrategyResult& baseline) {
  const bool any = std::any_of(advice.candidates.begin(), advice.candidates.end(), [](const AdviceCandidate& c) {
    return !c.priorities.empty() || !c.strategy.tenants.empty();
  });
  if (!any) return "";
  const auto slack = baseline_slacks(s, baseline);
  std::vector<std::string> each;
  for (std::size_t i = 0; i < s.tenants.size(); ++i) {
    each.push_back(s.tenants[i].name + " " +
                   (std::isfinite(slack[i]) ? "x" + format_fixed(slack[i], 2) : std::string("(no target)")));
  }
  return "Settings from the baseline: on their dedicated GPUs the tenants' SLA slack (target over their figure at the "
         "SLA quantile) was " +
         join(each, ", ") +
         ". The MPS candidates with \"N % threads for\" a tenant cap it at the lowest of 25, 50 and 75 % whose "
         "slowdown uses at most half its slack (the others run uncapped); the time-slicing candidates with tenants "
         "\"first\" give those with under twice the least slack high priority.";
}

/// Where a row's purchase option is not the scenario's: " under the same option (OPTION itself
/// saves $X a month on the baseline against SCENARIO_OPTION)"; "" otherwise.
std::string option_saving_text(const AdviceRow& r, const scenario::Scenario& s) {
  if (r.option == s.pricing.option) return "";
  return " under the same option (" + pricing::to_string(r.option) + " itself saves " + usd(r.option_savings_usd) +
         " a month on the baseline against " + pricing::to_string(s.pricing.option) + ")";
}

/// The answer's sizing record; none without an answer.
std::optional<scenario::SizingRecord> answer_sizing(const Advice& advice,
                                                    const std::vector<CandidateOutcome>& outcomes) {
  if (!advice.answer) return std::nullopt;
  const auto& r = outcomes[advice.rows[*advice.answer].candidate].result;
  return r ? r->sizing : std::nullopt;
}

/// " Its fleet is minimal ..." or " ... the fewest found ...", from the answer's sizing record.
std::string minimal_text(const Advice& advice, const AdviceRow& a) {
  const auto& record = advice.answer_sizing;
  if (!record || record->placement.empty()) return "";  // its contexts own their devices: they decide the GPUs
  if (record->minimal) return " Its fleet is minimal: memory and the contexts per device need as many GPUs.";
  return " Its " + gpus_text(a.num_gpus) + " (contexts placed " + record->placement +
         ") are the fewest found, not proven minimal: one GPU fewer missed balanced by load, spread and packed, and "
         "memory and the contexts per device need " +
         gpus_text(record->lower_bound_gpus) + " at least.";
}

void explain(Advice& advice, const scenario::Scenario& s, const scenario::StrategyResult* baseline) {
  auto& out = advice.explanation;
  const auto& base = advice.rows[advice.baseline_row];
  out.push_back(
      "Every configuration was sized by simulation to the fewest GPUs (and contexts) with which every tenant meets "
      "its SLA, with the scenario's seed for all of them (" +
      std::to_string(advice.num_simulations) + " simulations; " + std::to_string(advice.num_reused) +
      " runs reused). The baseline is " + advice.candidates[base.candidate].label + ": " + gpus_text(base.num_gpus) +
      ", " + usd(base.monthly_usd) + " per month.");
  // The seeds' decision rules, as they applied to these tenants.
  std::vector<std::string> hardware, software, high, bursty;
  for (const auto& t : s.tenants) {
    if (t.isolation == models::IsolationLevel::hardware) hardware.push_back(t.name);
    if (t.isolation == models::IsolationLevel::software) software.push_back(t.name);
    if (t.priority == scenario::Priority::high) high.push_back(t.name);
    if (t.load.kind == scenario::LoadKind::mmpp || t.load.kind == scenario::LoadKind::trace) bursty.push_back(t.name);
  }
  if (!hardware.empty()) {
    out.push_back("Isolation: " + join(hardware, ", ") +
                  " require hardware isolation, which only dedicated GPUs and MIG "
                  "instances give; under the other strategies they get GPUs of their own, which the sizing paid for.");
  } else if (!software.empty()) {
    out.push_back("Isolation: " + join(software, ", ") +
                  " require software isolation (memory limits): MPS, HAMi, vGPU, MIG "
                  "or dedicated; under time slicing they get GPUs of their own.");
  } else {
    out.emplace_back("Isolation: no tenant requires isolation, so every strategy could share GPUs between them.");
  }
  out.push_back("Memory: the largest tenant needs " + format_number(largest_tenant_gib(s)) +
                " GiB; a tenant that a GPU, MIG layout or vGPU profile could not hold, or whose model spans several "
                "GPUs, ran in a pool of whole GPUs of its own (\"pools:\" in a label); MIG layouts and vGPU profiles "
                "that could not hold a tenant of half a GPU or less were not considered.");
  if (!bursty.empty()) {
    out.push_back("Burstiness: " + join(bursty, ", ") +
                  " arrive in bursts (trace or MMPP load); sharing strategies "
                  "were sized on those bursts, not on the mean rate.");
  }
  if (baseline) {
    if (auto text = baseline_settings_text(advice, s, *baseline); !text.empty()) out.push_back(std::move(text));
  }
  if (!high.empty()) {
    out.push_back("Priority: " + join(high, ", ") +
                  " run at high priority: time slicing serves them first, and MPS caps "
                  "low-priority clients' threads.");
  }
  if (advice.answer) {
    const auto& a = advice.rows[*advice.answer];
    out.push_back("Answer: " + advice.candidates[a.candidate].label + " (" + pricing::to_string(a.option) + "), " +
                  gpus_text(a.num_gpus) + " as " + a.instances + ", " + usd(a.monthly_usd) +
                  " per month: " + usd(a.monthly_savings_usd) + " (" + format_percent(a.savings_frac) +
                  ") less than the baseline" + option_saving_text(a, s) + ". Its worst tenant, " + a.worst_tenant +
                  ", has " + format_percent(a.worst_margin) + " of its SLA target to spare; isolation " + a.isolation +
                  "." + minimal_text(advice, a));
    if (a.option == pricing::PurchaseOption::spot && a.spot) {
      auto note = spot_note(*a.spot);
      note[0] = 'O';  // "on spot, ..." opens the paragraph
      out.push_back(std::move(note));
    } else if (a.option == pricing::PurchaseOption::reserved_1y || a.option == pricing::PurchaseOption::reserved_3y) {
      out.emplace_back("Reserved prices commit to the fleet for the whole term.");
    }
  }
}

/// The baseline's monthly cost under `option` (0 when it was not simulated or has no price there).
double baseline_monthly_usd(const scenario::Scenario& s, const pricing::PriceTable& table,
                            const AdviceSelection& selection, const AdviceCandidate& baseline,
                            const CandidateOutcome& outcome, pricing::PurchaseOption option) {
  if (const auto& r = outcome.result) {
    if (const auto cost = price_candidate(candidate_scenario(s, baseline, selection.max_gpus), *r, table, option)) {
      return cost->monthly_usd;
    }
  }
  return 0.0;
}

/// What a row's savings are measured against: the baseline under the row's own option (like for
/// like), or under the scenario's option where the baseline has no price under the row's.
struct BaselineCosts {
  double own = 0.0;                                 ///< under the scenario's option
  std::map<pricing::PurchaseOption, double> under;  ///< per option, where priced
  double for_option(pricing::PurchaseOption option) const {
    const auto it = under.find(option);
    return it != under.end() && it->second > 0.0 ? it->second : own;
  }
};

/// One candidate (number `c`, sized in `variant`) under one option: pruned, unpriced, or priced
/// against the baseline's `baseline_monthly`.
AdviceRow candidate_row(const scenario::Scenario& s, const scenario::Scenario& variant,
                        const pricing::PriceTable& table, std::size_t c, const AdviceCandidate& candidate,
                        const CandidateOutcome& outcome, pricing::PurchaseOption option,
                        const BaselineCosts& baseline) {
  const double baseline_monthly = baseline.for_option(option);
  AdviceRow row;
  row.candidate = c;
  row.option = option;
  row.isolation = models::to_string(scenario::policy_of(candidate.strategy.kind).isolation());
  if (!outcome.result) {
    row.status = "pruned";
    row.num_gpus = outcome.lower_bound_gpus;
    row.reason = outcome.pruned;
    return row;
  }
  const auto& result = *outcome.result;
  const auto& sizing = *result.sizing;
  row.num_gpus = result.num_gpus_used;
  row.contexts = sizing.contexts;
  const auto worst = scenario::worst_tenant(s, result);  // a candidate keeps the scenario's tenants
  row.worst_tenant = worst.name;
  row.worst_margin = worst.margin;
  const auto cost = price_candidate(variant, result, table, option);
  if (!cost) {
    row.status = "unpriced";
    row.reason = "no " + pricing::to_string(option) + " price for " + candidate.gpu +
                 (s.pricing.region.empty() ? "" : " in " + s.pricing.region);
  } else {
    row.instances = instances_text(*cost);
    row.monthly_usd = cost->monthly_usd;
    row.monthly_savings_usd = baseline_monthly - cost->monthly_usd;
    row.savings_frac = baseline_monthly > 0.0 ? row.monthly_savings_usd / baseline_monthly : 0.0;
    row.option_savings_usd = baseline.own - baseline_monthly;
    row.spot = cost->spot;
    row.status = sizing.feasible ? "meets" : "misses";
    if (!sizing.feasible) row.reason = sizing.shortfall;
  }
  return row;
}

/// True when `r` beats the answer so far: cheaper (by more than half a cent), else more margin,
/// else fewer GPUs.
bool better_answer(const AdviceRow& r, const AdviceRow& best) {
  return r.monthly_usd < best.monthly_usd - 0.005 ||
         (std::abs(r.monthly_usd - best.monthly_usd) <= 0.005 &&
          (r.worst_margin > best.worst_margin + 1e-12 ||
           (r.worst_margin == best.worst_margin && r.num_gpus < best.num_gpus)));
}

/// Why a candidate cannot be deployed as simulated ("" when it can): priorities or weights under a
/// strategy whose Kubernetes components have none (time slicing through the device plugin).
std::string undeployable(const scenario::Scenario& variant, const AdviceCandidate& candidate) {
  if (scenario::tenants_with_undeployable_priority(variant, candidate.strategy).empty()) return "";
  return scenario::policy_of(candidate.strategy.kind).priority_not_deployable();
}

/// The cheapest row that meets every SLA and can be deployed (ties: more margin, fewer GPUs, first).
std::optional<std::size_t> cheapest_meeting(const std::vector<AdviceRow>& rows, const std::vector<bool>& deployable) {
  std::optional<std::size_t> answer;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].status != "meets" || !deployable[i]) continue;
    if (!answer || better_answer(rows[i], rows[*answer])) answer = i;
  }
  return answer;
}

/// Pareto front: marks the rows that meet every SLA and that no such row beats both on cost (or
/// ties) and on margin.
void mark_front(std::vector<AdviceRow>& rows, const std::vector<bool>& deployable) {
  std::vector<std::size_t> meets;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].status == "meets" && deployable[i]) meets.push_back(i);
  }
  for (std::size_t i : meets) {
    const auto& r = rows[i];
    rows[i].on_front = std::none_of(meets.begin(), meets.end(), [&](std::size_t j) {
      const auto& o = rows[j];
      return j != i && o.monthly_usd <= r.monthly_usd + 1e-9 && o.worst_margin >= r.worst_margin - 1e-12 &&
             (o.monthly_usd < r.monthly_usd - 1e-9 || o.worst_margin > r.worst_margin + 1e-12 || j < i);
    });
  }
}

/// Why `r`, which meets every SLA, lost to the answer `a`.
std::string loss_reason(const AdviceRow& r, const AdviceRow& a) {
  if (r.monthly_usd <= a.monthly_usd + 0.005) {
    if (r.worst_margin >= a.worst_margin - 1e-12) {
      return "meets every SLA at the answer's cost and margin (" + format_percent(r.worst_margin) +
             "); the answer uses no more GPUs and came first";
    }
    // As many decimals as it takes to show the two apart (up to four).
    int decimals = 1;
    while (decimals < 4 && format_percent(r.worst_margin, decimals) == format_percent(a.worst_margin, decimals))
      ++decimals;
    return "meets every SLA at the answer's cost, with less margin (" + format_percent(r.worst_margin, decimals) +
           " against " + format_percent(a.worst_margin, decimals) + ")";
  }
  return "meets every SLA but costs " + usd(r.monthly_usd - a.monthly_usd) + " per month more than the answer" +
         (r.on_front ? " (on the front: " + format_percent(r.worst_margin) + " margin against the answer's " +
                           format_percent(a.worst_margin) + ")"
                     : "");
}

}  // namespace

Advice build_advice(const scenario::Scenario& s, const pricing::PriceTable& table, const AdviceSelection& selection,
                    const std::vector<AdviceCandidate>& candidates, const std::vector<CandidateOutcome>& outcomes,
                    int num_simulations, int num_reused) {
  SW_CHECK(candidates.size() == outcomes.size() && !candidates.empty() && candidates.front().baseline,
           "one outcome per candidate, the baseline first");
  Advice advice;
  advice.scenario = s.name;
  advice.table = table.name;
  advice.region = s.pricing.region;
  advice.as_of = table.as_of;
  advice.max_gpus = selection.max_gpus;
  advice.candidates = candidates;
  advice.num_simulations = num_simulations;
  advice.num_reused = num_reused;
  const auto options = advice_options(s, selection);

  BaselineCosts baseline;
  baseline.own = baseline_monthly_usd(s, table, selection, candidates.front(), outcomes.front(), s.pricing.option);
  for (const auto option : options) {
    baseline.under[option] = baseline_monthly_usd(s, table, selection, candidates.front(), outcomes.front(), option);
  }
  std::vector<std::string> not_deployable;  // per row: why it cannot be deployed as simulated
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const auto variant = candidate_scenario(s, candidates[c], selection.max_gpus);
    const std::string why = undeployable(variant, candidates[c]);
    for (const auto option : options) {
      not_deployable.push_back(why);
      // The baseline row: the baseline, simulated, under the scenario's own option.
      if (outcomes[c].result && candidates[c].baseline && option == s.pricing.option)
        advice.baseline_row = advice.rows.size();
      advice.rows.push_back(candidate_row(s, variant, table, c, candidates[c], outcomes[c], option, baseline));
    }
  }
  std::vector<bool> deployable(not_deployable.size());
  for (std::size_t i = 0; i < deployable.size(); ++i) deployable[i] = not_deployable[i].empty();
  advice.answer = cheapest_meeting(advice.rows, deployable);
  mark_front(advice.rows, deployable);
  // Why each of the others lost.
  for (std::size_t i = 0; i < advice.rows.size(); ++i) {
    auto& r = advice.rows[i];
    if (r.status != "meets" || (advice.answer && i == *advice.answer)) continue;
    r.reason = !deployable[i] ? "meets every SLA as simulated, but cannot be deployed: " + not_deployable[i] +
                                    "; it shows what priority would buy"
               : advice.answer ? loss_reason(r, advice.rows[*advice.answer])
                               : r.reason;
  }
  advice.answer_sizing = answer_sizing(advice, outcomes);
  explain(advice, s, outcomes.front().result ? &*outcomes.front().result : nullptr);
  return advice;
}

std::string no_answer_message(const Advice& advice, const scenario::Scenario& base,
                              const std::vector<CandidateOutcome>& outcomes) {
  if (advice.answer) return "";
  // The closest: the simulated candidate whose worst tenant came nearest to its target (the
  // baseline only when nothing else was simulated).
  std::optional<std::size_t> closest;
  double closest_margin = 0.0;
  for (std::size_t c = 0; c < outcomes.size(); ++c) {
    if (!outcomes[c].result || (c == 0 && outcomes.size() > 1 && closest)) continue;
    const double margin = scenario::worst_tenant(base, *outcomes[c].result).margin;
    if (!closest || (closest == 0 && c > 0) || margin > closest_margin) {
      closest = c;
      closest_margin = margin;
    }
  }
  std::string text = "no configuration within " + gpus_text(advice.max_gpus) + " meets every SLA";
  if (!closest) return text;
  const auto& r = *outcomes[*closest].result;
  std::string missing = scenario::worst_shortfall(base, r);
  if (missing.empty() && r.sizing) missing = r.sizing->shortfall;
  return text + ": the closest is " + advice.candidates[*closest].label + " with " + gpus_text(r.num_gpus_used) +
         ", missing " + missing;
}

namespace {

nlohmann::ordered_json row_json(const Advice& advice, const AdviceRow& r) {
  nlohmann::ordered_json out;
  out["candidate"] = advice.candidates[r.candidate].label;
  out["gpu"] = advice.candidates[r.candidate].gpu;
  out["strategy"] = models::to_string(advice.candidates[r.candidate].strategy.kind);
  out["option"] = pricing::to_string(r.option);
  out["status"] = r.status;
  out["reason"] = r.reason;
  out["num_gpus"] = r.num_gpus;
  out["contexts"] = r.contexts;
  out["instances"] = r.instances;
  out["monthly_usd"] = r.monthly_usd;
  out["monthly_savings_usd"] = r.monthly_savings_usd;
  out["savings_frac"] = r.savings_frac;
  out["option_savings_usd"] = r.option_savings_usd;
  out["worst_sla_margin"] = r.worst_margin;
  out["worst_tenant"] = r.worst_tenant;
  out["isolation"] = r.isolation;
  out["on_front"] = r.on_front;
  if (r.spot) {
    const auto worst = std::min_element(
        r.spot->tenants.begin(), r.spot->tenants.end(),
        [](const pricing::SpotTenant& a, const pricing::SpotTenant& b) { return a.availability < b.availability; });
    out["spot"] = {{"interruptions_per_month", r.spot->interruptions_per_month},
                   {"worst_availability", worst == r.spot->tenants.end() ? 1.0 : worst->availability},
                   {"mix_on_demand_instances", r.spot->mix_on_demand_instances},
                   {"mix_monthly_usd",
                    r.spot->mix_priced ? nlohmann::ordered_json(r.spot->mix_monthly_usd) : nlohmann::ordered_json()}};
  }
  return out;
}

}  // namespace

std::string advice_to_json_text(const Advice& advice) {
  nlohmann::ordered_json out;
  out["schema_version"] = 1;
  out["scenario"] = advice.scenario;
  out["pricing"] = {{"table", advice.table}, {"region", advice.region}, {"as_of", advice.as_of}};
  out["max_gpus"] = advice.max_gpus;
  out["num_simulations"] = advice.num_simulations;
  out["num_reused"] = advice.num_reused;
  out["baseline"] = row_json(advice, advice.rows[advice.baseline_row]);
  if (const auto& a = advice.autoscaled) {
    out["autoscaled"] = {{"monthly_usd", a->monthly_usd},   {"peak_monthly_usd", a->peak_monthly_usd},
                         {"min_gpus", a->min_gpus},         {"max_gpus", a->max_gpus},
                         {"scale_up_s", a->scale_up_s},     {"scale_up_usd", a->scale_up_usd},
                         {"gpus_by_hour", a->gpus_by_hour}, {"usd_per_hour_by_hour", a->usd_per_hour_by_hour}};
  }
  out["answer"] = advice.answer ? row_json(advice, advice.rows[*advice.answer]) : nlohmann::ordered_json();
  nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
  for (const auto& c : advice.candidates) {
    nlohmann::ordered_json one{{"label", c.label},
                               {"gpu", c.gpu},
                               {"baseline", c.baseline},
                               {"strategy", scenario::strategy_to_json(c.strategy)}};
    if (!c.priorities.empty()) {
      nlohmann::ordered_json priorities;
      for (const auto& [name, priority] : c.priorities)
        priorities[name] = scenario::name_of(scenario::priority_table(), priority);
      one["tenant_priorities"] = priorities;
    }
    candidates.push_back(one);
  }
  out["candidates"] = candidates;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& r : advice.rows) rows.push_back(row_json(advice, r));
  out["rows"] = rows;
  out["explanation"] = advice.explanation;
  return out.dump(1) + "\n";
}

namespace {

std::vector<Column> row_columns() {
  return {{"candidate"},
          {"option"},
          {"status"},
          {"GPUs", Align::right},
          {"instances"},
          {"$/month", Align::right},
          {"saving $/month", Align::right},
          {"saving %", Align::right},
          {"worst margin %", Align::right},
          {"worst tenant"},
          {"isolation"},
          {"front"},
          {"reason"}};
}

std::vector<std::string> row_cells(const Advice& advice, const AdviceRow& r) {
  const bool priced = r.status == "meets" || r.status == "misses";
  return {advice.candidates[r.candidate].label,
          pricing::to_string(r.option),
          r.status,
          std::to_string(r.num_gpus),
          r.instances,
          priced ? format_fixed(r.monthly_usd, 2) : "",
          priced ? format_fixed(r.monthly_savings_usd, 2) : "",
          priced ? format_fixed(100.0 * r.savings_frac, 1) : "",
          r.status == "pruned" ? "" : format_fixed(100.0 * r.worst_margin, 1),
          r.worst_tenant,
          r.isolation,
          r.on_front ? "yes" : "",
          r.reason};
}

}  // namespace

std::string advice_candidates_csv(const Advice& advice) {
  TextTable table(row_columns());
  for (const auto& r : advice.rows) table.add_row(row_cells(advice, r));
  return table.to_csv();
}

std::string advice_pareto_csv(const Advice& advice) {
  std::vector<const AdviceRow*> front;
  for (const auto& r : advice.rows) {
    if (r.on_front) front.push_back(&r);
  }
  std::sort(front.begin(), front.end(),
            [](const AdviceRow* a, const AdviceRow* b) { return a->monthly_usd < b->monthly_usd; });
  TextTable table(row_columns());
  for (const auto* r : front) table.add_row(row_cells(advice, *r));
  return table.to_csv();
}

std::string advice_markdown(const Advice& advice) {
  std::string md = "# What to buy: " + markdown_text(advice.scenario) + "\n\n";
  for (const auto& paragraph : advice.explanation) md += markdown_text(paragraph) + "\n\n";
  md += "Prices: " + markdown_text(advice.table) + (advice.region.empty() ? "" : ", " + markdown_text(advice.region)) +
        ", as of " + markdown_text(advice.as_of) + ". At most " + gpus_text(advice.max_gpus) + " per fleet.\n\n";
  md += "## Pareto front: monthly cost against the worst tenant's SLA margin\n\n![Pareto front](pareto.svg)\n\n";
  TextTable front(row_columns());
  TextTable all(row_columns());
  for (const auto& r : advice.rows) {
    all.add_row(row_cells(advice, r));
    if (r.on_front) front.add_row(row_cells(advice, r));
  }
  md += front.to_markdown() + "\n## Every candidate, and why it lost\n\n" + all.to_markdown();
  return md;
}

std::string advice_summary_text(const Advice& advice) {
  const auto& b = advice.rows[advice.baseline_row];
  std::string text = "baseline: " + advice.candidates[b.candidate].label + ", " + gpus_text(b.num_gpus) + ", " +
                     usd(b.monthly_usd) + "/month\n";
  if (advice.answer) {
    const auto& a = advice.rows[*advice.answer];
    text +=
        "answer:   " + advice.candidates[a.candidate].label + " (" + pricing::to_string(a.option) + "), " +
        gpus_text(a.num_gpus) + " as " + a.instances + ", " + usd(a.monthly_usd) + "/month, saves " +
        usd(a.monthly_savings_usd) + " (" + format_percent(a.savings_frac) + ")" +
        (a.option == b.option ? std::string()
                              : " against the baseline on " + pricing::to_string(a.option) + ", which itself saves " +
                                    usd(a.option_savings_usd) + " against " + pricing::to_string(b.option)) +
        "; worst tenant " + a.worst_tenant + " at " + format_percent(a.worst_margin) + " SLA margin\n";
  }
  if (const auto& a = advice.autoscaled) {
    text += "autoscaled by hour: " + std::to_string(a->min_gpus) + " to " + gpus_text(a->max_gpus) + ", " +
            usd(a->monthly_usd) + "/month\n";
  }
  int front = 0, meets = 0;
  for (const auto& r : advice.rows) {
    front += r.on_front ? 1 : 0;
    meets += r.status == "meets" ? 1 : 0;
  }
  text += std::to_string(advice.candidates.size()) + " candidates, " + std::to_string(meets) +
          " rows meet every SLA, " + std::to_string(front) + " on the Pareto front; " +
          std::to_string(advice.num_simulations) + " simulations (" + std::to_string(advice.num_reused) +
          " runs reused)\n";
  return text;
}

}  // namespace slicewise::report
