// The SimGrid side of a run: one scheduler actor runs the run's own event loop (sim/event_loop.hpp)
// over the devices and the tenants' request sources; SimGrid keeps the platform, the clock it
// catches up with and the progress monitor (docs/architecture.md, "The event loop").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <random>

#include <simgrid/s4u.hpp>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "scenario/energy.hpp"
#include "scenario/validate.hpp"
#include "sim/device_state.hpp"
#include "sim/event_loop.hpp"
#include "sim/fault_plan.hpp"
#include "sim/least_loaded_index.hpp"
#include "sim/load_source.hpp"
#include "sim/placed_run.hpp"
#include "sim/platform.hpp"
#include "sim/run_results.hpp"
#include "sim/run_state.hpp"
#include "sim/simulation.hpp"

namespace sg4 = simgrid::s4u;

namespace slicewise::sim {

using scenario::LoadKind;
using scenario::Scenario;

namespace {

double exponential(std::mt19937_64& rng, double mean) {
  return mean <= 0.0 ? 0.0 : -mean * std::log1p(-traces::unit_interval(rng()));
}

/// One of the tenant's serving contexts by its router; none when none serves.
std::optional<ContextRef> route(Run& run, std::size_t tenant) {
  const auto& refs = run.contexts_of[tenant];
  const auto& least_loaded = run.least_loaded[tenant];
  if (!run.ops || run.up_count[tenant] == refs.size()) {
    return least_loaded ? refs[least_loaded->least()] : refs[run.round_robin[tenant]++ % refs.size()];
  }
  if (run.up_count[tenant] == 0) return std::nullopt;
  if (least_loaded) return refs[least_loaded->least()];  // a down context is never the least loaded
  while (true) {                                         // the next serving one in turn
    const ContextRef ref = refs[run.round_robin[tenant]++ % refs.size()];
    if (run.devices[ref.device]->is_up(ref.slot)) return ref;
  }
}

}  // namespace

void user_done(Run& run, std::size_t tenant, int user, double now) {
  const auto& load = run.scenario.tenants[tenant].load;
  auto& source = run.sources[tenant];
  source.push_user(now + exponential(*source.rng, load.think_time_s), user);
  run.loop->notify(run.source_actor(tenant));
}

void fail_request(Run& run, std::size_t tenant, const Request& request) {
  auto& info = run.tenants[tenant];
  if (measured(info, request)) {
    ++info.stats->num_failed;
    ++info.stats->sla_violations;
  }
  // Its user learns of the failure and tries again after a back-off (a client without think time
  // would otherwise retry in a loop at one instant while nothing serves).
  if (request.user >= 0) user_done(run, tenant, request.user, run.loop->now() + kFailureBackoffS);
}

void arrive(Run& run, std::size_t tenant, const Request& request) {
  const double now = run.loop->now();
  auto& info = run.tenants[tenant];
  const auto& refs = run.contexts_of[tenant];
  if (refs.empty()) {
    if (measured(info, request)) {
      ++info.stats->num_dropped;
      ++info.stats->sla_violations;
    }
    return;
  }
  const auto ref = route(run, tenant);
  if (!ref) {
    if (run.ops->settings.spec.max_retries > 0) {
      run.held[tenant].push_back(request);
    } else {
      fail_request(run, tenant, request);
    }
    return;
  }
  auto& device = *run.devices[ref->device];
  device.advance(now);
  device.arrive(ref->slot, request, now);
  device.recompute_rates();
  run.loop->notify(ref->device);
}

namespace {

/// A new request from a source: counted as arrived when measured, then routed.
void send(Run& run, std::size_t tenant, const Request& request) {
  if (measured(run.tenants[tenant], request)) ++run.tenants[tenant].stats->num_arrived;
  arrive(run, tenant, request);
}

void source_finished(Run& run, std::size_t tenant) {
  run.loop->finish(run.source_actor(tenant));
  if (--run.sources_running > 0) return;
  if (run.ops_running) {
    run.loop->notify(run.ops_actor());  // it ends now unless requests wait for a context
    return;
  }
  for (std::size_t d = 0; d < run.devices.size(); ++d) run.loop->notify(d);
}

/// An open-loop source: sends the request it holds, then every next one due by now, and sleeps
/// until the one after (the first run only fetches).
void open_loop_step(Run& run, std::size_t tenant) {
  auto& source = run.sources[tenant];
  auto& loop = *run.loop;
  try {
    if (source.started) send(run, tenant, Request{source.record, -1, 0.0, 0.0, false, 0});
    source.started = true;
    while (source.stream->next(source.record) && source.record.arrived_at_s < run.horizon_s) {
      if (source.record.arrived_at_s > loop.now()) {
        loop.wake_at(run.source_actor(tenant), wake_time(loop.now(), source.record.arrived_at_s));
        return;
      }
      send(run, tenant, Request{source.record, -1, 0.0, 0.0, false, 0});
    }
  } catch (const Error&) {
    // Keep it, stop every source at this instant, rethrow after the run.
    if (!run.source_error) run.source_error = std::current_exception();
    run.horizon_s = loop.now();
  }
  source_finished(run, tenant);
}

/// A closed-loop source: sends a request for each user whose think time is over, then sleeps
/// until the next one's is (a reply wakes it sooner) or the horizon.
void closed_loop_step(Run& run, std::size_t tenant) {
  auto& source = run.sources[tenant];
  auto& users = source.users;
  auto& loop = *run.loop;
  const std::size_t self = run.source_actor(tenant);
  while (true) {
    const double now = loop.now();
    if (now >= run.horizon_s) break;
    if (users.empty()) {  // every user awaits a reply
      loop.wake_at(self, wake_time(now, run.horizon_s));
      return;
    }
    const auto [at, user] = users.front();
    if (at > now) {
      loop.wake_at(self, wake_time(now, std::min(at, run.horizon_s)));
      return;
    }
    std::pop_heap(users.begin(), users.end(), std::greater<>());
    users.pop_back();
    traces::RequestRecord record = source.shape;
    record.arrived_at_s = now;
    if (run.scenario.tenants[tenant].workload.service_dist == scenario::ServiceDistribution::exponential) {
      record.work_scale = exponential(*source.rng, 1.0);
    }
    send(run, tenant, Request{record, user, 0.0, 0.0, false, 0});
  }
  source_finished(run, tenant);
}

/// A device: moves to now, finishes what is due, and sleeps until its next completion (an
/// arrival wakes it sooner); done at the stop time, or once the sources are and it is idle.
void device_step(Run& run, std::size_t index) {
  auto& device = *run.devices[index];
  auto& loop = *run.loop;
  const double now = loop.now();
  device.advance(now);
  if (device.complete_due(now) || device.time_driven()) device.recompute_rates();
  ++run.events;
  if (now >= run.stop_s || (run.arrivals_over() && device.idle())) {
    loop.finish(index);
    return;
  }
  double next = std::min(device.next_completion(now), run.stop_s);
  if (next == kNever) {
    loop.wait(index);
    return;
  }
  if (next <= now) next = std::nextafter(now, kNever);
  loop.wake_at(index, wake_time(now, next));
}

void step(Run& run, std::size_t actor) {
  if (actor < run.devices.size()) {
    device_step(run, actor);
    return;
  }
  if (actor == run.ops_actor()) {
    operations_step(run);
    return;
  }
  const std::size_t tenant = actor - run.devices.size();
  if (run.sources[tenant].closed_loop()) {
    closed_loop_step(run, tenant);
  } else {
    open_loop_step(run, tenant);
  }
}

/// The scheduler actor: runs the event loop to its end. With a progress monitor it lets SimGrid
/// catch up with the loop's clock about every `sync_s`, so that the monitor sees the run advance.
void scheduler(Run* run, double sync_s) {
  auto& loop = *run->loop;
  double next_sync = sync_s;
  while (const auto actor = loop.next()) {
    if (loop.now() >= next_sync) {
      sg4::this_actor::sleep_until(loop.now());
      next_sync = loop.now() + sync_s;
    }
    step(*run, *actor);
    if (run->request_slots > run->max_request_slots) {
      run->overflow_s = loop.now();  // the run stops here and fails (overload_error)
      break;
    }
  }
  sg4::this_actor::sleep_until(loop.now());
}

void monitor(const RunOptions* options, double horizon_s, double interval_s) {
  sg4::Actor::self()->daemonize();
  while (true) {
    options->progress(std::min(sg4::Engine::get_clock(), horizon_s), horizon_s);
    sg4::this_actor::sleep_for(interval_s);
  }
}

}  // namespace

std::vector<FleetGpu> expand_fleet(const Scenario& scenario, const scenario::Catalogs& catalogs) {
  std::vector<FleetGpu> ids;
  std::optional<pricing::PriceTable> table;
  for (const auto& entry : scenario.fleet) {
    const std::string gpu = scenario::fleet_gpu_id(entry, scenario, catalogs);
    SW_CHECK(!gpu.empty(), "fleet entry without a GPU (validate first)");
    int per_unit = 1;
    if (!entry.instance_type.empty()) {
      if (!table) table = scenario::resolve_price_table(scenario, catalogs);
      const auto* row = table->find(entry.instance_type, scenario.pricing.region);
      SW_CHECK(row != nullptr, "instance " + entry.instance_type + " not priced (validate first)");
      per_unit = row->num_gpus;
    }
    for (int i = 0; i < entry.count * per_unit; ++i) {
      ids.push_back(FleetGpu{gpu, entry.tenants, static_cast<std::size_t>(i),
                             entry.instance_type.empty() ? std::size_t{8} : static_cast<std::size_t>(per_unit)});
    }
  }
  return ids;
}

namespace {

void start_actors(Run& run, const RunOptions& options) {
  const Scenario& scenario = run.scenario;
  const std::size_t num_tenants = scenario.tenants.size();
  const std::size_t num_actors = run.devices.size() + num_tenants + (run.ops ? 1 : 0);
  run.loop.emplace(num_actors);
  run.sources.resize(num_tenants);
  for (std::size_t t = 0; t < num_tenants; ++t) {
    const auto& tenant = scenario.tenants[t];
    const auto& load = tenant.load;
    ++run.sources_running;
    if (load.kind == LoadKind::closed_loop) {
      for (int u = 0; u < load.num_users; ++u) run.sources[t].push_user(0.0, u);
      run.sources[t].shape = typical_request(tenant);
      run.sources[t].rng = std::make_unique<std::mt19937_64>(scenario.seed * 0x9E3779B97F4A7C15ULL + 2 * t + 1);
    } else {
      run.sources[t].stream = open_loop_source_of(scenario, t);
    }
  }
  run.ops_running = run.ops.has_value();
  for (std::size_t actor = 0; actor < num_actors; ++actor) run.loop->notify(actor);
  auto* frontend = sg4::Host::by_name("frontend");
  double sync_s = kNever;
  if (options.progress) {
    // Progress counts to the horizon, where arrivals end: the drain after it (up to stop_s) is
    // short when the fleet keeps up, so a run that ends soon after the horizon ends near 100 %
    // instead of jumping from 50 % (drain_factor 2) to done.
    sync_s = options.progress_interval_s > 0.0 ? options.progress_interval_s : run.horizon_s / 100.0;
    sg4::Actor::create("monitor", frontend, monitor, &options, run.horizon_s, sync_s);
  }
  sg4::Actor::create("scheduler", frontend, scheduler, &run, sync_s);
}

/// A time of the run to the tenth of a second.
std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", seconds);
  return text;
}

/// The error of a run whose requests in the system outgrew RunOptions::max_requests_in_system: it
/// names the tenant with the most of them, and what bounds them.
ConfigError overload_error(const Run& run) {
  std::vector<std::int64_t> in_system(run.scenario.tenants.size(), 0);
  for (const auto& device : run.devices) device->count_in_system(in_system);
  const auto worst = static_cast<std::size_t>(std::max_element(in_system.begin(), in_system.end()) - in_system.begin());
  const auto& tenant = run.scenario.tenants[worst];
  return ConfigError(
      run.scenario.source_file.string(), "/tenants/" + std::to_string(worst) + "/overload",
      "tenant " + quoted_excerpt(tenant.name) + " had " + std::to_string(in_system[worst]) +
          " requests waiting or in service at " + seconds_text(*run.overflow_s) + " s, and the run " +
          std::to_string(run.request_slots) + " in all, more than a run may hold (" +
          std::to_string(run.max_request_slots) +
          "): its load outruns its contexts and nothing sheds it (queue_limit " +
          std::to_string(scenario::queue_limit(tenant)) + ", timeout_s " + format_number(scenario::timeout_s(tenant)) +
          "; 0 is none). Set a smaller overload.queue_limit or timeout_s, or give it more contexts (docs/overload.md)");
}

/// The operations actor's state for a run with faults or a layout schedule.
void start_operations(Run& run, const scenario::StrategySpec& strategy, const PlacedRun& placed) {
  std::vector<PhasePlacement> phases;
  for (std::size_t p = 0; p < placed.phases.size(); ++p) phases.push_back({&placed.phases[p], placed.day_fracs[p]});
  if (phases.empty()) phases.push_back({&placed.placement, 1.0});  // no schedule: the one placement, all day
  init_operations(run, strategy.kind, placed.phase_of_device, placed.phase_names,
                  strategy.layout_schedule ? &*strategy.layout_schedule : nullptr, phases);
}

}  // namespace

