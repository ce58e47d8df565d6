// vgpu: NVIDIA vGPU. Each context is a VM with a vGPU of the profile (framebuffer = GPU memory /
// vGPUs per GPU); the scheduler is best_effort (time slicing with the vGPU time slice: 2 ms up to
// 8 vGPUs, 1 ms above), equal_share (each powered-on vGPU an equal slot) or fixed_share (each vGPU
// the slot of the profile's vGPUs per GPU, used or not).
#include "scenario/strategies/policy.hpp"

#include "core/json_reader.hpp"
#include "scenario/enum_tables.hpp"

namespace slicewise::scenario {

namespace {

class Vgpu final : public StrategyPolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::vgpu; }
  std::string summary() const override {
    return "VMs with a vGPU each; best_effort time slicing, or equal_share / fixed_share slots";
  }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::hardware; }
  std::string configuration(const StrategySpec& /*spec*/) const override { return "vGPU"; }
  std::vector<std::string> calibration_constants() const override { return time_slicing_constants(); }
  CrashReach crash_reach() const override { return CrashReach::own_context; }  // the VM contains it
  std::string crash_isolation(double /*co_tenant_kill_frac*/) const override {
    return "each context runs in a VM of its own with its own guest driver, so a tenant's crash stays in its VM";
  }
  /// Its weight under fixed_share, where slots are weighted; else equal parts.
  double chargeback_weight(const StrategySpec& spec, const TenantStrategySettings* settings) const override {
    return spec.vgpu_scheduler == VgpuScheduler::fixed_share ? context_weight(spec, settings) : 1.0;
  }

  std::vector<std::string> strategy_keys() const override {
    return {"replicas", "switch_cost_ms", "vgpu_scheduler", "timeslice_ms"};
  }
  std::vector<std::string> tenant_keys() const override { return {"weight"}; }

  void check(const StrategySpec& spec, const StrategyCheck& c) const override {
    if (spec.vgpu_scheduler == VgpuScheduler::fixed_share && spec.replicas <= 0) {
      c.add(c.pointer + "/replicas",
            "vgpu_scheduler fixed_share needs the number of vGPUs per GPU of the vGPU profile (got 0)");
    }
  }
  std::string tenant_key_problem(const StrategySpec& spec, const std::string& key) const override {
    if (key != "weight" || spec.vgpu_scheduler == VgpuScheduler::fixed_share) return "";
    return "applies to vgpu only with vgpu_scheduler fixed_share (got " +
           name_of(vgpu_scheduler_table(), spec.vgpu_scheduler) + ")";
  }

  /// vGPU for compute (C-series profiles) is licensed through NVIDIA AI Enterprise, per GPU.
  std::string licence_id() const override { return "nvidia-ai-enterprise"; }
  DeploySharer deploy_sharer() const override { return DeploySharer::hypervisor_vgpu; }
  /// 2, 4 and 8 profiles per GPU.
  std::vector<AdvisorSetting> advisor_settings(const AdvisorGpu& gpu) const override {
    std::vector<AdvisorSetting> out;
    for (int profiles : {2, 4, 8}) {
      auto spec = sized_for_sla(kind());
      spec.replicas = profiles;
      out.push_back({" " + std::to_string(profiles) + " per GPU", spec, gpu.gpu.memory_gib / profiles});
    }
    return out;
  }
  bool fixed_device_sizes() const override { return true; }

  MemoryRule memory_rule(const StrategySpec& spec, const TenantStrategySettings* /*settings*/, double /*need_gib*/,
                         double device_gib) const override {
    if (spec.replicas <= 0) return {true, 0.0, ""};
    // The framebuffer of one vGPU of the profile: the GPU's memory over its vGPUs per GPU.
    return {true, device_gib / spec.replicas,
            "vGPU framebuffer (" + format_number(device_gib) + " GiB / " + std::to_string(spec.replicas) + " vGPUs)"};
  }
  /// best_effort hands the GPU to the vGPUs with work, so priority can order them; equal_share and
  /// fixed_share give every vGPU its slot whatever its priority.
  bool schedules_by_priority(const StrategySpec& spec) const override {
    return spec.vgpu_scheduler == VgpuScheduler::best_effort;
  }
  /// best_effort takes turns of one vGPU time slice; equal_share and fixed_share give fixed slots
  /// whatever the others do, so they add no variance.
  double scheduling_round_ms(const StrategySpec& spec, const models::SharingDefaults& defaults,
                             int contexts_on_device) const override {
    if (spec.vgpu_scheduler != VgpuScheduler::best_effort) return 0.0;
    return spec.timeslice_ms.value_or(contexts_on_device > 8 ? 1.0 : 2.0) + switch_cost_ms(spec, defaults);
  }
  models::SharingParams sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                int contexts_on_device) const override {
    models::SharingParams p;
    const double timeslice = spec.timeslice_ms.value_or(contexts_on_device > 8 ? 1.0 : 2.0);
    p.efficiency = models::SharingDefaults::efficiency(timeslice, switch_cost_ms(spec, defaults));
    if (spec.vgpu_scheduler == VgpuScheduler::best_effort) {
      p.discipline = models::SharingDiscipline::time_sliced;
    } else {
      p.discipline = models::SharingDiscipline::fixed_share;
      // equal_share: every powered-on vGPU; fixed_share: the profile's vGPUs per GPU.
      p.total_placed_weight = spec.vgpu_scheduler == VgpuScheduler::fixed_share && spec.replicas > 0
                                  ? static_cast<double>(spec.replicas)
                                  : static_cast<double>(contexts_on_device);
    }
    return p;
  }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_vgpu_policy() { return std::make_unique<Vgpu>(); }

}  // namespace slicewise::scenario
