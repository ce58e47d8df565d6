// Scenario format v1: strict reading (phase 1 of loading) and writing.
#include "scenario/json_io.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/validate.hpp"

namespace slicewise::scenario {

using models::StrategyKind;
using nlohmann::json;

namespace {

constexpr int kSchemaVersion = 1;
constexpr double kMaxSeed = 9007199254740992.0;  // 2^53: the largest integer every JSON reader keeps exact
constexpr double kMaxHorizonS = 1e8;             // about 3 years: longer than any trace slicewise reads
constexpr double kMaxTraceMultiplier = 10000;    // copies of one trace row

const EnumTable<std::string>& dtype_table() {
  static const EnumTable<std::string> table = {{"fp32", "fp32"}, {"fp16", "fp16"}, {"bf16", "bf16"},
                                               {"fp8", "fp8"},   {"int8", "int8"}, {"int4", "int4"}};
  return table;
}

/// Reports the present keys of `table` that `kind` does not use. With `kind_known` false (the kind
/// itself was invalid) they are accepted silently, so that one typo gives one message.
template <class K>
void reject_foreign_keys(JsonReader& r, const json& object, const KeyKinds<K>& table, K kind, bool kind_known,
                         const EnumTable<K>& names, const char* what) {
  if (!object.is_object()) return;
  for (const auto& entry : table) {
    const std::string& key = entry.first;
    if (!object.contains(key) || (kind_known && uses(table, key, kind))) continue;
    r.allow(key);
    if (!kind_known) continue;
    r.error(key, std::string("unknown key for ") + what + " \"" + name_of(names, kind) + "\" (applies to " +
                     kinds_using(table, key, names) + ")");
  }
}

/// A required or optional string that must not be empty when given.
std::string nonempty_string(JsonReader& r, std::string_view key, bool required) {
  const bool present = r.has(key);
  std::string value = required ? r.required_string(key) : r.optional_string(key, "");
  if (present && value.empty() && r.valid()) {
    const json* raw = r.optional_value(key);
    if (raw && raw->is_string()) r.error(key, "must not be empty");
  }
  return value;
}

/// The elements of a required array that must not be empty.
const json* nonempty_array(JsonReader& r, std::string_view key, const char* what) {
  const json* array = r.required_array(key);
  if (array && array->empty()) {
    r.error(key, std::string("must list at least one ") + what + " (got [])");
    return nullptr;
  }
  return array;
}

/// A count: integer >= `min` (and at most a million, so that it fits an int).
int read_count(JsonReader& r, std::string_view key, std::optional<int> fallback, double min = 1) {
  constexpr std::int64_t kMaxCount = 1000000;
  // Checked before the integer read, so that a huge value never reaches an integer conversion.
  if (const json* raw = r.optional_value(key); raw && raw->is_number() && raw->get<double>() > kMaxCount) {
    r.error(key, "must be <= " + std::to_string(kMaxCount) + " (got " + describe_json(*raw) + ")");
    return fallback.value_or(0);
  }
  const std::int64_t value = fallback ? r.optional_integer(key, *fallback, NumberRange::at_least(min))
                                      : r.required_integer(key, NumberRange::at_least(min));
  return static_cast<int>(value);
}

std::string at(const std::string& pointer, std::size_t index) { return pointer + "/" + std::to_string(index); }

StrategyKind strategy_kind_of(JsonReader& r, bool& known) {
  const std::size_t before = r.diagnostics().size();
  const auto kind = r.required_enum("kind", models::strategy_kind_table());
  known = r.diagnostics().size() == before && r.valid();
  return kind;
}

struct Reader {
  Diagnostics& out;
  std::string file;

  FleetEntry fleet_entry(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out, file);
    FleetEntry e;
    const bool has_gpu = r.has("gpu");
    const bool has_instance = r.has("instance_type");
    if (r.valid() && has_gpu && has_instance) {
      r.error_here("give either \"gpu\" or \"instance_type\", not both");
    } else if (r.valid() && !has_gpu && !has_instance) {
      r.error_here("missing required key \"gpu\" or \"instance_type\" (give exactly one)");
    }
    e.gpu = nonempty_string(r, "gpu", false);
    e.instance_type = nonempty_string(r, "instance_type", false);
    e.count = read_count(r, "count", 1);
    r.finish();
    return e;
  }