scenario::SimResult run_simulation(const Scenario& scenario, const RunOptions& options) {
  SW_CHECK(options.strategy_index >= 0 && options.strategy_index < static_cast<int>(scenario.strategies.size()),
           "strategy index out of range");
  const auto catalogs = scenario::Catalogs::shipped();
  std::vector<double> balance_loads;
  const std::optional<Scenario> sized_scenario = sized_run_scenario(scenario, options, catalogs, balance_loads);
  const Scenario& simulated = sized_scenario ? *sized_scenario : scenario;
  const auto& strategy = simulated.strategies[static_cast<std::size_t>(options.strategy_index)];
  const auto fleet = expand_fleet(simulated, catalogs);
  const PlacedRun placed = place_run(simulated, strategy, fleet, catalogs, options, balance_loads);
  const Placement& placement = placed.placement;

  Run run(simulated);
  run.horizon_s = simulated.horizon_s;
  run.stop_s = simulated.horizon_s * std::max(1.0, options.drain_factor);
  const auto num_intervals = static_cast<std::size_t>(std::ceil(simulated.horizon_s / simulated.metrics_interval_s));
  init_tenants(run, fleet, catalogs, num_intervals);
  build_devices(run, placement, num_intervals);
  if (simulated.faults || strategy.layout_schedule) start_operations(run, strategy, placed);

  int argc = 2;
  char arg0[] = "slicewise";
  char arg1[] = "--log=root.thres:critical";
  char* argv[] = {arg0, arg1, nullptr};
  sg4::Engine engine(&argc, argv);
  std::vector<DeviceSpec> hosts;
  for (const auto& device : placement.devices) hosts.push_back({device.name});
  hosts.push_back({"frontend"});
  build_platform(hosts);
  start_actors(run, options);
  run.max_request_slots = options.max_requests_in_system;
  engine.run();
  if (run.source_error) std::rethrow_exception(run.source_error);
  if (run.overflow_s) throw overload_error(run);
  const double end_s = run.loop->now();
  if (options.progress) options.progress(std::max(end_s, run.horizon_s), run.horizon_s);

  scenario::SimResult result;
  result.scenario = scenario.name;
  result.input = scenario;
  result.seed = scenario.seed;
  result.horizon_s = scenario.horizon_s;
  scenario::StrategyResult out;
  out.name = strategy.name;
  out.kind = models::to_string(strategy.kind);
  out.num_gpus_used = placement.num_gpus_used;
  out.issues = placement.issues;
  out.simulated_s = end_s;
  out.num_events = run.events;
  if (run.ops) close_operations(run, end_s);
  tenant_results(simulated, placement, run.devices, run.stats, out);
  device_results(simulated, run.devices, run.stats, out);
  if (strategy.layout_schedule) count_phase_contexts(placed, out);
  if (run.ops) operations_results(run, out);
  // Energy from the utilisation just recorded (docs/energy.md: why not SimGrid's energy plugin).
  std::vector<std::string> fleet_ids;
  fleet_ids.reserve(fleet.size());
  for (const auto& gpu : fleet) fleet_ids.push_back(gpu.id);
  out.energy = scenario::strategy_energy(out, fleet_ids, simulated.horizon_s, *catalogs.gpus);
  result.strategies.push_back(std::move(out));
  return result;
}

}  // namespace slicewise::sim
