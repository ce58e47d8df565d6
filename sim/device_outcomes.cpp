// DeviceState (device_state.hpp): what becomes of a device's requests: lost to a full queue or a
// fault, timed out while waiting, an LLM engine's finished and preempted sequences, and the
// latency statistics of each completion. The fluid progress is device_state.cpp's; the rates
// device_rates.cpp's.
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "sim/device_state.hpp"
#include "sim/sim_time.hpp"

namespace slicewise::sim {

void DeviceState::lose(const Context& context, const Request& request, bool shed, double now) {
  const auto& tenant = tenants_[context.tenant];
  if (measured(tenant, request)) {
    ++(shed ? tenant.stats->num_shed : tenant.stats->num_timed_out);
    ++tenant.stats->num_failed;
    ++tenant.stats->sla_violations;
  }
  if (request.user >= 0 && on_fail) on_fail(context.tenant, request.user, now);
}

void DeviceState::expire_waiting(Context& context, double now) {
  const std::size_t before = load(context);
  if (context.engine) {
    // Its queue holds preempted sequences (started) ahead of the requests never admitted, which
    // wait in arrival order: the expired ones are the oldest of those.
    expired_.clear();
    for (std::size_t i = 0; i < context.engine->num_waiting(); ++i) {
      const std::size_t index = context.engine->waiting_request(i);
      if (requests_[index].started) continue;
      if (deadline(context, requests_[index]) > now) break;
      expired_.push_back(index);
    }
    if (expired_.empty()) return;
    context.engine->drop_waiting(expired_);
    for (const std::size_t index : expired_) {
      lose(context, requests_[index], false, now);
      free_requests_.push_back(index);
    }
  } else {
    while (num_waiting(context) > 0) {
      const std::size_t index = context.waiting[context.waiting_head];
      if (deadline(context, requests_[index]) > now) break;
      ++context.waiting_head;
      --num_waiting_;
      lose(context, requests_[index], false, now);
      free_requests_.push_back(index);
    }
    compact_waiting(context);
  }
  if (load(context) != before) note_load(context);
}

double DeviceState::first_deadline(const Context& context) const {
  if (context.engine) {
    for (std::size_t i = 0; i < context.engine->num_waiting(); ++i) {
      const Request& request = requests_[context.engine->waiting_request(i)];
      if (!request.started) return deadline(context, request);
    }
    return kNever;
  }
  return num_waiting(context) > 0 ? deadline(context, requests_[context.waiting[context.waiting_head]]) : kNever;
}

void DeviceState::note_prefix_hits(const Context& context, const Request& request, double cached_tokens) {
  const auto& tenant = tenants_[context.tenant];
  if (!context.engine->caches_prefixes() || !request.record.prefix_hashes || !measured(tenant, request)) return;
  tenant.stats->prefix_prompt_tokens += request.record.prompt_tokens;
  tenant.stats->prefix_cached_tokens += cached_tokens;
}

void DeviceState::engine_outcomes(Context& context, double now) {
  for (const auto& outcome : outcomes_) {
    Request& request = requests_[outcome.request];
    switch (outcome.kind) {
      case LlmEngine::Outcome::admitted:
        if (!request.started) {
          request.started_at_s = now;
          note_prefix_hits(context, request, outcome.cached_tokens);
        }
        request.started = true;
        break;
      case LlmEngine::Outcome::first_token:
        request.prefill_done_at_s = now;
        request.in_decode = true;
        break;
      case LlmEngine::Outcome::preempted:
        if (measured(tenants_[context.tenant], request)) ++tenants_[context.tenant].stats->num_preempted;
        break;
      case LlmEngine::Outcome::finished:
        if (!request.in_decode) request.prefill_done_at_s = now;  // an encoder: its one pass
        finish_request(context, outcome.request, now);
        break;
    }
  }
  outcomes_.clear();
}

void DeviceState::record_completion(const TenantInfo& tenant, const Request& request, double now) {
  const auto& record = request.record;
  TenantStats& stats = *tenant.stats;
  // Never negative: a start or finish at the arrival's instant may be computed a rounding error
  // before the arrival time the record carries (it did while SimGrid's clock drove the devices).
  const double latency = std::max(0.0, now - record.arrived_at_s);
  ++stats.num_completed;
  stats.latency.add(latency);
  stats.queue_delay.add(std::max(0.0, request.started_at_s - record.arrived_at_s));
  bool violated = tenant.sla_latency_s && latency > *tenant.sla_latency_s;
  if (tenant.shape->llm) {
    const double ttft = std::max(0.0, (request.in_decode ? request.prefill_done_at_s : now) - record.arrived_at_s);
    stats.ttft.add(ttft);
    violated = violated || (tenant.sla_ttft_s && ttft > *tenant.sla_ttft_s);
    // vLLM's benchmark TPOT: the time after the first token over the tokens after it.
    const double after_first = record.output_tokens - 1.0;
    if (request.in_decode && after_first > 0.0) {
      const double tpot = (now - request.prefill_done_at_s) / after_first;
      stats.tpot.add(tpot);
      violated = violated || (tenant.sla_tpot_s && tpot > *tenant.sla_tpot_s);
    }
  }
  if (violated) ++stats.sla_violations;
  if (tenant.reference_engine) {
    // An LLM request's solo time is its steps on an idle engine of the reference GPU, worked out
    // only where a tenant's requests differ (one solo time divides the latencies at the end); its
    // GPU work is its engines' (advance_with_engines).
    if (stats.solo_s > 0.0) return;
    const double solo_s = tenant.reference_engine->solo_latency_s(record.prompt_tokens, record.output_tokens);
    if (solo_s > 0.0) stats.slowdown.add(latency / solo_s);
    return;
  }
  const auto& shape = *tenant.shape;
  const double solo_s = shape.solo_s(record);
  stats.gpu_work_s += shape.duty * solo_s;
  if (stats.solo_s > 0.0) {
    SW_CHECK(solo_s == stats.solo_s, "a request's solo time differs from its tenant's one solo time");
  } else if (solo_s > 0.0) {
    stats.slowdown.add(latency / solo_s);
  }
}

}  // namespace slicewise::sim
