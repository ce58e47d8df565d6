// Sharing variance (docs/model.md §4): the fluid share is a mean over the device's scheduling
// rounds, so a phase that starts on a shared device gets its own draw of how its rounds went. The
// draw waits for the rates the phase starts under; it then moves the phase's finish.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "models/rate_types.hpp"

namespace slicewise::sim {

class SharingVariance {
 public:
  /// A device whose contexts' turns are decided over rounds of `round_s` (0: none, and nothing is
  /// drawn); `time_sliced` when they take turns, which adds the random point in the others' turns
  /// a phase starts at. `seed` is the device's.
  SharingVariance(std::uint64_t seed, double round_s, bool time_sliced);

  /// One phase's draw: move its finish by `delta_s` of solo time.
  struct Shift {
    std::size_t slot;
    std::size_t request;
    double delta_s;
  };

  /// A phase of `work_s` solo seconds started on context `slot`: drawn at the next draw().
  void started(std::size_t slot, std::size_t request, double work_s) {
    if (round_s_ > 0.0 && work_s > 0.0) pending_.push_back({slot, request, work_s});
  }
  bool has_pending() const { return !pending_.empty(); }
  /// Context `slot` stopped: its phases are gone.
  void forget(std::size_t slot);
  /// The pending phases' shifts under the contexts' current `rates` and `demands` (a phase whose
  /// draw is 0 is left out), in the order they started; no phase is pending after.
  const std::vector<Shift>& draw(std::span<const models::ContextRate> rates,
                                 std::span<const models::ContextDemand> demands);
  /// A phase's relative deviation of its GPU time from the fluid mean, given its context's rate and
  /// duty: over N = GPU time / round_s independent rounds it is cv / √N × a standard normal, cv
  /// the coefficient of variation of the time per round (the context runs alone with probability
  /// alone_frac, at alone_gpu_rate, and beside others at the rate that keeps the mean); contexts
  /// that take turns also start at a uniform point of ±½ the others' expected turns. Mean 0.
  double relative_deviation(const models::ContextRate& rate, double duty, double work_s);

 private:
  struct Pending {
    std::size_t slot;
    std::size_t request;
    double work_s;  ///< the phase's solo time
  };
  /// Box–Muller on the generator's raw bits (std::normal_distribution is not the same everywhere).
  double standard_normal();

  double round_s_;
  bool time_sliced_;
  std::mt19937_64 rng_;
  std::vector<Pending> pending_;
  std::vector<Shift> shifts_;
};

}  // namespace slicewise::sim
