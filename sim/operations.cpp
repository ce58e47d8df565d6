// Faults and the MIG layout schedule during a run (docs/faults.md, docs/mig-schedule.md). The
// operations actor of the event loop keeps a timeline of faults, re-partitions and recoveries;
// at each it takes contexts down (their requests are re-sent or fail) and brings them up, and turns
// the devices' SimGrid hosts off and on, so that SimGrid's platform follows the GPUs' state and its
// clock measures how long each was off.
#include <algorithm>
#include <cmath>
#include <set>

#include <simgrid/s4u.hpp>

#include "scenario/enum_tables.hpp"
#include "scenario/strategies/policy.hpp"
#include "sim/run_state.hpp"

namespace sg4 = simgrid::s4u;

namespace slicewise::sim {

using scenario::FaultKind;

namespace {

/// The run whose hosts the state signal reports on (one run per process).
Operations* g_ops = nullptr;

void on_host_state(const sg4::Host& host) {
  if (!g_ops) return;
  const auto it = g_ops->host_index.find(host.get_name());
  if (it == g_ops->host_index.end()) return;
  const double now = sg4::Engine::get_clock();
  if (host.is_on()) {
    g_ops->host_down_s[it->second] += now - g_ops->host_off_since[it->second];
  } else {
    g_ops->host_off_since[it->second] = now;
  }
}

bool later(const OpsEvent& a, const OpsEvent& b) { return a.at_s > b.at_s || (a.at_s == b.at_s && a.order > b.order); }

void push_event(Operations& ops, OpsEvent event) {
  event.order = ops.next_order++;
  ops.timeline.push_back(event);
  std::push_heap(ops.timeline.begin(), ops.timeline.end(), later);
}

OpsEvent pop_event(Operations& ops) {
  std::pop_heap(ops.timeline.begin(), ops.timeline.end(), later);
  const OpsEvent event = ops.timeline.back();
  ops.timeline.pop_back();
  return event;
}

/// The part of [from, to) inside the measured window [warm-up, horizon).
double measured_overlap(const Run& run, double from, double to) {
  return std::max(0.0, std::min(to, run.horizon_s) - std::max(from, run.scenario.warmup_s));
}

std::string context_name(const Run& run, std::size_t device, std::size_t slot) {
  const auto& c = run.devices[device]->placed().contexts[slot];
  return run.scenario.tenants[c.tenant].name + "#" + std::to_string(c.replica);
}

/// What one timeline step changed: requests that lost their context, tenants that got one back,
/// contexts taken down.
struct Changes {
  std::vector<std::pair<std::size_t, Request>> lost;  ///< (tenant, request)
  std::vector<std::size_t> came_up;                   ///< tenants whose first context came up
  std::vector<ContextRef> hit;                        ///< contexts taken down
};

void context_down(Run& run, const ContextRef& ref, Changes& changes) {
  auto& device = *run.devices[ref.device];
  const double now = run.loop->now();
  const std::size_t tenant = device.placed().contexts[ref.slot].tenant;
  device.advance(now);
  for (const auto& request : device.take_down(ref.slot)) changes.lost.emplace_back(tenant, request);
  device.recompute_rates();
  run.loop->notify(ref.device);
  if (--run.up_count[tenant] == 0) run.down_since[tenant] = now;
  changes.hit.push_back(ref);
}

void context_up(Run& run, const ContextRef& ref, Changes& changes) {
  auto& device = *run.devices[ref.device];
  const std::size_t tenant = device.placed().contexts[ref.slot].tenant;
  device.bring_up(ref.slot);
  if (run.up_count[tenant]++ == 0) {
    run.stats[tenant].downtime_s += measured_overlap(run, run.down_since[tenant], run.loop->now());
    changes.came_up.push_back(tenant);
  }
}

void set_host(Operations& ops, std::size_t device, const std::string& name, bool on) {
  if (ops.host_on[device] == on) return;
  ops.host_on[device] = on;
  auto* host = sg4::Host::by_name(name);
  if (on) {
    host->turn_on();
  } else {
    host->turn_off();
  }
}

/// Counts the time device `d`'s layout phase is not in force (another phase, or re-partitioning):
/// its host is off then, but that is the schedule, not an outage.
void set_in_phase(Operations& ops, std::size_t d, bool in_phase, double now) {
  if (ops.in_phase[d] == in_phase) return;
  ops.in_phase[d] = in_phase;
  if (in_phase) {
    ops.out_of_phase_s[d] += now - ops.out_of_phase_since[d];
  } else {
    ops.out_of_phase_since[d] = now;
  }
}

/// Brings every context of GPU `gpu` to the state its phase, the GPU's and its own recovery say.
void reconcile(Run& run, std::size_t gpu, Changes& changes) {
  auto& ops = *run.ops;
  const double now = run.loop->now();
  for (const std::size_t d : ops.gpu_devices[gpu]) {
    const bool phase_ok = ops.device_phase[d] < 0 || ops.device_phase[d] == ops.gpu_phase[gpu];
    auto& device = *run.devices[d];
    // A tensor-parallel group serves only while every one of its GPUs does.
    bool gpu_ok = true;
    for (std::size_t g = device.placed().gpu_index; g < gpu_end(device.placed()); ++g) {
      gpu_ok = gpu_ok && now >= ops.gpu_down_until[g];
    }
    set_in_phase(ops, d, phase_ok, now);
    set_host(ops, d, device.placed().name, phase_ok && gpu_ok);
    for (std::size_t slot = 0; slot < device.placed().contexts.size(); ++slot) {
      const bool want = phase_ok && gpu_ok && now >= ops.context_down_until[d][slot];
      if (device.is_up(slot) && !want) context_down(run, {d, slot}, changes);
      if (!device.is_up(slot) && want) context_up(run, {d, slot}, changes);
    }
  }
}

/// The serving context (tenant, replica) of the phase in force, if any.
std::optional<ContextRef> find_context(const Run& run, std::size_t tenant, int replica) {
  for (const auto& ref : run.contexts_of[tenant]) {
    const auto& device = *run.devices[ref.device];
    if (device.placed().contexts[ref.slot].replica == replica && device.is_up(ref.slot)) return ref;
  }
  return std::nullopt;
}

/// The contexts a crash of `origin` takes down under the strategy (docs/faults.md).
std::vector<ContextRef> crash_targets(Run& run, const ContextRef& origin) {
  auto& ops = *run.ops;
  std::vector<ContextRef> targets{origin};
  const auto& policy = scenario::policy_of(ops.kind);
  const double co_kill = ops.settings.spec.co_tenant_kill_frac;
  const std::size_t gpu = run.devices[origin.device]->placed().gpu_index;
  for (const std::size_t d : ops.gpu_devices[gpu]) {
    const auto& device = *run.devices[d];
    for (std::size_t slot = 0; slot < device.placed().contexts.size(); ++slot) {
      if ((d == origin.device && slot == origin.slot) || !device.is_up(slot)) continue;
      // Every device listed shares the origin's GPU.
      const double chance = policy.crash_kill_chance(d == origin.device, true, co_kill);
      if (chance >= 1.0 || (chance > 0.0 && traces::unit_interval(ops.rng()) < chance)) targets.push_back({d, slot});
    }
  }
  return targets;
}

/// Every serving context of GPU `gpu` restarts, serving again at `until`.
void restart_contexts(Run& run, std::size_t gpu, double until) {
  auto& ops = *run.ops;
  for (const std::size_t d : ops.gpu_devices[gpu]) {
    for (std::size_t slot = 0; slot < run.devices[d]->placed().contexts.size(); ++slot) {
      if (run.devices[d]->is_up(slot)) {
        ops.context_down_until[d][slot] = std::max(ops.context_down_until[d][slot], until);
      }
    }
  }
}

/// A fault strikes now; returns its record (what it hit is filled in by the caller).
scenario::FaultEvent strike(Run& run, const PlannedFault& fault, Changes& changes) {
  auto& ops = *run.ops;
  const double now = run.loop->now();
  scenario::FaultEvent event;
  event.at_s = now;
  event.kind = scenario::name_of(scenario::fault_kind_table(), fault.kind);
  event.scheduled = fault.scheduled;
  event.outage_s = outage_s(ops.settings.spec, fault.kind);
  const double until = now + event.outage_s;
  if (fault.kind == FaultKind::tenant_crash) {
    event.origin = run.scenario.tenants[fault.tenant].name + "#" + std::to_string(fault.replica);
    const auto origin = find_context(run, fault.tenant, fault.replica);
    if (!origin) return event;  // that context is not serving now: nothing to crash
    event.gpu_index = static_cast<int>(run.devices[origin->device]->placed().gpu_index);
    for (const auto& ref : crash_targets(run, *origin)) {
      ops.context_down_until[ref.device][ref.slot] = std::max(ops.context_down_until[ref.device][ref.slot], until);
    }
  } else {
    event.gpu_index = static_cast<int>(fault.gpu);
    if (fault.gpu >= ops.gpu_devices.size()) return event;  // a GPU the strategy does not have
    if (fault.kind == FaultKind::mps_server_fault) {
      if (!scenario::policy_of(ops.kind).has_gpu_server()) return event;  // no MPS server on this GPU
      restart_contexts(run, fault.gpu, until);
    } else {
      ops.gpu_down_until[fault.gpu] = std::max(ops.gpu_down_until[fault.gpu], until);
    }
  }
  reconcile(run, static_cast<std::size_t>(event.gpu_index), changes);
  push_event(ops, OpsEvent{until, 0, OpsEvent::Type::recheck, 0, static_cast<std::size_t>(event.gpu_index)});
  return event;
}

/// Records an event with the contexts it took down; counts an interruption per tenant hit.
void record(Run& run, scenario::FaultEvent event, const Changes& changes, std::size_t first_hit) {
  std::set<std::size_t> tenants;
  for (std::size_t i = first_hit; i < changes.hit.size(); ++i) {
    const auto& ref = changes.hit[i];
    event.contexts_hit.push_back(context_name(run, ref.device, ref.slot));
    tenants.insert(run.devices[ref.device]->placed().contexts[ref.slot].tenant);
  }
  event.tenants_hit = static_cast<int>(tenants.size());
  if (event.at_s >= run.scenario.warmup_s && event.at_s < run.horizon_s) {
    for (const std::size_t t : tenants) ++run.stats[t].num_interruptions;
  }
  run.ops->record.events.push_back(std::move(event));
}

void process(Run& run, const OpsEvent& event, Changes& changes) {
  auto& ops = *run.ops;
  const std::size_t first_hit = changes.hit.size();
  switch (event.type) {
    case OpsEvent::Type::fault: {
      auto fault = strike(run, ops.faults[event.index], changes);
      record(run, std::move(fault), changes, first_hit);
      return;
    }
    case OpsEvent::Type::switch_start: {
      const auto& change = ops.switches[event.index];
      ops.gpu_phase[event.gpu] = -1;
      reconcile(run, event.gpu, changes);
      scenario::FaultEvent repartition;
      repartition.at_s = run.loop->now();
      repartition.kind = "repartition";
      repartition.gpu_index = static_cast<int>(event.gpu);
      repartition.origin = ops.phase_names[change.from] + " -> " + ops.phase_names[change.to];
      repartition.scheduled = true;
      repartition.outage_s = ops.repartition_s;
      record(run, std::move(repartition), changes, first_hit);
      return;
    }
    case OpsEvent::Type::switch_end:
      ops.gpu_phase[event.gpu] = static_cast<int>(ops.switches[event.index].to);
      reconcile(run, event.gpu, changes);
      return;
    case OpsEvent::Type::recheck: reconcile(run, event.gpu, changes); return;
  }
}

/// Requests that lost their context are re-sent while they have retries left, else fail; then
/// the requests held for tenants that got a context back go to it.
void settle(Run& run, Changes& changes) {
  const int max_retries = run.ops->settings.spec.max_retries;
  for (auto& [tenant, request] : changes.lost) {
    if (request.retries >= max_retries) {
      fail_request(run, tenant, request);
      continue;
    }
    ++request.retries;
    if (measured(run.tenants[tenant], request)) ++run.stats[tenant].num_retried;
    arrive(run, tenant, request);
  }
  for (const std::size_t tenant : changes.came_up) {
    std::deque<Request> waiting;
    waiting.swap(run.held[tenant]);
    for (const auto& request : waiting) arrive(run, tenant, request);
  }
}

void finish(Run& run) {
  run.loop->finish(run.ops_actor());
  run.ops_running = false;
  for (std::size_t d = 0; d < run.devices.size(); ++d) run.loop->notify(d);
}

/// Every context serves from time 0 but those of phases not in force.
void start_contexts(Run& run, int first_phase) {
  const auto& ops = *run.ops;
  const std::size_t num_tenants = run.scenario.tenants.size();
  run.up_count.assign(num_tenants, 0);
  run.down_since.assign(num_tenants, 0.0);
  run.held.resize(num_tenants);
  for (std::size_t d = 0; d < run.devices.size(); ++d) {
    auto& device = *run.devices[d];
    const bool in_force = ops.device_phase[d] < 0 || ops.device_phase[d] == first_phase;
    for (std::size_t slot = 0; slot < device.placed().contexts.size(); ++slot) {
      if (in_force) {
        ++run.up_count[device.placed().contexts[slot].tenant];
      } else {
        device.take_down(slot);
      }
    }
  }
}

/// Each switch of the layout on each GPU: all at once, or one GPU after another when rolling.
void plan_switches(Operations& ops, const scenario::LayoutSchedule& schedule, double horizon_s,
                   const std::vector<std::size_t>& gpus) {
  ops.switches = layout_switches(schedule, horizon_s);
  for (std::size_t k = 0; k < ops.switches.size(); ++k) {
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const double offset = schedule.rolling ? static_cast<double>(i) * schedule.repartition_s : 0.0;
      const double start = ops.switches[k].at_s + offset;
      push_event(ops, OpsEvent{start, 0, OpsEvent::Type::switch_start, k, gpus[i]});
      push_event(ops, OpsEvent{start + schedule.repartition_s, 0, OpsEvent::Type::switch_end, k, gpus[i]});
    }
  }
}

}  // namespace

