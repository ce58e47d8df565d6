// The strategy checks of validate_scenario: keys set for another kind, per-tenant settings (known
// tenant, key applies), the strategy's own checks (its policy: MIG layouts, MPS client limits, vGPU
// fixed_share, ...) and the sidecars' instance types.
#include <algorithm>

#include "core/spell.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/scenario_checker.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario::detail {

namespace {

/// The JSON keys of the fields that `is_set` marks, in table order.
std::vector<std::string> set_keys(const std::vector<std::pair<std::string, bool>>& is_set) {
  std::vector<std::string> set;
  for (const auto& [key, set_here] : is_set) {
    if (set_here) set.push_back(key);
  }
  return set;
}

/// The StrategySpec fields that differ from their defaults, by JSON key.
std::vector<std::string> set_strategy_fields(const StrategySpec& s) {
  return set_keys({{"replicas", s.replicas != 0},
                   {"quantum_ms", s.quantum_ms.has_value()},
                   {"switch_cost_ms", s.switch_cost_ms.has_value()},
                   {"exact", s.exact},
                   {"active_thread_pct", s.active_thread_pct.has_value()},
                   {"pinned_memory_limit_gib", s.pinned_memory_limit_gib.has_value()},
                   {"low_priority_thread_pct", s.low_priority_thread_pct.has_value()},
                   {"mps_daemon", s.mps_daemon != MpsDaemon::device_plugin},
                   {"layout", !s.layout.empty()},
                   {"layouts", !s.layouts.empty()},
                   {"layout_schedule", s.layout_schedule.has_value()},
                   {"gpucores_pct", s.gpucores_pct.has_value()},
                   {"gpumem_gib", s.gpumem_gib.has_value()},
                   {"vgpu_scheduler", s.vgpu_scheduler != VgpuScheduler::best_effort},
                   {"timeslice_ms", s.timeslice_ms.has_value()}});
}

/// The TenantStrategySettings fields that are set, by JSON key.
std::vector<std::string> set_setting_fields(const TenantStrategySettings& t) {
  return set_keys({{"mig_profile", !t.mig_profile.empty()},
                   {"active_thread_pct", t.active_thread_pct.has_value()},
                   {"gpucores_pct", t.gpucores_pct.has_value()},
                   {"gpumem_gib", t.gpumem_gib.has_value()},
                   {"weight", t.weight.has_value()}});
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
  for (const auto& key : set_strategy_fields(st)) {
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
    for (const auto& key : set_setting_fields(settings)) {
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
