// SimResult JSON. slicewise writes these structs, so the nlohmann macros map them; a result file
// read back is checked key by key first (scenario/result_check.cpp).
#include "scenario/result_json.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_file.hpp"
#include "scenario/json_io.hpp"
#include "scenario/result_check.hpp"

namespace slicewise::scenario {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Distribution, count, mean, p50, p90, p95, p99, max)

namespace {
/// Calls visit(key, field) for each of a tenant's figures that every result carries, in the
/// order they are written.
template <class Result, class Visit>
void tenant_fields(Result& t, Visit&& visit) {
  visit("name", t.name);
  visit("num_contexts", t.num_contexts);
  visit("num_contexts_unplaced", t.num_contexts_unplaced);
  visit("num_arrived", t.num_arrived);
  visit("num_completed", t.num_completed);
  visit("num_dropped", t.num_dropped);
  visit("num_unfinished", t.num_unfinished);
  visit("throughput_per_s", t.throughput_per_s);
  visit("gpu_work_s", t.gpu_work_s);
  visit("latency_s", t.latency_s);
  visit("latency_cdf_s", t.latency_cdf_s);
  visit("queue_delay_s", t.queue_delay_s);
  visit("ttft_s", t.ttft_s);
  visit("tpot_s", t.tpot_s);
  visit("slowdown", t.slowdown);
  visit("sla_violations", t.sla_violations);
  visit("sla_violation_frac", t.sla_violation_frac);
  visit("sla_max_violation_frac", t.sla_max_violation_frac);
  visit("sla_met", t.sla_met);
  visit("num_failed", t.num_failed);
  visit("num_retried", t.num_retried);
  visit("num_interruptions", t.num_interruptions);
  visit("downtime_s", t.downtime_s);
  visit("availability", t.availability);
}
}  // namespace

// prefix_cache_hit_frac is written only for a tenant whose engines looked prefixes up, so that every
// other result keeps its bytes.
void to_json(nlohmann::json& out, const TenantResult& t) {
  out = nlohmann::json::object();
  tenant_fields(t, [&](const char* key, const auto& value) { out[key] = value; });
  if (t.prefix_cache_hit_frac) out["prefix_cache_hit_frac"] = *t.prefix_cache_hit_frac;
  if (t.num_shed > 0) out["num_shed"] = t.num_shed;
  if (t.num_timed_out > 0) out["num_timed_out"] = t.num_timed_out;
}

void from_json(const nlohmann::json& in, TenantResult& t) {
  t = TenantResult{};
  tenant_fields(t, [&](const char* key, auto& value) {
    if (const auto it = in.find(key); it != in.end()) it->get_to(value);
  });
  if (const auto it = in.find("prefix_cache_hit_frac"); it != in.end()) t.prefix_cache_hit_frac = it->get<double>();
  if (const auto it = in.find("num_shed"); it != in.end()) it->get_to(t.num_shed);
  if (const auto it = in.find("num_timed_out"); it != in.end()) it->get_to(t.num_timed_out);
}
// A device's gpu_count is written only for a tensor-parallel group, so that every other result keeps
// its bytes.
void to_json(nlohmann::json& out, const DeviceResult& d) {
  out = nlohmann::json{{"name", d.name},
                       {"gpu", d.gpu},
                       {"mig_profile", d.mig_profile},
                       {"gpu_index", d.gpu_index},
                       {"contexts", d.contexts},
                       {"busy_frac", d.busy_frac},
                       {"sm_util_frac", d.sm_util_frac},
                       {"memory_allocated_gib", d.memory_allocated_gib},
                       {"memory_capacity_gib", d.memory_capacity_gib},
                       {"oom_risk", d.oom_risk},
                       {"phase", d.phase},
                       {"down_s", d.down_s}};
  if (d.out_of_phase_s > 0.0) out["out_of_phase_s"] = d.out_of_phase_s;
  if (d.gpu_count > 1) out["gpu_count"] = d.gpu_count;
  if (d.reserved) out["reserved"] = true;
}

