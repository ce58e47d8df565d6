// The state of one simulated device between events: its contexts, their queues and in-service
// requests, the fluid progress of each context and the metrics integrated over time. Pure C++:
// the SimGrid actors (engine.cpp) only decide when to call it.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "models/rate_model.hpp"
#include "sim/exact_time_slicing.hpp"
#include "sim/least_loaded_index.hpp"
#include "sim/llm_engine.hpp"
#include "sim/log_histogram.hpp"
#include "sim/placed_device.hpp"
#include "sim/sharing_variance.hpp"
#include "sim/workload_shape.hpp"
#include "traces/request_source.hpp"

namespace slicewise::sim {

/// Per-tenant measurements, shared by the tenant's contexts on every device.
struct TenantStats {
  LogHistogram latency;
  LogHistogram queue_delay;
  LogHistogram ttft;
  LogHistogram tpot;
  /// Latency / solo time, per request; only while `solo_s` is 0 (run_results derives it otherwise).
  LogHistogram slowdown;
  /// The tenant's one solo time (first phase + decode, on its reference GPU) when every request of
  /// its load has the same, else 0. Its slowdowns are then its latencies / solo_s: no histogram.
  double solo_s = 0.0;
  std::int64_t num_arrived = 0;
  std::int64_t num_completed = 0;
  std::int64_t num_dropped = 0;
  std::int64_t num_unfinished = 0;
  std::int64_t sla_violations = 0;
  // Faults and re-partitions (docs/faults.md)
  std::int64_t num_failed = 0;         ///< measured requests lost for good (also shed and timed out)
  std::int64_t num_shed = 0;           ///< measured requests refused by a full queue (docs/overload.md)
  std::int64_t num_timed_out = 0;      ///< measured requests not done within the client's timeout
  std::int64_t num_retried = 0;        ///< measured requests re-sent after their context went down
  std::int64_t num_interruptions = 0;  ///< faults or re-partitions in the measured window that took one of its contexts
  std::int64_t num_held = 0;           ///< requests still waiting for a context at the end (unfinished)
  double downtime_s = 0.0;             ///< measured time with none of its contexts serving
  /// GPU seconds (on the reference GPU) of the measured completed requests; an LLM tenant's: its
  /// engines' GPU time after the warm-up, on the devices they ran on (a batch shares its steps).
  double gpu_work_s = 0.0;
  std::int64_t num_preempted = 0;  ///< LLM: measured requests its engines preempted (recomputed later)
  std::int64_t num_refused = 0;    ///< LLM: measured requests an engine refused (too long; also num_dropped)
  /// LLM with prefix caching: prompt tokens of the measured requests with block hashes at their
  /// first admission, and how many of those its engine's prefix cache served.
  double prefix_prompt_tokens = 0.0;
  double prefix_cached_tokens = 0.0;
  std::vector<double> queue_length_integral;  ///< per metrics interval, request-seconds waiting
};

/// What a device needs to know about a tenant.
struct TenantInfo {
  const WorkloadShape* shape = nullptr;
  /// LLM tenants: the workload (each device builds its engine from it) and an engine on the
  /// reference GPU for solo latencies; null otherwise.
  const scenario::Workload* llm = nullptr;
  const LlmEngine* reference_engine = nullptr;
  double ref_tflops = 0.0;  ///< reference GPU dense BF16/FP16 TFLOPS; 0 when unknown
  double ref_sms = 1.0;     ///< reference GPU SM count
  double ref_bandwidth_gbps = 1.0;
  int max_concurrency = 1;
  double warmup_s = 0.0;
  std::optional<double> sla_latency_s, sla_ttft_s, sla_tpot_s;
  /// Overload (docs/overload.md): requests one context holds waiting (0 = no limit), and the time
  /// from its arrival after which a request has failed its client (kNever = none).
  std::size_t queue_limit = 0;
  double timeout_s = std::numeric_limits<double>::infinity();
  TenantStats* stats = nullptr;
};

/// A request in the system.
struct Request {
  traces::RequestRecord record;  ///< record.demand_scale scales its share of the context's demand
  int user = -1;                 ///< closed-loop user, -1 for open-loop load
  double started_at_s = 0.0;
  double prefill_done_at_s = 0.0;
  bool in_decode = false;
  int retries = 0;       ///< times it was re-sent after its context went down (docs/faults.md)
  bool started = false;  ///< an engine admitted it (started_at_s is set)
};

/// True when the request counts in its tenant's figures: it arrived after the warm-up.
inline bool measured(const TenantInfo& tenant, const Request& request) {
  return request.record.arrived_at_s >= tenant.warmup_s;
}

class DeviceState {
 public:
  /// `tenants` outlives the device. Time series have `num_intervals` buckets of `interval_s` and
  /// cover [0, horizon_s): time after the horizon (the drain of a run) is left out of them, also
  /// when the last bucket reaches past it.
  DeviceState(const PlacedDevice& device, const std::vector<TenantInfo>& tenants, double interval_s,
              std::size_t num_intervals, double horizon_s, std::uint64_t seed = 1);

