// Fluid progress of the contexts of one device: requests arrive, start, progress at their rates and
// finish (the rates are device_rates.cpp's; what becomes of lost, timed-out and finished requests
// device_outcomes.cpp's).
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
