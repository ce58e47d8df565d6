// SimResult <-> JSON. Output of slicewise, read back by `slicewise roi`, reports and the GUI.
// Keys are the field names; objects are written with sorted keys so that equal results give
// byte-identical files.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

void to_json(nlohmann::json& out, const Distribution& value);
void from_json(const nlohmann::json& in, Distribution& value);
void to_json(nlohmann::json& out, const TenantResult& value);
void from_json(const nlohmann::json& in, TenantResult& value);
void to_json(nlohmann::json& out, const DeviceResult& value);
void from_json(const nlohmann::json& in, DeviceResult& value);
void to_json(nlohmann::json& out, const TimeSeries& value);
void from_json(const nlohmann::json& in, TimeSeries& value);
void to_json(nlohmann::json& out, const StrategyResult& value);
void from_json(const nlohmann::json& in, StrategyResult& value);
void to_json(nlohmann::json& out, const SimResult& value);
void from_json(const nlohmann::json& in, SimResult& value);

/// The result as indented JSON text with a trailing newline.
std::string result_to_text(const SimResult& result);
/// Reads a result document found at `pointer` of `file` (check_result first, so that a hand-edited
/// or damaged result is refused with every problem's JSON pointer instead of read with defaults).
/// Throws ConfigError.
SimResult result_from_json(const nlohmann::json& document, const std::string& file, const std::string& pointer);
/// Reads a result file; throws ConfigError (with the file name) when it is not a slicewise result.
SimResult load_result(const std::filesystem::path& file);

}  // namespace slicewise::scenario