  /// Reads the workload; `has_tokens` says which of prompt/output tokens were given.
  Workload workload(const json& value, const std::string& pointer, bool& kind_known, bool has_tokens[2]) {
    JsonReader r(value, pointer, out, file);
    Workload w;
    const std::size_t before = out.size();
    w.kind = r.optional_enum("kind", WorkloadKind::generic, workload_kind_table());
    kind_known = out.size() == before && r.valid();
    reject_foreign_keys(r, value, workload_keys(), w.kind, kind_known, workload_kind_table(), "workload kind");
    const bool generic = kind_known && w.kind == WorkloadKind::generic;
    w.solo_latency_s = generic ? r.required_number("solo_latency_s", NumberRange::positive())
                               : r.maybe_number("solo_latency_s", NumberRange::positive());
    w.reference_gpu = nonempty_string(r, "reference_gpu", false);
    w.gpu_duty_frac = r.optional_number("gpu_duty_frac", 1.0, NumberRange::positive_fraction());
    w.sm_occupancy_frac = r.optional_number("sm_occupancy_frac", 1.0, NumberRange::positive_fraction());
    w.mem_bw_frac = r.optional_number("mem_bw_frac", 0.0, NumberRange::fraction());
    w.memory_gib = r.required_number("memory_gib", NumberRange::positive());
    w.max_concurrency = read_count(r, "max_concurrency", 1);
    if (uses(workload_keys(), "service_dist", w.kind)) {
      w.service_dist = r.optional_enum("service_dist", ServiceDistribution::fixed, service_distribution_table());
    }
    if (w.kind == WorkloadKind::llm && kind_known) {
      if (const json* llm = r.required_object("llm")) {
        JsonReader l(*llm, r.pointer("llm"), out, file);
        LlmSpec spec;
        spec.params_b = l.required_number("params_b", NumberRange::positive());
        spec.dtype = l.optional_enum("dtype", std::string("bf16"), dtype_table());
        has_tokens[0] = l.has("prompt_tokens");
        has_tokens[1] = l.has("output_tokens");
        spec.prompt_tokens = l.optional_number("prompt_tokens", 0.0, NumberRange::non_negative());
        spec.output_tokens = l.optional_number("output_tokens", 0.0, NumberRange::non_negative());
        l.finish();
        w.llm = spec;
      }
    }
    r.finish();
    return w;
  }

