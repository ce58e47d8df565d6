// Reading the top-level "faults" object: rates per hour of exposure, recovery times, retries, and
// the schedule of faults at given times (docs/faults.md). Whether a scheduled fault's GPU, tenant
// and replica exist is checked by validate_scenario (validate_faults.cpp), which knows the fleet.
#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_read_fields.hpp"
#include "scenario/json_read_sections.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario::detail {

using nlohmann::json;

namespace {

/// One element of "schedule": its time, its kind, and the keys of that kind (a GPU, or a tenant
/// and one of its contexts).
ScheduledFault read_scheduled_fault(JsonReader& parent, const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, parent.diagnostics(), parent.file());
  ScheduledFault f;
  f.at_s = r.required_number("at_s", NumberRange::non_negative());
  const std::size_t before = r.diagnostics().size();
  f.kind = r.required_enum("kind", fault_kind_table());
  const bool known = r.diagnostics().size() == before && r.valid();
  reject_foreign_keys(r, value, fault_keys(), f.kind, known, fault_kind_table(), "fault kind");
  auto use = [&](const char* key) { return known && uses(fault_keys(), key, f.kind); };
  if (use("gpu")) f.gpu = read_count(r, "gpu", std::nullopt, 0);
  if (use("tenant")) f.tenant = nonempty_string(r, "tenant", true);
  if (use("replica")) f.replica = read_count(r, "replica", 0, 0);
  r.finish();
  return f;
}

}  // namespace

FaultSpec read_faults(const json& value, const std::string& pointer, Diagnostics& out, const std::string& file) {
  JsonReader r(value, pointer, out, file);
  const FaultSpec defaults;
  FaultSpec f;
  const NumberRange rate = NumberRange::non_negative();
  f.gpu_failure_per_gpu_hour = r.maybe_number("gpu_failure_per_gpu_hour", rate);
  f.driver_reset_per_gpu_hour =
      r.optional_number("driver_reset_per_gpu_hour", defaults.driver_reset_per_gpu_hour, rate);
  f.tenant_crash_per_context_hour =
      r.optional_number("tenant_crash_per_context_hour", defaults.tenant_crash_per_context_hour, rate);
  f.mps_server_fault_per_gpu_hour =
      r.optional_number("mps_server_fault_per_gpu_hour", defaults.mps_server_fault_per_gpu_hour, rate);
  f.gpu_repair_s = r.optional_number("gpu_repair_s", defaults.gpu_repair_s, NumberRange::non_negative());
  f.driver_reset_s = r.optional_number("driver_reset_s", defaults.driver_reset_s, NumberRange::non_negative());
  f.context_restart_s = r.optional_number("context_restart_s", defaults.context_restart_s, NumberRange::non_negative());
  f.co_tenant_kill_frac =
      r.optional_number("co_tenant_kill_frac", defaults.co_tenant_kill_frac, NumberRange::fraction());
  f.max_retries = static_cast<int>(
      r.optional_integer("max_retries", defaults.max_retries, NumberRange::between(0, kMaxFaultRetries)));
  f.random = r.optional_bool("random", defaults.random);
  if (const json* schedule = r.optional_array("schedule")) {
    for (std::size_t i = 0; i < schedule->size(); ++i) {
      f.schedule.push_back(read_scheduled_fault(r, (*schedule)[i], element_pointer(r.pointer("schedule"), i)));
    }
  }
  r.finish();
  return f;
}

}  // namespace slicewise::scenario::detail
