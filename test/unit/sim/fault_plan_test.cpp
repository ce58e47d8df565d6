// Faults and layout schedules before the run (sim/fault_plan.hpp), against closed forms.
#include "sim/fault_plan.hpp"

#include <gtest/gtest.h>

namespace slicewise::sim {
namespace {

using scenario::FaultKind;

PlacedDevice device(std::size_t gpu, std::vector<std::pair<std::size_t, int>> contexts) {
  PlacedDevice d;
  d.name = "gpu" + std::to_string(gpu);
  d.gpu_index = gpu;
  for (const auto& [tenant, replica] : contexts) {
    PlacedContext c;
    c.tenant = tenant;
    c.replica = replica;
    d.contexts.push_back(c);
  }
  return d;
}

scenario::Scenario two_tenants() {
  scenario::Scenario s;
  s.seed = 3;
  s.horizon_s = 3600.0;
  s.tenants.resize(2);
  s.tenants[0].name = "a";
  s.tenants[1].name = "b";
  return s;
}

TEST(FaultPlan, ExpectedExposureOfTimeSlicingMatchesTheClosedForm) {
  // GPU 0 time-slices a#0 and b#0, GPU 1 runs a#1. GPU failures 0.001 per GPU-hour, crashes 0.01
  // per context-hour, a co-tenant dies with a crash half the time; repair 3600 s, restart 36 s.
  Placement placement;
  placement.devices = {device(0, {{0, 0}, {1, 0}}), device(1, {{0, 1}})};
  const auto s = two_tenants();
  FaultSettings settings;
  settings.any = true;
  settings.gpu_failure_per_gpu_hour = 0.001;
  settings.spec.tenant_crash_per_context_hour = 0.01;
  settings.spec.co_tenant_kill_frac = 0.5;
  settings.spec.gpu_repair_s = 3600.0;
  settings.spec.context_restart_s = 36.0;
  scenario::FaultRecord record;
  expected_exposure(settings, models::StrategyKind::time_slicing, {{&placement, 1.0}}, s, record);

  ASSERT_EQ(record.expected.size(), 2U);
  const auto& gpu = record.expected[0];
  EXPECT_EQ(gpu.kind, "gpu_failure");
  EXPECT_NEAR(gpu.per_month, 0.001 * 2 * 730, 1e-12);
  EXPECT_NEAR(gpu.tenants_hit, 1.5, 1e-12);  // GPU 0 hits two tenants, GPU 1 one
  EXPECT_NEAR(gpu.contexts_hit, 1.5, 1e-12);
  EXPECT_DOUBLE_EQ(gpu.outage_s, 3636.0);
  const auto& crash = record.expected[1];
  EXPECT_EQ(crash.kind, "tenant_crash");
  EXPECT_NEAR(crash.per_month, 0.01 * 3 * 730, 1e-12);
  // a#0 and b#0 each take the other half the time (1.5 contexts, 1.5 tenants); a#1 only itself.
  EXPECT_NEAR(crash.contexts_hit, (1.5 + 1.5 + 1.0) / 3, 1e-12);
  EXPECT_NEAR(crash.tenants_hit, (1.5 + 1.5 + 1.0) / 3, 1e-12);
  EXPECT_NEAR(record.expected_blast_radius, (1.46 * 1.5 + 21.9 * 4.0 / 3) / (1.46 + 21.9), 1e-12);

  ASSERT_EQ(record.tenants.size(), 2U);
  // a: both its GPUs (2 × 0.73), crashes of a#0 and a#1 (1 each) and of b#0 (0.5).
  EXPECT_NEAR(record.tenants[0].interruptions_per_month, 1.46 + 7.3 * 2.5, 1e-12);
  EXPECT_DOUBLE_EQ(record.tenants[0].outage_hours_per_month, 0.0);  // never both contexts at once
  EXPECT_DOUBLE_EQ(record.tenants[0].availability, 1.0);
  // b: GPU 0 (0.73), its own crash (1) and a#0's (0.5); down each time its one context is.
  EXPECT_NEAR(record.tenants[1].interruptions_per_month, 0.73 + 7.3 * 1.5, 1e-12);
  const double outage_h = 0.73 * 3636.0 / 3600.0 + 7.3 * 1.5 * 36.0 / 3600.0;
  EXPECT_NEAR(record.tenants[1].outage_hours_per_month, outage_h, 1e-12);
  EXPECT_NEAR(record.tenants[1].availability, 1.0 - outage_h / 730.0, 1e-15);
}

TEST(FaultPlan, MpsCrashesReachTheWholeGpuAndMigCrashesStayInTheirInstance) {
  Placement mps;
  mps.devices = {device(0, {{0, 0}, {1, 0}})};
  Placement mig;
  mig.devices = {device(0, {{0, 0}}), device(0, {{1, 0}})};
  const auto s = two_tenants();
  FaultSettings settings;
  settings.any = true;
  settings.spec.tenant_crash_per_context_hour = 0.01;
  settings.spec.mps_server_fault_per_gpu_hour = 0.002;
  scenario::FaultRecord on_mps;
  expected_exposure(settings, models::StrategyKind::mps, {{&mps, 1.0}}, s, on_mps);
  scenario::FaultRecord on_mig;
  expected_exposure(settings, models::StrategyKind::mig, {{&mig, 1.0}}, s, on_mig);
  ASSERT_EQ(on_mps.expected.size(), 2U);  // crashes and the MPS server
  EXPECT_DOUBLE_EQ(on_mps.expected[0].tenants_hit, 2.0);
  EXPECT_EQ(on_mps.expected[1].kind, "mps_server_fault");
  EXPECT_DOUBLE_EQ(on_mps.expected[1].tenants_hit, 2.0);
  ASSERT_EQ(on_mig.expected.size(), 1U);  // no MPS server under MIG
  EXPECT_DOUBLE_EQ(on_mig.expected[0].tenants_hit, 1.0);
  EXPECT_DOUBLE_EQ(on_mig.expected_blast_radius, 1.0);
}

TEST(FaultPlan, ScheduledFaultsComeFirstAndRandomOnesAreDrawnPerSource) {
  auto s = two_tenants();
  FaultSettings settings;
  settings.any = true;
  settings.spec.random = true;
  settings.gpu_failure_per_gpu_hour = 10.0;  // about ten an hour per GPU
  scenario::ScheduledFault f;
  f.at_s = 100.0;
  f.kind = FaultKind::driver_reset;
  f.gpu = 1;
  settings.spec.schedule = {f};
  s.faults = settings.spec;
  const auto faults = plan_faults(settings, models::StrategyKind::dedicated, s, {0, 1}, {});
  ASSERT_GE(faults.size(), 2U);
  std::size_t on_gpu0 = 0;
  for (std::size_t i = 1; i < faults.size(); ++i) EXPECT_LE(faults[i - 1].at_s, faults[i].at_s);
  for (const auto& fault : faults) {
    if (!fault.scheduled && fault.gpu == 0) ++on_gpu0;
  }
  // GPU 0's stream does not depend on which other GPUs exist.
  const auto alone = plan_faults(settings, models::StrategyKind::dedicated, s, {0}, {});
  std::size_t alone_gpu0 = 0;
  for (const auto& fault : alone) {
    if (!fault.scheduled) ++alone_gpu0;
  }
  EXPECT_EQ(on_gpu0, alone_gpu0);
  EXPECT_GE(on_gpu0, 1U);
}

TEST(FaultPlan, LayoutSwitchesFollowTheClockOfTheDay) {
  scenario::LayoutSchedule schedule;
  schedule.start_hour = 6.0;
  scenario::LayoutPhase day;
  day.name = "day";
  day.from_hour = 8.0;
  scenario::LayoutPhase night;
  night.name = "night";
  night.from_hour = 20.0;
  schedule.phases = {day, night};
  EXPECT_EQ(phase_at(schedule, 6.0), 1U);  // before 8:00 it is still night
  EXPECT_EQ(phase_at(schedule, 8.0), 0U);
  EXPECT_EQ(phase_day_fracs(schedule), (std::vector<double>{0.5, 0.5}));
  const auto switches = layout_switches(schedule, 2 * 86400.0);
  ASSERT_EQ(switches.size(), 4U);
  EXPECT_DOUBLE_EQ(switches[0].at_s, 2 * 3600.0);  // 8:00
  EXPECT_EQ(switches[0].from, 1U);
  EXPECT_EQ(switches[0].to, 0U);
  EXPECT_DOUBLE_EQ(switches[1].at_s, 14 * 3600.0);  // 20:00
  EXPECT_DOUBLE_EQ(switches[2].at_s, 26 * 3600.0);  // 8:00 the next day
  EXPECT_DOUBLE_EQ(switches[3].at_s, 38 * 3600.0);
}

}  // namespace
}  // namespace slicewise::sim