void from_json(const nlohmann::json& in, DeviceResult& d) {
  const DeviceResult defaults;
  d.name = in.value("name", defaults.name);
  d.gpu = in.value("gpu", defaults.gpu);
  d.mig_profile = in.value("mig_profile", defaults.mig_profile);
  d.gpu_index = in.value("gpu_index", defaults.gpu_index);
  d.contexts = in.value("contexts", defaults.contexts);
  d.busy_frac = in.value("busy_frac", defaults.busy_frac);
  d.sm_util_frac = in.value("sm_util_frac", defaults.sm_util_frac);
  d.memory_allocated_gib = in.value("memory_allocated_gib", defaults.memory_allocated_gib);
  d.memory_capacity_gib = in.value("memory_capacity_gib", defaults.memory_capacity_gib);
  d.oom_risk = in.value("oom_risk", defaults.oom_risk);
  d.phase = in.value("phase", defaults.phase);
  d.down_s = in.value("down_s", defaults.down_s);
  d.out_of_phase_s = in.value("out_of_phase_s", defaults.out_of_phase_s);
  d.gpu_count = in.value("gpu_count", defaults.gpu_count);
  d.reserved = in.value("reserved", defaults.reserved);
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TimeSeries, interval_s, device_busy_frac, device_sm_util_frac,
                                                tenant_queue_length)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuEnergy, gpu_index, gpu, util_frac, idle_w, max_w, idle_estimated,
                                                mean_power_w, kwh)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EnergyRecord, hours, gpu_kwh, mean_power_w, monthly_kwh, unused_gpus,
                                                unused_idle_w, per_gpu)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SizingStep, phase, num_gpus, num_contexts, met)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SizedPool, gpu, count, tenants)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TraceWindow, tenant, window_start_s, arrivals, arrivals_as_given)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HourFleet, hour, num_gpus, contexts, pools, feasible)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SizingRecord, num_gpus, lower_bound_gpus, max_gpus, contexts,
                                                context_load, feasible, shortfall, steps, pools, peak_hours,
                                                result_hour, trace_windows, hourly, placement, minimal)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FaultEvent, at_s, kind, gpu_index, origin, scheduled, contexts_hit,
                                                tenants_hit, outage_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FaultExposure, kind, per_month, tenants_hit, contexts_hit, outage_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TenantExposure, name, interruptions_per_month, outage_hours_per_month,
                                                availability)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FaultRecord, events, blast_radius_tenants, expected,
                                                expected_blast_radius, tenants, num_repartitions)

void to_json(nlohmann::json& out, const StrategyResult& value) {
  out = nlohmann::json{{"name", value.name},
                       {"kind", value.kind},
                       {"num_gpus_used", value.num_gpus_used},
                       {"fleet_busy_frac", value.fleet_busy_frac},
                       {"fleet_sm_util_frac", value.fleet_sm_util_frac},
                       {"issues", value.issues},
                       {"tenants", value.tenants},
                       {"devices", value.devices},
                       {"series", value.series},
                       {"simulated_s", value.simulated_s},
                       {"num_events", value.num_events}};
  if (value.sizing) {  // absent: the fleet as given
    out["sizing"] = *value.sizing;
    if (value.sizing->pools.empty()) out["sizing"].erase("pools");  // results without pools keep their bytes
    if (value.sizing->placement.empty()) {  // nor those of strategies whose contexts own their devices
      out["sizing"].erase("placement");
      out["sizing"].erase("minimal");
    }
    if (value.sizing->peak_hours.empty()) {  // nor those without diurnal loads
      out["sizing"].erase("peak_hours");
      out["sizing"].erase("result_hour");
    }
    if (value.sizing->trace_windows.empty()) out["sizing"].erase("trace_windows");  // nor those without long traces
    if (value.sizing->hourly.empty()) out["sizing"].erase("hourly");                // nor those not sized by the hour
  }
  if (value.energy) out["energy"] = *value.energy;  // absent: no power curve for a GPU, or an older result
  if (value.faults) out["faults"] = *value.faults;  // absent: no faults and no layout schedule, or an older result
}

