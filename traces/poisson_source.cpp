// Poisson arrivals.
#include "traces/poisson_source.hpp"

#include <cmath>

#include "core/error.hpp"

namespace slicewise::traces {

PoissonSource::PoissonSource(double rate_per_s, double horizon_s, std::uint64_t seed, double prompt_tokens,
                             double output_tokens)
    : rate_per_s_(rate_per_s),
      horizon_s_(horizon_s),
      prompt_tokens_(prompt_tokens),
      output_tokens_(output_tokens),
      rng_(seed) {
  SW_CHECK(rate_per_s > 0.0, "Poisson rate must be positive");
  SW_CHECK(horizon_s > 0.0, "Poisson horizon must be positive");
}

bool PoissonSource::next(RequestRecord& out) {
  // -log(1 - u) with u in [0, 1) is a unit exponential; 1 - u is never 0.
  now_s_ += -std::log1p(-unit_interval(rng_())) / rate_per_s_;
  if (now_s_ >= horizon_s_) return false;
  const double work = exponential_work_ ? -std::log1p(-unit_interval(rng_())) : 1.0;
  out.arrived_at_s = now_s_;
  out.prompt_tokens = prompt_tokens_;
  out.output_tokens = output_tokens_;
  out.work_scale = work;
  out.demand_scale = 1.0;
  out.prefix_hashes.reset();
  out.prefix_block_tokens = 0.0;
  return true;
}

}  // namespace slicewise::traces
