// Mean-field rate model of one shared device.
#include "models/rate_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.hpp"
#include "models/time_slice_shares.hpp"

namespace slicewise::models {

namespace {
constexpr int kMaxIterations = 200;
constexpr double kTolerance = 1e-12;
/// MPS: a client keeps SMs of its own when its reach exceeds its overlap with the others by more.
constexpr double kOwnSms = 1e-12;

/// Speed of a context on a fraction `sms` of the device's SMs, on the hard roofline: its SM need
/// scales with the SMs it has, its bandwidth need does not (docs/model.md §2, "MPS: thread blocks").
double speed_on(const ContextDemand& c, double sms, double bandwidth_sm_frac = 0.0) {
  if (sms <= 0.0) return 0.0;
  double rate = 1.0;
  if (c.demand_sm > sms) rate = sms / c.demand_sm;
  // On fewer SMs than saturate the memory system it pulls at most sms / bandwidth_sm_frac of it.
  const double reachable = bandwidth_sm_frac > sms ? sms / bandwidth_sm_frac : 1.0;
  if (c.demand_bw > reachable) rate = std::min(rate, reachable / c.demand_bw);
  return rate;
}
}  // namespace

double RateModel::roofline_slowdown(double x, double y, double sharpness) {
  const double top = std::max({1.0, x, y});
  if (std::isinf(sharpness)) return top;
  // top · ((1/top)^p + (x/top)^p + (y/top)^p)^(1/p): every base is <= 1, so nothing overflows.
  const double sum = std::pow(1.0 / top, sharpness) + std::pow(x / top, sharpness) + std::pow(y / top, sharpness);
  return top * std::pow(sum, 1.0 / sharpness);
}

double RateModel::solo_gpu_rate(const ContextDemand& c, double sharpness) {
  if (std::isinf(sharpness)) return speed_on(c, 1.0);
  // On its reference device (an LLM engine's step, priced where it runs; a workload on the GPU it
  // was measured on) the two are the same: 1 without the eight pow().
  if (c.ref_sm == c.demand_sm && c.ref_bw == c.demand_bw) return 1.0;
  return roofline_slowdown(c.ref_sm, c.ref_bw, sharpness) / roofline_slowdown(c.demand_sm, c.demand_bw, sharpness);
}

double RateModel::progress_rate(double duty, double gpu_rate) {
  if (gpu_rate <= 0.0) return 0.0;
  return 1.0 / ((1.0 - duty) + duty / gpu_rate);
}

void RateModel::compute(std::span<const ContextDemand> contexts, std::vector<ContextRate>& out) {
  const std::size_t n = contexts.size();
  if (!keep_answers_ || n == 0 || n > kMemoMaxContexts) {
    solve(contexts, out);
    return;
  }
  if (!memo_.count_call()) {
    // A device whose inputs seldom recur (many contexts, each in a state of its own) gains
    // nothing from kept answers and would only hold their memory: stop keeping them.
    keep_answers_ = false;
    solve(contexts, out);
    return;
  }
  starting_phases(contexts, start_);
  const std::uint64_t key = RateMemo::key_of(contexts, start_);
  if (const std::size_t slot = memo_.recall(key, contexts, start_); slot != RateMemo::kNoSlot) {
    memo_.replay(slot, n, out, phase_);
    return;
  }
  solve(contexts, out);
  memo_.keep(key, contexts, start_, out, phase_);
}

void RateModel::compute(std::span<const ContextDemand> active, std::span<const double> from,
                        std::vector<ContextRate>& out) {
  // With phase_ the size of the input the solve starts warm, from clamp(from[i], duty, 1): what
  // the solve over every context starts an active one at, its last phase being 0 while idle and
  // duty at the first solve.
  phase_.assign(from.begin(), from.end());
  compute(active, out);
}

void RateModel::solve(std::span<const ContextDemand> contexts, std::vector<ContextRate>& out) {
  out.assign(contexts.size(), ContextRate{});
  start_phases(contexts);
  if (active_.empty()) return;

  const double overhead = 1.0 / (1.0 + params_.launch_overhead_frac);
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    switch (params_.discipline) {
      case SharingDiscipline::exclusive:
        // Placement never puts a second context on a device its context owns (context_limit 1).
        SW_CHECK(active_.size() == 1, "an exclusive device with " + std::to_string(active_.size()) +
                                          " active contexts (placement gives it one)");
        share_[static_cast<std::size_t>(active_[0])] = 1.0;
        break;
      case SharingDiscipline::time_sliced: time_sliced_shares(contexts); break;
      case SharingDiscipline::concurrent: concurrent_shares(contexts); break;
      case SharingDiscipline::fixed_share: fixed_shares(contexts); break;
    }
    const double change = update_phases(contexts, overhead);
    // From the lower bound the phases only grow (more contention, more time in GPU phases), so
    // the iteration is monotone and bounded by 1; from a warm start it contracts to the same fixed
    // point. A single active context converges at once.
    if (change < kTolerance || active_.size() == 1) break;
  }
  fill_rates(contexts, overhead, out);
}