  /// Called when a closed-loop user's request finishes: (tenant, user, now).
  std::function<void(std::size_t, int, double)> on_complete;
  /// Called when a closed-loop user's request is shed or times out waiting: (tenant, user, now).
  std::function<void(std::size_t, int, double)> on_fail;
  /// Counts every request slot the device allocates into `*counter` (the run's memory bound).
  void count_requests_in(std::int64_t* counter) { allocated_ = counter; }

  /// Moves the clock to `now`: progresses every context and integrates the metrics.
  void advance(double now);
  /// Accepts a request for local context `slot` at `now` (advance first). Starts it when the
  /// context has a free concurrency slot, else it waits FIFO.
  void arrive(std::size_t slot, const Request& request, double now);
  /// Finishes every phase that is due at `now`, starting waiting requests in freed slots.
  /// Returns true when something changed.
  bool complete_due(double now);
  /// Recomputes every context's progress rate from the rate model.
  void recompute_rates();
  /// Absolute time of the next event: a phase completion, a waiting request's timeout or, in exact
  /// time-slicing, the end of the current quantum or switch; kNever when nothing is pending.
  double next_completion(double now) const;

  bool idle() const;
  /// True when rates change with time alone (exact time-slicing quanta), not only on events.
  bool time_driven() const { return slicer_.has_value(); }
  /// Requests still queued or in service (counted unfinished at the end of a run).
  std::int64_t num_in_system() const;
  /// Keeps `index` at `position` equal to the load of local context `slot` (its requests waiting
  /// and in service) from now on: least-loaded routing.
  void track_load(std::size_t slot, LeastLoadedIndex* index, std::size_t position);
  /// Adds each tenant's requests still in the system to `per_tenant[tenant]`.
  void count_in_system(std::vector<std::int64_t>& per_tenant) const;

  /// Local context `slot` stops (a fault, a re-partition, a phase not yet begun): its requests in
  /// service and waiting leave it, returned in arrival order as fresh requests (their progress is
  /// lost). Advance first, recompute the rates after. A down context takes no arrivals; least-loaded
  /// routing sees it as never the least loaded.
  std::vector<Request> take_down(std::size_t slot);
  /// Local context `slot` serves again (empty).
  void bring_up(std::size_t slot);
  bool is_up(std::size_t slot) const { return contexts_[slot].up; }

  const std::vector<double>& busy_series() const { return busy_series_; }
  const std::vector<double>& sm_series() const { return sm_series_; }
  const PlacedDevice& placed() const { return device_; }

