// The SimGrid side of a run: one manager actor per device that sleeps until its next completion
// or an arrival, one source actor per tenant replaying its load, and a monitor for progress.
#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <random>

#include <simgrid/s4u.hpp>

#include "core/error.hpp"
#include "sim/device_state.hpp"
#include "sim/load_source.hpp"
#include "sim/platform.hpp"
#include "sim/run_results.hpp"
#include "sim/simulation.hpp"

namespace sg4 = simgrid::s4u;

namespace slicewise::sim {

using scenario::LoadKind;
using scenario::Scenario;

namespace {

struct ContextRef {
  std::size_t device = 0;
  std::size_t slot = 0;
};

/// Closed-loop users of one tenant waiting to send their next request.
struct UserQueue {
  std::vector<std::pair<double, int>> heap;  ///< (send time, user), min-heap
  sg4::ConditionVariablePtr cv = sg4::ConditionVariable::create();
  sg4::MutexPtr mutex = sg4::Mutex::create();
  void push(double at, int user) {
    heap.emplace_back(at, user);
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
  }
};

/// Wakes a sleeping device manager. A semaphore is one simcall per wait, where a condition variable
/// needs a second one to take its mutex back; `pending` keeps a burst of arrivals at one instant
/// from queueing several wake-ups.
struct DeviceWake {
  sg4::SemaphorePtr semaphore = sg4::Semaphore::create(0);
  bool pending = false;
  void notify() {
    if (pending) return;
    pending = true;
    semaphore->release();
  }
  /// Sleeps until notified or until `until` (kNever: no timeout).
  void wait(double now, double until) {
    if (until == kNever) {
      semaphore->acquire();
    } else {
      semaphore->acquire_timeout(until - now);
    }
    if (pending) {
      pending = false;
      // A release and a timeout at the same instant leave a token: take it so it wakes no one later.
      if (!semaphore->would_block()) semaphore->acquire();
    }
  }
};

/// Everything a run shares between its actors (single-threaded: actors never run concurrently).
struct Run {
  explicit Run(const Scenario& s) : scenario(s) {}
  const Scenario& scenario;
  double horizon_s = 0.0;
  double stop_s = 0.0;
  std::vector<WorkloadShape> shapes;
  std::vector<TenantStats> stats;
  std::vector<TenantInfo> tenants;
  std::vector<std::unique_ptr<DeviceState>> devices;
  std::vector<DeviceWake> wakes;
  std::vector<std::vector<ContextRef>> contexts_of;  ///< per tenant
  std::vector<std::size_t> round_robin;
  std::vector<std::unique_ptr<UserQueue>> users;  ///< per tenant; null unless closed loop
  std::vector<std::mt19937_64> rng;               ///< per tenant: think times
  int sources_running = 0;
  std::int64_t events = 0;
  std::exception_ptr source_error;  ///< a bad trace row met during the run, rethrown after it
};

double exponential(std::mt19937_64& rng, double mean) {
  return mean <= 0.0 ? 0.0 : -mean * std::log1p(-traces::unit_interval(rng()));
}

void arrive(Run& run, std::size_t tenant, const Request& request) {
  const double now = sg4::Engine::get_clock();
  auto& info = run.tenants[tenant];
  const bool measured = request.record.arrived_at_s >= info.warmup_s;
  if (measured) ++info.stats->num_arrived;
  const auto& refs = run.contexts_of[tenant];
  if (refs.empty()) {
    if (measured) {
      ++info.stats->num_dropped;
      ++info.stats->sla_violations;
    }
    return;
  }
  ContextRef ref;
  if (run.scenario.tenants[tenant].router == scenario::RouterPolicy::least_loaded) {
    ref = *std::min_element(refs.begin(), refs.end(), [&](const ContextRef& a, const ContextRef& b) {
      return run.devices[a.device]->load_of(a.slot) < run.devices[b.device]->load_of(b.slot);
    });
  } else {
    ref = refs[run.round_robin[tenant]++ % refs.size()];
  }
  auto& device = *run.devices[ref.device];
  device.advance(now);
  device.arrive(ref.slot, request, now);
  device.recompute_rates();
  run.wakes[ref.device].notify();
}

void source_finished(Run& run) {
  if (--run.sources_running == 0) {
    for (auto& wake : run.wakes) wake.notify();
  }
}

void open_loop_source(Run* run, std::size_t tenant, const std::shared_ptr<traces::RequestSource>& source) {
  traces::RequestRecord record;
  try {
    while (source->next(record) && record.arrived_at_s < run->horizon_s) {
      sg4::this_actor::sleep_until(record.arrived_at_s);
      arrive(*run, tenant, Request{record, -1, 0.0, 0.0, false});
    }
  } catch (const Error&) {
    // An exception must not unwind through SimGrid: keep it, stop every source, rethrow after run().
    if (!run->source_error) run->source_error = std::current_exception();
    run->horizon_s = sg4::Engine::get_clock();
  }
  source_finished(*run);
}

void closed_loop_source(Run* run, std::size_t tenant, traces::RequestRecord shape) {
  auto& queue = *run->users[tenant];
  std::unique_lock lock(*queue.mutex);
  while (true) {
    const double now = sg4::Engine::get_clock();
    if (now >= run->horizon_s) break;
    if (queue.heap.empty()) {  // every user awaits a reply
      queue.cv->wait_until(lock, run->horizon_s);
      continue;
    }
    const auto [at, user] = queue.heap.front();
    if (at > now) {
      queue.cv->wait_until(lock, std::min(at, run->horizon_s));
      continue;
    }
    std::pop_heap(queue.heap.begin(), queue.heap.end(), std::greater<>());
    queue.heap.pop_back();
    traces::RequestRecord record = shape;
    record.arrived_at_s = now;
    if (run->scenario.tenants[tenant].workload.service_dist == scenario::ServiceDistribution::exponential) {
      record.work_scale = exponential(run->rng[tenant], 1.0);
    }
    arrive(*run, tenant, Request{record, user, 0.0, 0.0, false});
  }
  source_finished(*run);
}

void device_manager(Run* run, std::size_t index) {
  auto& device = *run->devices[index];
  auto& wake = run->wakes[index];
  while (true) {
    const double now = sg4::Engine::get_clock();
    device.advance(now);
    if (device.complete_due(now) || device.time_driven()) device.recompute_rates();
    ++run->events;
    if (now >= run->stop_s || (run->sources_running == 0 && device.idle())) break;
    double next = std::min(device.next_completion(now), run->stop_s);
    if (next != kNever && next <= now) next = std::nextafter(now, kNever);
    wake.wait(now, next);
  }
}

void monitor(const RunOptions* options, double stop_s, double interval_s) {
  sg4::Actor::self()->daemonize();
  while (true) {
    options->progress(sg4::Engine::get_clock(), stop_s);
    sg4::this_actor::sleep_for(interval_s);
  }
}

}  // namespace

std::vector<std::string> expand_fleet(const Scenario& scenario, const scenario::Catalogs& catalogs) {
  std::vector<std::string> ids;
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
    for (int i = 0; i < entry.count * per_unit; ++i) ids.push_back(gpu);
  }
  return ids;
}

