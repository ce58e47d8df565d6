// Keys that only some kinds accept: load keys per load kind, workload and SLA keys per workload
// kind, engine keys per serving engine, scheduled fault keys per fault kind (strategy keys per
// strategy kind are strategy_params.hpp's). One table drives the reader (a key on the wrong kind is
// rejected), the writer (only the kind's keys are written), validate_scenario (in-memory
// scenarios) and docs/scenario-format.md.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scenario/scenario.hpp"

namespace slicewise::scenario {

/// Key name -> the kinds that use it. Keys not listed are used by every kind.
template <class K>
using KeyKinds = std::vector<std::pair<std::string, std::vector<K>>>;

const KeyKinds<LoadKind>& load_keys();          ///< LoadSpec fields
const KeyKinds<WorkloadKind>& workload_keys();  ///< Workload fields
const KeyKinds<WorkloadKind>& sla_keys();       ///< SlaTargets fields
const KeyKinds<FaultKind>& fault_keys();        ///< ScheduledFault fields
const KeyKinds<ServingEngine>& engine_keys();   ///< EngineSpec fields

/// True when `kind` uses `key` (also for keys the table does not list).
template <class K>
bool uses(const KeyKinds<K>& table, std::string_view key, K kind) {
  for (const auto& [name, kinds] : table) {
    if (name == key) return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
  }
  return true;
}

/// The kinds that use `key`, by name, joined with ", " ("mig, mig_time_slicing").
template <class K>
std::string kinds_using(const KeyKinds<K>& table, std::string_view key,
                        const std::vector<std::pair<std::string, K>>& names) {
  std::string out;
  for (const auto& [name, kinds] : table) {
    if (name != key) continue;
    for (K k : kinds) {
      for (const auto& [kind_name, value] : names) {
        if (value == k) out += (out.empty() ? "" : ", ") + kind_name;
      }
    }
  }
  return out;
}

}  // namespace slicewise::scenario