void init_operations(Run& run, models::StrategyKind kind, const std::vector<int>& phase_of_device,
                     const std::vector<std::string>& phase_names, const scenario::LayoutSchedule* schedule,
                     const std::vector<PhasePlacement>& phases) {
  const auto& scenario = run.scenario;
  auto& ops = run.ops.emplace();
  ops.settings = fault_settings(scenario);
  ops.kind = kind;
  ops.phase_names = phase_names;
  ops.device_phase = phase_of_device;
  ops.repartition_s = schedule ? schedule->repartition_s : 0.0;
  ops.rng.seed(scenario.seed * 0xD1B54A32D192ED03ULL + 7);
  std::size_t num_gpus = 0;
  for (const auto& device : run.devices) num_gpus = std::max(num_gpus, gpu_end(device->placed()));
  ops.gpu_devices.resize(num_gpus);
  ops.context_down_until.resize(run.devices.size());
  for (std::size_t d = 0; d < run.devices.size(); ++d) {
    const auto& placed = run.devices[d]->placed();
    for (std::size_t g = placed.gpu_index; g < gpu_end(placed); ++g) ops.gpu_devices[g].push_back(d);
    ops.context_down_until[d].assign(placed.contexts.size(), 0.0);
    ops.host_index[placed.name] = d;
  }
  ops.gpu_down_until.assign(num_gpus, 0.0);
  ops.host_on.assign(run.devices.size(), true);
  ops.host_off_since.assign(run.devices.size(), 0.0);
  ops.host_down_s.assign(run.devices.size(), 0.0);
  ops.in_phase.assign(run.devices.size(), true);
  ops.out_of_phase_since.assign(run.devices.size(), 0.0);
  ops.out_of_phase_s.assign(run.devices.size(), 0.0);
  const int first_phase = schedule ? static_cast<int>(phase_at(*schedule, schedule->start_hour)) : -1;
  ops.gpu_phase.assign(num_gpus, first_phase);

  start_contexts(run, first_phase);

  // The faults: on every GPU with a device, and every (tenant, replica) of any phase.
  std::vector<std::size_t> gpus;
  for (std::size_t g = 0; g < num_gpus; ++g) {
    if (!ops.gpu_devices[g].empty()) gpus.push_back(g);
  }
  std::set<std::pair<std::size_t, int>> identities;
  for (const auto& device : run.devices) {
    for (const auto& c : device->placed().contexts) identities.insert({c.tenant, c.replica});
  }
  ops.faults = plan_faults(ops.settings, kind, scenario, gpus, {identities.begin(), identities.end()});
  for (std::size_t i = 0; i < ops.faults.size(); ++i) {
    push_event(ops, OpsEvent{ops.faults[i].at_s, 0, OpsEvent::Type::fault, i, ops.faults[i].gpu});
  }
  if (schedule) plan_switches(ops, *schedule, scenario.horizon_s, gpus);
  expected_exposure(ops.settings, kind, phases, scenario, ops.record);
}

