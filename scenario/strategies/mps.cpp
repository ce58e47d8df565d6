// mps: CUDA Multi-Process Service. Clients run kernels at once; kernels that want the same SMs take
// turns kernel by kernel, each client capped by CUDA_MPS_ACTIVE_THREAD_PERCENTAGE.
// At most 48 clients per GPU (Volta and later); memory is isolated only with a pinned limit
// (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT).
#include "scenario/strategies/policy.hpp"

#include <algorithm>
#include <cmath>

#include "core/json_reader.hpp"

namespace slicewise::scenario {

namespace {

constexpr int kMaxMpsClients = 48;  // CUDA MPS clients per GPU (Volta and later)
/// Thread cap of a low-priority client when the strategy sets none: half the SMs. An assumption
/// (no public default exists): set low_priority_thread_pct to the share the best-effort tenant may take.
constexpr double kDefaultLowPriorityPct = 50.0;

/// A client's CUDA_MPS_ACTIVE_THREAD_PERCENTAGE: its tenant's own, else the strategy's; none when
/// neither sets one.
std::optional<double> thread_pct(const StrategySpec& spec, const TenantStrategySettings* settings) {
  return settings && settings->active_thread_pct ? settings->active_thread_pct : spec.active_thread_pct;
}

class Mps final : public StrategyPolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::mps; }
  std::string summary() const override {
    return "clients run at once; kernels that want the same SMs take turns, active_thread_pct caps a client's SMs; "
           "at most 48 clients per GPU";
  }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::software; }
  std::string configuration(const StrategySpec& spec) const override {
    std::string text = "MPS";
    if (spec.active_thread_pct) {
      text += " with " + format_number(*spec.active_thread_pct) + " % active threads";
    } else if (spec.mps_daemon == MpsDaemon::device_plugin && spec.replicas > 0) {
      text += ", " + std::to_string(spec.replicas) + " replicas per GPU (each " +
              format_number(device_plugin_thread_pct(spec.replicas)) + " % of the threads)";
    }
    if (std::any_of(spec.tenants.begin(), spec.tenants.end(),
                    [](const auto& t) { return t.second.active_thread_pct.has_value(); })) {
      text += ", thread caps per tenant";
    }
    return text;
  }
  std::vector<std::string> calibration_constants() const override { return {"mps_"}; }
  CrashReach crash_reach() const override {
    return CrashReach::whole_gpu;
  }  // CUDA MPS docs: a client's fatal fault reaches every client
  bool has_gpu_server() const override { return true; }
  DeploySharer deploy_sharer() const override { return DeploySharer::device_plugin_mps; }
  std::string not_deployable(const StrategySpec& spec) const override {
    if (spec.mps_daemon != MpsDaemon::own) return "";
    return "was simulated under an MPS daemon of your own (mps_daemon own): NVIDIA's device plugin cannot deploy "
           "that, as it splits each GPU's memory and threads among its replicas. Run the daemon yourself, or "
           "simulate mps_daemon device_plugin (the default) and export that";
  }
  std::string crash_isolation(double /*co_tenant_kill_frac*/) const override {
    return "a client's fatal fault, or the MPS server's, ends every client on the GPU";
  }
  /// Its thread cap in percent.
  double chargeback_weight(const StrategySpec& spec, const TenantStrategySettings* settings) const override {
    return thread_pct(spec, settings).value_or(100.0);
  }

  std::vector<std::string> strategy_keys() const override {
    return {"replicas", "active_thread_pct", "pinned_memory_limit_gib", "low_priority_thread_pct", "mps_daemon"};
  }
  std::vector<std::string> tenant_keys() const override { return {"active_thread_pct"}; }
  /// As it comes, and with every client capped at half the threads.
  std::vector<AdvisorSetting> advisor_settings(const AdvisorGpu& gpu) const override {
    auto capped = sized_for_sla(kind());
    capped.active_thread_pct = 50.0;
    return {{"", sized_for_sla(kind()), gpu.gpu.memory_gib}, {" 50 % threads", capped, gpu.gpu.memory_gib}};
  }
  AdvisorTuning advisor_tuning() const override { return AdvisorTuning::thread_caps_by_slack; }

  void check(const StrategySpec& spec, const StrategyCheck& c) const override {
    if (spec.replicas == 1 && spec.mps_daemon == MpsDaemon::device_plugin) {
      c.add(c.pointer + "/replicas",
            "the device plugin shares a GPU under MPS between 2 replicas at least (got 1; leave it out and "
            "slicewise picks the replicas its placement needs)");
    }
    if (spec.replicas > kMaxMpsClients) {
      c.add(c.pointer + "/replicas", "MPS serves at most " + std::to_string(kMaxMpsClients) + " clients per GPU (got " +
                                         std::to_string(spec.replicas) + ")");
    }
    const std::int64_t contexts = c.total_contexts();
    if (c.num_gpus > 0 && contexts > kMaxMpsClients * c.num_gpus) {
      c.add(c.pointer, std::to_string(contexts) + " contexts need more than " + std::to_string(kMaxMpsClients) +
                           " MPS clients per GPU on the fleet's " + std::to_string(c.num_gpus) + " GPU(s)");
    }
  }

  int context_limit(const StrategySpec& spec) const override {
    return spec.replicas > 0 ? std::min(spec.replicas, kMaxMpsClients) : kMaxMpsClients;
  }
  bool splits_by_replicas(const StrategySpec& spec) const override {
    return spec.mps_daemon == MpsDaemon::device_plugin;
  }
  /// The device plugin's MPS daemon pins each of a GPU's `replicas` clients to GPU memory /
  /// replicas (set_default_device_pinned_mem_limit), which the client's CUDA reports as its GPU's
  /// memory; a pinned_memory_limit_gib lowers it.
  MemoryRule memory_rule(const StrategySpec& spec, const TenantStrategySettings* /*settings*/, double /*need_gib*/,
                         double device_gib) const override {
    MemoryRule rule;
    if (spec.replicas > 0 && splits_by_replicas(spec)) {
      rule = {true, device_gib / spec.replicas,
              "MPS share (GPU memory / " + std::to_string(spec.replicas) + " replicas)", true};
    }
    if (spec.pinned_memory_limit_gib && (!rule.isolated || *spec.pinned_memory_limit_gib < rule.limit_gib)) {
      rule = {true, *spec.pinned_memory_limit_gib, "MPS pinned memory limit", true};
    }
    return rule;
  }
  /// A client's thread share: the device plugin's daemon default of ⌊100 / replicas⌋ %
  /// (set_default_active_thread_percentage), which a client's CUDA_MPS_ACTIVE_THREAD_PERCENTAGE can
  /// only lower; a low-priority client's is at most low_priority_thread_pct (default 50 %), so that
  /// a latency-critical co-tenant always finds SMs.
  double context_cap(const StrategySpec& spec, const TenantStrategySettings* settings,
                     Priority priority) const override {
    double cap = thread_pct(spec, settings).value_or(100.0);
    if (spec.replicas > 0 && splits_by_replicas(spec)) cap = std::min(cap, device_plugin_thread_pct(spec.replicas));
    if (priority != Priority::low) return cap / 100.0;
    return std::min(cap, spec.low_priority_thread_pct.value_or(kDefaultLowPriorityPct)) / 100.0;
  }
  /// MPS clients run at once, but whether a co-runner is in a GPU phase changes over time; that is
  /// taken to persist for one default time slice (2 ms), the scale of kernel bursts. An assumption:
  /// no public measurement gives it.
  double scheduling_round_ms(const StrategySpec& /*spec*/, const models::SharingDefaults& defaults,
                             int /*contexts_on_device*/) const override {
    return defaults.quantum_ms;
  }
  models::SharingParams sharing(const StrategySpec& /*spec*/, const models::SharingDefaults& defaults,
                                int /*contexts_on_device*/) const override {
    models::SharingParams p;
    p.discipline = models::SharingDiscipline::concurrent;
    p.concurrent_efficiency = defaults.mps_efficiency;
    p.concurrent_interference = defaults.mps_interference;
    return p;
  }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_mps_policy() { return std::make_unique<Mps>(); }

}  // namespace slicewise::scenario
