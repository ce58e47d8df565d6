// A tenant's open-loop request stream (see load_source.hpp).
#include "sim/load_source.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "scenario/validate.hpp"
#include "traces/generators.hpp"
#include "traces/poisson_source.hpp"
#include "traces/trace_source.hpp"

namespace slicewise::sim {

using scenario::LoadKind;

traces::RequestRecord typical_request(const scenario::Tenant& tenant) {
  traces::RequestRecord typical;
  if (tenant.workload.llm) {
    typical.prompt_tokens = tenant.workload.llm->prompt_tokens;
    typical.output_tokens = tenant.workload.llm->output_tokens;
  }
  return typical;
}

std::shared_ptr<traces::RequestSource> open_loop_source_of(const scenario::Scenario& scenario, std::size_t index) {
  const scenario::Tenant& tenant = scenario.tenants.at(index);
  const traces::RequestRecord typical = typical_request(tenant);
  const std::uint64_t seed = scenario.seed * 0xD1B54A32D192ED03ULL + index;
  const auto& load = tenant.load;
  const bool exponential = tenant.workload.service_dist == scenario::ServiceDistribution::exponential;
  // Drawn solo times around the arrivals of a generated load (a Poisson source draws its own).
  const auto with_work = [&](std::shared_ptr<traces::RequestSource> source) -> std::shared_ptr<traces::RequestSource> {
    if (!exponential) return source;
    return std::make_shared<traces::ExponentialWork>(std::move(source), seed ^ 0x9E3779B97F4A7C15ULL);
  };
  switch (load.kind) {
    case LoadKind::poisson: {
      auto source = std::make_shared<traces::PoissonSource>(load.rate_per_s * load.multiplier, scenario.horizon_s, seed,
                                                            typical.prompt_tokens, typical.output_tokens);
      source->set_exponential_work(exponential);
      return source;
    }
    case LoadKind::diurnal: {
      std::array<double, 24> profile{};
      std::copy_n(load.hourly_profile.begin(), 24, profile.begin());
      return with_work(std::make_shared<traces::DiurnalSource>(load.rate_per_s * load.multiplier, profile,
                                                               load.start_hour, scenario.horizon_s, seed, typical));
    }
    case LoadKind::mmpp: {
      std::vector<traces::MmppState> states;
      for (const auto& st : load.states) states.push_back({st.rate_per_s * load.multiplier, st.mean_duration_s});
      return with_work(std::make_shared<traces::MmppSource>(std::move(states), scenario.horizon_s, seed, typical));
    }
    case LoadKind::trace: {
      traces::TraceMapping mapping;
      mapping.window_start_s = load.window_start_s;
      mapping.window_end_s = load.window_end_s;
      mapping.time_compression = load.time_compression;
      mapping.multiplier = load.multiplier;
      mapping.sample_frac = load.sample_frac;
      mapping.spread_ties = load.spread_ties;
      mapping.select = load.split_values;
      mapping.horizon_s = scenario.horizon_s;
      const bool generic = tenant.workload.kind == scenario::WorkloadKind::generic;
      mapping.solo_latency_s = generic ? tenant.workload.solo_latency_s.value_or(0.0) : 0.0;
      mapping.gpu_frac_demand = generic && load.gpu_frac_demand;  // validation refuses it for LLMs
      mapping.sm_occupancy_frac = tenant.workload.sm_occupancy_frac;
      mapping.seed = seed;
      return std::make_shared<traces::TraceSource>(scenario::open_load_trace(scenario, load), std::move(mapping));
    }
    case LoadKind::closed_loop: break;
  }
  SW_CHECK(false, "closed-loop load has no open-loop source");
}

}  // namespace slicewise::sim
