// The registry of sharing strategies (one line per policy file of this folder), and the two
// families several policies share.
#include <memory>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

std::unique_ptr<StrategyPolicy> make_dedicated_policy();
std::unique_ptr<StrategyPolicy> make_time_slicing_policy();
std::unique_ptr<StrategyPolicy> make_mps_policy();
std::unique_ptr<StrategyPolicy> make_mig_policy();
std::unique_ptr<StrategyPolicy> make_mig_time_slicing_policy();
std::unique_ptr<StrategyPolicy> make_hami_policy();
std::unique_ptr<StrategyPolicy> make_vgpu_policy();

namespace {

/// Owns the policies, in the order of models::strategy_kind_table().
const std::vector<std::unique_ptr<StrategyPolicy>>& owned() {
  static const auto policies = [] {
    std::vector<std::unique_ptr<StrategyPolicy>> list;
    list.push_back(make_dedicated_policy());
    list.push_back(make_time_slicing_policy());
    list.push_back(make_mps_policy());
    list.push_back(make_mig_policy());
    list.push_back(make_mig_time_slicing_policy());
    list.push_back(make_hami_policy());
    list.push_back(make_vgpu_policy());
    return list;
  }();
  return policies;
}

}  // namespace

const std::vector<const StrategyPolicy*>& strategy_policies() {
  static const auto view = [] {
    std::vector<const StrategyPolicy*> list;
    for (const auto& policy : owned()) list.push_back(policy.get());
    return list;
  }();
  return view;
}

const StrategyPolicy& policy_of(models::StrategyKind kind) {
  for (const auto* policy : strategy_policies()) {
    if (policy->kind() == kind) return *policy;
  }
  throw Error("no policy for strategy kind " + models::to_string(kind));
}

const StrategyPolicy* policy_named(std::string_view kind) {
  const auto named = models::strategy_kind_named(kind);
  return named ? &policy_of(*named) : nullptr;
}

std::vector<std::string> tenants_with_undeployable_priority(const Scenario& scenario, const StrategySpec& spec) {
  std::vector<std::string> out;
  if (policy_of(spec.kind).priority_not_deployable().empty()) return out;
  for (const auto& tenant : scenario.tenants) {
    const auto own = spec.tenants.find(tenant.name);
    const bool weighted = own != spec.tenants.end() && own->second.weight && *own->second.weight != 1.0;
    if (tenant.priority != Priority::normal || weighted) out.push_back(tenant.name);
  }
  return out;
}

double StrategyPolicy::crash_kill_chance(bool same_device, bool same_gpu, double co_tenant_kill_frac) const {
  switch (crash_reach()) {
    case CrashReach::whole_gpu: return same_gpu ? 1.0 : 0.0;
    case CrashReach::own_device: return same_device ? co_tenant_kill_frac : 0.0;
    case CrashReach::own_context: return 0.0;
  }
  return 0.0;
}

std::int64_t StrategyCheck::total_contexts() const {
  std::int64_t contexts = 0;
  for (const auto& t : scenario.tenants) {
    if (!in_reserved_pool(scenario, t.name)) contexts += t.num_contexts;  // a pool's run unshared
  }
  return contexts;
}

models::SharingParams OwnDevicePolicy::sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                               int /*contexts_on_device*/) const {
  models::SharingParams p;
  p.discipline = models::SharingDiscipline::exclusive;
  p.efficiency = models::SharingDefaults::efficiency(quantum_ms(spec, defaults), switch_cost_ms(spec, defaults));
  set_time_slices(spec, defaults, p);
  return p;
}

std::string DriverTimeSlicingPolicy::crash_isolation(double co_tenant_kill_frac) const {
  return "contexts share the GPU without fault isolation, so a tenant's crash can take the co-tenants on its GPU "
         "with it (co_tenant_kill_frac " +
         format_number(co_tenant_kill_frac) + ")";
}

double DriverTimeSlicingPolicy::scheduling_round_ms(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                                    int /*contexts_on_device*/) const {
  return quantum_ms(spec, defaults) + switch_cost_ms(spec, defaults);
}

models::SharingParams DriverTimeSlicingPolicy::sharing(const StrategySpec& spec,
                                                       const models::SharingDefaults& defaults,
                                                       int /*contexts_on_device*/) const {
  models::SharingParams p;
  p.discipline = models::SharingDiscipline::time_sliced;
  p.efficiency = models::SharingDefaults::efficiency(quantum_ms(spec, defaults), switch_cost_ms(spec, defaults));
  set_time_slices(spec, defaults, p);
  return p;
}

std::optional<ExactQuanta> DriverTimeSlicingPolicy::exact_quanta(const StrategySpec& spec,
                                                                 const models::SharingDefaults& defaults,
                                                                 int /*contexts_on_device*/) const {
  if (!spec.exact) return std::nullopt;
  return ExactQuanta{quantum_ms(spec, defaults), switch_cost_ms(spec, defaults)};
}

}  // namespace slicewise::scenario