void operations_step(Run& run) {
  auto& ops = *run.ops;
  auto& loop = *run.loop;
  const double now = loop.now();
  sg4::this_actor::sleep_until(now);  // SimGrid's clock at now, for the hosts it turns off and on
  Changes changes;
  if (!ops.started) {  // time 0: the hosts of the phases not in force go off
    ops.started = true;
    g_ops = &ops;
    sg4::Host::on_state_change_cb(on_host_state);
    for (std::size_t g = 0; g < ops.gpu_devices.size(); ++g) reconcile(run, g, changes);
  }
  while (!ops.timeline.empty() && ops.timeline.front().at_s <= now) process(run, pop_event(ops), changes);
  settle(run, changes);
  const bool holding = std::any_of(run.held.begin(), run.held.end(), [](const auto& h) { return !h.empty(); });
  if ((run.sources_running == 0 && !holding) || ops.timeline.empty() || !(ops.timeline.front().at_s < run.stop_s)) {
    finish(run);
    return;
  }
  loop.wake_at(run.ops_actor(), wake_time(now, ops.timeline.front().at_s));
}

void close_operations(Run& run, double end_s) {
  auto& ops = *run.ops;
  for (std::size_t t = 0; t < run.stats.size(); ++t) {
    if (run.up_count[t] == 0 && !run.contexts_of[t].empty()) {
      run.stats[t].downtime_s += measured_overlap(run, run.down_since[t], end_s);
    }
    run.stats[t].num_held = static_cast<std::int64_t>(run.held[t].size());
  }
  for (std::size_t d = 0; d < ops.host_on.size(); ++d) {
    if (!ops.host_on[d]) ops.host_down_s[d] += end_s - ops.host_off_since[d];
    if (!ops.in_phase[d]) ops.out_of_phase_s[d] += end_s - ops.out_of_phase_since[d];
  }
  g_ops = nullptr;
}

