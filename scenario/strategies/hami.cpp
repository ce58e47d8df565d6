// hami: HAMi (Project-HAMi) fractional GPUs. The driver time-slices the contexts; HAMi's interposer
// (LD_PRELOAD) caps each context's core share (gpucores, a token bucket sampled about every
// 120 ms, enforced only while others are active unless the force policy is set) and its memory
// (gpumem), and adds a small launch overhead.
#include "scenario/strategies/policy.hpp"

#include "core/json_reader.hpp"

namespace slicewise::scenario {

namespace {

constexpr int kDeviceSplitCount = 10;  // HAMi's Helm chart: devicePlugin.deviceSplitCount

/// A context's gpucores: its tenant's own, else the strategy's; none when neither sets one.
std::optional<double> cores_pct(const StrategySpec& spec, const TenantStrategySettings* settings) {
  return settings && settings->gpucores_pct ? settings->gpucores_pct : spec.gpucores_pct;
}

class Hami final : public DriverTimeSlicingPolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::hami; }
  std::string summary() const override {
    return "driver time slicing with a per-context core cap (gpucores) and memory limit (gpumem), plus launch "
           "overhead";
  }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::software; }
  /// Its core cap in percent.
  double chargeback_weight(const StrategySpec& spec, const TenantStrategySettings* settings) const override {
    return cores_pct(spec, settings).value_or(100.0);
  }
  std::string configuration(const StrategySpec& spec) const override {
    return spec.gpucores_pct ? "HAMi fractional GPUs with " + format_number(*spec.gpucores_pct) + " % of the cores each"
                             : "HAMi fractional GPUs";
  }
  std::vector<std::string> calibration_constants() const override { return {"hami_", "time_slicing_efficiency"}; }
  DeploySharer deploy_sharer() const override { return DeploySharer::hami; }

  std::vector<std::string> strategy_keys() const override {
    return {"replicas", "quantum_ms", "switch_cost_ms", "exact", "gpucores_pct", "gpumem_gib"};
  }
  std::vector<std::string> tenant_keys() const override { return {"gpucores_pct", "gpumem_gib", "weight"}; }
  /// As it comes, and with every pod capped at half the cores.
  std::vector<AdvisorSetting> advisor_settings(const AdvisorGpu& gpu) const override {
    auto capped = sized_for_sla(kind());
    capped.gpucores_pct = 50.0;
    return {{"", sized_for_sla(kind()), gpu.gpu.memory_gib}, {" 50 % cores", capped, gpu.gpu.memory_gib}};
  }

  /// HAMi's deviceSplitCount: at most this many pods share a GPU (its Helm chart's default, 10),
  /// unless `replicas` says otherwise (then set devicePlugin.deviceSplitCount to it).
  int context_limit(const StrategySpec& spec) const override {
    return spec.replicas > 0 ? spec.replicas : kDeviceSplitCount;
  }
  /// HAMi's scheduler reserves a pod's nvidia.com/gpucores on the GPU it admits it to
  /// (pkg/device/nvidia/device.go, Fit): a cap that is also a reservation.
  double core_reservation(const StrategySpec& spec, const TenantStrategySettings* settings) const override {
    return cores_pct(spec, settings).value_or(0.0) / 100.0;
  }
  MemoryRule memory_rule(const StrategySpec& spec, const TenantStrategySettings* settings, double /*need_gib*/,
                         double /*device_gib*/) const override {
    const auto limit = settings && settings->gpumem_gib ? settings->gpumem_gib : spec.gpumem_gib;
    return {true, limit.value_or(0.0), "HAMi gpumem limit"};
  }
  double context_cap(const StrategySpec& spec, const TenantStrategySettings* settings,
                     Priority /*priority*/) const override {
    return cores_pct(spec, settings).value_or(100.0) / 100.0;
  }
  models::SharingParams sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                int contexts_on_device) const override {
    auto p = DriverTimeSlicingPolicy::sharing(spec, defaults, contexts_on_device);
    p.launch_overhead_frac = defaults.hami_launch_overhead_frac;
    return p;
  }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_hami_policy() { return std::make_unique<Hami>(); }

}  // namespace slicewise::scenario
