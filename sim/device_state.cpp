// Fluid progress of the contexts of one device.
#include "sim/device_state.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "sim/sim_time.hpp"

namespace slicewise::sim {

namespace {

/// Heap order of the phases in service: the first to finish (then the lowest request index) on top.
constexpr auto later = [](const auto& a, const auto& b) {
  return a.finish_v > b.finish_v || (a.finish_v == b.finish_v && a.request > b.request);
};

/// Takes one request's scale out of a phase sum; the sum is exactly 0 once the phase is empty.
void remove_scale(int& count, double& sum, double scale) {
  --count;
  sum = count == 0 ? 0.0 : sum - scale;
}

/// The device's sharing constants for a rate model that sees the active contexts only: fixed
/// shares divide the device by every placed weight, so the slots count them all.
models::SharingParams sharing_of(const PlacedDevice& device) {
  models::SharingParams params = device.sharing;
  if (params.discipline == models::SharingDiscipline::fixed_share) {
    double placed = 0.0;
    for (const auto& context : device.contexts) placed += context.weight;
    params.total_placed_weight = std::max(params.total_placed_weight, placed);
  }
  return params;
}
}  // namespace

DeviceState::DeviceState(const PlacedDevice& device, const std::vector<TenantInfo>& tenants, double interval_s,
                         std::size_t num_intervals, double horizon_s, std::uint64_t seed)
    : device_(device),
      tenants_(tenants),
      model_(sharing_of(device)),
      interval_s_(interval_s),
      horizon_s_(horizon_s),
      variance_(seed, device.exact_quanta ? 0.0 : device.round_s,
                device.sharing.discipline == models::SharingDiscipline::time_sliced),
      busy_series_(num_intervals, 0.0),
      sm_series_(num_intervals, 0.0) {
  for (const auto& placed : device_.contexts) {
    Context context;
    context.tenant = placed.tenant;
    const auto& tenant = tenants_[placed.tenant];
    has_timeouts_ = has_timeouts_ || tenant.timeout_s < kNever;
    context.norm_sm = (tenant.ref_tflops > 0.0 && !device_.compute_in_sms) ? tenant.ref_tflops / device_.compute
                                                                           : tenant.ref_sms / device_.num_sms;
    context.norm_bw = tenant.ref_bandwidth_gbps / device_.bandwidth_gbps;
    contexts_.push_back(std::move(context));
  }
  for (auto& context : contexts_) {
    if (tenants_[context.tenant].llm) build_engine(context, tenants_[context.tenant]);
  }
  demands_.resize(contexts_.size());
  for (std::size_t i = 0; i < contexts_.size(); ++i) {
    const auto& placed = device_.contexts[i];
    const auto& shape = *tenants_[placed.tenant].shape;
    demands_[i].duty = shape.duty;
    // A generic request's GPU work is one burst: its framework queues the kernels and waits for
    // the result (an LLM engine's burst is its step: set_demand). Only time slices read it.
    if (time_slices()) demands_[i].burst_s = shape.solo_latency_s * shape.duty;
    // Its kernels at solo speed (the rate model stretches them on a slower device); MPS reads them.
    if (kernel_turns()) demands_[i].kernel_s = shape.kernel_s;
    demands_[i].weight = placed.weight;
    demands_[i].cap = placed.cap;
    demands_[i].priority = placed.priority;
  }
  rates_.resize(contexts_.size());
  loaded_.assign((contexts_.size() + 63) / 64, 0);
  if (device_.exact_quanta) slicer_.emplace(device_.quantum_s, device_.switch_cost_s, demands_);
}

void DeviceState::build_engine(Context& context, const TenantInfo& tenant) {
  // The engine runs on this device: its steps are priced on its compute and bandwidth (a MIG
  // instance's share), so its demands are fractions of this device already.
  SW_CHECK(!device_.compute_in_sms,
           "an LLM tenant on " + device_.gpu_id + ", whose TFLOPS are unknown (validate first)");
  const auto& workload = *tenant.llm;
  const auto on = scenario::engine_on_device(
      workload, device_.gpu_id, device_.client_memory_gib > 0.0 ? device_.client_memory_gib : device_.memory_gib);
  context.step = std::make_unique<models::StepModel>(
      step_model_for(workload, device_.gpu_id, models::StepDevice{device_.compute, device_.bandwidth_gbps}));
  context.engine = std::make_unique<LlmEngine>(*context.step, engine_config(on));
  context.max_in_system = on.max_concurrent_requests;
  context.norm_sm = context.norm_bw = 1.0;
  has_engines_ = true;
}

std::size_t DeviceState::allocate(const Request& request) {
  if (free_requests_.empty()) {
    requests_.push_back(request);
    if (allocated_) ++*allocated_;
    return requests_.size() - 1;
  }
  const std::size_t index = free_requests_.back();
  free_requests_.pop_back();
  requests_[index] = request;
  return index;
}

void DeviceState::integrate(double from, double to, double busy, double sm) {
  const std::size_t n = busy_series_.size();
  to = std::min(to, horizon_s_);
  if (!(from < to)) return;
  auto bucket = static_cast<std::size_t>(from / interval_s_);
  while (from < to && bucket < n) {
    const double end = std::min(to, static_cast<double>(bucket + 1) * interval_s_);
    const double dt = end - from;
    busy_series_[bucket] += busy * dt;
    sm_series_[bucket] += sm * dt;
    if (num_waiting_ > 0 || has_engines_) {
      for_each_loaded([&](std::size_t slot) {
        const auto& context = contexts_[slot];
        if (const auto waiting = num_waiting(context); waiting > 0) {
          tenants_[context.tenant].stats->queue_length_integral[bucket] += static_cast<double>(waiting) * dt;
        }
      });
    }
    from = end;
    ++bucket;
  }
}

void DeviceState::advance_with_engines(double now, double dt) {
  // An engine learns how much solo time it had; its GPU time after the warm-up is its tenant's work.
  for (const std::size_t i : rated_) {
    auto& context = contexts_[i];
    const double solo_s = rates_[i].progress_rate * dt;
    context.virtual_s += solo_s;
    if (!context.engine) continue;
    const auto& tenant = tenants_[context.tenant];
    if (now > tenant.warmup_s) {
      const double measured_s = std::min(dt, now - tenant.warmup_s) / dt * solo_s;
      tenant.stats->gpu_work_s += measured_s * context.engine->duty();
    }
    context.engine->advance(solo_s);
  }
}

void DeviceState::advance(double now) {
  if (now <= now_) return;
  const double dt = now - now_;
  if (has_engines_) {
    advance_with_engines(now, dt);
  } else {
    for (const std::size_t i : rated_) contexts_[i].virtual_s += rates_[i].progress_rate * dt;
  }
  if (slicer_) slicer_->advance(dt);
  integrate(now_, now, busy_now_, sm_now_);
  now_ = now;
}

void DeviceState::start(Context& context, std::size_t index, double now) {
  Request& request = requests_[index];
  request.started_at_s = now;
  const auto& shape = *tenants_[context.tenant].shape;
  const double work_s = shape.solo_s(request.record);
  context.heap.push_back({context.virtual_s + work_s, index});
  std::push_heap(context.heap.begin(), context.heap.end(), later);
  variance_.started(slot_of(context), index, work_s);
  ++context.num_prefill;
  context.prefill_scale += request.record.demand_scale;
}

void DeviceState::start_waiting(Context& context, double now) {
  const auto limit = static_cast<std::size_t>(tenants_[context.tenant].max_concurrency);
  while (num_waiting(context) > 0 && context.heap.size() < limit) {
    start(context, context.waiting[context.waiting_head++], now);
    --num_waiting_;
  }
  compact_waiting(context);
}

void DeviceState::compact_waiting(Context& context) {
  if (context.waiting_head == context.waiting.size()) {
    context.waiting.clear();
    context.waiting_head = 0;
  } else if (context.waiting_head > 4096 && context.waiting_head * 2 > context.waiting.size()) {
    context.waiting.erase(context.waiting.begin(), context.waiting.begin() + static_cast<long>(context.waiting_head));
    context.waiting_head = 0;
  }
}

void DeviceState::arrive_at_engine(Context& context, const Request& request, double now) {
  const auto& info = tenants_[context.tenant];
  if (info.queue_limit > 0 && context.engine->num_waiting() >= info.queue_limit) {
    lose(context, request, true, now);
    return;
  }
  const std::size_t index = allocate(request);
  const auto& record = requests_[index].record;
  outcomes_.clear();
  const bool full =
      context.max_in_system > 0 && context.engine->num_in_system() >= static_cast<std::size_t>(context.max_in_system);
  const PromptPrefix prefix{
      record.prefix_hashes ? std::span<const std::uint64_t>(*record.prefix_hashes) : std::span<const std::uint64_t>(),
      record.prefix_block_tokens};
  if (full || !context.engine->arrive(index, record.prompt_tokens, record.output_tokens, outcomes_, prefix)) {
    // Refused: longer than the engine takes, or the server is full (TGI's max_concurrent_requests).
    const auto& tenant = tenants_[context.tenant];
    if (measured(tenant, requests_[index])) {
      ++tenant.stats->num_dropped;
      ++tenant.stats->num_refused;
      ++tenant.stats->sla_violations;
    }
    free_requests_.push_back(index);
    return;
  }
  engine_outcomes(context, now);
  note_load(context);
}

void DeviceState::arrive(std::size_t slot, const Request& request, double now) {
  SW_CHECK(now >= now_, "arrival in the past");
  Context& context = contexts_[slot];
  if (has_timeouts_) {
    // One re-sent after its context went down may arrive past its deadline (docs/faults.md).
    if (deadline(context, request) <= now) {
      lose(context, request, false, now);
      return;
    }
    expire_waiting(context, now);
  }
  if (context.engine) {
    arrive_at_engine(context, request, now);
    return;
  }
  const auto& info = tenants_[context.tenant];
  if (info.queue_limit > 0 && num_waiting(context) >= info.queue_limit &&
      context.heap.size() >= static_cast<std::size_t>(info.max_concurrency)) {
    lose(context, request, true, now);
    return;
  }
  context.waiting.push_back(allocate(request));
  ++num_waiting_;
  start_waiting(context, now);
  note_load(context);
}

bool DeviceState::complete_due(double now) {
  bool changed = false;
  for_each_loaded([&](std::size_t slot) {
    auto& context = contexts_[slot];
    if (has_timeouts_ && num_waiting(context) > 0) expire_waiting(context, now);
    if (context.engine) {
      outcomes_.clear();
      context.engine->complete_due(outcomes_);
      engine_outcomes(context, now);
      changed = true;  // the batch, and so the step's demand, moves on at every event
      return;
    }
    const double tolerance = 1e-9 * std::max(1.0, context.virtual_s);
    while (!context.heap.empty() && context.heap.front().finish_v <= context.virtual_s + tolerance) {
      changed = true;
      finish_phase(context, pop_due(context), now);
    }
    if (num_waiting(context) > 0) start_waiting(context, now);
  });
  return changed;
}

std::size_t DeviceState::pop_due(Context& context) {
  std::pop_heap(context.heap.begin(), context.heap.end(), later);
  const std::size_t index = context.heap.back().request;
  context.heap.pop_back();
  return index;
}

void DeviceState::finish_phase(Context& context, std::size_t index, double now) {
  remove_scale(context.num_prefill, context.prefill_scale, requests_[index].record.demand_scale);
  finish_request(context, index, now);
}

void DeviceState::finish_request(Context& context, std::size_t index, double now) {
  const auto& tenant = tenants_[context.tenant];
  const Request& request = requests_[index];
  if (measured(tenant, request)) {
    if (now > deadline(context, request)) {
      // Its client gave up before the reply; the server did the work (docs/overload.md).
      ++tenant.stats->num_timed_out;
      ++tenant.stats->num_failed;
      ++tenant.stats->sla_violations;
      if (!tenant.reference_engine)
        tenant.stats->gpu_work_s += tenant.shape->duty * tenant.shape->solo_s(request.record);
    } else {
      record_completion(tenant, request, now);
    }
  }
  const int user = request.user;
  free_requests_.push_back(index);
  note_load(context);
  if (user >= 0 && on_complete) on_complete(context.tenant, user, now);
}

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

void DeviceState::exact_rates() {
  double sm = 0.0;
  for (std::size_t i = 0; i < contexts_.size(); ++i) {
    rates_[i] = models::ContextRate{};
    const bool holds = slicer_->running() == i && demands_[i].active;
    if (!holds) continue;
    auto& rate = rates_[i];
    rate.gpu_rate = models::RateModel::solo_gpu_rate(demands_[i], device_.sharing.roofline_sharpness) /
                    (1.0 + device_.sharing.launch_overhead_frac);
    rate.progress_rate = models::RateModel::progress_rate(demands_[i].duty, rate.gpu_rate);
    rate.gpu_phase_frac = 1.0;
    rate.sm_usage_frac = std::min(1.0, rate.gpu_rate * demands_[i].demand_sm);
    sm += rate.sm_usage_frac;
  }
  busy_now_ = slicer_->running() ? 1.0 : 0.0;
  sm_now_ = sm;
  rated_.clear();
  const auto holder = slicer_->holder();
  if (holder && rates_[*holder].progress_rate > 0.0) rated_.push_back(*holder);
}

void DeviceState::set_demand(std::size_t slot, models::ContextDemand& demand) const {
  const auto& context = contexts_[slot];
  demand.active = true;
  if (context.engine) {
    // The step the engine's batch runs now, priced on this device (norm 1): decode steps are
    // bandwidth-bound, prefill steps compute-bound; the host's part of a step is not GPU work.
    const auto& step = context.engine->step();
    demand.duty = context.engine->duty();
    demand.ref_sm = demand.demand_sm = step.sm_frac;
    demand.ref_bw = demand.demand_bw = step.bw_frac;
    // A step's kernels are queued at once (CUDA graphs); it syncs to sample. Only time slices read
    // it: elsewhere it would only keep the rate model from recognising a demand it solved before.
    if (time_slices()) demand.burst_s = step.gpu_s;
    // Under MPS a step's GEMMs each launch a wave of blocks or more, whatever their FLOPs: they
    // fill the SMs, one kernel at a time in stream order (docs/model.md §2, "MPS: thread blocks").
    if (kernel_turns()) {
      demand.occupancy = 1.0;
      demand.kernel_s = step.gpu_s / models::kernels_per_step(context.step->model());
    }
    return;
  }
  const auto& shape = *tenants_[context.tenant].shape;
  // The requests in service, each weighted by its demand scale.
  demand.ref_sm = context.prefill_scale * shape.demand.sm;
  demand.ref_bw = context.prefill_scale * shape.demand.bw;
  demand.demand_sm = demand.ref_sm * context.norm_sm;
  demand.demand_bw = demand.ref_bw * context.norm_bw;
}

void DeviceState::set_idle(std::size_t slot) {
  auto& demand = demands_[slot];  // what set_demand gives with nothing in service, without the shape
  demand.active = false;
  demand.ref_sm = demand.ref_bw = demand.demand_sm = demand.demand_bw = 0.0;
}

void DeviceState::set_every_demand() {
  rated_.clear();
  for (std::size_t i = 0; i < contexts_.size(); ++i) {
    if (!in_service(contexts_[i])) {
      set_idle(i);
      continue;
    }
    set_demand(i, demands_[i]);
    rated_.push_back(i);
  }
}

void DeviceState::solve_active_contexts() {
  // The contexts with requests in service, each warm-started from the phase its last solve ended
  // at (0 if it sat out the last one).
  solving_.clear();
  active_demands_.clear();
  active_from_.clear();
  for_each_loaded([&](std::size_t slot) {
    if (!in_service(contexts_[slot])) return;  // waiting only: nothing to progress
    solving_.push_back(slot);
    set_demand(slot, active_demands_.emplace_back(demands_[slot]));
    active_from_.push_back(rates_[slot].gpu_phase_frac);
  });
  model_.compute(active_demands_, active_from_, active_rates_);
  for (const std::size_t slot : rated_) rates_[slot] = models::ContextRate{};
  rated_.swap(solving_);
  for (std::size_t a = 0; a < rated_.size(); ++a) rates_[rated_[a]] = active_rates_[a];
}

void DeviceState::recompute_rates() {
  if (slicer_) {
    set_every_demand();
    slicer_->rotate(now_, demands_);
    exact_rates();
    return;
  }
  // Both give the same bits (RateModel::compute with `from`); a device of a context or two gains
  // nothing from lists of the active ones, and the model's kept answers are keyed by all of them.
  if (contexts_.size() <= models::RateModel::kMemoMaxContexts) {
    set_every_demand();
    model_.compute(demands_, rates_);
  } else {
    solve_active_contexts();
  }
  if (variance_.has_pending()) apply_sharing_variance();
  double idle_probability = 1.0;  // an idle context's factor is 1 and its term 0
  double sm = 0.0;
  for (const std::size_t slot : rated_) {
    idle_probability *= 1.0 - rates_[slot].gpu_phase_frac;
    sm += rates_[slot].sm_usage_frac;
  }
  busy_now_ = 1.0 - idle_probability;
  sm_now_ = std::min(1.0, sm);
}

void DeviceState::apply_sharing_variance() {
  std::optional<std::size_t> last_slot;  // phases start in slot order runs: re-heap a context once per run
  auto reheap = [&] {
    if (!last_slot) return;
    auto& heap = contexts_[*last_slot].heap;
    std::make_heap(heap.begin(), heap.end(), later);
  };
  for (const auto& shift : variance_.draw(rates_, demands_)) {
    if (shift.slot != last_slot) {
      reheap();
      last_slot = shift.slot;
    }
    for (auto& entry : contexts_[shift.slot].heap) {
      if (entry.request == shift.request) entry.finish_v += shift.delta_s;
    }
  }
  reheap();
}

double DeviceState::next_completion(double now) const {
  double next = slicer_ ? slicer_->slice_end_s() : kNever;
  for (const std::size_t i : rated_) {  // every other context's rate is 0
    const auto& context = contexts_[i];
    if (!in_service(context) || rates_[i].progress_rate <= 0.0) continue;
    const double remaining = context.engine ? context.engine->next_event_s()
                                            : std::max(0.0, context.heap.front().finish_v - context.virtual_s);
    next = std::min(next, now + remaining / rates_[i].progress_rate);
  }
  if (has_timeouts_) {
    for_each_loaded([&](std::size_t slot) { next = std::min(next, first_deadline(contexts_[slot])); });
  }
  return next;
}

bool DeviceState::idle() const {
  return std::all_of(loaded_.begin(), loaded_.end(), [](std::uint64_t word) { return word == 0; });
}

std::int64_t DeviceState::num_in_system() const {
  std::int64_t total = 0;
  for (const auto& context : contexts_) {
    total += static_cast<std::int64_t>(load(context));
  }
  return total;
}

void DeviceState::count_in_system(std::vector<std::int64_t>& per_tenant) const {
  for (const auto& context : contexts_) {
    per_tenant[context.tenant] += static_cast<std::int64_t>(load(context));
  }
}

std::vector<Request> DeviceState::take_down(std::size_t slot) {
  Context& context = contexts_[slot];
  std::vector<std::size_t> taken;
  taken.reserve(load(context));
  if (context.engine) taken = context.engine->take_all();  // running (by admission), then waiting
  for (const auto& entry : context.heap) taken.push_back(entry.request);
  for (std::size_t i = context.waiting_head; i < context.waiting.size(); ++i) taken.push_back(context.waiting[i]);
  // In service first, by arrival (then by index: a stable order whatever the heap's).
  std::sort(taken.begin(), taken.begin() + static_cast<long>(context.heap.size()), [&](std::size_t a, std::size_t b) {
    const double ta = requests_[a].record.arrived_at_s;
    const double tb = requests_[b].record.arrived_at_s;
    return ta != tb ? ta < tb : a < b;
  });
  std::vector<Request> lost;
  lost.reserve(taken.size());
  for (const std::size_t index : taken) {
    const Request& held = requests_[index];
    lost.push_back(Request{held.record, held.user, 0.0, 0.0, false, held.retries});
    free_requests_.push_back(index);
  }
  num_waiting_ -= num_waiting(context);
  context.heap.clear();
  context.waiting.clear();
  context.waiting_head = 0;
  context.num_prefill = 0;
  context.prefill_scale = 0.0;
  context.up = false;
  variance_.forget(slot);
  note_load(context);
  return lost;
}

void DeviceState::bring_up(std::size_t slot) {
  contexts_[slot].up = true;
  note_load(contexts_[slot]);
}

void DeviceState::track_load(std::size_t slot, LeastLoadedIndex* index, std::size_t position) {
  auto& context = contexts_[slot];
  context.load_index = index;
  context.load_position = position;
  note_load(context);
}

}  // namespace slicewise::sim