  LoadSpec load(const json& value, const std::string& pointer, bool& known) {
    JsonReader r(value, pointer, out, file);
    LoadSpec l;
    const std::size_t before = out.size();
    l.kind = r.required_enum("kind", load_kind_table());
    known = out.size() == before && r.valid();
    reject_foreign_keys(r, value, load_keys(), l.kind, known, load_kind_table(), "load kind");
    if (known && l.kind == LoadKind::poisson) {
      l.rate_per_s = r.required_number("rate_per_s", NumberRange::positive());
    } else if (known && l.kind == LoadKind::closed_loop) {
      l.num_users = read_count(r, "num_users", std::nullopt);
      l.think_time_s = r.optional_number("think_time_s", 0.0, NumberRange::non_negative());
    } else if (known && l.kind == LoadKind::trace) {
      trace_load(r, l);
    } else if (known && l.kind == LoadKind::diurnal) {
      l.rate_per_s = r.required_number("rate_per_s", NumberRange::positive());
      l.hourly_profile = numbers(r, "hourly_profile", 24, NumberRange::non_negative());
      if (l.hourly_profile.size() == 24 && *std::max_element(l.hourly_profile.begin(), l.hourly_profile.end()) <= 0.0) {
        r.error("hourly_profile", "needs at least one hour with a rate > 0");
      } else if (l.hourly_profile.size() == 24) {
        // The profile is normalised to mean 1: its mean must be a positive, finite number.
        double sum = 0.0;
        for (double x : l.hourly_profile) sum += x;
        if (!std::isfinite(sum) || !(sum / 24.0 > 0.0)) {
          r.error("hourly_profile", "the mean of the 24 relative rates must be a positive finite number (got " +
                                        format_number(sum / 24.0) + "); scale them towards 1");
        }
      }
      l.start_hour = r.optional_number("start_hour", 0.0, NumberRange{0.0, false, 24.0, true});
    } else if (known && l.kind == LoadKind::mmpp) {
      if (const json* states = r.required_array("states")) {
        if (states->size() < 2) r.error("states", "an MMPP needs at least two states (got " + std::to_string(states->size()) + ")");
        for (std::size_t i = 0; i < states->size(); ++i) {
          JsonReader st((*states)[i], r.pointer("states") + "/" + std::to_string(i), out, file);
          MmppStateSpec spec;
          spec.rate_per_s = st.required_number("rate_per_s", NumberRange::non_negative());
          spec.mean_duration_s = st.required_number("mean_duration_s", NumberRange::positive());
          st.finish();
          l.states.push_back(spec);
        }
        const bool all_zero = std::all_of(states->begin(), states->end(), [](const json& st) {
          return st.is_object() && st.contains("rate_per_s") && st["rate_per_s"].is_number() &&
                 st["rate_per_s"].get<double>() == 0.0;
        });
        if (states->size() >= 2 && all_zero) r.error("states", "needs at least one state with a rate_per_s > 0 (every state has 0)");
      }
    }
    if (known && uses(load_keys(), "multiplier", l.kind)) {
      // On a trace each row arrives about `multiplier` times: bounded so that the copies of a row
      // stay countable (the expected requests of generated loads are bounded by validate).
      l.multiplier = r.optional_number("multiplier", 1.0,
                                       l.kind == LoadKind::trace ? NumberRange{0.0, true, kMaxTraceMultiplier, false}
                                                                 : NumberRange::positive());
    }
    r.finish();
    return l;
  }

  void trace_load(JsonReader& r, LoadSpec& l) {
    l.trace_file = nonempty_string(r, "trace_file", true);
    l.trace_format = r.has("trace_format") ? name_of(trace_format_table(), r.required_enum("trace_format", trace_format_table()))
                                           : std::string();
    l.split_column = nonempty_string(r, "split_column", false);
    if (const json* values = r.optional_array("split_values")) {
      for (std::size_t i = 0; i < values->size(); ++i) {
        if (!(*values)[i].is_string()) {
          r.error("split_values", "element " + std::to_string(i) + " must be a string (got " + (*values)[i].dump() + ")");
        } else {
          l.split_values.push_back((*values)[i].get<std::string>());
        }
      }
    }
    if (!l.split_column.empty() && l.split_values.empty()) {
      r.error("split_values", "give the values of \"" + l.split_column + "\" this tenant takes (a non-empty array)");
    } else if (l.split_column.empty() && r.has("split_values")) {
      r.error("split_values", "needs \"split_column\"");
    }
    l.window_start_s = r.optional_number("window_start_s", 0.0, NumberRange::non_negative());
    l.window_end_s = r.maybe_number("window_end_s", NumberRange::positive());
    if (l.window_end_s && *l.window_end_s <= l.window_start_s) {
      r.error("window_end_s", "must be > window_start_s (got " + format_number(*l.window_end_s) + "; window_start_s is " +
                                  format_number(l.window_start_s) + ")");
    }
    l.time_compression = r.optional_number("time_compression", 1.0, NumberRange::positive());
    l.sample_frac = r.optional_number("sample_frac", 1.0, NumberRange::positive_fraction());
    l.spread_ties = r.optional_bool("spread_ties", false);
    l.gpu_frac_demand = r.optional_bool("gpu_frac_demand", false);
    l.on_bad_row = r.optional_enum("on_bad_row", BadRowPolicy::fail, bad_row_policy_table());
  }

  /// An array of exactly `size` numbers in `range`.
  std::vector<double> numbers(JsonReader& r, std::string_view key, std::size_t size, const NumberRange& range) {
    std::vector<double> values;
    const json* array = r.required_array(key);
    if (array == nullptr) return values;
    if (array->size() != size) {
      r.error(key, "expected " + std::to_string(size) + " numbers (got " + std::to_string(array->size()) + ")");
      return values;
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto& v = (*array)[i];
      const std::string at = r.pointer(key) + "/" + std::to_string(i);
      if (!v.is_number()) {
        out.push_back({file, 0, 0, at, "expected a number (got " + v.dump() + ")"});
      } else if (const auto problem = range.violation(v.get<double>()); !problem.empty()) {
        out.push_back({file, 0, 0, at, problem + " (got " + format_number(v.get<double>()) + ")"});
      } else {
        values.push_back(v.get<double>());
      }
    }
    return values;
  }

