// The result check's shared field checks, and a strategy's sizing, energy and fault records (see
// result_check_parts.hpp).
#include <algorithm>
#include <map>
#include <set>

#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "scenario/result_check_parts.hpp"

namespace slicewise::scenario::detail {

void CheckBase::add(std::string pointer, std::string message) {
  out_.push_back(Diagnostic{file_, 0, 0, std::move(pointer), std::move(message)});
}

void CheckBase::required_bool(JsonReader& r, std::string_view key) {
  if (r.valid() && !r.has(key)) {
    r.error_here("missing required key \"" + std::string(key) + "\"");
  } else {
    r.optional_bool(key, false);
  }
}

void CheckBase::strings(JsonReader& r, std::string_view key, bool optional) {
  const json* array = optional ? r.optional_array(key) : r.required_array(key);
  if (!array) return;
  for (std::size_t i = 0; i < array->size(); ++i) {
    if (!(*array)[i].is_string()) {
      add(r.pointer(key) + "/" + std::to_string(i), "expected string (got " + describe_json((*array)[i]) + ")");
    }
  }
}

std::size_t CheckBase::numbers(const json& array, const std::string& pointer, const NumberRange& range) {
  if (!array.is_array()) {
    add(pointer, "expected array (got " + describe_json(array) + ")");
    return 0;
  }
  for (std::size_t i = 0; i < array.size(); ++i) {
    const auto& v = array[i];
    const std::string at = pointer + "/" + std::to_string(i);
    if (!v.is_number()) {
      add(at, "expected number (got " + describe_json(v) + ")");
    } else if (const auto problem = range.violation(v.get<double>()); !problem.empty()) {
      add(at, problem + " (got " + describe_json(v) + ")");
    }
  }
  return array.size();
}

void RecordChecker::sizing(const json& value, const std::string& pointer, std::optional<std::size_t> num_tenants) {
  JsonReader r(value, pointer, out_, file_);
  const NumberRange count = NumberRange::between(0, 1e9);
  r.required_integer("num_gpus", count);
  r.required_integer("lower_bound_gpus", count);
  r.required_integer("max_gpus", count);
  if (const json* contexts = r.required_array("contexts"))
    sizing_contexts(*contexts, r.pointer("contexts"), num_tenants);
  if (const json* loads = r.required_array("context_load")) {
    for (std::size_t i = 0; i < loads->size(); ++i) {
      if (!(*loads)[i].is_number() || (*loads)[i].get<double>() < 0.0) {
        add(r.pointer("context_load") + "/" + std::to_string(i),
            "must be a number >= 0 (got " + describe_json((*loads)[i]) + ")");
      }
    }
  }
  if (!r.has("feasible") || !value.at("feasible").is_boolean()) r.error("feasible", "must be true or false");
  r.required_string("shortfall");
  if (const json* steps = r.required_array("steps")) {
    for (std::size_t i = 0; i < steps->size(); ++i)
      sizing_step((*steps)[i], r.pointer("steps") + "/" + std::to_string(i), count);
  }
  if (const json* hours = r.optional_array("peak_hours")) numbers(*hours, r.pointer("peak_hours"), kHours);
  r.maybe_number("result_hour", kHours);
  if (const auto placement = r.maybe_string("placement");
      placement && *placement != "balanced" && *placement != "spread" && *placement != "pack") {
    r.error("placement", "must be balanced, spread or pack (got \"" + *placement + "\")");
  }
  r.optional_bool("minimal", false);
  sizing_extras(r, num_tenants);
  r.finish();
}

void RecordChecker::sizing_extras(JsonReader& r, std::optional<std::size_t> num_tenants) {
  each(r, "pools", [&](const json& pool, const std::string& at) { sizing_pool(pool, at); });
  if (const json* hourly = r.optional_array("hourly"); hourly && hourly->size() != 24) {
    r.error("hourly", "must have 24 entries, one per hour of day (got " + std::to_string(hourly->size()) + ")");
  }
  each(r, "hourly", [&](const json& hour, const std::string& at) { hour_fleet(hour, at, num_tenants); });
  each(r, "trace_windows", [&](const json& window, const std::string& at) { trace_window(window, at); });
}

void RecordChecker::hour_fleet(const json& value, const std::string& pointer, std::optional<std::size_t> num_tenants) {
  JsonReader r(value, pointer, out_, file_);
  r.required_integer("hour", NumberRange::between(0, 23));
  r.required_integer("num_gpus", NumberRange::between(0, 1e9));
  if (const json* contexts = r.required_array("contexts"))
    sizing_contexts(*contexts, r.pointer("contexts"), num_tenants);
  if (const json* pools = r.required_array("pools")) {
    for (std::size_t i = 0; i < pools->size(); ++i)
      sizing_pool((*pools)[i], r.pointer("pools") + "/" + std::to_string(i));
  }
  r.optional_bool("feasible", true);
  r.finish();
}

void RecordChecker::trace_window(const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, out_, file_);
  if (r.valid() && r.required_string("tenant").empty()) r.error("tenant", "must name a tenant");
  r.required_number("window_start_s", NumberRange::non_negative());
  const NumberRange rows = NumberRange::between(0, 9e15);
  r.required_integer("arrivals", rows);
  r.required_integer("arrivals_as_given", rows);
  r.finish();
}

void RecordChecker::sizing_pool(const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, out_, file_);
  const std::string gpu = r.required_string("gpu");
  if (r.valid() && !gpu.empty() && !models::GpuCatalog::shipped().find(gpu)) {
    r.error("gpu", "unknown GPU " + quoted_excerpt(gpu) + models::GpuCatalog::shipped().did_you_mean_suffix(gpu));
  }
  r.required_integer("count", NumberRange::between(0, 1e9));
  strings(r, "tenants");
  r.finish();
}