namespace {

/// Each tenant's workload shape (on its reference GPU), statistics and per-request constants.
void init_tenants(Run& run, const std::vector<std::string>& fleet, const scenario::Catalogs& catalogs,
                  std::size_t num_intervals) {
  const Scenario& scenario = run.scenario;
  const std::size_t num_tenants = scenario.tenants.size();
  run.shapes.reserve(num_tenants);  // TenantInfo points into it
  run.stats.resize(num_tenants);
  for (std::size_t t = 0; t < num_tenants; ++t) {
    const auto& tenant = scenario.tenants[t];
    const std::string ref_id = tenant.workload.reference_gpu.empty() ? fleet.front() : tenant.workload.reference_gpu;
    const auto* ref = catalogs.gpus->find(ref_id);
    SW_CHECK(ref != nullptr, "reference GPU " + ref_id + " unknown (validate first)");
    run.shapes.push_back(make_workload_shape(tenant.workload, *ref));
    run.stats[t].queue_length_integral.assign(num_intervals, 0.0);
    TenantInfo info;
    info.shape = &run.shapes.back();
    bool in_sms = false;
    const double compute = compute_capacity(*ref, in_sms);
    info.ref_tflops = in_sms ? 0.0 : compute;
    info.ref_sms = ref->num_sms;
    info.ref_bandwidth_gbps = ref->memory_bandwidth_gbps;
    info.max_concurrency = tenant.workload.max_concurrency;
    info.warmup_s = scenario.warmup_s;
    info.sla_latency_s = tenant.sla.latency_s;
    info.sla_ttft_s = tenant.sla.ttft_s;
    info.sla_tpot_s = tenant.sla.tpot_s;
    info.stats = &run.stats[t];
    run.tenants.push_back(info);
    run.rng.emplace_back(scenario.seed * 0x9E3779B97F4A7C15ULL + 2 * t + 1);
  }
}

/// One DeviceState per placed device, and each tenant's contexts in replica order (so that
/// round-robin is the same whatever the packing).
void build_devices(Run& run, const Placement& placement, std::size_t num_intervals) {
  const Scenario& scenario = run.scenario;
  const std::size_t num_tenants = scenario.tenants.size();
  run.contexts_of.resize(num_tenants);
  run.round_robin.assign(num_tenants, 0);
  run.users.resize(num_tenants);
  for (std::size_t d = 0; d < placement.devices.size(); ++d) {
    // Each device draws its sharing variance from a stream of its own (the tenants' are seed·φ + odd).
    const std::uint64_t device_seed = scenario.seed * 0xBF58476D1CE4E5B9ULL + 2 * static_cast<std::uint64_t>(d);
    run.devices.push_back(std::make_unique<DeviceState>(placement.devices[d], run.tenants, scenario.metrics_interval_s,
                                                        num_intervals, scenario.horizon_s, device_seed));
    run.wakes.emplace_back();
    for (std::size_t slot = 0; slot < placement.devices[d].contexts.size(); ++slot) {
      run.contexts_of[placement.devices[d].contexts[slot].tenant].push_back({d, slot});
    }
    run.devices.back()->on_complete = [&run](std::size_t tenant, int user, double now) {
      auto& queue = run.users[tenant];
      if (!queue || user < 0) return;
      const auto& load = run.scenario.tenants[tenant].load;
      queue->push(now + exponential(run.rng[tenant], load.think_time_s), user);
      queue->cv->notify_one();
    };
  }
  for (auto& refs : run.contexts_of) {
    std::sort(refs.begin(), refs.end(), [&](const ContextRef& a, const ContextRef& b) {
      const auto& ca = placement.devices[a.device].contexts[a.slot];
      const auto& cb = placement.devices[b.device].contexts[b.slot];
      return ca.replica < cb.replica;
    });
  }
}

/// A manager actor per device, a source actor per tenant, and the progress monitor.
void start_actors(Run& run, const Placement& placement, const RunOptions& options) {
  const Scenario& scenario = run.scenario;
  for (std::size_t d = 0; d < run.devices.size(); ++d) {
    sg4::Actor::create("device-" + placement.devices[d].name, sg4::Host::by_name(placement.devices[d].name),
                       device_manager, &run, d);
  }
  auto* frontend = sg4::Host::by_name("frontend");
  for (std::size_t t = 0; t < scenario.tenants.size(); ++t) {
    const auto& tenant = scenario.tenants[t];
    const auto& load = tenant.load;
    ++run.sources_running;
    if (load.kind == LoadKind::closed_loop) {
      run.users[t] = std::make_unique<UserQueue>();
      for (int u = 0; u < load.num_users; ++u) run.users[t]->push(0.0, u);
      sg4::Actor::create("source-" + tenant.name, frontend, closed_loop_source, &run, t, typical_request(tenant));
    } else {
      sg4::Actor::create("source-" + tenant.name, frontend, open_loop_source, &run, t,
                         open_loop_source_of(scenario, t));
    }
  }
  if (options.progress) {
    const double interval = options.progress_interval_s > 0.0 ? options.progress_interval_s : run.stop_s / 100.0;
    sg4::Actor::create("monitor", frontend, monitor, &options, run.stop_s, interval);
  }
}

}  // namespace