  SlaTargets sla(const json& value, const std::string& pointer, WorkloadKind kind, bool kind_known) {
    JsonReader r(value, pointer, out, file);
    SlaTargets s;
    reject_foreign_keys(r, value, sla_keys(), kind, kind_known, workload_kind_table(), "workload kind");
    s.latency_s = r.maybe_number("latency_s", NumberRange::positive());
    if (kind == WorkloadKind::llm) {
      s.ttft_s = r.maybe_number("ttft_s", NumberRange::positive());
      s.tpot_s = r.maybe_number("tpot_s", NumberRange::positive());
    }
    s.environment = r.optional_enum("environment", Environment::internal, environment_table());
    s.max_violation_frac = r.maybe_number("max_violation_frac", NumberRange::fraction());
    r.finish();
    return s;
  }

  Tenant tenant(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out, file);
    Tenant t;
    t.name = read_name(r, "name", true);
    bool kind_known = false;
    bool has_tokens[2] = {false, false};
    if (const json* w = r.required_object("workload")) t.workload = workload(*w, r.pointer("workload"), kind_known, has_tokens);
    if (const json* l = r.required_object("load")) {
      bool load_known = false;
      t.load = load(*l, r.pointer("load"), load_known);
      if (load_known) check_llm_tokens(t, r.pointer("workload") + "/llm", has_tokens);
      if (const auto problem = gpu_frac_demand_problem(t); load_known && kind_known && !problem.empty()) {
        out.push_back({file, 0, 0, r.pointer("load") + "/gpu_frac_demand", problem});
      }
    }
    if (const json* s = r.optional_object("sla")) t.sla = sla(*s, r.pointer("sla"), t.workload.kind, kind_known);
    t.isolation = r.optional_enum("isolation", models::IsolationLevel::none, models::isolation_level_table());
    t.num_contexts = read_count(r, "num_contexts", 1);
    t.router = r.optional_enum("router", RouterPolicy::round_robin, router_policy_table());
    r.finish();
    return t;
  }

  /// Generated loads (poisson, closed_loop) take request lengths from the llm spec.
  void check_llm_tokens(const Tenant& t, const std::string& pointer, const bool has_tokens[2]) {
    if (!t.workload.llm || t.load.kind == LoadKind::trace) return;
    const std::string load_name = name_of(load_kind_table(), t.load.kind);
    const std::pair<const char*, double> tokens[2] = {{"prompt_tokens", t.workload.llm->prompt_tokens},
                                                      {"output_tokens", t.workload.llm->output_tokens}};
    for (int i = 0; i < 2; ++i) {
      if (!has_tokens[i]) {
        out.push_back({file, 0, 0, pointer,
                       std::string("missing required key \"") + tokens[i].first + "\" (a " + load_name +
                           " load generates requests of this length; only trace loads carry their own)"});
      } else if (tokens[i].second == 0.0) {
        out.push_back({file, 0, 0, pointer + "/" + tokens[i].first,
                       "must be > 0 for a " + load_name + " load (got 0)"});
      }
    }
  }

  TenantStrategySettings setting(const json& value, const std::string& pointer, StrategyKind kind, bool known) {
    JsonReader r(value, pointer, out, file);
    TenantStrategySettings t;
    reject_foreign_keys(r, value, tenant_setting_keys(), kind, known, models::strategy_kind_table(), "strategy kind");
    auto use = [&](const char* key) { return known && uses(tenant_setting_keys(), key, kind); };
    if (use("mig_profile")) t.mig_profile = nonempty_string(r, "mig_profile", false);
    if (use("active_thread_pct")) t.active_thread_pct = r.maybe_number("active_thread_pct", {0.0, true, 100.0, false});
    if (use("gpucores_pct")) t.gpucores_pct = r.maybe_number("gpucores_pct", {0.0, true, 100.0, false});
    if (use("gpumem_gib")) t.gpumem_gib = r.maybe_number("gpumem_gib", NumberRange::positive());
    if (use("weight")) t.weight = r.maybe_number("weight", NumberRange::positive());
    r.finish();
    return t;
  }

