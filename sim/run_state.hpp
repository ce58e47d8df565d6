// What one run's actors share (engine.cpp runs the devices and the request sources, operations.cpp
// the faults and the layout schedule). Internal to sw_sim; no SimGrid here.
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "scenario/catalogs.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"
#include "sim/device_state.hpp"
#include "sim/event_loop.hpp"
#include "sim/fault_plan.hpp"
#include "sim/least_loaded_index.hpp"
#include "sim/placement.hpp"
#include "sim/workload_shape.hpp"

namespace slicewise::sim {

struct ContextRef {
  std::size_t device = 0;
  std::size_t slot = 0;
};

/// A tenant's request source: its open-loop stream and the request it holds until its time, or
/// its closed-loop users waiting to send their next request.
struct Source {
  std::shared_ptr<traces::RequestSource> stream;  ///< null for a closed loop
  traces::RequestRecord record;                   ///< open loop: the next request
  bool started = false;                           ///< open loop: `record` was fetched
  traces::RequestRecord shape;                    ///< closed loop: every user's request
  std::vector<std::pair<double, int>> users;      ///< closed loop: (send time, user), a min-heap
  std::unique_ptr<std::mt19937_64> rng;           ///< closed loop: think times and service draws
  bool closed_loop() const { return !stream; }
  void push_user(double at, int user) {
    users.emplace_back(at, user);
    std::push_heap(users.begin(), users.end(), std::greater<>());
  }
};

/// One entry of the operations actor's timeline.
struct OpsEvent {
  enum class Type { fault, switch_start, switch_end, recheck };
  double at_s = 0.0;
  std::uint64_t order = 0;  ///< ties at one instant keep the order of insertion
  Type type = Type::recheck;
  std::size_t index = 0;  ///< fault: into Operations::faults; switch: into Operations::switches
  std::size_t gpu = 0;
};

/// Faults and the layout schedule of a run (docs/faults.md, docs/mig-schedule.md).
struct Operations {
  FaultSettings settings;
  models::StrategyKind kind = models::StrategyKind::dedicated;
  std::vector<PlannedFault> faults;
  std::vector<LayoutSwitch> switches;
  std::vector<std::string> phase_names;                 ///< empty without a schedule
  double repartition_s = 0.0;                           ///< one GPU's re-partition
  std::vector<int> device_phase;                        ///< per device; -1 without a schedule
  std::vector<std::vector<std::size_t>> gpu_devices;    ///< per fleet GPU, its devices (every phase)
  std::vector<int> gpu_phase;                           ///< per GPU, the phase in force; -1 while re-partitioning
  std::vector<double> gpu_down_until;                   ///< per GPU, until a failure or reset is over
  std::vector<std::vector<double>> context_down_until;  ///< [device][slot], until a crash is over
  std::vector<bool> host_on;                            ///< per device, its SimGrid host's state
  std::vector<double> host_off_since;                   ///< per device, when its host went off
  std::vector<double> host_down_s;                      ///< per device, time its host was off (SimGrid's clock)
  std::vector<bool> in_phase;                           ///< per device, its layout phase in force (or no schedule)
  std::vector<double> out_of_phase_since;               ///< per device, when its phase went out of force
  std::vector<double> out_of_phase_s;                   ///< per device, time its phase was not in force
  std::map<std::string, std::size_t> host_index;        ///< device name -> device
  std::vector<OpsEvent> timeline;                       ///< a min-heap on (at_s, order)
  std::uint64_t next_order = 0;
  std::mt19937_64 rng;   ///< co-tenant kills at a fraction
  bool started = false;  ///< the first step (hosts set at time 0) ran
  scenario::FaultRecord record;
};

/// Everything a run shares between its actors. The event loop's actors are the devices
/// (0 .. D-1), the tenants' sources (D .. D+T-1) and, when the run has faults or a layout
/// schedule, the operations actor (D+T).
struct Run {
  explicit Run(const scenario::Scenario& s) : scenario(s) {}
  const scenario::Scenario& scenario;
  double horizon_s = 0.0;
  double stop_s = 0.0;
  std::vector<WorkloadShape> shapes;
  /// Per LLM tenant, its engine on the reference GPU (solo latencies); null for the others.
  std::vector<std::unique_ptr<models::StepModel>> reference_steps;
  std::vector<std::unique_ptr<LlmEngine>> reference_engines;
  std::vector<TenantStats> stats;
  std::vector<TenantInfo> tenants;
  std::vector<std::unique_ptr<DeviceState>> devices;
  std::vector<std::vector<ContextRef>> contexts_of;  ///< per tenant
  std::vector<std::size_t> round_robin;
  /// Per tenant routed least-loaded: its contexts' loads, in contexts_of order (else empty).
  std::vector<std::optional<LeastLoadedIndex>> least_loaded;
  std::vector<Source> sources;  ///< per tenant
  std::optional<EventLoop> loop;
  int sources_running = 0;
  std::int64_t events = 0;
  std::exception_ptr source_error;  ///< a bad trace row met during the run, rethrown after it
  /// Request slots the devices allocated (each holds a request waiting or in service, or a free
  /// one for reuse), against the run's bound; when it was exceeded, the time the run stopped.
  std::int64_t request_slots = 0;
  std::int64_t max_request_slots = 0;
  std::optional<double> overflow_s;
  // Faults and layout schedule; `ops` absent in a run without either.
  std::optional<Operations> ops;
  bool ops_running = false;
  std::vector<std::size_t> up_count;      ///< per tenant, contexts serving
  std::vector<double> down_since;         ///< per tenant, since when none serves (while up_count is 0)
  std::vector<std::deque<Request>> held;  ///< per tenant, requests waiting for a context to come up
  std::size_t source_actor(std::size_t tenant) const { return devices.size() + tenant; }
  std::size_t ops_actor() const { return devices.size() + sources.size(); }
  /// Devices may finish once nothing more will arrive.
  bool arrivals_over() const { return sources_running == 0 && !ops_running; }
};

/// Routes a request of `tenant` to one of its serving contexts; with none serving it waits in
/// `held` when it may (faults' max_retries > 0), else fails. A tenant without a placed context
/// drops it.
void arrive(Run& run, std::size_t tenant, const Request& request);
/// A closed-loop user's request ended (done or failed): the user thinks, then sends again.
void user_done(Run& run, std::size_t tenant, int user, double now);
/// A request lost for good: counted failed and an SLA violation when measured.
void fail_request(Run& run, std::size_t tenant, const Request& request);

/// run_setup.cpp: each tenant's workload shape on its reference GPU (the first fleet GPU it may
/// run on when it names none), statistics and per-request constants, into run.tenants.
void init_tenants(Run& run, const std::vector<FleetGpu>& fleet, const scenario::Catalogs& catalogs,
                  std::size_t num_intervals);
/// run_setup.cpp: one DeviceState per placed device, and each tenant's contexts in replica order
/// (so that round-robin is the same whatever the packing).
void build_devices(Run& run, const Placement& placement, std::size_t num_intervals);

/// The operations actor's state before the run: faults planned, phases' contexts down, the
/// timeline. `phase_of_device` is -1 per device without a schedule.
void init_operations(Run& run, models::StrategyKind kind, const std::vector<int>& phase_of_device,
                     const std::vector<std::string>& phase_names, const scenario::LayoutSchedule* schedule,
                     const std::vector<PhasePlacement>& phases);
/// One step of the operations actor.
void operations_step(Run& run);
/// At the end of the run, before the results: downtime up to the end, requests still held.
void close_operations(Run& run, double end_s);
/// The run's fault figures: per tenant, per device (phase, host off time), and the strategy's record.
void operations_results(const Run& run, scenario::StrategyResult& out);

}  // namespace slicewise::sim
