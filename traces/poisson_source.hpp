// Seeded Poisson arrivals: exponential inter-arrival times at a fixed mean rate.
#pragma once

#include <cstdint>
#include <random>

#include "traces/request_source.hpp"

namespace slicewise::traces {

/// Poisson arrivals in [0, horizon_s) at `rate_per_s`; every request carries the given token
/// counts. The same seed gives the same arrivals on every platform (inverse-CDF sampling from
/// std::mt19937_64, whose output the standard fixes).
class PoissonSource final : public RequestSource {
 public:
  /// rate_per_s > 0, horizon_s > 0.
  PoissonSource(double rate_per_s, double horizon_s, std::uint64_t seed, double prompt_tokens = 0.0,
                double output_tokens = 0.0);
  /// Draw each request's work_scale from a unit-mean exponential (M/M/k service) instead of 1.
  void set_exponential_work(bool on) { exponential_work_ = on; }
  bool next(RequestRecord& out) override;

 private:
  double rate_per_s_;
  double horizon_s_;
  double prompt_tokens_;
  double output_tokens_;
  double now_s_ = 0.0;
  bool exponential_work_ = false;
  std::mt19937_64 rng_;
};

}  // namespace slicewise::traces
