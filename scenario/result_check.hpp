// Strict checking of a result document (the output of `slicewise simulate --out`) before it is read
// back by `roi`, `report` and the GUI: a hand-edited or damaged file is refused with every
// problem's JSON pointer, never read with defaults.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/diagnostic.hpp"

namespace slicewise::scenario {

/// Every problem of a result document at `pointer` of `file`: missing or unknown keys, wrong types,
/// negative counts and fractions, strategies or tenants that its scenario (`input`) does not have,
/// unknown GPUs, time series whose rows do not match the devices and tenants. Empty when it is fine.
Diagnostics check_result(const nlohmann::json& document, const std::string& file, const std::string& pointer);

}  // namespace slicewise::scenario