  StrategySpec strategy(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out, file);
    StrategySpec s;
    bool known = false;
    s.kind = strategy_kind_of(r, known);
    // An invalid kind gets no default name, so that it cannot clash with another strategy's.
    s.name = r.has("name") ? read_name(r, "name", false) : known ? models::to_string(s.kind) : "";
    s.placement = r.optional_enum("placement", PlacementPolicy::pack, placement_policy_table());
    reject_foreign_keys(r, value, strategy_keys(), s.kind, known, models::strategy_kind_table(), "strategy kind");
    auto use = [&](const char* key) { return known && uses(strategy_keys(), key, s.kind); };
    const NumberRange percent{0.0, true, 100.0, false};
    if (use("replicas")) s.replicas = read_count(r, "replicas", 0, 0);
    if (use("quantum_ms")) s.quantum_ms = r.maybe_number("quantum_ms", NumberRange::positive());
    if (use("switch_cost_ms")) s.switch_cost_ms = r.maybe_number("switch_cost_ms", NumberRange::non_negative());
    if (use("exact")) s.exact = r.optional_bool("exact", false);
    if (use("active_thread_pct")) s.active_thread_pct = r.maybe_number("active_thread_pct", percent);
    if (use("pinned_memory_limit_gib")) {
      s.pinned_memory_limit_gib = r.maybe_number("pinned_memory_limit_gib", NumberRange::positive());
    }
    if (use("layout")) s.layout = nonempty_string(r, "layout", true);
    if (use("gpucores_pct")) s.gpucores_pct = r.maybe_number("gpucores_pct", percent);
    if (use("gpumem_gib")) s.gpumem_gib = r.maybe_number("gpumem_gib", NumberRange::positive());
    if (use("vgpu_scheduler")) {
      s.vgpu_scheduler = r.optional_enum("vgpu_scheduler", VgpuScheduler::best_effort, vgpu_scheduler_table());
    }
    if (use("timeslice_ms")) s.timeslice_ms = r.maybe_number("timeslice_ms", NumberRange::positive());
    if (const json* tenants = r.optional_object("tenants")) {
      for (const auto& [name, settings] : tenants->items()) {
        s.tenants[name] = setting(settings, r.pointer("tenants") + "/" + json_pointer_token(name), s.kind, known);
      }
    }
    if (const json* sidecars = r.optional_array("sidecars")) {
      for (std::size_t i = 0; i < sidecars->size(); ++i) {
        JsonReader c((*sidecars)[i], at(r.pointer("sidecars"), i), out, file);
        Sidecar sidecar;
        sidecar.instance_type = nonempty_string(c, "instance_type", true);
        sidecar.count = read_count(c, "count", 1);
        c.finish();
        s.sidecars.push_back(std::move(sidecar));
      }
    }
    r.finish();
    return s;
  }

  PricingSpec pricing(const json& value, const std::string& pointer) {
    JsonReader r(value, pointer, out, file);
    PricingSpec p;
    p.table = r.has("table") ? nonempty_string(r, "table", false) : p.table;
    p.region = nonempty_string(r, "region", false);
    p.option = r.optional_enum("option", pricing::PurchaseOption::on_demand, pricing::purchase_option_table());
    p.monthly_revenue_usd = r.optional_number("monthly_revenue_usd", 0.0, NumberRange::non_negative());
    p.abandonment_per_100ms_frac = r.optional_number("abandonment_per_100ms_frac", 0.01, NumberRange::fraction());
    r.finish();
    return p;
  }

  /// Reports the second and later uses of a name: `what` is "tenant" or "strategy".
  void check_unique(const std::vector<std::string>& names, const std::vector<std::string>& pointers,
                    const char* what, const char* hint) {
    std::map<std::string, std::size_t> first;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].empty()) continue;
      auto [it, inserted] = first.emplace(names[i], i);
      if (!inserted) {
        out.push_back({file, 0, 0, pointers[i],
                       std::string("duplicate ") + what + " name \"" + names[i] + "\" (also " +
                           pointers[it->second] + ")" + hint});
      }
    }
  }

  /// fleet, tenants and strategies, with the uniqueness of names.
  void lists(JsonReader& r, Scenario& s) {
    if (const json* fleet = nonempty_array(r, "fleet", "entry")) {
      for (std::size_t i = 0; i < fleet->size(); ++i) s.fleet.push_back(fleet_entry((*fleet)[i], at("/fleet", i)));
    }
    if (const json* tenants = nonempty_array(r, "tenants", "tenant")) {
      std::vector<std::string> names, pointers;
      for (std::size_t i = 0; i < tenants->size(); ++i) {
        s.tenants.push_back(tenant((*tenants)[i], at("/tenants", i)));
        names.push_back(s.tenants.back().name);
        pointers.push_back(at("/tenants", i) + "/name");
      }
      check_unique(names, pointers, "tenant", "");
    }
    if (const json* strategies = nonempty_array(r, "strategies", "strategy")) {
      std::vector<std::string> names, pointers;
      for (std::size_t i = 0; i < strategies->size(); ++i) {
        const auto& element = (*strategies)[i];
        s.strategies.push_back(strategy(element, at("/strategies", i)));
        names.push_back(s.strategies.back().name);
        const bool named = element.is_object() && element.contains("name");
        pointers.push_back(at("/strategies", i) + (named ? "/name" : ""));
      }
      check_unique(names, pointers, "strategy", "; give each strategy its own \"name\"");
    }
  }
};

}  // namespace

