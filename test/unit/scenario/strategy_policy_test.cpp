// The strategy registry: one policy per kind, in the kind table's order, and every key a policy
// reads is one the reader knows.
#include <gtest/gtest.h>

#include <algorithm>

#include "scenario/kind_keys.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {
namespace {

using models::StrategyKind;

TEST(StrategyPolicies, EveryKindHasAPolicyInTableOrder) {
  const auto& kinds = models::strategy_kind_table();
  const auto& policies = strategy_policies();
  ASSERT_EQ(policies.size(), kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(policies[i]->kind(), kinds[i].second) << kinds[i].first;
    EXPECT_EQ(&policy_of(kinds[i].second), policies[i]);
    EXPECT_FALSE(policies[i]->summary().empty()) << kinds[i].first;
  }
}

/// True when `table` lists `key`.
bool lists(const KeyKinds<StrategyKind>& table, const std::string& key) {
  return std::any_of(table.begin(), table.end(), [&](const auto& entry) { return entry.first == key; });
}

TEST(StrategyPolicies, EveryKeyAPolicyReadsIsAKeyTheReaderKnows) {
  for (const auto* policy : strategy_policies()) {
    for (const auto& key : policy->strategy_keys()) {
      EXPECT_TRUE(lists(strategy_keys(), key)) << models::to_string(policy->kind()) << " reads " << key;
      EXPECT_TRUE(uses(strategy_keys(), key, policy->kind()));
    }
    for (const auto& key : policy->tenant_keys()) {
      EXPECT_TRUE(lists(tenant_setting_keys(), key)) << models::to_string(policy->kind()) << " reads " << key;
      EXPECT_TRUE(uses(tenant_setting_keys(), key, policy->kind()));
    }
  }
  // A key no policy reads would be rejected for every kind.
  for (const auto& [key, kinds] : strategy_keys()) EXPECT_FALSE(kinds.empty()) << key;
  for (const auto& [key, kinds] : tenant_setting_keys()) EXPECT_FALSE(kinds.empty()) << key;
}

TEST(StrategyPolicies, KeysFollowTheMechanisms) {
  EXPECT_EQ(kinds_using(strategy_keys(), "replicas", models::strategy_kind_table()),
            "time_slicing, mps, mig_time_slicing, hami, vgpu");
  EXPECT_EQ(kinds_using(strategy_keys(), "layout", models::strategy_kind_table()), "mig, mig_time_slicing");
  EXPECT_EQ(kinds_using(tenant_setting_keys(), "weight", models::strategy_kind_table()),
            "time_slicing, mig_time_slicing, hami, vgpu");
}

TEST(StrategyPolicies, IsolationFollowsTheSeedsMatrix) {
  using models::IsolationLevel;
  EXPECT_EQ(policy_of(StrategyKind::dedicated).isolation(), IsolationLevel::hardware);
  EXPECT_EQ(policy_of(StrategyKind::time_slicing).isolation(), IsolationLevel::none);
  EXPECT_EQ(policy_of(StrategyKind::mps).isolation(), IsolationLevel::software);
  EXPECT_EQ(policy_of(StrategyKind::mig).isolation(), IsolationLevel::hardware);
  EXPECT_EQ(policy_of(StrategyKind::mig_time_slicing).isolation(), IsolationLevel::none);
  EXPECT_EQ(policy_of(StrategyKind::hami).isolation(), IsolationLevel::software);
  EXPECT_EQ(policy_of(StrategyKind::vgpu).isolation(), IsolationLevel::hardware);
}

TEST(StrategyPolicies, TimeSlicingEfficiencyIsQuantumOverQuantumPlusSwitch) {
  StrategySpec spec;
  spec.kind = StrategyKind::time_slicing;
  spec.quantum_ms = 3.0;
  spec.switch_cost_ms = 1.0;
  const auto params = policy_of(spec.kind).sharing(spec, {}, 2);
  EXPECT_EQ(params.discipline, models::SharingDiscipline::time_sliced);
  EXPECT_DOUBLE_EQ(params.efficiency, 0.75);
  EXPECT_FALSE(policy_of(spec.kind).exact_quanta(spec, {}, 2).has_value());
  spec.exact = true;
  const auto quanta = policy_of(spec.kind).exact_quanta(spec, {}, 2);
  ASSERT_TRUE(quanta.has_value());
  EXPECT_DOUBLE_EQ(quanta->quantum_ms, 3.0);
  EXPECT_DOUBLE_EQ(quanta->switch_cost_ms, 1.0);
}

}  // namespace
}  // namespace slicewise::scenario