void RecordChecker::energy(const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, out_, file_);
  for (const char* key : {"hours", "gpu_kwh", "mean_power_w", "monthly_kwh", "unused_idle_w"}) {
    r.required_number(key, kNonNegative);
  }
  r.required_integer("unused_gpus", NumberRange::between(0, 1e9));
  if (const json* gpus = r.required_array("per_gpu")) {
    for (std::size_t i = 0; i < gpus->size(); ++i)
      gpu_energy((*gpus)[i], r.pointer("per_gpu") + "/" + std::to_string(i));
  }
  r.finish();
}

void RecordChecker::gpu_energy(const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, out_, file_);
  r.required_integer("gpu_index", kNonNegative);
  const std::size_t before = out_.size();
  const std::string gpu = r.required_string("gpu");
  if (out_.size() == before && r.valid() && !models::GpuCatalog::shipped().find(gpu)) {
    r.error("gpu", "unknown GPU " + quoted_excerpt(gpu) + models::GpuCatalog::shipped().did_you_mean_suffix(gpu));
  }
  r.required_number("util_frac", NumberRange::fraction());
  const std::size_t watts_before = out_.size();
  const double idle = r.required_number("idle_w", kNonNegative);
  const double max = r.required_number("max_w", kNonNegative);
  if (out_.size() == watts_before && r.valid() && idle > max) {
    r.error("idle_w", "must not exceed max_w (" + format_number(max) + ") (got " + format_number(idle) + ")");
  }
  required_bool(r, "idle_estimated");
  r.required_number("mean_power_w", kNonNegative);
  r.required_number("kwh", kNonNegative);
  r.finish();
}

void RecordChecker::faults(const json& value, const std::string& pointer, const std::vector<std::string>& tenants,
                           const std::string& tenants_at) {
  JsonReader r(value, pointer, out_, file_);
  if (const json* events = r.required_array("events")) {
    for (std::size_t i = 0; i < events->size(); ++i)
      fault_event((*events)[i], r.pointer("events") + "/" + std::to_string(i));
  }
  r.required_number("blast_radius_tenants", kNonNegative);
  if (const json* expected = r.required_array("expected")) {
    for (std::size_t i = 0; i < expected->size(); ++i)
      fault_exposure((*expected)[i], r.pointer("expected") + "/" + std::to_string(i));
  }
  r.required_number("expected_blast_radius", kNonNegative);
  if (const json* exposures = r.required_array("tenants")) {
    for (std::size_t i = 0; i < exposures->size(); ++i)
      tenant_exposure((*exposures)[i], r.pointer("tenants") + "/" + std::to_string(i), tenants, tenants_at);
  }
  r.required_integer("num_repartitions", kNonNegative);
  r.finish();
}

const EnumTable<int>& RecordChecker::fault_kinds() {
  static const EnumTable<int> kinds = {
      {"gpu_failure", 0}, {"driver_reset", 1}, {"tenant_crash", 2}, {"mps_server_fault", 3}, {"repartition", 4}};
  return kinds;
}

void RecordChecker::fault_event(const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, out_, file_);
  r.required_number("at_s", kNonNegative);
  r.required_enum("kind", fault_kinds());
  r.required_integer("gpu_index", kNonNegative);
  r.required_string("origin");
  required_bool(r, "scheduled");
  strings(r, "contexts_hit");
  r.required_integer("tenants_hit", kNonNegative);
  r.required_number("outage_s", kNonNegative);
  r.finish();
}

void RecordChecker::fault_exposure(const json& value, const std::string& pointer) {
  JsonReader r(value, pointer, out_, file_);
  r.required_enum("kind", fault_kinds());
  for (const char* key : {"per_month", "tenants_hit", "contexts_hit", "outage_s"}) r.required_number(key, kNonNegative);
  r.finish();
}

void RecordChecker::tenant_exposure(const json& value, const std::string& pointer,
                                    const std::vector<std::string>& tenants, const std::string& tenants_at) {
  JsonReader r(value, pointer, out_, file_);
  const std::size_t before = out_.size();
  const std::string name = r.required_string("name");
  // Unchecked when the strategy's tenants are missing (reported there).
  if (out_.size() == before && r.valid() && !tenants.empty() &&
      std::find(tenants.begin(), tenants.end(), name) == tenants.end()) {
    r.error("name", "unknown tenant " + quoted_excerpt(name) + "; the strategy's tenants (" + tenants_at + ") are " +
                        join(tenants, "|") + did_you_mean_suffix(name, tenants));
  }
  r.required_number("interruptions_per_month", kNonNegative);
  r.required_number("outage_hours_per_month", kNonNegative);
  r.required_number("availability", NumberRange::fraction());
  r.finish();
}

void RecordChecker::sizing_contexts(const json& contexts, const std::string& pointer,
                                    std::optional<std::size_t> num_tenants) {
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    if (!contexts[i].is_number_integer() || contexts[i].get<std::int64_t>() < 1) {
      add(pointer + "/" + std::to_string(i), "must be an integer >= 1 (got " + describe_json(contexts[i]) + ")");
    }
  }
  if (num_tenants && contexts.size() != *num_tenants) {
    add(pointer,
        "has " + std::to_string(contexts.size()) + " entries for " + std::to_string(*num_tenants) + " tenants");
  }
}

void RecordChecker::sizing_step(const json& value, const std::string& pointer, const NumberRange& count) {
  JsonReader step(value, pointer, out_, file_);
  step.required_string("phase");
  step.required_integer("num_gpus", count);
  step.required_integer("num_contexts", count);
  if (!step.has("met") || !value.at("met").is_boolean()) step.error("met", "must be true or false");
  step.finish();
}

}  // namespace slicewise::scenario::detail
