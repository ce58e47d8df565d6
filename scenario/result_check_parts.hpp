// The parts of the strict result check (result_check.cpp): what every part reports through and
// checks with, and the records a strategy carries beside its figures (its sizing, energy and
// faults, result_check_records.cpp). Internal to sw_scenario.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostic.hpp"
#include "core/json_reader.hpp"

namespace slicewise::scenario::detail {

using nlohmann::json;

inline const NumberRange kNonNegative = NumberRange::non_negative();
inline const NumberRange kHours{0.0, false, 24.0, true};  ///< an hour of the day, [0, 24)

/// Where a part of the check reports (`out`, every diagnostic naming `file`), and the checks of
/// fields and arrays every part shares.
class CheckBase {
 public:
  CheckBase(Diagnostics& out, std::string file) : out_(out), file_(std::move(file)) {}

 protected:
  void add(std::string pointer, std::string message);
  /// A boolean that must be present.
  void required_bool(JsonReader& r, std::string_view key);
  /// An array of strings (required unless `optional`).
  void strings(JsonReader& r, std::string_view key, bool optional = false);
  /// An array of numbers in `range`; returns its size (0 when absent or not an array).
  std::size_t numbers(const json& array, const std::string& pointer, const NumberRange& range);
  /// Checks each element of `r`'s optional array `key` with check(element, its pointer).
  template <class Check>
  static void each(JsonReader& r, std::string_view key, const Check& check) {
    if (const json* items = r.optional_array(key)) {
      for (std::size_t i = 0; i < items->size(); ++i) check((*items)[i], r.pointer(key) + "/" + std::to_string(i));
    }
  }

  Diagnostics& out_;
  std::string file_;
};

/// A strategy's records beside its figures: the sizing search's, the energy and the faults.
class RecordChecker : public CheckBase {
 public:
  using CheckBase::CheckBase;

  /// A sized strategy's record (scenario/sizing.hpp): contexts per tenant, every step.
  void sizing(const json& value, const std::string& pointer, std::optional<std::size_t> num_tenants);

  /// The strategy's energy (scenario/energy.hpp): non-negative figures, a GPU of the catalog per
  /// used GPU with its power curve rising from idle to TDP.
  void energy(const json& value, const std::string& pointer);

  /// Faults and re-partitions of a strategy (FaultRecord): every event and expected figure in range,
  /// and per tenant exposure only for the strategy's own tenants (`tenants`, listed at `tenants_at`).
  void faults(const json& value, const std::string& pointer, const std::vector<std::string>& tenants,
              const std::string& tenants_at);

 private:
  /// The record's keys written only where they apply: pools, hourly fleets, trace windows.
  void sizing_extras(JsonReader& r, std::optional<std::size_t> num_tenants);

  /// One hour's fleet: its hour, GPUs, contexts per tenant, pools and whether it met every SLA.
  void hour_fleet(const json& value, const std::string& pointer, std::optional<std::size_t> num_tenants);

  /// A trace tenant's busiest window: a tenant, a trace time >= 0, two row counts.
  void trace_window(const json& value, const std::string& pointer);

  /// A pool of the sized fleet: a known GPU, a count, the tenants it is reserved for.
  void sizing_pool(const json& value, const std::string& pointer);

  void gpu_energy(const json& value, const std::string& pointer);

  /// The kinds a fault event or an expected figure may have: the fault kinds, and a re-partition.
  static const EnumTable<int>& fault_kinds();

  void fault_event(const json& value, const std::string& pointer);

  void fault_exposure(const json& value, const std::string& pointer);

  void tenant_exposure(const json& value, const std::string& pointer, const std::vector<std::string>& tenants,
                       const std::string& tenants_at);

  /// The sizing record's contexts: an integer >= 1 per tenant.
  void sizing_contexts(const json& contexts, const std::string& pointer, std::optional<std::size_t> num_tenants);

  /// One step of the sizing search.
  void sizing_step(const json& value, const std::string& pointer, const NumberRange& count);
};

}  // namespace slicewise::scenario::detail
