// A MIG strategy's `layouts` and `layout_schedule` in JSON: read with every problem reported, and
// written back. Internal to sw_scenario (strategy_params.cpp declares the keys).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "scenario/scenario.hpp"

namespace slicewise::scenario::detail {

/// `layouts`: at least two non-empty layout strings (whether each is valid is validation's
/// question); empty when absent.
std::vector<std::string> read_gpu_layouts(JsonReader& r);
/// `layout_schedule`, when present. Its phases' order, names, tenants and profiles are checked by
/// validate_scenario (strategies/mig_checks.cpp).
std::optional<LayoutSchedule> read_layout_schedule(JsonReader& r);

nlohmann::ordered_json layout_schedule_json(const LayoutSchedule& schedule);

}  // namespace slicewise::scenario::detail
