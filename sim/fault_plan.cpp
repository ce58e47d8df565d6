// Faults and layout schedules before the run: containment, expected exposure, drawn faults.
#include "sim/fault_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "core/error.hpp"
#include "models/fault_rates.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/strategies/policy.hpp"
#include "traces/request_source.hpp"

namespace slicewise::sim {

using scenario::FaultKind;
using scenario::FaultSpec;

FaultSettings fault_settings(const scenario::Scenario& scenario) {
  FaultSettings settings;
  if (scenario.faults) {
    settings.spec = *scenario.faults;
    settings.any = true;
    settings.gpu_failure_per_gpu_hour =
        scenario.faults->gpu_failure_per_gpu_hour.value_or(models::kGpuFailurePerGpuHour);
  } else {
    settings.spec.random = false;
  }
  return settings;
}

double outage_s(const FaultSpec& spec, FaultKind kind) {
  switch (kind) {
    case FaultKind::gpu_failure: return spec.gpu_repair_s + spec.context_restart_s;
    case FaultKind::driver_reset: return spec.driver_reset_s + spec.context_restart_s;
    case FaultKind::tenant_crash:
    case FaultKind::mps_server_fault: return spec.context_restart_s;
  }
  return 0.0;
}

namespace {

/// Per hour rate of each kind, 0 where the kind does not strike the strategy.
double rate_of(const FaultSettings& settings, models::StrategyKind kind, FaultKind fault) {
  switch (fault) {
    case FaultKind::gpu_failure: return settings.gpu_failure_per_gpu_hour;
    case FaultKind::driver_reset: return settings.spec.driver_reset_per_gpu_hour;
    case FaultKind::tenant_crash: return settings.spec.tenant_crash_per_context_hour;
    case FaultKind::mps_server_fault:
      return scenario::policy_of(kind).has_gpu_server() ? settings.spec.mps_server_fault_per_gpu_hour : 0.0;
  }
  return 0.0;
}

constexpr FaultKind kKinds[] = {FaultKind::gpu_failure, FaultKind::driver_reset, FaultKind::tenant_crash,
                                FaultKind::mps_server_fault};

/// One placement's contexts by GPU and device: what a fault can reach.
struct Layout {
  std::map<std::size_t, std::vector<std::pair<std::size_t, std::size_t>>> by_gpu;  ///< gpu -> (device, slot)
  std::vector<std::pair<std::size_t, std::size_t>> contexts;                       ///< (device, slot)
};

Layout layout_of(const Placement& placement) {
  Layout layout;
  for (std::size_t d = 0; d < placement.devices.size(); ++d) {
    for (std::size_t s = 0; s < placement.devices[d].contexts.size(); ++s) {
      const auto& device = placement.devices[d];
      for (std::size_t g = device.gpu_index; g < gpu_end(device); ++g) layout.by_gpu[g].emplace_back(d, s);
      layout.contexts.emplace_back(d, s);
    }
  }
  return layout;
}

/// The chance each context of the placement goes down when context (`od`, `os`) crashes, as the
/// strategy's policy says.
std::vector<std::vector<double>> crash_reach_of(const Placement& placement, std::size_t od, std::size_t os,
                                                const scenario::StrategyPolicy& policy, double co_kill) {
  std::vector<std::vector<double>> p(placement.devices.size());
  for (std::size_t d = 0; d < placement.devices.size(); ++d) {
    p[d].assign(placement.devices[d].contexts.size(), 0.0);
    const bool same_gpu = share_a_gpu(placement.devices[d], placement.devices[od]);
    for (std::size_t s = 0; s < p[d].size(); ++s) {
      p[d][s] = d == od && s == os ? 1.0 : policy.crash_kill_chance(d == od, same_gpu, co_kill);
    }
  }
  return p;
}

/// Accumulates one fault source's expectation: `rate_h` per hour; `p` the chance each context goes down.
struct Accumulator {
  const Placement& placement;
  std::size_t num_tenants;
  double weight;  ///< the phase's share of the day
  std::vector<double> interruptions;
  std::vector<double> outage_h;
  Accumulator(const Placement& pl, std::size_t n, double w)
      : placement(pl), num_tenants(n), weight(w), interruptions(n, 0.0), outage_h(n, 0.0) {}

