// The fault checks of validate_scenario (docs/faults.md): rates, recovery times, the co-tenant kill
// chance and retries in range (again here for scenarios built in memory), and each scheduled fault
// inside the run, with the keys of its kind, on a GPU of the fleet or a context of a tenant.
#include <algorithm>

#include "core/spell.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/scenario_checker.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario::detail {

namespace {

/// "the fleet has 4 GPUs, numbered 0 .. 3", "tenant "a" has 1 context, numbered 0".
std::string numbered(std::int64_t count, const std::string& what) {
  std::string text = std::to_string(count) + " " + what + (count == 1 ? "" : "s") + ", numbered 0";
  if (count > 1) text += " .. " + std::to_string(count - 1);
  return text;
}

}  // namespace

void ScenarioChecker::in_range(std::string pointer, double value, const NumberRange& range) {
  if (auto problem = range.violation(value); !problem.empty()) {
    add(std::move(pointer), problem + " (got " + format_number(value) + ")");
  }
}

void ScenarioChecker::faults() {
  if (!s_.faults) return;
  const FaultSpec& f = *s_.faults;
  const NumberRange rate = NumberRange::non_negative();
  if (f.gpu_failure_per_gpu_hour) in_range("/faults/gpu_failure_per_gpu_hour", *f.gpu_failure_per_gpu_hour, rate);
  in_range("/faults/driver_reset_per_gpu_hour", f.driver_reset_per_gpu_hour, rate);
  in_range("/faults/tenant_crash_per_context_hour", f.tenant_crash_per_context_hour, rate);
  in_range("/faults/mps_server_fault_per_gpu_hour", f.mps_server_fault_per_gpu_hour, rate);
  in_range("/faults/gpu_repair_s", f.gpu_repair_s, NumberRange::non_negative());
  in_range("/faults/driver_reset_s", f.driver_reset_s, NumberRange::non_negative());
  in_range("/faults/context_restart_s", f.context_restart_s, NumberRange::non_negative());
  in_range("/faults/co_tenant_kill_frac", f.co_tenant_kill_frac, NumberRange::fraction());
  in_range("/faults/max_retries", f.max_retries, NumberRange::between(0, kMaxFaultRetries));
  for (std::size_t k = 0; k < f.schedule.size(); ++k) scheduled_fault(k);
}

/// Scheduled fault `k`: inside the run, with only its kind's keys, on something that exists.
void ScenarioChecker::scheduled_fault(std::size_t k) {
  const ScheduledFault& fault = s_.faults->schedule[k];
  const std::string pointer = "/faults/schedule/" + std::to_string(k);
  if (!NumberRange::non_negative().violation(fault.at_s).empty()) {
    in_range(pointer + "/at_s", fault.at_s, NumberRange::non_negative());
  } else if (fault.at_s >= s_.horizon_s) {
    add(pointer + "/at_s", "must be < horizon_s (got " + format_number(fault.at_s) + "; horizon_s is " +
                               format_number(s_.horizon_s) + ")");
  }
  // Keys of another kind can only be set in memory: the reader rejects them.
  const std::string kind = name_of(fault_kind_table(), fault.kind);
  const std::pair<const char*, bool> set[] = {
      {"gpu", fault.gpu != 0}, {"tenant", !fault.tenant.empty()}, {"replica", fault.replica != 0}};
  for (const auto& [key, is_set] : set) {
    if (is_set && !uses(fault_keys(), key, fault.kind)) {
      add(pointer + "/" + key, "set, but not used by fault kind \"" + kind + "\" (applies to " +
                                   kinds_using(fault_keys(), key, fault_kind_table()) + ")");
    }
  }
  scheduled_fault_target(fault, pointer);
}

/// A GPU fault's GPU is one of the fleet's (numbered across its entries, an instance counting its
/// GPUs, as the simulation expands the fleet); a tenant crash's tenant exists and has the replica.
void ScenarioChecker::scheduled_fault_target(const ScheduledFault& fault, const std::string& pointer) {
  if (fault.kind != FaultKind::tenant_crash) {
    if (fault.gpu < 0) {
      in_range(pointer + "/gpu", fault.gpu, NumberRange::non_negative());
    } else if (fleet_entries_known_ == s_.fleet.size() && fault.gpu >= num_gpus_) {
      // Every strategy's fleet is at most this one (pack uses fewer GPUs, never more).
      add(pointer + "/gpu", "the fleet has " + numbered(num_gpus_, "GPU") +
                                " in fleet order, an instance counting its GPUs (got " + std::to_string(fault.gpu) +
                                ")");
    }
    return;
  }
  std::vector<std::string> names;
  for (const auto& t : s_.tenants) names.push_back(t.name);
  const auto it = std::find(names.begin(), names.end(), fault.tenant);
  if (fault.tenant.empty()) {
    add(pointer + "/tenant", "missing tenant (a tenant_crash names the tenant whose context fails)");
  } else if (it == names.end()) {
    const auto hint = did_you_mean_suffix(fault.tenant, names);
    add(pointer + "/tenant",
        "unknown tenant " + quoted_excerpt(fault.tenant) + (hint.empty() ? "; tenants: " + join(names, ", ") : hint));
  } else if (const Tenant& t = s_.tenants[static_cast<std::size_t>(it - names.begin())];
             fault.replica < 0 || fault.replica >= t.num_contexts) {
    add(pointer + "/replica", "tenant \"" + t.name + "\" has " + numbered(t.num_contexts, "context") + " (got " +
                                  std::to_string(fault.replica) + ")");
  }
}

}  // namespace slicewise::scenario::detail
