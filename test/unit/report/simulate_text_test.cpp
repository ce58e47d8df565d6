// What `slicewise simulate` and `slicewise roi` print about faults and re-partitions
// (report::faults_text), on hand-built results: each test compares the whole text.
#include "report/simulate_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace slicewise::report {
namespace {

using scenario::DeviceResult;
using scenario::FaultEvent;
using scenario::FaultExposure;
using scenario::FaultRecord;
using scenario::SimResult;
using scenario::StrategyResult;
using scenario::TenantExposure;
using scenario::TenantResult;

TenantResult tenant(const std::string& name, std::int64_t interruptions, std::int64_t failed, std::int64_t retried,
                    double downtime_s, double availability) {
  TenantResult t;
  t.name = name;
  t.num_interruptions = interruptions;
  t.num_failed = failed;
  t.num_retried = retried;
  t.downtime_s = downtime_s;
  t.availability = availability;
  return t;
}

DeviceResult device(const std::string& name, const std::string& phase, std::vector<std::string> contexts, double down_s,
                    double out_of_phase_s = 0.0) {
  DeviceResult d;
  d.name = name;
  d.phase = phase;
  d.contexts = std::move(contexts);
  d.down_s = down_s;
  d.out_of_phase_s = out_of_phase_s;
  return d;
}

StrategyResult strategy(const std::string& name, std::vector<TenantResult> tenants, std::vector<DeviceResult> devices) {
  StrategyResult s;
  s.name = name;
  s.kind = name;
  s.tenants = std::move(tenants);
  s.devices = std::move(devices);
  return s;
}

/// Three strategies over tenants chat and embed: dedicated without faults; mps, whose GPU 0 failed
/// at 100 s (both tenants down 30 s) and whose chat#1 crashed at 250.5 s, with GPU failures expected
/// at 0.0176 a month (chat's exposure only); and mig-sched, whose GPU 0 re-partitioned at 300 s
/// into a phase whose name carries a terminal escape.
SimResult faulty_result() {
  SimResult result;
  result.strategies.push_back(strategy("dedicated",
                                       {tenant("chat", 0, 0, 0, 0.0, 1.0), tenant("embed", 0, 0, 0, 0.0, 1.0)},
                                       {device("gpu0", "", {"chat#0"}, 0.0), device("gpu1", "", {"embed#0"}, 0.0)}));

  auto mps = strategy("mps", {tenant("chat", 2, 1, 4, 30.0, 0.95), tenant("embed", 1, 0, 2, 12.0, 0.98)},
                      {device("gpu0", "", {"chat#0", "embed#0"}, 30.0), device("gpu1", "", {"chat#1"}, 12.0)});
  FaultRecord mps_faults;
  mps_faults.events = {FaultEvent{100.0, "gpu_failure", 0, "", true, {"chat#0", "embed#0"}, 2, 30.0},
                       FaultEvent{250.5, "tenant_crash", 1, "chat#1", false, {"chat#1"}, 1, 12.0}};
  mps_faults.blast_radius_tenants = 1.5;
  mps_faults.expected = {FaultExposure{"gpu_failure", 0.0176, 2.0, 2.0, 3600.0}};
  mps_faults.expected_blast_radius = 2.0;
  mps_faults.tenants = {TenantExposure{"chat", 0.0176, 0.0176, 1.0 - 0.0176 / 730.0}};  // 99.99759 %
  mps.faults = mps_faults;
  result.strategies.push_back(mps);

  auto mig =
      strategy("mig-sched", {tenant("chat", 0, 0, 0, 0.0, 1.0), tenant("embed", 1, 0, 3, 60.0, 0.9)},
               {device("gpu0/3g.40gb@0", "day", {"chat#0"}, 0.0, 300.0),
                device("gpu0/1g.10gb@4", "night\x1b[2J", {}, 20.0, 306.0), device("gpu1", "", {"embed#0"}, 0.0)});
  FaultRecord mig_faults;
  mig_faults.events = {FaultEvent{300.0, "repartition", 0, "day -> night", true, {"embed#0"}, 1, 60.0}};
  mig_faults.num_repartitions = 1;
  mig.faults = mig_faults;
  result.strategies.push_back(mig);
  return result;
}

TEST(FaultsText, TablesOfTheRunAndTheExpectedFiguresBlastRadiusDevicesAndEvents) {
  EXPECT_EQ(
      faults_text(faulty_result()),
      "Faults and availability (docs/faults.md): in the run, over the measured window; expected, per 730-hour month "
      "from the fault rates and the placement\n"
      "\n"
      "strategy   tenant  interruptions  failed  retried  downtime s  availability %  interruptions/month  "
      "outage h/month  expected availability %\n"
      "---------  ------  -------------  ------  -------  ----------  --------------  -------------------  "
      "--------------  -----------------------\n"
      "mps        chat                2       1        4      30.000          95.000               0.0176  "
      "        0.0176                   99.998\n"
      "           embed               1       0        2      12.000          98.000                    -  "
      "             -                        -\n"
      "mig-sched  chat                0       0        0       0.000         100.000                    -  "
      "             -                        -\n"
      "           embed               1       0        3      60.000          90.000                    -  "
      "             -                        -\n"
      "mps: blast radius 1.50 tenants per fault in the run (2 faults), 2.00 expected from the rates; 0 re-partitions\n"
      "mig-sched: blast radius - tenants per fault in the run (0 faults), - expected from the rates; 1 re-partition\n"
      "\n"
      "devices in a layout phase or down (out of phase: another phase in force or re-partitioning, the schedule; "
      "down: off in its own phase, a fault)\n"
      "strategy   device          phase         out of phase s  down s  contexts\n"
      "---------  --------------  ------------  --------------  ------  ---------------\n"
      "mps        gpu0            -                          -  30.000  chat#0, embed#0\n"
      "           gpu1            -                          -  12.000  chat#1\n"
      "mig-sched  gpu0/3g.40gb@0  day                  300.000   0.000  chat#0\n"
      "           gpu0/1g.10gb@4  night\\x1b[2J         306.000  20.000  -\n"
      "\n"
      "mps: events\n"
      "   at s  event                    GPU  origin  tenants hit  outage s  contexts hit\n"
      "-------  -----------------------  ---  ------  -----------  --------  ---------------\n"
      "100.000  gpu_failure (scheduled)    0  -                 2    30.000  chat#0, embed#0\n"
      "250.500  tenant_crash               1  chat#1            1    12.000  chat#1\n"
      "\n"
      "mig-sched: events\n"
      "   at s  event                    GPU  origin        tenants hit  outage s  contexts hit\n"
      "-------  -----------------------  ---  ------------  -----------  --------  ------------\n"
      "300.000  repartition (scheduled)    0  day -> night            1    60.000  embed#0\n");
}

TEST(FaultsText, NothingWithoutAFaultRecord) {
  auto result = faulty_result();
  result.strategies.erase(result.strategies.begin() + 1, result.strategies.end());
  EXPECT_EQ(faults_text(result), "");
}

TEST(FaultsText, AtMostTwentyEventsThenHowManyMore) {
  auto s = strategy("time_slicing", {tenant("chat", 23, 0, 23, 690.0, 0.5)}, {});
  FaultRecord faults;
  for (int i = 0; i < 23; ++i) {
    faults.events.push_back(FaultEvent{10.0 * i, "tenant_crash", 0, "chat#0", false, {"chat#0"}, 1, 30.0});
  }
  faults.blast_radius_tenants = 1.0;
  s.faults = faults;
  SimResult result;
  result.strategies = {s};
  std::string events =
      "time_slicing: events\n"
      "   at s  event         GPU  origin  tenants hit  outage s  contexts hit\n"
      "-------  ------------  ---  ------  -----------  --------  ------------\n";
  for (int i = 0; i < 20; ++i) {
    const std::string at = std::to_string(10 * i) + ".000";
    events += std::string(7 - at.size(), ' ') + at + "  tenant_crash    0  chat#0            1    30.000  chat#0\n";
  }
  EXPECT_EQ(faults_text(result),
            "Faults and availability (docs/faults.md): in the run, over the measured window; expected, per 730-hour "
            "month from the fault rates and the placement\n"
            "\n"
            "strategy      tenant  interruptions  failed  retried  downtime s  availability %  interruptions/month  "
            "outage h/month  expected availability %\n"
            "------------  ------  -------------  ------  -------  ----------  --------------  -------------------  "
            "--------------  -----------------------\n"
            "time_slicing  chat               23       0       23     690.000          50.000                    -  "
            "             -                        -\n"
            "time_slicing: blast radius 1.00 tenants per fault in the run (23 faults), - expected from the rates; 0 "
            "re-partitions\n"
            "\n" +
                events + "… and 3 more\n");
}

}  // namespace
}  // namespace slicewise::report
