// The strategy checks of validate_scenario: keys set for another kind, per-tenant settings (known
// tenant, key applies), the strategy's own checks (its policy: MIG layouts, MPS client limits, vGPU
// fixed_share, ...) and the sidecars' instance types.
#include <algorithm>

#include "core/spell.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/scenario_checker.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::scenario::detail {

namespace {

/// The declared keys set on `owner` (away from their defaults), in declaration order.
template <class Owner>
std::vector<std::string> set_keys(const std::vector<ParamDecl<Owner>>& params, const Owner& owner) {
  std::vector<std::string> set;
  for (const auto& param : params) {
    if (param.is_set(owner)) set.push_back(param.key);
  }
  return set;
}

}  // namespace

void ScenarioChecker::strategy(std::size_t j) {
  const auto& st = s_.strategies[j];
  const std::string pointer = "/strategies/" + std::to_string(j);
  unused_strategy_fields(st, pointer);
  tenant_settings(st, pointer);
  const StrategyCheck check{
      s_, c_, shared_gpus_, num_shared_gpus_, too_big_, pointer, [this](std::string at, std::string message) {
        add(std::move(at), std::move(message));
      }};
  policy_of(st.kind).check(st, check);
  for (std::size_t k = 0; k < st.sidecars.size(); ++k) {
    const std::string at = pointer + "/sidecars/" + std::to_string(k) + "/instance_type";
    instance(st.sidecars[k].instance_type, at);
  }
}

/// Fields set on a strategy whose kind does not use them (an in-memory scenario can have them).
void ScenarioChecker::unused_strategy_fields(const StrategySpec& st, const std::string& pointer) {
  const std::string kind = models::to_string(st.kind);
  for (const auto& key : set_keys(strategy_params(), st)) {
    if (!uses(strategy_keys(), key, st.kind)) {
      std::string at = pointer + "/";
      at += key;
      add(std::move(at), "set, but not used by strategy kind \"" + kind + "\" (applies to " +
                             kinds_using(strategy_keys(), key, models::strategy_kind_table()) + ")");
    }
  }
}

/// Each per-tenant entry names a tenant, and each of its settings applies to the strategy.
void ScenarioChecker::tenant_settings(const StrategySpec& st, const std::string& pointer) {
  std::vector<std::string> names;
  for (const auto& t : s_.tenants) names.push_back(t.name);
  const std::string kind = models::to_string(st.kind);
  for (const auto& [name, settings] : st.tenants) {
    const std::string at = pointer + "/tenants/" + json_pointer_token(name);
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      const auto hint = did_you_mean_suffix(name, names);
      add(at, "unknown tenant " + quoted_excerpt(name) + (hint.empty() ? "; tenants: " + join(names, ", ") : hint));
    }
    for (const auto& key : set_keys(tenant_params(), settings)) {
      std::string key_at = at + "/";
      key_at += key;
      if (!uses(tenant_setting_keys(), key, st.kind)) {
        add(std::move(key_at), "does not apply to strategy kind \"" + kind + "\" (applies to " +
                                   kinds_using(tenant_setting_keys(), key, models::strategy_kind_table()) + ")");
      } else if (auto problem = policy_of(st.kind).tenant_key_problem(st, key); !problem.empty()) {
        add(std::move(key_at), std::move(problem));
      }
    }
  }
}

/// Sizing for SLA: the sized fleet is N GPUs of one type, and savings compare sized fleets, so the
/// dedicated baseline must be sized as well.
void ScenarioChecker::sizing() {
  const auto sized = std::find_if(s_.strategies.begin(), s_.strategies.end(),
                                  [](const StrategySpec& st) { return st.sizing == Sizing::sla; });
  if (sized == s_.strategies.end()) return;
  const std::string at = "/strategies/" + std::to_string(sized - s_.strategies.begin()) + "/sizing";
  if (shared_gpus_.size() > 1) {
    std::vector<std::string> ids;
    for (const auto* gpu : shared_gpus_) ids.push_back(gpu->id);
    add(at,
        "sizing \"sla\" needs the GPUs the strategies share to be of one type (the sized fleet is a number of them; "
        "pools reserved for named tenants may be of others); this fleet shares " +
            join(ids, ", ") + ": compare GPU types with `slicewise advise --gpus`");
  }
  const auto dedicated = std::find_if(s_.strategies.begin(), s_.strategies.end(),
                                      [](const StrategySpec& st) { return policy_of(st.kind).is_baseline(); });
  if (dedicated == s_.strategies.end()) {
    add(at, "strategy \"" + sized->name +
                "\" is sized for SLA, so the dedicated baseline must be too (savings compare sized fleets); add "
                "{\"kind\": \"dedicated\", \"sizing\": \"sla\"}");
  } else if (dedicated->sizing != Sizing::sla) {
    add("/strategies/" + std::to_string(dedicated - s_.strategies.begin()),
        "the dedicated baseline is sized as given while strategy \"" + sized->name +
            "\" is sized for SLA; savings must compare sized fleets: add \"sizing\": \"sla\"");
  }
}

}  // namespace slicewise::scenario::detail
