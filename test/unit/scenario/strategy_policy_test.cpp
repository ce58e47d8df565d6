// The strategy registry: one policy per kind, in the kind table's order, and every key a policy
// reads is one the reader knows.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/gpu_catalog.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/strategy_params.hpp"

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

TEST(StrategyPolicies, KindFactsAgreeWithThePolicies) {
  for (const auto* policy : strategy_policies()) {
    const auto& facts = models::facts_of(policy->kind());
    const std::string name = models::to_string(policy->kind());
    EXPECT_EQ(facts.own_device, policy->context_limit(StrategySpec{}) == 1) << name;
    EXPECT_EQ(facts.baseline, facts.own_device && !facts.mig_instances) << name;
    EXPECT_EQ(models::strategy_kind_named(name), policy->kind());
    EXPECT_EQ(policy_named(name), policy);
  }
  EXPECT_EQ(policy_named("mps "), nullptr);
  EXPECT_TRUE(is_baseline("dedicated"));
  EXPECT_FALSE(is_baseline("mig"));
  EXPECT_FALSE(is_baseline("nonsense"));
}

TEST(StrategyPolicies, CrashReachIsOneAnswerPerMechanism) {
  // (same device, same GPU): MPS ends the whole GPU, driver time slicing the device's co-tenants at
  // co_tenant_kill_frac, MIG instances and vGPU VMs contain it.
  const auto chance = [](StrategyKind kind, bool device, bool gpu) {
    return policy_of(kind).crash_kill_chance(device, gpu, 0.25);
  };
  EXPECT_EQ(chance(StrategyKind::mps, false, true), 1.0);
  EXPECT_EQ(chance(StrategyKind::mps, false, false), 0.0);
  EXPECT_EQ(chance(StrategyKind::time_slicing, true, true), 0.25);
  EXPECT_EQ(chance(StrategyKind::time_slicing, false, true), 0.0);
  EXPECT_EQ(chance(StrategyKind::mig_time_slicing, true, true), 0.25);
  EXPECT_EQ(chance(StrategyKind::mig_time_slicing, false, true), 0.0);  // another instance of the GPU
  EXPECT_EQ(chance(StrategyKind::mig, true, true), 0.0);
  EXPECT_EQ(chance(StrategyKind::vgpu, true, true), 0.0);
  EXPECT_EQ(chance(StrategyKind::dedicated, true, true), 0.0);
  for (const auto* policy : strategy_policies()) EXPECT_FALSE(policy->crash_isolation(0.5).empty());
  EXPECT_NE(policy_of(StrategyKind::hami).crash_isolation(0.5).find("co_tenant_kill_frac 0.5"), std::string::npos);
}

TEST(StrategyPolicies, ChargebackWeightsAreTheSharesTheMechanismGives) {
  const auto weight = [](StrategyKind kind, auto set_spec, auto set_own) {
    StrategySpec spec;
    spec.kind = kind;
    set_spec(spec);
    TenantStrategySettings own;
    set_own(own);
    return policy_of(kind).chargeback_weight(spec, &own);
  };
  const auto none = [](auto&) {};
  EXPECT_EQ(weight(StrategyKind::mps, none, none), 100.0);
  EXPECT_EQ(weight(
                StrategyKind::mps, [](StrategySpec& s) { s.active_thread_pct = 40.0; }, none),
            40.0);
  EXPECT_EQ(weight(
                StrategyKind::mps, [](StrategySpec& s) { s.active_thread_pct = 40.0; },
                [](TenantStrategySettings& t) { t.active_thread_pct = 20.0; }),
            20.0);
  EXPECT_EQ(weight(StrategyKind::hami, none, [](TenantStrategySettings& t) { t.gpucores_pct = 30.0; }), 30.0);
  EXPECT_EQ(weight(StrategyKind::time_slicing, none, [](TenantStrategySettings& t) { t.weight = 3.0; }), 3.0);
  // Time slicing inside MIG instances weights its turns as time slicing does.
  EXPECT_EQ(weight(StrategyKind::mig_time_slicing, none, [](TenantStrategySettings& t) { t.weight = 3.0; }), 3.0);
  EXPECT_EQ(weight(StrategyKind::vgpu, none, [](TenantStrategySettings& t) { t.weight = 3.0; }), 1.0);  // best_effort
  EXPECT_EQ(weight(
                StrategyKind::vgpu, [](StrategySpec& s) { s.vgpu_scheduler = VgpuScheduler::fixed_share; },
                [](TenantStrategySettings& t) { t.weight = 3.0; }),
            3.0);
  EXPECT_EQ(weight(StrategyKind::mig, none, none), 1.0);
}

