// Strict checking of result documents: every key, type and range, and the strategies and tenants
// against the result's own scenario (`input`).
#include "scenario/result_check.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "models/strategy_kind.hpp"
#include "scenario/json_io.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

using nlohmann::json;

namespace {

constexpr int kSchemaVersion = 1;
constexpr double kMaxSeed = 9007199254740992.0;  // 2^53, as in scenarios
const NumberRange kNonNegative = NumberRange::non_negative();
const NumberRange kHours{0.0, false, 24.0, true};  ///< an hour of the day, [0, 24)

class ResultChecker {
 public:
  ResultChecker(Diagnostics& out, std::string file) : out_(out), file_(std::move(file)) {}

  void document(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    if (!r.schema_version(kSchemaVersion)) return;  // another version may mean other keys: report only this
    r.required_string("scenario");
    r.required_integer("seed", NumberRange::between(0, kMaxSeed));
    r.required_number("horizon_s", NumberRange::positive());
    if (const json* input = r.required_object("input")) scenario_input(*input, r.pointer("input"));
    if (const json* c = r.optional_object("calibration")) calibration(*c, r.pointer("calibration"));
    r.optional_string("origin", "");
    if (const json* strategies = r.required_array("strategies")) {
      if (strategies->empty()) r.error("strategies", "must list at least one strategy (got [])");
      std::map<std::string, std::string> seen;  // name -> pointer
      for (std::size_t i = 0; i < strategies->size(); ++i) {
        const std::string at = r.pointer("strategies") + "/" + std::to_string(i);
        const std::string name = strategy((*strategies)[i], at);
        if (name.empty()) continue;
        if (const auto [it, inserted] = seen.emplace(name, at + "/name"); !inserted) {
          add(at + "/name", "duplicate strategy name \"" + name + "\" (also " + it->second + ")");
        }
        strategy_names_.push_back(name);
      }
    }
    if (const json* bands = r.optional_array("uncertainty")) {
      for (std::size_t i = 0; i < bands->size(); ++i)
        band((*bands)[i], r.pointer("uncertainty") + "/" + std::to_string(i));
    }
    r.finish();
  }

 private:
  void add(std::string pointer, std::string message) {
    out_.push_back(Diagnostic{file_, 0, 0, std::move(pointer), std::move(message)});
  }

  /// The scenario the result was simulated from, read as strictly as a scenario file.
  void scenario_input(const json& value, const std::string& pointer) {
    try {
      input_ = parse_scenario(value, file_, ScenarioSource::result_input);
    } catch (const ConfigError& e) {
      for (auto d : e.diagnostics()) {
        d.file = file_;
        d.pointer = pointer + (d.pointer == "/" ? "" : d.pointer);
        out_.push_back(std::move(d));
      }
    }
  }

  void required_bool(JsonReader& r, std::string_view key) {
    if (r.valid() && !r.has(key)) {
      r.error_here("missing required key \"" + std::string(key) + "\"");
    } else {
      r.optional_bool(key, false);
    }
  }

  /// An array of strings (required unless `optional`).
  void strings(JsonReader& r, std::string_view key, bool optional = false) {
    const json* array = optional ? r.optional_array(key) : r.required_array(key);
    if (!array) return;
    for (std::size_t i = 0; i < array->size(); ++i) {
      if (!(*array)[i].is_string()) {
        add(r.pointer(key) + "/" + std::to_string(i), "expected string (got " + describe_json((*array)[i]) + ")");
      }
    }
  }

