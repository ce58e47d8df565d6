// The mixed MIG result with a fifth strategy, mig-day-night, for the report tests of the MIG
// layout schedule: the static mig strategy's GPU under a day layout (the static one) and a night
// layout from 20:30 (one 7g.80gb for llm-8b).
#pragma once

#include <string>

#include "scenario/result_json.hpp"

namespace slicewise::test {

/// Appends mig-day-night to `result` (its spec to the input, its run, a copy of the static mig's
/// with the day devices and a night 7g.80gb device, to the strategies) and returns the run.
/// `vision_contexts`: vision-resnet50's contexts in the day phase (0 = the tenant's).
inline scenario::StrategyResult& add_day_night_strategy(scenario::SimResult& result, int vision_contexts) {
  auto spec = result.input.strategies.at(1);
  spec.name = "mig-day-night";
  spec.layout.clear();
  spec.tenants.clear();
  scenario::LayoutSchedule schedule;
  scenario::LayoutPhase day;
  day.name = "day";
  day.from_hour = 8.0;
  day.layout = "3g.40gb+2g.20gb+1g.10gb+1g.10gb";
  day.tenants = {{"llm-8b", {"3g.40gb", 0}},
                 {"vision-resnet50", {"2g.20gb", vision_contexts}},
                 {"notebook-alice", {"1g.10gb", 0}},
                 {"notebook-bob", {"1g.10gb", 0}}};
  scenario::LayoutPhase night;
  night.name = "night";
  night.from_hour = 20.5;
  night.layout = "7g.80gb";
  night.tenants = {{"llm-8b", {"7g.80gb", 0}}};
  schedule.phases = {day, night};
  spec.layout_schedule = schedule;
  result.input.strategies.push_back(spec);
  auto run = result.strategies.at(1);
  run.name = "mig-day-night";
  for (auto& d : run.devices) d.phase = "day";
  auto whole = run.devices.at(0);
  whole.name = "gpu0/7g.80gb@0";
  whole.mig_profile = "7g.80gb";
  whole.contexts = {"llm-8b#0"};
  whole.phase = "night";
  run.devices.push_back(whole);
  result.strategies.push_back(run);
  return result.strategies.back();
}

}  // namespace slicewise::test