 private:
  struct InService {
    double finish_v;  ///< context virtual time at which the current phase is done
    std::size_t request;
  };
  struct Context {
    std::size_t tenant = 0;
    /// An LLM tenant's context: its engine schedules the requests (heap and waiting stay empty).
    /// Next to the fields every event reads, so a generic context's check costs no cache line.
    std::unique_ptr<LlmEngine> engine;
    double norm_sm = 1.0;  ///< reference-GPU demand -> this device's fraction
    double norm_bw = 1.0;
    std::vector<InService> heap;       ///< min-heap on finish_v
    std::vector<std::size_t> waiting;  ///< FIFO ring (head index below)
    std::size_t waiting_head = 0;
    double virtual_s = 0.0;  ///< solo-seconds of progress since the start
    int num_prefill = 0;     ///< in service
    /// Sum of record.demand_scale over the requests in service (equal to the count, exactly, when
    /// every scale is 1); reset to 0 when the count reaches 0.
    double prefill_scale = 0.0;
    LeastLoadedIndex* load_index = nullptr;  ///< told each change of the load, when set
    std::size_t load_position = 0;
    bool up = true;                           ///< false while taken down
    std::unique_ptr<models::StepModel> step;  ///< what the engine prices its steps with
    int max_in_system = 0;                    ///< TGI's max_concurrent_requests; 0 = no limit
  };

