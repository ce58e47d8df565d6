// The advice's explanation in plain words (docs/advisor.md): the answer and what it saves like for
// like, why the others lost, memory, the settings derived from the baseline's slack, the purchase
// options.
#pragma once

#include "advisor/advice.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::advisor {

/// Fills `advice.explanation` from its rows, answer and sizing; `baseline` is the baseline's run
/// (null when it failed).
void explain(Advice& advice, const scenario::Scenario& s, const scenario::StrategyResult* baseline);

}  // namespace slicewise::advisor
