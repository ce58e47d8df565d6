// Sharing variance (sharing_variance.hpp).
#include "sim/sharing_variance.hpp"

#include <algorithm>
#include <cmath>

#include "traces/request_source.hpp"

namespace slicewise::sim {

SharingVariance::SharingVariance(std::uint64_t seed, double round_s, bool time_sliced)
    : round_s_(round_s), time_sliced_(time_sliced), rng_(seed) {}

void SharingVariance::forget(std::size_t slot) {
  std::erase_if(pending_, [&](const Pending& p) { return p.slot == slot; });
}

double SharingVariance::standard_normal() {
  const double u1 = 1.0 - traces::unit_interval(rng_());  // (0, 1]
  const double u2 = traces::unit_interval(rng_());
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

double SharingVariance::relative_deviation(const models::ContextRate& r, double duty, double work_s) {
  if (r.gpu_rate <= 0.0 || r.alone_gpu_rate <= 0.0) return 0.0;
  const double gpu_s = duty * work_s / r.gpu_rate;
  if (gpu_s <= 0.0) return 0.0;
  const double rounds = std::max(1.0, gpu_s / round_s_);
  const double p = r.alone_frac;
  double cv = 0.0;
  if (p > 0.0 && p < 1.0) {
    const double t_mean = 1.0 / r.gpu_rate;
    const double t_alone = 1.0 / r.alone_gpu_rate;
    const double t_shared = (t_mean - p * t_alone) / (1.0 - p);
    cv = std::sqrt(p * (1.0 - p)) * std::abs(t_shared - t_alone) / t_mean;
  }
  double deviation = cv > 0.0 ? cv / std::sqrt(rounds) * standard_normal() : 0.0;
  if (time_sliced_ && r.others_busy > 0.0) {
    deviation += (traces::unit_interval(rng_()) - 0.5) * r.others_busy * round_s_ / gpu_s;
  }
  return deviation;
}

const std::vector<SharingVariance::Shift>& SharingVariance::draw(std::span<const models::ContextRate> rates,
                                                                 std::span<const models::ContextDemand> demands) {
  shifts_.clear();
  for (const auto& started : pending_) {
    const double deviation = relative_deviation(rates[started.slot], demands[started.slot].duty, started.work_s);
    if (deviation == 0.0) continue;
    // A deviation ε of the GPU time is ε × (share of wall time in GPU phases) × work of solo time;
    // never less than a tenth of the phase (a phase much shorter than a round is exact mode's job).
    const double x = rates[started.slot].gpu_phase_frac;
    shifts_.push_back({started.slot, started.request, std::max(-0.9 * started.work_s, deviation * x * started.work_s)});
  }
  pending_.clear();
  return shifts_;
}

}  // namespace slicewise::sim