void RateModel::starting_phases(std::span<const ContextDemand> contexts, std::vector<double>& start) const {
  // Warm start: events change one context at a time, so the last solution is usually close.
  // A phase is never below its duty (g <= 1 means x >= duty); an idle context's is 0.
  const std::size_t n = contexts.size();
  const bool warm = phase_.size() == n;
  start.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double duty = contexts[i].duty;
    start[i] = !contexts[i].active ? 0.0 : warm ? std::clamp(phase_[i], duty, 1.0) : duty;
  }
}

void RateModel::start_phases(std::span<const ContextDemand> contexts) {
  const std::size_t n = contexts.size();
  starting_phases(contexts, phase_);
  share_.assign(n, 0.0);
  solo_.resize(n);
  turns_ready_ = false;
  active_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (!contexts[i].active) continue;
    active_.push_back(static_cast<int>(i));
    solo_[i] = solo_gpu_rate(contexts[i], params_.roofline_sharpness);
  }
}

double RateModel::update_phases(std::span<const ContextDemand> contexts, double overhead) {
  double change = 0.0;
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    const double g = solo_[i] * share_[i] * overhead;
    const double rho = progress_rate(contexts[i].duty, g);
    const double x = g > 0.0 ? std::min(1.0, contexts[i].duty / g * rho) : 1.0;
    change = std::max(change, std::abs(x - phase_[i]));
    phase_[i] = x;
  }
  return change;
}

void RateModel::fill_rates(std::span<const ContextDemand> contexts, double overhead,
                           std::vector<ContextRate>& out) const {
  // Π (1 − x_j) and Σ x_j over every active context, to take each one's own term out in O(1).
  double idle_product = 1.0;
  double busy_sum = 0.0;
  int always_busy = 0;
  for (int index : active_) {
    const double x = phase_[static_cast<std::size_t>(index)];
    busy_sum += x;
    if (x >= 1.0) ++always_busy;
    else idle_product *= 1.0 - x;
  }
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    const auto& c = contexts[i];
    ContextRate& r = out[i];
    r.gpu_rate = solo_[i] * share_[i] * overhead;
    r.progress_rate = progress_rate(c.duty, r.gpu_rate);
    r.gpu_phase_frac = phase_[i];
    r.sm_usage_frac = std::min(1.0, r.gpu_phase_frac * r.gpu_rate * c.demand_sm);
    r.alone_gpu_rate = solo_[i] * overhead;
    const double x = phase_[i];
    r.alone_frac = std::clamp(idle_without(idle_product, always_busy, x), 0.0, 1.0);
    r.others_busy = std::max(0.0, busy_sum - x);
  }
}

std::span<const ContextDemand> RateModel::turns(std::span<const ContextDemand> contexts) {
  // The weights do not depend on the phases: set once per solve.
  const double slice = params_.timeslice_s;
  if (turns_ready_) return slice > 0.0 ? std::span<const ContextDemand>(turns_) : contexts;
  turns_ready_ = true;
  eta_.assign(contexts.size(), params_.efficiency);
  if (!(slice > 0.0)) return contexts;
  // A burst of b seconds runs in m = ceil(b / T) turns: m − 1 whole slices, each ended by a
  // preemption, and the rest, ended by the context yielding. Per turn it uses b / m and costs
  // ((m − 1) c_p + c_y) / m of switching. Unknown bursts take whole slices, each preempted.
  turns_.assign(contexts.begin(), contexts.end());
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    double useful = slice;
    double cost = params_.preempt_switch_s;
    if (contexts[i].burst_s > 0.0) {
      const double m = std::max(1.0, std::ceil(contexts[i].burst_s / slice - 1e-9));
      useful = contexts[i].burst_s / m;
      cost = ((m - 1.0) * params_.preempt_switch_s + params_.yield_switch_s) / m;
    }
    turns_[i].weight *= useful + cost;
    eta_[i] = useful / (useful + cost);
  }
  return turns_;
}

