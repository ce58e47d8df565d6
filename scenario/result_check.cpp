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
#include "scenario/result_check_parts.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::scenario {

using detail::kNonNegative;

using nlohmann::json;

namespace {

constexpr int kSchemaVersion = 1;
constexpr double kMaxSeed = 9007199254740992.0;  // 2^53, as in scenarios

class ResultChecker : public detail::CheckBase {
 public:
  ResultChecker(Diagnostics& out, std::string file) : CheckBase(out, std::move(file)), records_(out_, file_) {}

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
    if (const json* s = r.optional_object("sizing")) records_.sizing(*s, r.pointer("sizing"), num_tenants);
    if (const json* e = r.optional_object("energy")) records_.energy(*e, r.pointer("energy"));
    if (const json* f = r.optional_object("faults"))
      records_.faults(*f, r.pointer("faults"), tenant_names, r.pointer("tenants"));
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

  detail::RecordChecker records_;  ///< a strategy's sizing, energy and fault records
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