scenario::SimResult run_simulation(const Scenario& scenario, const RunOptions& options) {
  SW_CHECK(options.strategy_index >= 0 && options.strategy_index < static_cast<int>(scenario.strategies.size()),
           "strategy index out of range");
  const auto catalogs = scenario::Catalogs::shipped();
  // A sized run: the scenario with the search's contexts, on its fleet's GPUs.
  std::optional<Scenario> sized_scenario;
  std::vector<double> balance_loads;
  if (options.sized) {
    const auto& sized = *options.sized;
    SW_CHECK(sized.num_gpus >= 1 && sized.contexts.size() == scenario.tenants.size(), "malformed sized run");
    sized_scenario = scenario;
    const std::string gpu = scenario::fleet_gpu_id(scenario.fleet.front(), scenario, catalogs);
    sized_scenario->fleet = {scenario::FleetEntry{gpu, "", sized.num_gpus}};
    for (std::size_t t = 0; t < scenario.tenants.size(); ++t)
      sized_scenario->tenants[t].num_contexts = sized.contexts[t];
    if (sized.balance) {
      balance_loads =
          sized.context_load.empty() ? std::vector<double>(scenario.tenants.size(), 1.0) : sized.context_load;
    }
  }
  const Scenario& simulated = sized_scenario ? *sized_scenario : scenario;
  const auto& strategy = simulated.strategies[static_cast<std::size_t>(options.strategy_index)];
  const auto fleet = expand_fleet(simulated, catalogs);
  const Placement placement = place_contexts(simulated, strategy, fleet, *catalogs.gpus, *catalogs.mig,
                                             options.defaults, balance_loads.empty() ? nullptr : &balance_loads);

  Run run(simulated);
  run.horizon_s = simulated.horizon_s;
  run.stop_s = simulated.horizon_s * std::max(1.0, options.drain_factor);
  const auto num_intervals = static_cast<std::size_t>(std::ceil(simulated.horizon_s / simulated.metrics_interval_s));
  init_tenants(run, fleet, catalogs, num_intervals);

  int argc = 2;
  char arg0[] = "slicewise";
  char arg1[] = "--log=root.thres:critical";
  char* argv[] = {arg0, arg1, nullptr};
  sg4::Engine engine(&argc, argv);
  std::vector<DeviceSpec> hosts;
  for (const auto& device : placement.devices) hosts.push_back({device.name});
  hosts.push_back({"frontend"});
  build_platform(hosts);
  build_devices(run, placement, num_intervals);
  start_actors(run, placement, options);
  engine.run();
  if (run.source_error) std::rethrow_exception(run.source_error);
  const double end_s = sg4::Engine::get_clock();
  if (options.progress) options.progress(end_s, run.stop_s);

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
  tenant_results(simulated, placement, run.devices, run.stats, out);
  device_results(simulated, run.devices, run.stats, out);
  result.strategies.push_back(std::move(out));
  return result;
}

}  // namespace slicewise::sim