Scenario parse_scenario(const json& document, const std::string& file) {
  Diagnostics out;
  Scenario s;
  s.source_file = file;
  try {
    JsonReader r(document, "", out, file);
    if (const auto version = r.maybe_integer("schema_version"); version && *version != kSchemaVersion) {
      // Another version may mean other keys: report only this.
      throw ConfigError(file, r.pointer("schema_version"),
                        "unsupported schema version (got " + std::to_string(*version) + "; supported: " + std::to_string(kSchemaVersion) + ")");
    } else if (r.valid() && !r.has("schema_version")) {
      r.error_here("missing required key \"schema_version\" (this slicewise reads version 1)");
    }
    Reader read{out, file};
    s.name = read_name(r, "name", true);
    s.description = r.optional_string("description", "");
    s.seed = static_cast<std::uint64_t>(r.optional_integer("seed", 1, NumberRange::between(0, kMaxSeed)));
    s.horizon_s = r.optional_number("horizon_s", 3600.0, NumberRange::positive());
    if (s.horizon_s > kMaxHorizonS) {
      r.error("horizon_s", "must be <= 100000000, about 3 years (got " + describe_json(*r.optional_value("horizon_s")) + ")");
    }
    s.warmup_s = r.optional_number("warmup_s", 0.0, NumberRange::non_negative());
    if (s.warmup_s >= s.horizon_s) {
      r.error("warmup_s", "must be < horizon_s (got " + format_number(s.warmup_s) + "; horizon_s is " +
                              format_number(s.horizon_s) + ")");
    }
    s.metrics_interval_s = r.optional_number("metrics_interval_s", 60.0, NumberRange::positive());
    read.lists(r, s);
    if (const json* pricing = r.optional_object("pricing")) s.pricing = read.pricing(*pricing, "/pricing");
    r.finish();
  } catch (const json::exception& e) {
    out.push_back({file, 0, 0, "", e.what()});
  }
  if (!out.empty()) throw ConfigError(std::move(out));
  return s;
}

Scenario load_scenario(const std::filesystem::path& file) {
  const json document = read_json_file(file);
  Scenario s = parse_scenario(document, file.string());
  const Catalogs catalogs = Catalogs::shipped();
  if (Diagnostics problems = validate_scenario(s, catalogs); !problems.empty()) {
    throw ConfigError(std::move(problems));
  }
  for (auto& entry : s.fleet) {
    if (!entry.instance_type.empty()) entry.gpu = fleet_gpu_id(entry, s, catalogs);
  }
  return s;
}

}  // namespace slicewise::scenario