  /// Returns (expected contexts hit, expected tenants hit) of one such fault.
  std::pair<double, double> add(const std::vector<std::vector<double>>& p, double rate_h, double outage) {
    std::vector<double> none(num_tenants, 1.0);  // P(no context of the tenant goes down)
    std::vector<double> all(num_tenants, 1.0);   // P(every context of the tenant goes down)
    std::vector<int> count(num_tenants, 0);
    double contexts = 0.0;
    for (std::size_t d = 0; d < p.size(); ++d) {
      for (std::size_t s = 0; s < p[d].size(); ++s) {
        const std::size_t t = placement.devices[d].contexts[s].tenant;
        none[t] *= 1.0 - p[d][s];
        all[t] *= p[d][s];
        ++count[t];
        contexts += p[d][s];
      }
    }
    double tenants = 0.0;
    const double per_month = rate_h * kHoursPerMonth * weight;
    for (std::size_t t = 0; t < num_tenants; ++t) {
      if (count[t] == 0) continue;
      tenants += 1.0 - none[t];
      interruptions[t] += per_month * (1.0 - none[t]);
      outage_h[t] += per_month * all[t] * outage / 3600.0;
    }
    return {contexts, tenants};
  }
};

}  // namespace

namespace {

/// The chance each context of the placement goes down when GPU `gpu` fails, resets or loses its
/// MPS server: every context on it (a tensor-parallel group's, on any of its GPUs).
std::vector<std::vector<double>> gpu_reach_of(const Placement& placement, std::size_t gpu) {
  std::vector<std::vector<double>> p(placement.devices.size());
  for (std::size_t d = 0; d < placement.devices.size(); ++d) {
    p[d].assign(placement.devices[d].contexts.size(), spans(placement.devices[d], gpu) ? 1.0 : 0.0);
  }
  return p;
}

/// One kind of fault over every phase: its expectation, and each tenant's interruptions and
/// outage hours added to `interruptions` and `outage_h`.
scenario::FaultExposure kind_exposure(const FaultSettings& settings, const scenario::StrategyPolicy& policy,
                                      FaultKind fault, double rate, const std::vector<PhasePlacement>& phases,
                                      std::size_t num_tenants, std::vector<double>& interruptions,
                                      std::vector<double>& outage_h) {
  scenario::FaultExposure exposure;
  exposure.kind = scenario::name_of(scenario::fault_kind_table(), fault);
  exposure.outage_s = outage_s(settings.spec, fault);
  double contexts_sum = 0.0;  // Σ per_month × per-fault figure, over sources
  double tenants_sum = 0.0;
  for (const auto& phase : phases) {
    const Placement& placement = *phase.placement;
    const Layout layout = layout_of(placement);
    Accumulator acc(placement, num_tenants, phase.day_frac);
    const double per_month = rate * kHoursPerMonth * phase.day_frac;
    auto add = [&](const std::vector<std::vector<double>>& p) {
      const auto hit = acc.add(p, rate, exposure.outage_s);
      exposure.per_month += per_month;
      contexts_sum += per_month * hit.first;
      tenants_sum += per_month * hit.second;
    };
    if (fault == FaultKind::tenant_crash) {
      for (const auto& ref : layout.contexts) {
        add(crash_reach_of(placement, ref.first, ref.second, policy, settings.spec.co_tenant_kill_frac));
      }
    } else {
      for (const auto& entry : layout.by_gpu) add(gpu_reach_of(placement, entry.first));
    }
    for (std::size_t t = 0; t < num_tenants; ++t) {
      interruptions[t] += acc.interruptions[t];
      outage_h[t] += acc.outage_h[t];
    }
  }
  if (exposure.per_month > 0.0) {
    exposure.contexts_hit = contexts_sum / exposure.per_month;
    exposure.tenants_hit = tenants_sum / exposure.per_month;
  }
  return exposure;
}

}  // namespace

void expected_exposure(const FaultSettings& settings, models::StrategyKind kind,
                       const std::vector<PhasePlacement>& phases, const scenario::Scenario& scenario,
                       scenario::FaultRecord& out) {
  const std::size_t num_tenants = scenario.tenants.size();
  std::vector<double> interruptions(num_tenants, 0.0);
  std::vector<double> outage_h(num_tenants, 0.0);
  for (const FaultKind fault : kKinds) {
    const double rate = rate_of(settings, kind, fault);
    if (!(rate > 0.0)) continue;
    out.expected.push_back(
        kind_exposure(settings, scenario::policy_of(kind), fault, rate, phases, num_tenants, interruptions, outage_h));
  }
  std::vector<bool> placed(num_tenants, false);
  for (const auto& phase : phases) {
    for (const auto& device : phase.placement->devices) {
      for (const auto& c : device.contexts) placed[c.tenant] = true;
    }
  }
  double faults = 0.0;
  double weighted = 0.0;
  for (const auto& e : out.expected) {
    faults += e.per_month;
    weighted += e.per_month * e.tenants_hit;
  }
  out.expected_blast_radius = faults > 0.0 ? weighted / faults : 0.0;
  for (std::size_t t = 0; t < num_tenants; ++t) {
    scenario::TenantExposure e;
    e.name = scenario.tenants[t].name;
    e.interruptions_per_month = interruptions[t];
    e.outage_hours_per_month = placed[t] ? std::min(kHoursPerMonth, outage_h[t]) : kHoursPerMonth;
    e.availability = 1.0 - e.outage_hours_per_month / kHoursPerMonth;
    out.tenants.push_back(e);
  }
}

namespace {

/// A stream of its own per fault source: SplitMix64 of the seed and the source's identity.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/// Poisson arrivals at `rate_h` per hour over [0, horizon_s).
template <class Emit>
void draw_poisson(std::uint64_t seed, double rate_h, double horizon_s, Emit emit) {
  if (!(rate_h > 0.0)) return;
  std::mt19937_64 rng(seed);
  const double mean_s = 3600.0 / rate_h;
  double t = 0.0;
  while (true) {
    t += -mean_s * std::log1p(-traces::unit_interval(rng()));
    if (!(t < horizon_s)) return;
    emit(t);
  }
}

std::vector<PlannedFault> scheduled_faults(const FaultSettings& settings, const scenario::Scenario& scenario) {
  std::vector<PlannedFault> faults;
  for (const auto& s : settings.spec.schedule) {
    PlannedFault f;
    f.at_s = s.at_s;
    f.kind = s.kind;
    f.scheduled = true;
    if (s.kind == FaultKind::tenant_crash) {
      for (std::size_t t = 0; t < scenario.tenants.size(); ++t) {
        if (scenario.tenants[t].name == s.tenant) f.tenant = t;
      }
      f.replica = s.replica;
    } else {
      f.gpu = static_cast<std::size_t>(s.gpu);
    }
    faults.push_back(f);
  }
  return faults;
}

/// Poisson arrivals of one kind on each of its sources, appended to `faults`.
void draw_kind(FaultKind fault, double rate, const scenario::Scenario& scenario, const std::vector<std::size_t>& gpus,
               const std::vector<std::pair<std::size_t, int>>& contexts, std::vector<PlannedFault>& faults) {
  const auto k = static_cast<std::uint64_t>(fault);
  const std::uint64_t kind_seed = mix(scenario.seed ^ (k << 56));
  if (fault == FaultKind::tenant_crash) {
    for (const auto& context : contexts) {
      const std::size_t tenant = context.first;
      const int replica = context.second;
      const std::uint64_t seed = mix(kind_seed ^ (std::uint64_t{tenant} << 20) ^ static_cast<std::uint64_t>(replica));
      draw_poisson(seed, rate, scenario.horizon_s, [&](double at) {
        faults.push_back(PlannedFault{at, fault, 0, tenant, replica, false});
      });
    }
    return;
  }
  for (const std::size_t g : gpus) {
    const std::uint64_t seed = mix(kind_seed ^ (std::uint64_t{g} + 0x5bd1e995ULL));
    draw_poisson(seed, rate, scenario.horizon_s, [&](double at) {
      faults.push_back(PlannedFault{at, fault, g, 0, 0, false});
    });
  }
}

bool earlier(const PlannedFault& a, const PlannedFault& b) {
  if (a.at_s != b.at_s) return a.at_s < b.at_s;
  if (a.scheduled != b.scheduled) return a.scheduled;  // the schedule's first at one instant
  if (a.kind != b.kind) return a.kind < b.kind;
  if (a.gpu != b.gpu) return a.gpu < b.gpu;
  return a.tenant != b.tenant ? a.tenant < b.tenant : a.replica < b.replica;
}

}  // namespace

std::vector<PlannedFault> plan_faults(const FaultSettings& settings, models::StrategyKind kind,
                                      const scenario::Scenario& scenario, const std::vector<std::size_t>& gpus,
                                      const std::vector<std::pair<std::size_t, int>>& contexts) {
  if (!settings.any) return {};
  std::vector<PlannedFault> faults = scheduled_faults(settings, scenario);
  if (settings.spec.random) {
    for (const FaultKind fault : kKinds)
      draw_kind(fault, rate_of(settings, kind, fault), scenario, gpus, contexts, faults);
  }
  std::stable_sort(faults.begin(), faults.end(), earlier);
  return faults;
}

PhaseScenario phase_scenario(const scenario::Scenario& scenario, const scenario::StrategySpec& strategy,
                             const scenario::LayoutPhase& phase) {
  PhaseScenario out{scenario, strategy};
  out.strategy.layout = phase.layout;
  out.strategy.layout_schedule.reset();
  for (auto& tenant : out.scenario.tenants) {
    const auto it = phase.tenants.find(tenant.name);
    if (it == phase.tenants.end()) {
      tenant.num_contexts = 0;
      continue;
    }
    if (it->second.num_contexts > 0) tenant.num_contexts = it->second.num_contexts;
    out.strategy.tenants[tenant.name].mig_profile = it->second.mig_profile;
  }
  return out;
}

std::size_t phase_at(const scenario::LayoutSchedule& schedule, double hour) {
  SW_CHECK(!schedule.phases.empty(), "a layout schedule without phases (validate first)");
  std::size_t at = schedule.phases.size() - 1;
  for (std::size_t p = 0; p < schedule.phases.size(); ++p) {
    if (schedule.phases[p].from_hour <= hour) at = p;
  }
  return at;
}

std::vector<double> phase_day_fracs(const scenario::LayoutSchedule& schedule) {
  const auto& phases = schedule.phases;
  std::vector<double> fracs(phases.size(), 0.0);
  for (std::size_t p = 0; p < phases.size(); ++p) {
    const double end = p + 1 < phases.size() ? phases[p + 1].from_hour : phases.front().from_hour + 24.0;
    fracs[p] = (end - phases[p].from_hour) / 24.0;
  }
  return fracs;
}

std::vector<LayoutSwitch> layout_switches(const scenario::LayoutSchedule& schedule, double horizon_s) {
  std::vector<LayoutSwitch> switches;
  const std::size_t n = schedule.phases.size();
  std::size_t current = phase_at(schedule, schedule.start_hour);
  // Hours after time 0 at which each next phase begins, day after day.
  double clock_h = 0.0;  // hours since time 0 of the current phase's next boundary search
  double hour = schedule.start_hour;
  while (true) {
    const std::size_t next = (current + 1) % n;
    double until = schedule.phases[next].from_hour - hour;
    if (until <= 0.0) until += 24.0;
    clock_h += until;
    hour = schedule.phases[next].from_hour;
    const double at_s = clock_h * 3600.0;
    if (!(at_s < horizon_s)) break;
    switches.push_back(LayoutSwitch{at_s, current, next});
    current = next;
  }
  return switches;
}

}  // namespace slicewise::sim
