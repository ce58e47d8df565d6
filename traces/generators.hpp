// Seeded arrival generators beyond plain Poisson: a diurnal (24-hour) profile and a
// Markov-modulated Poisson process for bursts. Closed-loop users live in the engine, since their
// next request depends on the simulated reply.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "traces/request_source.hpp"

namespace slicewise::traces {

/// Poisson arrivals whose rate follows the hour of day: rate(t) = mean_rate_per_s × profile[h] /
/// mean(profile), h = the hour at t when simulated time 0 is `start_hour` o'clock. Sampled by
/// thinning a Poisson stream at the peak rate (Lewis & Shedler), so it is exact for the
/// piecewise-constant rate.
class DiurnalSource final : public RequestSource {
 public:
  /// mean_rate_per_s > 0; every profile value >= 0 and at least one > 0; start_hour in [0, 24).
  DiurnalSource(double mean_rate_per_s, const std::array<double, 24>& profile, double start_hour, double horizon_s,
                std::uint64_t seed, RequestRecord shape = {});
  bool next(RequestRecord& out) override;
  /// The rate at simulated time t, per second.
  double rate_at(double t_s) const;

 private:
  std::array<double, 24> rate_per_s_{};
  double peak_per_s_ = 0.0;
  double start_hour_;
  double horizon_s_;
  double now_s_ = 0.0;
  RequestRecord shape_;
  std::mt19937_64 rng_;
};

/// Another source's arrivals, each request's work_scale drawn from a unit-mean exponential (M/M/k
/// service) on a stream of its own, so that the arrivals stay those of the source.
class ExponentialWork final : public RequestSource {
 public:
  ExponentialWork(std::shared_ptr<RequestSource> inner, std::uint64_t seed);
  bool next(RequestRecord& out) override;

 private:
  std::shared_ptr<RequestSource> inner_;
  std::mt19937_64 rng_;
};

/// One state of an MMPP: its arrival rate and how long it lasts on average.
struct MmppState {
  double rate_per_s = 0.0;       ///< >= 0
  double mean_duration_s = 0.0;  ///< > 0; sojourns are exponential
};

/// Markov-modulated Poisson arrivals: the process stays in a state for an exponential time, with
/// Poisson arrivals at that state's rate, then moves to another state chosen uniformly (with two
/// states: the other one). Starts in state 0. Long-run rate = Σ rate_i d_i / Σ d_i.
class MmppSource final : public RequestSource {
 public:
  /// At least two states.
  MmppSource(std::vector<MmppState> states, double horizon_s, std::uint64_t seed, RequestRecord shape = {});
  bool next(RequestRecord& out) override;

 private:
  double exponential(double mean) { return -mean * std::log1p(-unit_interval(rng_())); }
  std::vector<MmppState> states_;
  std::size_t state_ = 0;
  double state_end_s_ = 0.0;
  double horizon_s_;
  double now_s_ = 0.0;
  RequestRecord shape_;
  std::mt19937_64 rng_;
};

}  // namespace slicewise::traces
