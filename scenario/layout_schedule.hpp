// What the users that know one MIG layout per strategy (SLA sizing, the deploy configs, the GUI's
// parameter list) take of a strategy with a layout schedule (StrategySpec::layout_schedule,
// docs/mig-schedule.md).
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// A MIG strategy's layout: its `layout`, or for a layout schedule its first phase's layout (by
/// from_hour: the earliest of the day). A user of this sees one layout, so a schedule's later
/// phases are not in what it sizes or exports; the simulation switches between them.
inline const std::string& first_layout(const StrategySpec& spec) {
  if (spec.layout_schedule && !spec.layout_schedule->phases.empty()) return spec.layout_schedule->phases.front().layout;
  if (!spec.layouts.empty()) return spec.layouts.front();
  return spec.layout;
}

/// The layout of the strategy's `shared`-th shared GPU (pools aside, in fleet order): its
/// `layouts` in turn, else its one layout (a schedule's first phase's).
inline const std::string& layout_of_gpu(const StrategySpec& spec, std::size_t shared) {
  if (!spec.layouts.empty() && !spec.layout_schedule) return spec.layouts[shared % spec.layouts.size()];
  return first_layout(spec);
}

/// Every layout a GPU of the strategy may take at its start: its `layouts`, or its one layout.
inline std::vector<std::string> gpu_layouts(const StrategySpec& spec) {
  if (!spec.layouts.empty() && !spec.layout_schedule) return spec.layouts;
  return {first_layout(spec)};
}

}  // namespace slicewise::scenario