void from_json(const nlohmann::json& in, StrategyResult& value) {
  in.at("name").get_to(value.name);
  in.at("kind").get_to(value.kind);
  in.at("num_gpus_used").get_to(value.num_gpus_used);
  in.at("fleet_busy_frac").get_to(value.fleet_busy_frac);
  in.at("fleet_sm_util_frac").get_to(value.fleet_sm_util_frac);
  in.at("issues").get_to(value.issues);
  in.at("tenants").get_to(value.tenants);
  in.at("devices").get_to(value.devices);
  in.at("series").get_to(value.series);
  in.at("simulated_s").get_to(value.simulated_s);
  in.at("num_events").get_to(value.num_events);
  if (in.contains("sizing")) value.sizing = in.at("sizing").get<SizingRecord>();
  if (in.contains("energy")) value.energy = in.at("energy").get<EnergyRecord>();
  if (in.contains("faults")) value.faults = in.at("faults").get<FaultRecord>();
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CalibrationRecord, profile_id, fit_mape, constants, sources)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(UncertaintyBand, strategy, num_samples, monthly_savings_p05_usd,
                                                monthly_savings_p50_usd, monthly_savings_p95_usd,
                                                sla_violation_p05_frac, sla_violation_p50_frac, sla_violation_p95_frac,
                                                num_gpus_p05, num_gpus_p50, num_gpus_p95, fleet_meets_sla_frac)
void to_json(nlohmann::json& out, const SimResult& value) {
  nlohmann::ordered_json input;
  to_json(input, value.input);
  out = nlohmann::json{{"schema_version", value.schema_version},
                       {"scenario", value.scenario},
                       {"seed", value.seed},
                       {"horizon_s", value.horizon_s},
                       {"strategies", value.strategies},
                       {"calibration", value.calibration},
                       {"input", nlohmann::json::parse(input.dump())}};
  if (!value.uncertainty.empty()) out["uncertainty"] = value.uncertainty;
  if (!value.origin.empty()) out["origin"] = value.origin;
}

void from_json(const nlohmann::json& in, SimResult& value) {
  value.schema_version = in.value("schema_version", 0);
  value.scenario = in.value("scenario", std::string());
  value.seed = in.value("seed", std::uint64_t{0});
  value.horizon_s = in.value("horizon_s", 0.0);
  value.strategies = in.at("strategies").get<std::vector<StrategyResult>>();
  if (in.contains("calibration")) value.calibration = in.at("calibration").get<CalibrationRecord>();
  if (in.contains("uncertainty")) value.uncertainty = in.at("uncertainty").get<std::vector<UncertaintyBand>>();
  value.origin = in.value("origin", std::string());
  if (in.contains("input"))
    value.input = parse_scenario(in.at("input"), "<result input>", ScenarioSource::result_input);
}

std::string result_to_text(const SimResult& result) {
  nlohmann::json out = result;
  return out.dump(1) + "\n";
}

SimResult result_from_json(const nlohmann::json& document, const std::string& file, const std::string& pointer) {
  // What is often given instead: the scenario (or the sweep) the result comes from.
  if (document.is_object() && !document.contains("input") && document.contains("tenants") &&
      document.contains("fleet")) {
    throw ConfigError(file, pointer,
                      "this is a scenario, not a simulation result: run `slicewise simulate " + file +
                          " --out result.json` first, then give result.json");
  }
  if (document.is_object() && document.contains("base") && document.contains("axes")) {
    throw ConfigError(file, pointer,
                      "this is a sweep, not a simulation result: run `slicewise sweep " + file +
                          " --out DIR` first (docs/sweeps.md says what DIR holds)");
  }
  if (!document.is_object() || !document.contains("strategies") || !document.contains("schema_version")) {
    throw ConfigError(file, pointer,
                      "not a slicewise result (expected an object with schema_version 1 and strategies)");
  }
  if (Diagnostics problems = check_result(document, file, pointer); !problems.empty()) {
    throw ConfigError(std::move(problems));
  }
  try {
    return document.get<SimResult>();
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(file, pointer, std::string("malformed result: ") + e.what());
  }
}

SimResult load_result(const std::filesystem::path& file) {
  return result_from_json(read_json_file(file), file.string(), "");
}

}  // namespace slicewise::scenario
