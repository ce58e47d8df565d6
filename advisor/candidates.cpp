// The advisor's search space: the candidates worth sizing, the settings derived from the
// baseline's slack, and the scenario each candidate runs as (advice.hpp).
#include "advisor/advice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "advisor/pools.hpp"
#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/sizing.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/validate.hpp"

namespace slicewise::advisor {

using models::StrategyKind;
using scenario::StrategySpec;

namespace {

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

/// "<strategy><setting> on <gpu>".
std::string candidate_label(const std::string& name, const std::string& setting, const std::string& on) {
  std::string label = name;
  label += setting;
  label += on;
  return label;
}

/// Appends the candidates of `kind` on `gpu`: each setting worth sizing with each pool plan.
void add_kind_candidates(std::vector<AdviceCandidate>& out, const scenario::Scenario& scenario,
                         const PoolMarket& market, const models::GpuSpec& gpu, StrategyKind kind,
                         const std::string& own_gpu) {
  const std::string on = " on " + gpu.id;
  const std::string name = models::to_string(kind);
  const auto& policy = scenario::policy_of(kind);
  // Devices of fixed sizes (MIG, vGPU) must hold every tenant of half a GPU or less.
  const bool partitioned = policy.fixed_device_sizes();
  // The largest tenant that shares (of half a GPU or less, on one GPU; larger ones get pools).
  double largest = 0.0;
  for (const auto& t : scenario.tenants) {
    const double need = scenario::memory_need_gib(t.workload);
    if (scenario::tensor_parallel_of(t.workload) == 1 && need <= gpu.memory_gib / 2) largest = std::max(largest, need);
  }
  const auto settings = policy.advisor_settings({gpu, market.catalogs.mig->find(gpu.id), gpu.id == own_gpu, largest});
  for (const auto& setting : settings) {
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
                                   scenario::sized_for_sla(StrategyKind::dedicated),
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
    const auto needs_hypervisor = [](StrategyKind kind) {
      return scenario::policy_of(kind).deploy_sharer() == scenario::DeploySharer::hypervisor_vgpu;
    };
    if (!kinds.empty() && std::all_of(kinds.begin(), kinds.end(), needs_hypervisor)) {
      throw ConfigError("--strategies", "",
                        models::to_string(kinds.front()) + " needs hosts that run NVIDIA's vGPU manager, and " +
                            table.name +
                            "'s GPU instances are VMs without one: price vGPU with a table of your own hosts");
    }
    std::erase_if(kinds, needs_hypervisor);
  }
  // Pools may use every GPU type the table sells in the region, not only those searched.
  PoolMarket market{catalogs, table, options, region, searched_gpus(catalogs, table, {}, region, options)};
  std::vector<AdviceCandidate> out;
  // The baseline: dedicated on the scenario's own GPU, sized like everything else.
  const std::string own_gpu = scenario::fleet_gpu_id(own_entry(scenario), scenario, catalogs);
  const auto* own = catalogs.gpus->find(own_gpu);
  const auto baseline_plans = pool_plans(scenario, market, own_gpu, own->memory_gib, true);
  SW_CHECK(!baseline_plans.empty(), "the scenario's tenants fit its fleet (validate first)");
  out.push_back(with_plan(AdviceCandidate{"dedicated on " + own_gpu + " (baseline)",
                                          own_gpu,
                                          scenario::sized_for_sla(StrategyKind::dedicated),
                                          true,
                                          {},
                                          {},
                                          {}},
                          baseline_plans.front()));
  for (const auto& gpu_id : gpus) {
    for (StrategyKind kind : kinds)
      add_kind_candidates(out, scenario, market, *catalogs.gpus->find(gpu_id), kind, own_gpu);
  }
  // Dedicated with each tenant on the cheapest GPU type that holds it: a fleet of pools.
  const auto baseline = [](StrategyKind kind) { return scenario::policy_of(kind).is_baseline(); };
  if (std::any_of(kinds.begin(), kinds.end(), baseline) && selection.gpus.empty()) {
    if (auto c = each_on_its_cheapest(scenario, market, own_gpu)) out.push_back(std::move(*c));
  }
  if (out.size() == 1 && !(kinds.size() == 1 && baseline(kinds.front()))) {
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

/// Each tenant's thread cap by its slack, as (label suffix, the per-tenant settings); none when no
/// tenant gets a cap or every one gets 50 % (the uniform candidate).
std::optional<std::pair<std::string, std::map<std::string, scenario::TenantStrategySettings>>> caps_by_slack(
    const scenario::Scenario& s, const std::vector<double>& slack) {
  std::map<std::string, scenario::TenantStrategySettings> tenants;
  std::map<double, std::vector<std::string>> by_cap;
  for (std::size_t i = 0; i < s.tenants.size(); ++i) {
    const double cap = thread_cap_for_slack(slack[i]);
    if (cap >= 100.0) continue;
    tenants[s.tenants[i].name].active_thread_pct = cap;
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
  return std::make_pair(label, tenants);
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

/// How the advisor tunes candidates of this one's kind to the baseline's slack.
scenario::AdvisorTuning tuning_of(const AdviceCandidate& c) {
  return scenario::policy_of(c.strategy.kind).advisor_tuning();
}

/// True for a candidate with its kind's plain settings (no cap, no per-tenant setting) that the
/// advisor tunes.
bool plain(const AdviceCandidate& c) {
  return !c.baseline && tuning_of(c) != scenario::AdvisorTuning::none && c.strategy.tenants.empty() &&
         !c.strategy.active_thread_pct && c.priorities.empty();
}

/// The candidate with the baseline's settings derived from a plain one (`base`): thread caps by
/// `caps`; or the `tight` tenants first (those not in a pool, where a tenant runs alone and a
/// priority buys nothing). nullopt when there is none.
std::optional<AdviceCandidate> derived_candidate(
    const AdviceCandidate& base,
    const std::optional<std::pair<std::string, std::map<std::string, scenario::TenantStrategySettings>>>& caps,
    const std::vector<std::string>& tight) {
  AdviceCandidate c = base;
  const std::string name = models::to_string(base.strategy.kind);
  switch (tuning_of(base)) {
    case scenario::AdvisorTuning::none: return std::nullopt;
    case scenario::AdvisorTuning::thread_caps_by_slack:
      if (!caps) return std::nullopt;
      c.label = candidate_label(name, caps->first, " on " + base.gpu) + pools_suffix(base);
      c.strategy = scenario::sized_for_sla(base.strategy.kind);
      c.strategy.tenants = caps->second;
      return c;
    case scenario::AdvisorTuning::tightest_first: {
      std::vector<std::string> first;
      for (const auto& tenant : tight) {
        if (!base.pools.count(tenant)) first.push_back(tenant);
      }
      if (first.empty()) return std::nullopt;
      c.label = candidate_label(name, ", " + names_text(first) + " first", " on " + base.gpu) + pools_suffix(base);
      for (const auto& tenant : first) c.priorities[tenant] = scenario::Priority::high;
      return c;
    }
  }
  return std::nullopt;
}

}  // namespace

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

std::vector<AdviceCandidate> with_baseline_settings(std::vector<AdviceCandidate> candidates,
                                                    const scenario::Scenario& s,
                                                    const scenario::StrategyResult& baseline) {
  if (s.tenants.empty()) return candidates;
  const auto slack = baseline_slacks(s, baseline);
  const auto caps = caps_by_slack(s, slack);
  const bool priorities_given = std::any_of(s.tenants.begin(), s.tenants.end(), [](const scenario::Tenant& t) {
    return t.priority != scenario::Priority::normal;
  });
  const auto tight = priorities_given ? std::vector<std::string>{} : tightest_tenants(s, slack);
  // One derived candidate per plain one (its GPU and pools), after the last of its kind there.
  std::vector<AdviceCandidate> plains;
  for (const auto& c : candidates) {
    if (plain(c)) plains.push_back(c);
  }
  for (const auto& base : plains) {
    auto c = derived_candidate(base, caps, tight);
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
  if (!scenario::policy_of(candidate.strategy.kind).is_baseline()) {
    s.strategies.push_back(scenario::sized_for_sla(StrategyKind::dedicated));
  }
  // A strategy's sidecars (the CPU instances it needs) come with every candidate of its kind.
  for (auto& strategy : s.strategies) {
    const auto same = std::find_if(base.strategies.begin(), base.strategies.end(),
                                   [&](const StrategySpec& b) { return b.kind == strategy.kind; });
    if (same != base.strategies.end()) strategy.sidecars = same->sidecars;
  }
  return s;
}

}  // namespace slicewise::advisor