  std::size_t allocate(const Request& request);
  /// Overload (docs/overload.md). The time at which a request has failed its client.
  double deadline(const Context& context, const Request& request) const {
    return request.record.arrived_at_s + tenants_[context.tenant].timeout_s;
  }
  /// A request lost to overload (shed, or timed out while waiting): counted, its user told.
  void lose(const Context& context, const Request& request, bool shed, double now);
  /// Takes the waiting requests whose deadline is past out of `context`'s queue (oldest first).
  void expire_waiting(Context& context, double now);
  /// The earliest deadline of a request waiting on `context` (its oldest not yet started); kNever
  /// when none or the tenant has no timeout.
  double first_deadline(const Context& context) const;
  void start(Context& context, std::size_t request, double now);
  /// The request whose phase ends first on `context`, taken off its heap.
  std::size_t pop_due(Context& context);
  /// Request `index` on `context` is done (a generic request: its one phase).
  void finish_phase(Context& context, std::size_t index, double now);
  /// The metrics of a finished request: latency, queue delay, TTFT and TPOT, SLA, GPU work.
  static void record_completion(const TenantInfo& tenant, const Request& request, double now);
  /// Starts waiting requests (there is at least one) while the context has free slots.
  void start_waiting(Context& context, double now);
  /// Drops the taken entries of `context.waiting` once they are all of it, or most of a long one.
  void compact_waiting(Context& context);
  std::size_t slot_of(const Context& context) const { return static_cast<std::size_t>(&context - contexts_.data()); }
  std::size_t num_waiting(const Context& context) const {
    return context.engine ? context.engine->num_waiting() : context.waiting.size() - context.waiting_head;
  }
  /// Requests waiting and in service.
  std::size_t load(const Context& context) const {
    return context.engine ? context.engine->num_in_system() : context.heap.size() + num_waiting(context);
  }
  /// True when the context has work the GPU runs (requests in service; an engine's batch).
  static bool in_service(const Context& context) {
    return context.engine ? context.engine->has_work() : !context.heap.empty();
  }
  void build_engine(Context& context, const TenantInfo& tenant);
  /// Whether the device shares by time slices, which weigh each context's bursts.
  bool time_slices() const { return device_.sharing.timeslice_s > 0.0; }
  /// Whether the device runs its contexts at once (MPS), which weighs each context's kernels.
  bool kernel_turns() const { return device_.sharing.discipline == models::SharingDiscipline::concurrent; }
  /// advance() on a device with an LLM context: each rated context's progress, its engine told.
  void advance_with_engines(double now, double dt);
  void arrive_at_engine(Context& context, const Request& request, double now);
  /// Applies what an engine did (admissions, first tokens, completions, preemptions).
  void engine_outcomes(Context& context, double now);
  /// Counts the prompt tokens a request's first admission took from its engine's prefix cache.
  void note_prefix_hits(const Context& context, const Request& request, double cached_tokens);
  /// A request is done: its metrics, its slot freed, its user told.
  void finish_request(Context& context, std::size_t index, double now);
  /// After a request came or left: marks whether the context has requests, and tells its
  /// least-loaded index its load.
  void note_load(const Context& context) {
    const std::size_t slot = slot_of(context);
    const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
    if (load(context) > 0) {
      loaded_[slot / 64] |= bit;
    } else {
      loaded_[slot / 64] &= ~bit;
    }
    if (context.load_index) context.load_index->set(context.load_position, context.up ? load(context) : kDownLoad);
  }
  /// Calls f(slot) for each context with requests, in slot order (what f changes of the marks is
  /// not seen until the next call).
  template <typename F>
  void for_each_loaded(F&& f) const {
    for (std::size_t word = 0; word < loaded_.size(); ++word) {
      for (std::uint64_t bits = loaded_[word]; bits != 0; bits &= bits - 1) {
        f(word * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      }
    }
  }
  /// Sets the parts of `demand` that change (what the context's requests in service use) for a
  /// context with requests in service; `demand` holds the fixed parts.
  void set_demand(std::size_t slot, models::ContextDemand& demand) const;
  /// demands_[slot] as an idle context's.
  void set_idle(std::size_t slot);
  /// Every context's demand, and rated_ = the contexts with requests in service (a model over
  /// every context, or exact time-slicing, rates those; exact_rates() narrows it to the holder).
  void set_every_demand();
  /// The rates of the contexts with requests in service from a model over those only.
  void solve_active_contexts();
  /// The load a down context shows least-loaded routing: more than any real one.
  static constexpr std::size_t kDownLoad = std::numeric_limits<std::size_t>::max() / 4;
  void integrate(double from, double to, double busy, double sm);

  PlacedDevice device_;
  const std::vector<TenantInfo>& tenants_;
  std::vector<Context> contexts_;
  std::vector<Request> requests_;
  std::vector<std::size_t> free_requests_;
  models::RateModel model_;
  /// Per context: the fixed parts of its demand (duty, weight, cap, priority); in exact
  /// time-slicing the whole demand, set at every event.
  std::vector<models::ContextDemand> demands_;
  std::vector<models::ContextRate> rates_;
  // An event costs what the contexts with requests cost, not what every placed one does (a device
  // may hold 48 MPS clients, most of them idle at any instant): a bit per context with requests,
  // and the contexts whose rates the last solve set (in slot order); every other context's rate
  // is 0. The solve reads the active contexts only (RateModel::compute with `from`).
  std::vector<std::uint64_t> loaded_;
  std::vector<std::size_t> rated_;
  std::size_t num_waiting_ = 0;       ///< requests waiting in all contexts
  std::vector<std::size_t> solving_;  ///< recompute_rates(): the next rated_
  std::vector<models::ContextDemand> active_demands_;
  std::vector<double> active_from_;
  std::vector<models::ContextRate> active_rates_;
  double now_ = 0.0;
  double busy_now_ = 0.0;
  double sm_now_ = 0.0;
  double interval_s_;
  double horizon_s_;
  /// Exact time slicing (`"exact": true`): which context holds the GPU, and until when; none in
  /// the fluid model.
  std::optional<ExactTimeSlicer> slicer_;
  /// The rates of exact time slicing: the running context alone at its solo rate.
  void exact_rates();
  /// Each phase started on a shared device gets its own draw of how its scheduling rounds went.
  SharingVariance variance_;
  /// Moves the finish of each phase the variance drew for.
  void apply_sharing_variance();
  std::vector<double> busy_series_;
  std::vector<double> sm_series_;
  std::vector<LlmEngine::Outcome> outcomes_;  ///< an engine's, at one call
  bool has_engines_ = false;
  bool has_timeouts_ = false;          ///< some context's tenant has a client timeout
  std::int64_t* allocated_ = nullptr;  ///< the run's count of request slots, when counted
  std::vector<std::size_t> expired_;   ///< expire_waiting(): an engine's requests to drop
};

}  // namespace slicewise::sim