TEST(StrategyPolicies, DeploymentAndAdvisorAnswers) {
  EXPECT_EQ(policy_of(StrategyKind::dedicated).deploy_sharer(), DeploySharer::none);
  EXPECT_EQ(policy_of(StrategyKind::mig).deploy_sharer(), DeploySharer::none);
  EXPECT_EQ(policy_of(StrategyKind::time_slicing).deploy_sharer(), DeploySharer::device_plugin_time_slicing);
  EXPECT_EQ(policy_of(StrategyKind::mig_time_slicing).deploy_sharer(), DeploySharer::device_plugin_time_slicing);
  EXPECT_EQ(policy_of(StrategyKind::mps).deploy_sharer(), DeploySharer::device_plugin_mps);
  EXPECT_EQ(policy_of(StrategyKind::hami).deploy_sharer(), DeploySharer::hami);
  EXPECT_EQ(policy_of(StrategyKind::vgpu).deploy_sharer(), DeploySharer::hypervisor_vgpu);
  StrategySpec own_daemon;
  own_daemon.kind = StrategyKind::mps;
  own_daemon.mps_daemon = MpsDaemon::own;
  EXPECT_NE(policy_of(StrategyKind::mps).not_deployable(own_daemon).find("mps_daemon own"), std::string::npos);
  EXPECT_EQ(policy_of(StrategyKind::mps).not_deployable(StrategySpec{}), "");

  const auto* h100 = models::GpuCatalog::shipped().find("H100-SXM-80GB");
  ASSERT_NE(h100, nullptr);
  const AdvisorGpu own{*h100, nullptr, true, 0.0};
  const AdvisorGpu other{*h100, nullptr, false, 0.0};
  EXPECT_TRUE(policy_of(StrategyKind::dedicated).advisor_settings(own).empty());  // the baseline already
  ASSERT_EQ(policy_of(StrategyKind::dedicated).advisor_settings(other).size(), 1U);
  const auto mps = policy_of(StrategyKind::mps).advisor_settings(own);
  ASSERT_EQ(mps.size(), 2U);
  EXPECT_EQ(mps[1].suffix, " 50 % threads");
  EXPECT_EQ(mps[1].spec.active_thread_pct, 50.0);
  EXPECT_EQ(mps[1].spec.sizing, Sizing::sla);
  const auto vgpu = policy_of(StrategyKind::vgpu).advisor_settings(own);
  ASSERT_EQ(vgpu.size(), 3U);
  EXPECT_DOUBLE_EQ(vgpu[2].device_gib, h100->memory_gib / 8);
  EXPECT_TRUE(policy_of(StrategyKind::mig).advisor_settings(own).empty());  // no MIG geometry given
  EXPECT_TRUE(policy_of(StrategyKind::vgpu).fixed_device_sizes());
  EXPECT_TRUE(policy_of(StrategyKind::mig_time_slicing).fixed_device_sizes());
  EXPECT_FALSE(policy_of(StrategyKind::hami).fixed_device_sizes());
  EXPECT_EQ(policy_of(StrategyKind::mps).advisor_tuning(), AdvisorTuning::thread_caps_by_slack);
  EXPECT_EQ(policy_of(StrategyKind::time_slicing).advisor_tuning(), AdvisorTuning::tightest_first);
  EXPECT_EQ(policy_of(StrategyKind::hami).advisor_tuning(), AdvisorTuning::none);
}

}  // namespace
}  // namespace slicewise::scenario
