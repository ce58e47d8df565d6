// Scenario -> JSON (the writing half of scenario/json_io.hpp). Every field is written, optional
// ones only when set and kind-specific ones only for the kinds that use them, so that
// parse_scenario(to_json(s)) == s for every valid scenario.
#include <nlohmann/json.hpp>

#include "scenario/enum_tables.hpp"
#include "scenario/json_io.hpp"
#include "scenario/kind_keys.hpp"
#include "scenario/strategy_params.hpp"

namespace slicewise::scenario {

using nlohmann::ordered_json;

namespace {

template <class T>
void put_if(ordered_json& out, const char* key, const std::optional<T>& value) {
  if (value) out[key] = *value;
}

void put_if(ordered_json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

/// The figures a generic workload gives by hand (and an LLM tenant of a result written before the
/// model catalog).
void put_figures(ordered_json& out, const Workload& w) {
  put_if(out, "solo_latency_s", w.solo_latency_s);
  put_if(out, "reference_gpu", w.reference_gpu);
  out["gpu_duty_frac"] = w.gpu_duty_frac;
  out["sm_occupancy_frac"] = w.sm_occupancy_frac;
  out["mem_bw_frac"] = w.mem_bw_frac;
  put_if(out, "kernel_ms", w.kernel_ms);
  out["memory_gib"] = w.memory_gib;
  out["max_concurrency"] = w.max_concurrency;
}

ordered_json engine_json(const EngineSpec& e) {
  ordered_json out;
  out["name"] = name_of(serving_engine_table(), e.name);
  auto use = [&](const char* key) { return uses(engine_keys(), key, e.name); };
  if (use("max_num_seqs")) put_if(out, "max_num_seqs", e.max_num_seqs);
  if (use("max_num_batched_tokens")) put_if(out, "max_num_batched_tokens", e.max_num_batched_tokens);
  if (use("gpu_memory_utilization")) put_if(out, "gpu_memory_utilization", e.gpu_memory_utilization);
  if (use("max_model_len")) put_if(out, "max_model_len", e.max_model_len);
  if (use("max_batch_prefill_tokens")) put_if(out, "max_batch_prefill_tokens", e.max_batch_prefill_tokens);
  if (use("max_total_tokens")) put_if(out, "max_total_tokens", e.max_total_tokens);
  if (use("max_input_length")) put_if(out, "max_input_length", e.max_input_length);
  if (use("cuda_memory_fraction")) put_if(out, "cuda_memory_fraction", e.cuda_memory_fraction);
  if (use("max_concurrent_requests")) put_if(out, "max_concurrent_requests", e.max_concurrent_requests);
  out["kv_cache_dtype"] = e.kv_cache_dtype;
  put_if(out, "prefix_caching", e.prefix_caching);
  out["tensor_parallel"] = e.tensor_parallel;
  return out;
}

ordered_json workload_json(const Workload& w) {
  ordered_json out;
  out["kind"] = name_of(workload_kind_table(), w.kind);
  if (w.kind == WorkloadKind::llm && w.llm && w.llm->legacy_params_b) {
    // A result written before the model catalog: as it was written.
    put_figures(out, w);
    out["llm"] = ordered_json{{"params_b", *w.llm->legacy_params_b},
                              {"dtype", w.llm->dtype},
                              {"prompt_tokens", w.llm->prompt_tokens},
                              {"output_tokens", w.llm->output_tokens}};
    put_if(out, "source", w.source);
    return out;
  }
  if (w.kind == WorkloadKind::llm) {
    // The model and engine decide the rest (scenario/llm_serving.hpp).
    if (w.llm) {
      out["llm"] = ordered_json{{"model", w.llm->model},
                                {"dtype", w.llm->dtype},
                                {"prompt_tokens", w.llm->prompt_tokens},
                                {"output_tokens", w.llm->output_tokens}};
    }
    out["engine"] = engine_json(w.engine.value_or(EngineSpec{}));
    put_if(out, "source", w.source);
    return out;
  }
  put_figures(out, w);
  if (uses(workload_keys(), "service_dist", w.kind)) {
    out["service_dist"] = name_of(service_distribution_table(), w.service_dist);
  }
  put_if(out, "source", w.source);  // only when set, so that workloads given by hand keep their bytes
  return out;
}

ordered_json load_json(const LoadSpec& l) {
  ordered_json out;
  out["kind"] = name_of(load_kind_table(), l.kind);
  auto use = [&](const char* key) { return uses(load_keys(), key, l.kind); };
  if (use("rate_per_s")) out["rate_per_s"] = l.rate_per_s;
  if (use("num_users")) out["num_users"] = l.num_users;
  if (use("think_time_s")) out["think_time_s"] = l.think_time_s;
  if (use("trace_file")) out["trace_file"] = l.trace_file;
  if (use("trace_format")) put_if(out, "trace_format", l.trace_format);
  if (use("split_column") && !l.split_column.empty()) {
    out["split_column"] = l.split_column;
    out["split_values"] = l.split_values;
  }
  if (use("window_start_s")) out["window_start_s"] = l.window_start_s;
  if (use("window_end_s")) put_if(out, "window_end_s", l.window_end_s);
  if (use("time_compression")) out["time_compression"] = l.time_compression;
  if (use("sample_frac")) out["sample_frac"] = l.sample_frac;
  if (use("spread_ties") && l.spread_ties) out["spread_ties"] = true;
  if (use("gpu_frac_demand") && l.gpu_frac_demand) out["gpu_frac_demand"] = true;
  if (use("on_bad_row")) out["on_bad_row"] = name_of(bad_row_policy_table(), l.on_bad_row);
  if (use("hourly_profile")) out["hourly_profile"] = l.hourly_profile;
  if (use("start_hour")) out["start_hour"] = l.start_hour;
  if (use("states")) {
    out["states"] = ordered_json::array();
    for (const auto& st : l.states) {
      out["states"].push_back(ordered_json{{"rate_per_s", st.rate_per_s}, {"mean_duration_s", st.mean_duration_s}});
    }
  }
  if (use("multiplier")) out["multiplier"] = l.multiplier;
  return out;
}

ordered_json tenant_json(const Tenant& t) {
  ordered_json sla;
  put_if(sla, "latency_s", t.sla.latency_s);
  if (t.workload.kind == WorkloadKind::llm) {
    put_if(sla, "ttft_s", t.sla.ttft_s);
    put_if(sla, "tpot_s", t.sla.tpot_s);
  }
  sla["environment"] = name_of(environment_table(), t.sla.environment);
  put_if(sla, "max_violation_frac", t.sla.max_violation_frac);
  ordered_json out{{"name", t.name},
                   {"workload", workload_json(t.workload)},
                   {"load", load_json(t.load)},
                   {"sla", sla},
                   {"isolation", models::to_string(t.isolation)},
                   {"num_contexts", t.num_contexts},
                   {"router", name_of(router_policy_table(), t.router)}};
  // Written only when set, so that results of scenarios without priorities keep their bytes.
  if (t.priority != Priority::normal) out["priority"] = name_of(priority_table(), t.priority);
  if (t.revenue_bearing) out["revenue_bearing"] = *t.revenue_bearing;
  if (t.overload != OverloadSpec{}) {
    ordered_json overload = ordered_json::object();
    put_if(overload, "queue_limit", t.overload.queue_limit);
    put_if(overload, "timeout_s", t.overload.timeout_s);
    out["overload"] = overload;
  }
  return out;
}

/// The declared keys `kind` reads, each as its declaration writes it.
template <class Owner>
void put_params(ordered_json& out, const std::vector<ParamDecl<Owner>>& params,
                const KeyKinds<models::StrategyKind>& table, models::StrategyKind kind, const Owner& owner) {
  for (const auto& param : params) {
    if (uses(table, param.key, kind)) param.write(out, owner);
  }
}

ordered_json setting_json(const TenantStrategySettings& t, models::StrategyKind kind) {
  ordered_json out = ordered_json::object();
  put_params(out, tenant_params(), tenant_setting_keys(), kind, t);
  return out;
}

ordered_json strategy_json(const StrategySpec& s) {
  ordered_json out;
  out["name"] = s.name;
  out["kind"] = models::to_string(s.kind);
  out["placement"] = name_of(placement_policy_table(), s.placement);
  if (s.sizing != Sizing::as_given) out["sizing"] = name_of(sizing_table(), s.sizing);  // absent: as given
  put_params(out, strategy_params(), strategy_keys(), s.kind, s);
  if (!s.tenants.empty()) {
    ordered_json tenants = ordered_json::object();
    for (const auto& [name, settings] : s.tenants) tenants[name] = setting_json(settings, s.kind);
    out["tenants"] = tenants;
  }
  if (!s.sidecars.empty()) {
    ordered_json sidecars = ordered_json::array();
    for (const auto& c : s.sidecars) sidecars.push_back({{"instance_type", c.instance_type}, {"count", c.count}});
    out["sidecars"] = sidecars;
  }
  return out;
}

ordered_json scheduled_fault_json(const ScheduledFault& f) {
  ordered_json out;
  out["at_s"] = f.at_s;
  out["kind"] = name_of(fault_kind_table(), f.kind);
  auto use = [&](const char* key) { return uses(fault_keys(), key, f.kind); };
  if (use("gpu")) out["gpu"] = f.gpu;
  if (use("tenant")) out["tenant"] = f.tenant;
  if (use("replica")) out["replica"] = f.replica;
  return out;
}

ordered_json faults_json(const FaultSpec& f) {
  ordered_json out;
  put_if(out, "gpu_failure_per_gpu_hour", f.gpu_failure_per_gpu_hour);  // absent: the public default
  out["driver_reset_per_gpu_hour"] = f.driver_reset_per_gpu_hour;
  out["tenant_crash_per_context_hour"] = f.tenant_crash_per_context_hour;
  out["mps_server_fault_per_gpu_hour"] = f.mps_server_fault_per_gpu_hour;
  out["gpu_repair_s"] = f.gpu_repair_s;
  out["driver_reset_s"] = f.driver_reset_s;
  out["context_restart_s"] = f.context_restart_s;
  out["co_tenant_kill_frac"] = f.co_tenant_kill_frac;
  out["max_retries"] = f.max_retries;
  out["random"] = f.random;
  if (!f.schedule.empty()) {
    ordered_json schedule = ordered_json::array();
    for (const auto& fault : f.schedule) schedule.push_back(scheduled_fault_json(fault));
    out["schedule"] = schedule;
  }
  return out;
}

}  // namespace

void to_json(ordered_json& out, const Scenario& s) {
  out = ordered_json::object();
  out["schema_version"] = s.schema_version;
  out["name"] = s.name;
  out["description"] = s.description;
  out["seed"] = s.seed;
  out["horizon_s"] = s.horizon_s;
  out["warmup_s"] = s.warmup_s;
  out["metrics_interval_s"] = s.metrics_interval_s;
  ordered_json fleet = ordered_json::array();
  for (const auto& e : s.fleet) {
    // An instance entry's gpu is derived from the price table, not input.
    fleet.push_back(e.instance_type.empty() ? ordered_json{{"gpu", e.gpu}, {"count", e.count}}
                                            : ordered_json{{"instance_type", e.instance_type}, {"count", e.count}});
    if (reserved(e)) fleet.back()["tenants"] = e.tenants;
  }
  out["fleet"] = fleet;
  ordered_json tenants = ordered_json::array();
  for (const auto& t : s.tenants) tenants.push_back(tenant_json(t));
  out["tenants"] = tenants;
  ordered_json strategies = ordered_json::array();
  for (const auto& strategy : s.strategies) strategies.push_back(strategy_json(strategy));
  out["strategies"] = strategies;
  ordered_json pricing;
  pricing["table"] = s.pricing.table;
  put_if(pricing, "region", s.pricing.region);
  pricing["option"] = pricing::to_string(s.pricing.option);
  if (s.pricing.monthly_revenue_usd > 0.0) pricing["monthly_revenue_usd"] = s.pricing.monthly_revenue_usd;
  if (s.pricing.abandonment_per_100ms_frac != 0.01) {
    pricing["abandonment_per_100ms_frac"] = s.pricing.abandonment_per_100ms_frac;
  }
  out["pricing"] = pricing;
  if (s.faults) out["faults"] = faults_json(*s.faults);  // absent: no faults, and the bytes of old scenarios
}

nlohmann::ordered_json strategy_to_json(const StrategySpec& strategy) { return strategy_json(strategy); }

}  // namespace slicewise::scenario