void RateModel::time_sliced_shares(std::span<const ContextDemand> given) {
  // Strict priority between classes, fair shares within one: context i gets the GPU only while no
  // context of a higher class is in a GPU phase (probability Π (1 − x_j) over those), and then
  // shares it by weight (times its turn, with time slices) with the busy contexts of its own
  // class. With one class (the default) this is the plain time-sliced share.
  const std::span<const ContextDemand> contexts = turns(given);
  const std::size_t m = active_.size();
  const ActiveContexts set{contexts, active_, phase_};
  if (m > kDirectLimit) {
    time_shares_by_class(set, eta_, share_, class_distributions_);
  } else {
    for (std::size_t a = 0; a < m; ++a) {
      const auto i = static_cast<std::size_t>(active_[a]);
      share_[i] = direct_time_share(set, a, eta_[i], distribution_);
    }
  }
  if (m > 1 || params_.cap_when_alone) cap_time_shares(contexts);
}

void RateModel::cap_time_shares(std::span<const ContextDemand> contexts) {
  // A capped context (HAMi gpucores) holds back its kernels once it has used its share; the driver
  // then runs the others' kernels in that time. So the time a cap takes away goes to the uncapped
  // contexts: while j is in a GPU phase, a capped i is there with probability x_i and leaves
  // s_i − cap_i of the GPU, which j shares by weight with the other uncapped contexts in a GPU
  // phase (their expected weight). Two saturated contexts, one capped at 25 %: 0.25 and η − 0.25.
  const std::size_t m = active_.size();
  double freed = 0.0;            // Σ over capped i of x_i (s_i − cap_i): GPU time handed on
  double uncapped_weight = 0.0;  // Σ over uncapped l of x_l w_l
  capped_.assign(m, 0);
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    if (share_[i] > contexts[i].cap) {
      capped_[a] = 1;
      freed += phase_[i] * (share_[i] - contexts[i].cap);
      share_[i] = contexts[i].cap;
    } else {
      uncapped_weight += phase_[i] * contexts[i].weight;
    }
  }
  if (freed <= 0.0 || m < 2) return;
  for (std::size_t a = 0; a < m; ++a) {
    if (capped_[a] != 0) continue;
    const auto j = static_cast<std::size_t>(active_[a]);
    const double w = contexts[j].weight;
    const double others = uncapped_weight - phase_[j] * w;
    const double extra = freed * w / (w + std::max(0.0, others));
    share_[j] = std::min({1.0, contexts[j].cap, share_[j] + extra});
  }
}