void operations_results(const Run& run, scenario::StrategyResult& out) {
  const auto& ops = *run.ops;
  const double window_s = run.horizon_s - run.scenario.warmup_s;
  for (std::size_t t = 0; t < out.tenants.size(); ++t) {
    auto& r = out.tenants[t];
    const auto& stats = run.stats[t];
    r.num_retried = stats.num_retried;
    r.num_interruptions = stats.num_interruptions;
    r.downtime_s = run.contexts_of[t].empty() ? window_s : stats.downtime_s;
    r.availability = window_s > 0.0 ? std::clamp(1.0 - r.downtime_s / window_s, 0.0, 1.0) : 1.0;
  }
  for (std::size_t d = 0; d < out.devices.size(); ++d) {
    if (ops.device_phase[d] >= 0) out.devices[d].phase = ops.phase_names[static_cast<std::size_t>(ops.device_phase[d])];
    out.devices[d].out_of_phase_s = ops.out_of_phase_s[d];
    out.devices[d].down_s = std::max(0.0, ops.host_down_s[d] - ops.out_of_phase_s[d]);
  }
  scenario::FaultRecord record = ops.record;
  int faults = 0;
  double tenants = 0.0;
  for (const auto& event : record.events) {
    if (event.kind == "repartition") {
      ++record.num_repartitions;
    } else {
      ++faults;
      tenants += event.tenants_hit;
    }
  }
  record.blast_radius_tenants = faults > 0 ? tenants / faults : 0.0;
  out.faults = std::move(record);
}

}  // namespace slicewise::sim
