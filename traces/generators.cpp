// Diurnal and MMPP arrival generators.
#include "traces/generators.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.hpp"

namespace slicewise::traces {

DiurnalSource::DiurnalSource(double mean_rate_per_s, const std::array<double, 24>& profile, double start_hour,
                             double horizon_s, std::uint64_t seed, RequestRecord shape)
    : start_hour_(start_hour), horizon_s_(horizon_s), shape_(std::move(shape)), rng_(seed) {
  // The profile is scaled by its largest value first, so that its mean neither overflows (values
  // near 1e308) nor underflows to 0 (a lone denormal): the scaled mean lies in [1/24, 1].
  const double largest = *std::max_element(profile.begin(), profile.end());
  SW_CHECK(mean_rate_per_s > 0.0 && largest > 0.0 && std::isfinite(largest),
           "diurnal rate and profile must be positive");
  SW_CHECK(start_hour >= 0.0 && start_hour < 24.0, "start hour must be in [0, 24)");
  double scaled_sum = 0.0;
  for (const double value : profile) scaled_sum += value / largest;
  const double scaled_mean = scaled_sum / 24.0;
  for (std::size_t h = 0; h < 24; ++h) {
    SW_CHECK(profile[h] >= 0.0, "diurnal profile values must be >= 0");
    rate_per_s_[h] = mean_rate_per_s * (profile[h] / largest) / scaled_mean;
  }
  peak_per_s_ = *std::max_element(rate_per_s_.begin(), rate_per_s_.end());
}

double DiurnalSource::rate_at(double t_s) const {
  const double hours = std::fmod(start_hour_ + t_s / 3600.0, 24.0);
  return rate_per_s_[std::min<std::size_t>(23, static_cast<std::size_t>(hours))];
}

bool DiurnalSource::next(RequestRecord& out) {
  while (true) {
    now_s_ += -std::log1p(-unit_interval(rng_())) / peak_per_s_;
    if (now_s_ >= horizon_s_) return false;
    if (unit_interval(rng_()) * peak_per_s_ < rate_at(now_s_)) break;
  }
  out = shape_;
  out.arrived_at_s = now_s_;
  return true;
}

ExponentialWork::ExponentialWork(std::shared_ptr<RequestSource> inner, std::uint64_t seed)
    : inner_(std::move(inner)), rng_(seed) {
  SW_CHECK(inner_ != nullptr, "no source to draw work for");
}

bool ExponentialWork::next(RequestRecord& out) {
  if (!inner_->next(out)) return false;
  // -log(1 - u) with u in [0, 1) is a unit exponential; 1 - u is never 0.
  out.work_scale *= -std::log1p(-unit_interval(rng_()));
  return true;
}

MmppSource::MmppSource(std::vector<MmppState> states, double horizon_s, std::uint64_t seed, RequestRecord shape)
    : states_(std::move(states)), horizon_s_(horizon_s), shape_(std::move(shape)), rng_(seed) {
  SW_CHECK(states_.size() >= 2, "an MMPP needs at least two states");
  for (const auto& s : states_) SW_CHECK(s.rate_per_s >= 0.0 && s.mean_duration_s > 0.0, "bad MMPP state");
  state_end_s_ = exponential(states_[0].mean_duration_s);
}

bool MmppSource::next(RequestRecord& out) {
  while (true) {
    const double rate = states_[state_].rate_per_s;
    const double candidate = rate > 0.0 ? now_s_ + exponential(1.0 / rate) : state_end_s_;
    if (candidate < state_end_s_) {
      now_s_ = candidate;
      break;
    }
    // The state ends first: by memorylessness, restart the clock at the switch.
    now_s_ = state_end_s_;
    if (now_s_ >= horizon_s_) return false;
    const auto others = states_.size() - 1;
    const auto hop = 1 + std::min<std::size_t>(others - 1, static_cast<std::size_t>(unit_interval(rng_()) * others));
    state_ = (state_ + hop) % states_.size();
    state_end_s_ = now_s_ + exponential(states_[state_].mean_duration_s);
  }
  if (now_s_ >= horizon_s_) return false;
  out = shape_;
  out.arrived_at_s = now_s_;
  return true;
}

}  // namespace slicewise::traces
