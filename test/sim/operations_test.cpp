// Faults and MIG layout schedules in a run, on scenarios whose answer is known in closed form
// (docs/faults.md, docs/mig-schedule.md).
#include <cmath>

#include <gtest/gtest.h>

#include "test/sim/sim_fixture.hpp"

namespace slicewise::test {
namespace {

using models::StrategyKind;
using scenario::FaultKind;

scenario::FaultSpec scheduled_only() {
  scenario::FaultSpec spec;
  spec.random = false;
  return spec;
}

scenario::ScheduledFault gpu_fault(double at_s, FaultKind kind, int gpu) {
  scenario::ScheduledFault f;
  f.at_s = at_s;
  f.kind = kind;
  f.gpu = gpu;
  return f;
}

/// Scheduled faults only: GPU `gpu` fails at `at_s` and is back `repair_s` later (restart 0 s).
scenario::FaultSpec one_gpu_failure(double at_s, int gpu, double repair_s) {
  auto spec = scheduled_only();
  spec.gpu_repair_s = repair_s;
  spec.context_restart_s = 0.0;
  spec.schedule = {gpu_fault(at_s, FaultKind::gpu_failure, gpu)};
  return spec;
}

scenario::ScheduledFault crash(double at_s, const std::string& tenant, int replica = 0) {
  scenario::ScheduledFault f;
  f.at_s = at_s;
  f.kind = FaultKind::tenant_crash;
  f.tenant = tenant;
  f.replica = replica;
  return f;
}

/// One user sending 0.5 s requests back to back on a dedicated A100 for 100 s; the GPU fails at
/// 30.25 s and is back 10 s later (repair 10 s, restart 0 s); a lost request is re-sent at most
/// `max_retries` times (by default, the scenario's default).
scenario::Scenario solo_gpu_failure(int max_retries = scenario::FaultSpec{}.max_retries) {
  auto s = make_scenario("A100-80GB", 1, 100.0);
  s.tenants.push_back(generic_tenant("solo", 0.5));
  s.strategies = {strategy(StrategyKind::dedicated)};
  auto faults = one_gpu_failure(30.25, 0, 10.0);
  faults.max_retries = max_retries;
  s.faults = faults;
  return s;
}

TEST(Faults, AGpuFailureAtAFixedTimeGivesExactDowntimeAndOneRetriedRequest) {
  // One user sends 0.5 s requests back to back on a dedicated GPU. The GPU fails at 30.25 s, in
  // the request sent at 30.0 s; it is back 10 s later (repair 10 s, restart 0 s). The lost request
  // waits for it, runs from 40.25 s to 40.75 s, and the user goes on from there.
  const auto result = simulate(solo_gpu_failure());
  const auto& strategy = result.strategies.at(0);
  const auto& tenant = strategy.tenants.at(0);
  EXPECT_DOUBLE_EQ(tenant.downtime_s, 10.0);
  EXPECT_DOUBLE_EQ(tenant.availability, 0.9);
  EXPECT_EQ(tenant.num_interruptions, 1);
  EXPECT_EQ(tenant.num_retried, 1);
  EXPECT_EQ(tenant.num_failed, 0);
  // Sent at 0, 0.5, ..., 30.0 (61), then at 40.75 + 0.5k < 100 (119): every one completes.
  EXPECT_EQ(tenant.num_completed, 61 + 119);
  EXPECT_NEAR(tenant.latency_s.max, 40.75 - 30.0, 1e-9);
  ASSERT_TRUE(strategy.faults);
  ASSERT_EQ(strategy.faults->events.size(), 1U);
  const auto& event = strategy.faults->events[0];
  EXPECT_EQ(event.kind, "gpu_failure");
  EXPECT_EQ(event.contexts_hit, std::vector<std::string>{"solo#0"});
  EXPECT_EQ(event.tenants_hit, 1);
  EXPECT_DOUBLE_EQ(event.outage_s, 10.0);
  EXPECT_DOUBLE_EQ(strategy.faults->blast_radius_tenants, 1.0);
  // SimGrid's host was off exactly while the GPU was down.
  EXPECT_NEAR(strategy.devices.at(0).down_s, 10.0, 1e-9);
  // Expected per month: the Llama 3 GPU failure rate on one GPU.
  ASSERT_EQ(strategy.faults->expected.size(), 1U);
  EXPECT_NEAR(strategy.faults->expected[0].per_month, 256.0 / (16384.0 * 54.0 * 24.0) * 730.0, 1e-15);
  EXPECT_DOUBLE_EQ(strategy.faults->expected[0].tenants_hit, 1.0);
}

TEST(Faults, AFailureOfAnyGpuOfATensorParallelGroupTakesTheGroupDown) {
  // Llama-3.1-70B over GPUs 0 and 1 of two H100s (tensor_parallel 2). GPU 1, not the group's
  // first, fails at 20.25 s for 10 s: the whole group stops serving, and the expected faults count
  // both of its GPUs.
  auto s = make_scenario("H100-SXM-80GB", 2, 60.0);
  auto t = llm_tenant("big", "Llama-3.1-70B-Instruct", 512.0, 64.0);
  t.workload.engine->tensor_parallel = 2;
  t.workload.engine->max_model_len = 8192;
  s.tenants = {t};
  s.strategies = {strategy(StrategyKind::dedicated)};
  s.faults = one_gpu_failure(20.25, 1, 10.0);
  const auto strategy = simulate(s).strategies.at(0);
  const auto& tenant = strategy.tenants.at(0);
  EXPECT_EQ(strategy.devices.at(0).gpu_count, 2);
  EXPECT_DOUBLE_EQ(tenant.downtime_s, 10.0);
  EXPECT_EQ(tenant.num_interruptions, 1);
  ASSERT_TRUE(strategy.faults);
  ASSERT_EQ(strategy.faults->events.size(), 1U);
  EXPECT_EQ(strategy.faults->events[0].gpu_index, 1);
  EXPECT_EQ(strategy.faults->events[0].contexts_hit, std::vector<std::string>{"big#0"});
  EXPECT_NEAR(strategy.devices.at(0).down_s, 10.0, 1e-9);
  ASSERT_EQ(strategy.faults->expected.size(), 1U);
  EXPECT_NEAR(strategy.faults->expected[0].per_month, 2.0 * 256.0 / (16384.0 * 54.0 * 24.0) * 730.0, 1e-15);
  EXPECT_DOUBLE_EQ(strategy.faults->expected[0].tenants_hit, 1.0);
}

TEST(Faults, WithoutRetriesTheLostRequestFailsAndCountsAgainstTheSla) {
  const auto result = simulate(solo_gpu_failure(0));
  const auto& tenant = result.strategies.at(0).tenants.at(0);
  // The request lost at 30.25 s fails; its user backs off 1 s and sends at 31.25 s, ..., 39.25 s:
  // nothing serves, each fails. At 40.25 s the GPU is back (its recovery was due before the user's
  // send) and the user's requests complete again: 10 failed, each an SLA violation.
  EXPECT_EQ(tenant.num_retried, 0);
  EXPECT_EQ(tenant.num_failed, 10);
  EXPECT_EQ(tenant.sla_violations, tenant.num_failed);
  EXPECT_EQ(tenant.num_arrived, tenant.num_completed + tenant.num_failed);
  EXPECT_DOUBLE_EQ(tenant.downtime_s, 10.0);
}

/// Two tenants sharing one GPU under `kind`; tenant a's context crashes at 20.25 s.
scenario::StrategyResult crash_beside(StrategyKind kind, const std::string& layout, double co_kill = 1.0) {
  auto s = make_scenario("H100-SXM-80GB", 1, 60.0);
  s.tenants.push_back(generic_tenant("a", 0.5, 0.3));
  s.tenants.push_back(generic_tenant("b", 0.5, 0.3));
  auto st = strategy(kind, layout);
  if (kind == StrategyKind::vgpu) st.replicas = 2;
  s.strategies = {st};
  auto faults = scheduled_only();
  faults.context_restart_s = 5.0;
  faults.co_tenant_kill_frac = co_kill;
  faults.schedule = {crash(20.25, "a")};
  s.faults = faults;
  return simulate(s).strategies.at(0);
}

TEST(Faults, ATenantsCrashTakesWhatTheMechanismDoesNotIsolate) {
  struct Case {
    StrategyKind kind;
    std::string layout;
    double co_kill;
    std::vector<std::string> hit;
  };
  const std::vector<Case> cases = {
      {StrategyKind::time_slicing, "", 1.0, {"a#0", "b#0"}},  // no fault isolation between replicas
      {StrategyKind::time_slicing, "", 0.0, {"a#0"}},         // ... unless the user says otherwise
      {StrategyKind::hami, "", 1.0, {"a#0", "b#0"}},
      {StrategyKind::mps, "", 1.0, {"a#0", "b#0"}},          // a client's fatal fault ends every client
      {StrategyKind::mps, "", 0.0, {"a#0", "b#0"}},          // whatever the time-slicing fraction
      {StrategyKind::mig, "3g.40gb+3g.40gb", 1.0, {"a#0"}},  // the instance contains it
      {StrategyKind::vgpu, "", 1.0, {"a#0"}},                // the VM contains it
  };
  for (const auto& c : cases) {
    const auto result = crash_beside(c.kind, c.layout, c.co_kill);
    const std::string label = result.name + " co_kill " + std::to_string(c.co_kill);
    ASSERT_TRUE(result.faults) << label;
    ASSERT_EQ(result.faults->events.size(), 1U) << label;
    EXPECT_EQ(result.faults->events[0].contexts_hit, c.hit) << label;
    EXPECT_EQ(result.faults->events[0].tenants_hit, static_cast<int>(c.hit.size())) << label;
    EXPECT_DOUBLE_EQ(result.tenants.at(0).downtime_s, 5.0) << label;
    EXPECT_DOUBLE_EQ(result.tenants.at(1).downtime_s, c.hit.size() == 2 ? 5.0 : 0.0) << label;
    EXPECT_EQ(result.tenants.at(1).num_interruptions, c.hit.size() == 2 ? 1 : 0) << label;
  }
}

TEST(Faults, AnMpsServerFaultEndsEveryClientAndStrikesNoOtherStrategy) {
  for (const auto kind : {StrategyKind::mps, StrategyKind::time_slicing}) {
    auto s = make_scenario("H100-SXM-80GB", 1, 60.0);
    s.tenants.push_back(generic_tenant("a", 0.5, 0.3));
    s.tenants.push_back(generic_tenant("b", 0.5, 0.3));
    s.strategies = {strategy(kind)};
    auto faults = scheduled_only();
    faults.context_restart_s = 4.0;
    faults.schedule = {gpu_fault(10.25, FaultKind::mps_server_fault, 0)};
    s.faults = faults;
    const auto result = simulate(s).strategies.at(0);
    const bool mps = kind == StrategyKind::mps;
    ASSERT_TRUE(result.faults);
    EXPECT_EQ(result.faults->events.at(0).tenants_hit, mps ? 2 : 0) << result.name;
    EXPECT_DOUBLE_EQ(result.tenants.at(0).downtime_s, mps ? 4.0 : 0.0) << result.name;
    EXPECT_DOUBLE_EQ(result.tenants.at(1).downtime_s, mps ? 4.0 : 0.0) << result.name;
  }
}

TEST(Faults, ATenantWithAContextOnAnotherGpuStaysUpAndItsRequestsGoThere) {
  // Two contexts of one tenant on two dedicated GPUs; GPU 0 fails for 20 s. The tenant is never
  // down; the request lost on GPU 0 is re-sent to GPU 1 at once.
  auto s = make_scenario("A100-80GB", 2, 60.0);
  auto t = generic_tenant("svc", 0.5);
  t.num_contexts = 2;
  t.load.num_users = 2;
  s.tenants.push_back(t);
  s.strategies = {strategy(StrategyKind::dedicated)};
  s.faults = one_gpu_failure(10.25, 0, 20.0);
  const auto result = simulate(s).strategies.at(0);
  const auto& tenant = result.tenants.at(0);
  EXPECT_DOUBLE_EQ(tenant.downtime_s, 0.0);
  EXPECT_DOUBLE_EQ(tenant.availability, 1.0);
  EXPECT_EQ(tenant.num_retried, 1);
  EXPECT_EQ(tenant.num_interruptions, 1);
  EXPECT_EQ(result.faults->events.at(0).contexts_hit, std::vector<std::string>{"svc#0"});
}

TEST(Faults, TheSameSeedDrawsTheSameFaultsAndADifferentSeedOthers) {
  auto s = make_scenario("A100-80GB", 2, 3600.0);
  auto t = generic_tenant("svc", 0.5);
  t.num_contexts = 2;
  s.tenants.push_back(t);
  s.strategies = {strategy(StrategyKind::dedicated)};
  scenario::FaultSpec faults;
  faults.tenant_crash_per_context_hour = 3.0;  // about 6 crashes in the hour
  faults.context_restart_s = 1.0;
  s.faults = faults;
  const auto first = simulate(s).strategies.at(0);
  const auto again = simulate(s).strategies.at(0);
  s.seed = 8;
  const auto other = simulate(s).strategies.at(0);
  ASSERT_TRUE(first.faults && again.faults && other.faults);
  EXPECT_EQ(first.faults->events, again.faults->events);
  EXPECT_NE(first.faults->events, other.faults->events);
  EXPECT_GE(first.faults->events.size(), 1U);
  for (const auto& e : first.faults->events) {
    EXPECT_EQ(e.kind, "tenant_crash");
    EXPECT_FALSE(e.scheduled);
  }
}

/// A MIG schedule on one H100 whose answer is exact: tenant a alone on 7g.80gb until 36 s, then
/// a on 4g.40gb beside b on 3g.40gb. The re-partition takes 6 s.
scenario::Scenario two_phase_schedule() {
  auto s = make_scenario("H100-SXM-80GB", 1, 72.0);
  s.tenants.push_back(generic_tenant("a", 0.7));
  s.tenants.push_back(generic_tenant("b", 0.7));
  auto st = strategy(StrategyKind::mig);
  scenario::LayoutSchedule schedule;
  schedule.start_hour = 0.0;
  schedule.repartition_s = 6.0;
  scenario::LayoutPhase one;
  one.name = "one";
  one.from_hour = 0.0;
  one.layout = "7g.80gb";
  one.tenants["a"] = {"7g.80gb", 0};
  scenario::LayoutPhase two;
  two.name = "two";
  two.from_hour = 0.01;  // 36 s
  two.layout = "4g.40gb+3g.40gb";
  two.tenants["a"] = {"4g.40gb", 0};
  two.tenants["b"] = {"3g.40gb", 0};
  schedule.phases = {one, two};
  st.layout_schedule = schedule;
  s.strategies = {st};
  return s;
}

TEST(MigSchedule, ARepartitionServesNothingForItsTimeAndATenantWaitsForItsPhase) {
  const auto result = simulate(two_phase_schedule()).strategies.at(0);
  const auto& a = result.tenants.at(0);
  const auto& b = result.tenants.at(1);
  // a: up but for the re-partition, 36 s to 42 s; the request it had in service (sent at 35.7 s)
  // is re-sent to its new instance once that is up.
  EXPECT_NEAR(a.downtime_s, 6.0, 1e-9);
  EXPECT_EQ(a.num_interruptions, 1);
  EXPECT_EQ(a.num_retried, 1);
  EXPECT_EQ(a.num_failed, 0);
  // b: no instance until phase two is up at 42 s; its first request waits for it (held, not retried).
  EXPECT_NEAR(b.downtime_s, 42.0, 1e-9);
  EXPECT_EQ(b.num_interruptions, 0);
  EXPECT_EQ(b.num_retried, 0);
  EXPECT_GE(b.latency_s.max, 42.0);
  ASSERT_TRUE(result.faults);
  EXPECT_EQ(result.faults->num_repartitions, 1);
  const auto& event = result.faults->events.at(0);
  EXPECT_EQ(event.kind, "repartition");
  EXPECT_EQ(event.origin, "one -> two");
  EXPECT_NEAR(event.at_s, 36.0, 1e-9);
  EXPECT_DOUBLE_EQ(event.outage_s, 6.0);
  EXPECT_EQ(event.contexts_hit, std::vector<std::string>{"a#0"});
  // Three devices, each with its phase; SimGrid's hosts were off while their phase was not in force,
  // which is the schedule (out of phase), not an outage: none was down in its own phase (this used
  // to read "down 42 s").
  ASSERT_EQ(result.devices.size(), 3U);
  EXPECT_EQ(result.devices[0].name, "gpu0/7g.80gb@0:one");
  EXPECT_EQ(result.devices[0].phase, "one");
  EXPECT_NEAR(result.devices[0].out_of_phase_s, result.simulated_s - 36.0, 1e-9);
  EXPECT_EQ(result.devices[1].phase, "two");
  EXPECT_NEAR(result.devices[1].out_of_phase_s, 42.0, 1e-9);
  EXPECT_NEAR(result.devices[2].out_of_phase_s, 42.0, 1e-9);
  for (const auto& device : result.devices) EXPECT_DOUBLE_EQ(device.down_s, 0.0) << device.name;
  EXPECT_EQ(result.num_gpus_used, 1);
  EXPECT_EQ(a.num_contexts, 1);
  EXPECT_EQ(b.num_contexts, 1);
}

TEST(MigSchedule, RollingRepartitionsKeepATenantOnTwoGpusUp) {
  // Two GPUs, tenant a with a context on each in both phases: all at once, a is down for the
  // re-partition; rolling, one GPU at a time, a never is, and the run counts two re-partitions.
  auto s = two_phase_schedule();
  s.fleet = {{"H100-SXM-80GB", "", 2, {}}};
  s.tenants[0].num_contexts = 2;
  s.tenants[0].load.num_users = 2;
  auto& schedule = *s.strategies[0].layout_schedule;
  schedule.phases[0].tenants["a"].num_contexts = 2;
  schedule.phases[1].tenants["a"].num_contexts = 2;
  const auto at_once = simulate(s).strategies.at(0);
  schedule.rolling = true;
  const auto rolling = simulate(s).strategies.at(0);
  EXPECT_NEAR(at_once.tenants.at(0).downtime_s, 6.0, 1e-9);
  EXPECT_NEAR(rolling.tenants.at(0).downtime_s, 0.0, 1e-9);
  EXPECT_EQ(rolling.faults->num_repartitions, 2);
  EXPECT_NEAR(rolling.faults->events.at(1).at_s - rolling.faults->events.at(0).at_s, 6.0, 1e-9);
}

}  // namespace
}  // namespace slicewise::test
