// A sweep's axes: reading one strictly (its kind, pointer, tenants and values, each value of the
// kind's type), and applying one of its values to the base scenario's document (a pointer, a load
// multiplier, a trace window, ...). Internal to sw_scenario (sweep.cpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "scenario/sweep.hpp"

namespace slicewise::scenario::detail {

/// One element of "axes", read by `r`: every problem goes to r's diagnostics.
SweepAxis read_axis(const nlohmann::json& value, JsonReader& r);

/// Applies one axis value to the document; returns "" or what went wrong.
std::string apply(const SweepAxis& axis, const nlohmann::json& value, nlohmann::json& doc);

}  // namespace slicewise::scenario::detail