void RateModel::concurrent_shares(std::span<const ContextDemand> contexts) {
  // MPS as the block scheduler runs it (docs/model.md §2, "MPS: thread blocks"). Each client's
  // kernels reach o_i of the SMs (its occupancy, at most its cap). Where the others' reach
  // (mean field: Σ_j x_j o_j) and its own add up to more than the device, the overlap ov_i is
  // contended: the scheduler hands SMs to kernels in the order they were launched, so clients that
  // want the same SMs take turns kernel by kernel, and client i holds the overlap for
  // τ_i = k_i / (k_i + Σ_j x_j k_j) of the time (k: a kernel's duration on its reach). Off its
  // turn it keeps the SMs nobody else reaches, o_i − ov_i. When the clients then want more
  // bandwidth than the device has, it is split max-min fair (water filling).
  const std::size_t m = active_.size();
  mps_terms_.resize(5 * m);
  const std::span<double> terms(mps_terms_);
  const std::span<double> reach = terms.first(m);             // o_i
  const std::span<double> kernel = terms.subspan(m, m);       // k_i
  const std::span<double> hard = terms.subspan(2 * m, m);     // speed on its reach, hard roofline
  const std::span<double> overlap = terms.subspan(3 * m, m);  // ov_i
  const std::span<double> speed = terms.subspan(4 * m, m);    // g_i
  double busy_reach = 0.0;                                    // Σ_j x_j o_j
  double busy_kernel = 0.0;                                   // Σ_j x_j k_j
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    const auto& c = contexts[i];
    const double occupancy = c.occupancy > 0.0 ? c.occupancy : (c.demand_sm > 0.0 ? c.demand_sm : 1.0);
    reach[a] = std::min({1.0, c.cap, occupancy});
    hard[a] = speed_on(c, reach[a], params_.bandwidth_sm_frac);
    const double k = c.kernel_s > 0.0 ? c.kernel_s : kDefaultKernelS;
    kernel[a] = k / hard[a];
    busy_reach += phase_[i] * reach[a];
    busy_kernel += phase_[i] * kernel[a];
  }
  for (std::size_t a = 0; a < m; ++a) {
    const double x = phase_[static_cast<std::size_t>(active_[a])];
    overlap[a] = std::clamp(reach[a] + std::max(0.0, busy_reach - x * reach[a]) - 1.0, 0.0, reach[a]);
  }
  const double eta = m > 1 ? params_.concurrent_efficiency : 1.0;
  const double kappa = m > 1 ? params_.concurrent_interference : 0.0;
  double pressure = 0.0;  // Σ_j x_j bw_j: the memory traffic of everyone in a GPU phase
  for (std::size_t a = 0; a < m; ++a) {
    const auto j = static_cast<std::size_t>(active_[a]);
    pressure += phase_[j] * contexts[j].demand_bw;
  }
  double bandwidth = 0.0;  // Σ x_j g_j bw_j: the bandwidth wanted at these speeds
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    const auto& c = contexts[i];
    const double x = phase_[i];
    // During its turn the others that keep SMs of their own run beside it: it runs at η while
    // any does, and their memory traffic slows it by 1 + κ Σ x_j bw_j (shared L2 and DRAM).
    double beside_idle = 1.0;
    double beside_traffic = 0.0;
    for (std::size_t b = 0; b < m; ++b) {
      if (b == a || reach[b] - overlap[b] <= kOwnSms) continue;
      const auto j = static_cast<std::size_t>(active_[b]);
      beside_idle *= 1.0 - phase_[j];
      beside_traffic += phase_[j] * contexts[j].demand_bw;
    }
    double g = hard[a] * (beside_idle + (1.0 - beside_idle) * eta) / (1.0 + kappa * beside_traffic);
    if (overlap[a] > kOwnSms) {
      // Off its turn another client holds the overlap and runs beside what it keeps.
      const double turn = kernel[a] / (kernel[a] + std::max(0.0, busy_kernel - x * kernel[a]));
      const double others_traffic = std::max(0.0, pressure - x * c.demand_bw);
      g = turn * g + (1.0 - turn) * speed_on(c, reach[a] - overlap[a], params_.bandwidth_sm_frac) * eta /
                         (1.0 + kappa * others_traffic);
    }
    speed[a] = g;
    bandwidth += x * g * c.demand_bw;
  }
  if (bandwidth > 1.0) split_bandwidth(contexts, speed);
  for (std::size_t a = 0; a < m; ++a) {
    const auto i = static_cast<std::size_t>(active_[a]);
    // The split is of the hard roofline; a finite sharpness scales the granted share in solve().
    share_[i] = speed[a] / solo_gpu_rate(contexts[i]);
  }
}

void RateModel::split_bandwidth(std::span<const ContextDemand> contexts, std::span<double> speed) const {
  // Water filling: the level L with Σ_j x_j min(w_j, L) = 1 over the wants w_j = g_j bw_j (called
  // only when Σ_j x_j w_j > 1, so L exists); a client that wants more than L gets L. Start with
  // every want open; each round holds those at or below the level and raises it.
  const std::size_t m = active_.size();
  double level = 0.0;
  for (std::size_t round = 0; round <= m; ++round) {
    double held = 0.0;       // Σ x_j w_j over the wants at or below the level
    double open_mass = 0.0;  // Σ x_j over the others
    for (std::size_t a = 0; a < m; ++a) {
      const auto i = static_cast<std::size_t>(active_[a]);
      const double want = speed[a] * contexts[i].demand_bw;
      if (want <= level) {
        held += phase_[i] * want;
      } else {
        open_mass += phase_[i];
      }
    }
    const double next = open_mass > 0.0 ? (1.0 - held) / open_mass : level;
    if (next <= level) break;
    level = next;
  }
  for (std::size_t a = 0; a < m; ++a) {
    const double want = speed[a] * contexts[static_cast<std::size_t>(active_[a])].demand_bw;
    if (want > level) speed[a] *= level / want;
  }
}

void RateModel::fixed_shares(std::span<const ContextDemand> contexts) {
  // Every placed vGPU owns its slot whether it runs or not. The slots are the profile's vGPUs per
  // GPU (total_placed_weight) or, when the placed weights add up to more, those weights: shares are
  // normalised so that they never add up to more than the GPU.
  double placed = 0.0;
  for (const auto& context : contexts) placed += context.weight;
  const double total = std::max(params_.total_placed_weight, placed);
  for (int index : active_) {
    const auto i = static_cast<std::size_t>(index);
    const double w = contexts[i].weight;
    // Switching costs only arise when the scheduler has other vGPUs to serve.
    share_[i] = std::min(1.0, (total > w ? params_.efficiency : 1.0) * w / total);
  }
}

}  // namespace slicewise::models
