// dedicated: one context per GPU, the baseline every saving is measured against.
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

namespace {

class Dedicated final : public OwnDevicePolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::dedicated; }
  std::string summary() const override { return "one context per GPU; nothing is shared"; }
  std::string configuration(const StrategySpec& /*spec*/) const override { return "dedicated GPUs"; }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::hardware; }
  /// On the scenario's own GPU the baseline already is this.
  std::vector<AdvisorSetting> advisor_settings(const AdvisorGpu& gpu) const override {
    if (gpu.own_gpu) return {};
    return OwnDevicePolicy::advisor_settings(gpu);
  }
  std::string crash_isolation(double /*co_tenant_kill_frac*/) const override {
    return "each context has a GPU of its own, so a tenant's crash takes down its own context only";
  }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_dedicated_policy() { return std::make_unique<Dedicated>(); }

}  // namespace slicewise::scenario
