// DeviceState (device_state.hpp): the rates of a device's contexts: each busy context's demand,
// the rate model's solution for those in service (or exact time slicing's quanta), and the busy
// and SM figures they give. The fluid progress is device_state.cpp's; what becomes of requests
// device_outcomes.cpp's.
#include <algorithm>
#include <cmath>

#include "sim/device_state.hpp"

namespace slicewise::sim {

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

}  // namespace slicewise::sim
