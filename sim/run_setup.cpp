// A run's tenants and devices (run_state.hpp): each tenant's workload shape on its reference GPU,
// its statistics and per-request constants; a DeviceState per placed device, and each tenant's
// contexts in replica order for its router.
#include <algorithm>
#include <memory>

#include "core/error.hpp"
#include "sim/device_state.hpp"
#include "sim/load_source.hpp"
#include "sim/run_state.hpp"

namespace slicewise::sim {

using scenario::Scenario;

namespace {

/// An LLM tenant's engine on the whole reference GPU, kept for its solo latencies (the slowdown's
/// denominator); nullptr for a generic tenant.
const LlmEngine* add_reference_engine(Run& run, const scenario::Workload& workload, const models::GpuSpec& gpu) {
  if (workload.kind != scenario::WorkloadKind::llm) {
    run.reference_steps.push_back(nullptr);
    run.reference_engines.push_back(nullptr);
    return nullptr;
  }
  bool in_sms = false;
  const double compute = compute_capacity(gpu, in_sms);
  SW_CHECK(!in_sms, "an LLM tenant on " + gpu.id + ", whose TFLOPS are unknown (validate first)");
  run.reference_steps.push_back(std::make_unique<models::StepModel>(
      step_model_for(workload, gpu.id, models::StepDevice{compute, gpu.memory_bandwidth_gbps})));
  const auto on = scenario::engine_on_device(workload, gpu.id, gpu.memory_gib);
  run.reference_engines.push_back(std::make_unique<LlmEngine>(*run.reference_steps.back(), engine_config(on)));
  return run.reference_engines.back().get();
}

/// The GPU a tenant's figures refer to when it names none: the first fleet GPU it may run on (its
/// pool's, or the first the strategies share).
std::string default_reference_gpu(const Scenario& scenario, const std::vector<FleetGpu>& fleet,
                                  const scenario::Tenant& tenant) {
  const bool pooled = scenario::in_reserved_pool(scenario, tenant.name);
  for (const auto& gpu : fleet) {
    const bool mine = std::find(gpu.pool.begin(), gpu.pool.end(), tenant.name) != gpu.pool.end();
    if (pooled ? mine : gpu.pool.empty()) return gpu.id;
  }
  return fleet.front().id;
}

}  // namespace

void init_tenants(Run& run, const std::vector<FleetGpu>& fleet, const scenario::Catalogs& catalogs,
                  std::size_t num_intervals) {
  const Scenario& scenario = run.scenario;
  const std::size_t num_tenants = scenario.tenants.size();
  run.shapes.reserve(num_tenants);  // TenantInfo points into it
  run.stats.resize(num_tenants);
  for (std::size_t t = 0; t < num_tenants; ++t) {
    const auto& tenant = scenario.tenants[t];
    const std::string ref_id = tenant.workload.reference_gpu.empty() ? default_reference_gpu(scenario, fleet, tenant)
                                                                     : tenant.workload.reference_gpu;
    const auto* ref = catalogs.gpus->find(ref_id);
    SW_CHECK(ref != nullptr, "reference GPU " + ref_id + " unknown (validate first)");
    run.shapes.push_back(make_workload_shape(tenant.workload));
    run.stats[t].queue_length_integral.assign(num_intervals, 0.0);
    const LlmEngine* reference_engine = add_reference_engine(run, tenant.workload, *ref);
    // Generated load sends the typical request every time, unless a generic workload's solo times
    // are drawn; a trace's rows carry their own sizes.
    const bool drawn =
        !tenant.workload.llm && tenant.workload.service_dist == scenario::ServiceDistribution::exponential;
    if (tenant.load.kind != scenario::LoadKind::trace && !drawn) {
      const traces::RequestRecord typical = typical_request(tenant);
      run.stats[t].solo_s = reference_engine
                                ? reference_engine->solo_latency_s(typical.prompt_tokens, typical.output_tokens)
                                : run.shapes.back().solo_s(typical);
    }
    TenantInfo info;
    info.shape = &run.shapes.back();
    if (reference_engine) {
      info.llm = &tenant.workload;
      info.reference_engine = reference_engine;
    }
    bool in_sms = false;
    const double compute = compute_capacity(*ref, in_sms);
    info.ref_tflops = in_sms ? 0.0 : compute;
    info.ref_sms = ref->num_sms;
    info.ref_bandwidth_gbps = ref->memory_bandwidth_gbps;
    info.max_concurrency = tenant.workload.max_concurrency;
    info.warmup_s = scenario.warmup_s;
    info.sla_latency_s = tenant.sla.latency_s;
    info.sla_ttft_s = tenant.sla.ttft_s;
    info.sla_tpot_s = tenant.sla.tpot_s;
    info.queue_limit = static_cast<std::size_t>(scenario::queue_limit(tenant));
    if (const double timeout = scenario::timeout_s(tenant); timeout > 0.0) info.timeout_s = timeout;
    info.stats = &run.stats[t];
    run.tenants.push_back(info);
  }
}

void build_devices(Run& run, const Placement& placement, std::size_t num_intervals) {
  const Scenario& scenario = run.scenario;
  const std::size_t num_tenants = scenario.tenants.size();
  run.contexts_of.resize(num_tenants);
  run.round_robin.assign(num_tenants, 0);
  for (std::size_t d = 0; d < placement.devices.size(); ++d) {
    // Each device draws its sharing variance from a stream of its own (the tenants' are seed·φ + odd).
    const std::uint64_t device_seed = scenario.seed * 0xBF58476D1CE4E5B9ULL + 2 * static_cast<std::uint64_t>(d);
    run.devices.push_back(std::make_unique<DeviceState>(placement.devices[d], run.tenants, scenario.metrics_interval_s,
                                                        num_intervals, scenario.horizon_s, device_seed));
    for (std::size_t slot = 0; slot < placement.devices[d].contexts.size(); ++slot) {
      run.contexts_of[placement.devices[d].contexts[slot].tenant].push_back({d, slot});
    }
    run.devices.back()->on_complete = [&run](std::size_t tenant, int user, double now) {
      user_done(run, tenant, user, now);
    };
    // A user whose request was shed or timed out waiting tries again after a back-off, as after a
    // fault (a client without think time would otherwise retry in a loop at one instant).
    run.devices.back()->on_fail = [&run](std::size_t tenant, int user, double now) {
      user_done(run, tenant, user, now + kFailureBackoffS);
    };
    run.devices.back()->count_requests_in(&run.request_slots);
  }
  for (auto& refs : run.contexts_of) {
    std::stable_sort(refs.begin(), refs.end(), [&](const ContextRef& a, const ContextRef& b) {
      const auto& ca = placement.devices[a.device].contexts[a.slot];
      const auto& cb = placement.devices[b.device].contexts[b.slot];
      return ca.replica < cb.replica;
    });
  }
  run.least_loaded.resize(num_tenants);
  for (std::size_t t = 0; t < num_tenants; ++t) {
    const auto& refs = run.contexts_of[t];
    if (scenario.tenants[t].router != scenario::RouterPolicy::least_loaded || refs.empty()) continue;
    auto& index = run.least_loaded[t].emplace(refs.size());
    for (std::size_t i = 0; i < refs.size(); ++i) run.devices[refs[i].device]->track_load(refs[i].slot, &index, i);
  }
}

/// The event loop's actors (a device each, then a source per tenant), due at time 0 in that
/// order; the scheduler actor that runs them, and the progress monitor.

}  // namespace slicewise::sim
