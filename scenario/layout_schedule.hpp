// What the users that know one MIG layout per strategy (SLA sizing, the deploy configs, the GUI's
// parameter list) take of a strategy with a layout schedule (StrategySpec::layout_schedule,
// docs/mig-schedule.md).
#pragma once

#include <string>

#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// A MIG strategy's layout: its `layout`, or for a layout schedule its first phase's layout (by
/// from_hour: the earliest of the day). A user of this sees one layout, so a schedule's later
/// phases are not in what it sizes or exports; the simulation switches between them.
inline const std::string& first_layout(const StrategySpec& spec) {
  if (spec.layout_schedule && !spec.layout_schedule->phases.empty()) return spec.layout_schedule->phases.front().layout;
  return spec.layout;
}

}  // namespace slicewise::scenario
