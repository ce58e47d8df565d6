// The arrival rate over time of one tenant's load, for the tenant form's preview: taken from the
// same seeded request stream the simulator replays (sim/load_source.hpp), binned over the horizon.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"

namespace slicewise::gui {

struct ArrivalPreview {
  double bin_s = 0.0;              ///< width of each bin, seconds
  std::vector<double> rate_per_s;  ///< arrivals per second in each bin, from time 0
  std::int64_t num_arrivals = 0;   ///< within the horizon (or up to the request cap)
  double mean_rate_per_s = 0.0;
  double peak_rate_per_s = 0.0;  ///< the busiest bin
  bool truncated = false;        ///< stopped at the request cap before the horizon
  std::string note;              ///< why there is no series (closed loop, error); "" otherwise
};

/// Bins tenant `index`'s arrivals over [0, horizon) into at most `max_bins` bins of a whole number
/// of seconds, reading at most `max_requests` requests (a preview must stay quick on long traces).
/// A closed-loop load has no series: its arrivals depend on the replies (`note` says so, with the
/// upper bound users / think time). A trace that cannot be read gives its error in `note`.
ArrivalPreview preview_arrivals(const scenario::Scenario& scenario, std::size_t index, int max_bins = 120,
                                std::int64_t max_requests = 2'000'000);

}  // namespace slicewise::gui