  /// An array of numbers in `range`; returns its size (0 when absent or not an array).
  std::size_t numbers(const json& array, const std::string& pointer, const NumberRange& range) {
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

  void distribution(JsonReader& parent, std::string_view key, bool required = true) {
    const json* value = required ? parent.required_object(key) : parent.optional_object(key);
    if (!value) return;
    JsonReader r(*value, parent.pointer(key), out_, file_);
    r.required_integer("count", kNonNegative);
    for (const char* name : {"mean", "p50", "p90", "p95", "p99", "max"}) r.required_number(name, kNonNegative);
    r.finish();
  }

  void calibration(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    r.required_string("profile_id");
    r.required_number("fit_mape", kNonNegative);
    strings(r, "constants");
    strings(r, "sources");
    r.finish();
  }

  /// Reads one strategy; returns its name ("" when it has none).
  std::string strategy(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    std::string name = r.required_string("name");
    const std::size_t before = out_.size();
    const auto kind = r.required_enum("kind", models::strategy_kind_table());
    const bool kind_known = out_.size() == before && r.valid();
    r.required_integer("num_gpus_used", kNonNegative);
    r.required_number("fleet_busy_frac", kNonNegative);
    r.required_number("fleet_sm_util_frac", kNonNegative);
    strings(r, "issues");
    std::optional<std::size_t> num_tenants, num_devices;  // unknown when the array is missing
    std::vector<std::string> tenant_names;
    if (const json* tenants = r.required_array("tenants")) {
      num_tenants = tenants->size();
      for (std::size_t i = 0; i < tenants->size(); ++i) {
        tenant_names.push_back(tenant((*tenants)[i], r.pointer("tenants") + "/" + std::to_string(i)));
      }
      tenants_match_input(tenant_names, r.pointer("tenants"));
    }
    if (const json* devices = r.required_array("devices")) {
      num_devices = devices->size();
      for (std::size_t i = 0; i < devices->size(); ++i)
        device((*devices)[i], r.pointer("devices") + "/" + std::to_string(i));
    }
    if (const json* series = r.required_object("series"))
      this->series(*series, r.pointer("series"), num_devices, num_tenants);
    r.required_number("simulated_s", kNonNegative);
    r.required_integer("num_events", kNonNegative);
    if (const json* s = r.optional_object("sizing")) sizing(*s, r.pointer("sizing"), num_tenants);
    if (const json* e = r.optional_object("energy")) energy(*e, r.pointer("energy"));
    if (const json* f = r.optional_object("faults"))
      faults(*f, r.pointer("faults"), tenant_names, r.pointer("tenants"));
    r.finish();
    if (input_ && !name.empty()) {
      const auto& specs = input_->strategies;
      const auto it = std::find_if(specs.begin(), specs.end(), [&](const StrategySpec& s) { return s.name == name; });
      std::vector<std::string> names;
      names.reserve(specs.size());
      for (const auto& s : specs) names.push_back(s.name);
      if (it == specs.end()) {
        add(pointer + "/name", "unknown strategy " + quoted_excerpt(name) +
                                   "; the result's scenario (/input/strategies) has " + join(names, "|") +
                                   did_you_mean_suffix(name, names));
      } else if (kind_known && it->kind != kind) {
        add(pointer + "/kind", "\"" + models::to_string(kind) + "\", but the scenario's strategy \"" + name + "\" is " +
                                   models::to_string(it->kind));
      }
    }
    return name;
  }

  /// A sized strategy's record (scenario/sizing.hpp): contexts per tenant, every step.
  void sizing(const json& value, const std::string& pointer, std::optional<std::size_t> num_tenants) {
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

  /// The record's keys written only where they apply: pools, hourly fleets, trace windows.
  void sizing_extras(JsonReader& r, std::optional<std::size_t> num_tenants) {
    each(r, "pools", [&](const json& pool, const std::string& at) { sizing_pool(pool, at); });
    if (const json* hourly = r.optional_array("hourly"); hourly && hourly->size() != 24) {
      r.error("hourly", "must have 24 entries, one per hour of day (got " + std::to_string(hourly->size()) + ")");
    }
    each(r, "hourly", [&](const json& hour, const std::string& at) { hour_fleet(hour, at, num_tenants); });
    each(r, "trace_windows", [&](const json& window, const std::string& at) { trace_window(window, at); });
  }

  /// Checks each element of `r`'s optional array `key` with check(element, its pointer).
  template <class Check>
  static void each(JsonReader& r, std::string_view key, const Check& check) {
    if (const json* items = r.optional_array(key)) {
      for (std::size_t i = 0; i < items->size(); ++i) check((*items)[i], r.pointer(key) + "/" + std::to_string(i));
    }
  }

  /// One hour's fleet: its hour, GPUs, contexts per tenant, pools and whether it met every SLA.
  void hour_fleet(const json& value, const std::string& pointer, std::optional<std::size_t> num_tenants) {
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

  /// A trace tenant's busiest window: a tenant, a trace time >= 0, two row counts.
  void trace_window(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    if (r.valid() && r.required_string("tenant").empty()) r.error("tenant", "must name a tenant");
    r.required_number("window_start_s", NumberRange::non_negative());
    const NumberRange rows = NumberRange::between(0, 9e15);
    r.required_integer("arrivals", rows);
    r.required_integer("arrivals_as_given", rows);
    r.finish();
  }

  /// A pool of the sized fleet: a known GPU, a count, the tenants it is reserved for.
  void sizing_pool(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    const std::string gpu = r.required_string("gpu");
    if (r.valid() && !gpu.empty() && !models::GpuCatalog::shipped().find(gpu)) {
      r.error("gpu", "unknown GPU " + quoted_excerpt(gpu) + models::GpuCatalog::shipped().did_you_mean_suffix(gpu));
    }
    r.required_integer("count", NumberRange::between(0, 1e9));
    strings(r, "tenants");
    r.finish();
  }

  /// The strategy's energy (scenario/energy.hpp): non-negative figures, a GPU of the catalog per
  /// used GPU with its power curve rising from idle to TDP.
  void energy(const json& value, const std::string& pointer) {
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

  void gpu_energy(const json& value, const std::string& pointer) {
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

  /// Faults and re-partitions of a strategy (FaultRecord): every event and expected figure in range,
  /// and per tenant exposure only for the strategy's own tenants (`tenants`, listed at `tenants_at`).
  void faults(const json& value, const std::string& pointer, const std::vector<std::string>& tenants,
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

  /// The kinds a fault event or an expected figure may have: the fault kinds, and a re-partition.
  static const EnumTable<int>& fault_kinds() {
    static const EnumTable<int> kinds = {
        {"gpu_failure", 0}, {"driver_reset", 1}, {"tenant_crash", 2}, {"mps_server_fault", 3}, {"repartition", 4}};
    return kinds;
  }

  void fault_event(const json& value, const std::string& pointer) {
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

  void fault_exposure(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    r.required_enum("kind", fault_kinds());
    for (const char* key : {"per_month", "tenants_hit", "contexts_hit", "outage_s"})
      r.required_number(key, kNonNegative);
    r.finish();
  }

  void tenant_exposure(const json& value, const std::string& pointer, const std::vector<std::string>& tenants,
                       const std::string& tenants_at) {
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

  /// The sizing record's contexts: an integer >= 1 per tenant.
  void sizing_contexts(const json& contexts, const std::string& pointer, std::optional<std::size_t> num_tenants) {
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

  /// One step of the sizing search.
  void sizing_step(const json& value, const std::string& pointer, const NumberRange& count) {
    JsonReader step(value, pointer, out_, file_);
    step.required_string("phase");
    step.required_integer("num_gpus", count);
    step.required_integer("num_contexts", count);
    if (!step.has("met") || !value.at("met").is_boolean()) step.error("met", "must be true or false");
    step.finish();
  }

  /// Each of the scenario's tenants once, and no other.
  void tenants_match_input(const std::vector<std::string>& names, const std::string& pointer) {
    if (!input_) return;
    std::vector<std::string> expected;
    for (const auto& t : input_->tenants) expected.push_back(t.name);
    std::map<std::string, std::size_t> first;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].empty()) continue;
      const std::string at = pointer + "/" + std::to_string(i) + "/name";
      if (std::find(expected.begin(), expected.end(), names[i]) == expected.end()) {
        add(at, "unknown tenant " + quoted_excerpt(names[i]) + "; the result's scenario (/input/tenants) has " +
                    join(expected, "|") + did_you_mean_suffix(names[i], expected));
      } else if (const auto [it, inserted] = first.emplace(names[i], i); !inserted) {
        add(at, "duplicate tenant \"" + names[i] + "\" (also " + pointer + "/" + std::to_string(it->second) + "/name)");
      }
    }
    for (const auto& name : expected) {
      if (!first.count(name)) add(pointer, "missing tenant \"" + name + "\" of the result's scenario (/input/tenants)");
    }
  }

  /// Reads one tenant's figures; returns its name.
  std::string tenant(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    std::string name = r.required_string("name");
    for (const char* key : {"num_contexts", "num_contexts_unplaced", "num_arrived", "num_completed", "num_dropped",
                            "num_unfinished", "sla_violations"}) {
      r.required_integer(key, kNonNegative);
    }
    r.required_number("throughput_per_s", kNonNegative);
    r.required_number("gpu_work_s", kNonNegative);
    for (const char* key : {"latency_s", "queue_delay_s", "ttft_s", "tpot_s"}) distribution(r, key);
    distribution(r, "slowdown", false);  // absent from results written before it was measured
    if (const json* cdf = r.optional_value("latency_cdf_s")) {
      const std::size_t size = numbers(*cdf, r.pointer("latency_cdf_s"), kNonNegative);
      if (cdf->is_array() && size != 0 && size != kLatencyCdfLevels.size()) {
        r.error("latency_cdf_s", "expected " + std::to_string(kLatencyCdfLevels.size()) +
                                     " latencies, one per CDF level, or none (got " + std::to_string(size) + ")");
      }
    }
    r.required_number("sla_violation_frac", kNonNegative);
    r.required_number("sla_max_violation_frac", NumberRange::fraction());
    required_bool(r, "sla_met");
    // Faults and re-partitions: absent from results written before they were modelled.
    for (const char* key : {"num_failed", "num_retried", "num_interruptions"}) r.maybe_integer(key, kNonNegative);
    for (const char* key : {"num_shed", "num_timed_out"}) r.maybe_integer(key, kNonNegative);  // only when not 0
    r.maybe_number("downtime_s", kNonNegative);
    r.maybe_number("availability", NumberRange::fraction());
    r.maybe_number("prefix_cache_hit_frac", NumberRange::fraction());
    r.finish();
    return name;
  }

  void device(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    r.required_string("name");
    const std::size_t before = out_.size();
    const std::string gpu = r.required_string("gpu");
    if (out_.size() == before && r.valid() && !models::GpuCatalog::shipped().find(gpu)) {
      r.error("gpu", "unknown GPU " + quoted_excerpt(gpu) + models::GpuCatalog::shipped().did_you_mean_suffix(gpu));
    }
    r.required_string("mig_profile");
    r.required_integer("gpu_index", kNonNegative);
    strings(r, "contexts");
    for (const char* key : {"busy_frac", "sm_util_frac", "memory_allocated_gib", "memory_capacity_gib"}) {
      r.required_number(key, kNonNegative);
    }
    required_bool(r, "oom_risk");
    r.optional_string("phase", "");  // these two are absent from results written before layout schedules
    r.maybe_number("down_s", kNonNegative);
    r.maybe_number("out_of_phase_s", kNonNegative);            // absent: 0 (a device without a layout phase)
    r.maybe_integer("gpu_count", NumberRange::between(2, 8));  // a tensor-parallel group's; absent = 1
    r.optional_bool("reserved", false);                        // on a reserved pool's GPU; absent = false
    r.finish();
  }

  /// One row per device (busy, SM) and per tenant (queue length), all of one length.
  void series(const json& value, const std::string& pointer, std::optional<std::size_t> num_devices,
              std::optional<std::size_t> num_tenants) {
    JsonReader r(value, pointer, out_, file_);
    r.required_number("interval_s", NumberRange::positive());
    const std::pair<const char*, std::optional<std::size_t>> matrices[] = {
        {"device_busy_frac", num_devices}, {"device_sm_util_frac", num_devices}, {"tenant_queue_length", num_tenants}};
    for (const auto& [key, rows] : matrices) {
      const json* matrix = r.required_array(key);
      if (!matrix) continue;
      if (rows && matrix->size() != *rows) {
        r.error(key, "expected " + std::to_string(*rows) + " rows, one per " +
                         (std::string(key) == "tenant_queue_length" ? "tenant" : "device") + " (got " +
                         std::to_string(matrix->size()) + ")");
        continue;
      }
      for (std::size_t i = 0; i < matrix->size(); ++i) {
        const std::string at = r.pointer(key) + "/" + std::to_string(i);
        const std::size_t length = numbers((*matrix)[i], at, kNonNegative);
        const std::size_t expected = (*matrix)[0].is_array() ? (*matrix)[0].size() : 0;
        if ((*matrix)[i].is_array() && length != expected) {
          add(at, "expected " + std::to_string(expected) + " samples, as many as row 0 (got " + std::to_string(length) +
                      ")");
        }
      }
    }
    r.finish();
  }

  void band(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out_, file_);
    const std::size_t before = out_.size();
    const std::string strategy = r.required_string("strategy");
    if (out_.size() == before && r.valid() &&
        std::find(strategy_names_.begin(), strategy_names_.end(), strategy) == strategy_names_.end()) {
      r.error("strategy", "unknown strategy " + quoted_excerpt(strategy) + "; the result has " +
                              join(strategy_names_, "|") + did_you_mean_suffix(strategy, strategy_names_));
    }
    r.required_integer("num_samples", NumberRange::at_least(1));
    for (const char* key : {"monthly_savings_p05_usd", "monthly_savings_p50_usd", "monthly_savings_p95_usd"}) {
      r.required_number(key);
    }
    for (const char* key : {"sla_violation_p05_frac", "sla_violation_p50_frac", "sla_violation_p95_frac"}) {
      r.required_number(key, kNonNegative);
    }
    for (const char* key : {"num_gpus_p05", "num_gpus_p50", "num_gpus_p95"}) r.maybe_number(key, kNonNegative);
    r.maybe_number("fleet_meets_sla_frac", NumberRange::between(0.0, 1.0));
    r.finish();
  }

  Diagnostics& out_;
  std::string file_;
  std::optional<Scenario> input_;
  std::vector<std::string> strategy_names_;
};

}  // namespace

Diagnostics check_result(const json& document, const std::string& file, const std::string& pointer) {
  Diagnostics out;
  ResultChecker(out, file).document(document, pointer);
  return out;
}

}  // namespace slicewise::scenario
