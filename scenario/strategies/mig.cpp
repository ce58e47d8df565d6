// mig: Multi-Instance GPU. Each instance of the layout is a device of its own with its slice of
// SMs (catalog SM count), memory and bandwidth (memory slices / memory slots), hardware-isolated;
// one context per instance.
#include "scenario/strategies/mig_checks.hpp"

namespace slicewise::scenario {

namespace {

class Mig final : public OwnDevicePolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::mig; }
  std::string summary() const override {
    return "each instance of the layout is a device with its SMs, memory and bandwidth slices; one context each";
  }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::hardware; }
  std::string configuration(const StrategySpec& spec) const override { return mig_configuration("MIG", spec); }
  std::string crash_isolation(double /*co_tenant_kill_frac*/) const override {
    return "MIG instances are hardware partitions, so a tenant's crash stays in its own instance";
  }

  std::vector<std::string> strategy_keys() const override { return {"layout", "layouts", "layout_schedule"}; }
  std::vector<std::string> tenant_keys() const override { return {"mig_profile"}; }
  std::string tenant_key_problem(const StrategySpec& spec, const std::string& key) const override {
    return mig_tenant_key_problem(spec, key);
  }
  void check(const StrategySpec& spec, const StrategyCheck& c) const override { check_mig_layout(spec, c); }
  std::vector<AdvisorSetting> advisor_settings(const AdvisorGpu& gpu) const override {
    return mig_advisor_settings(kind(), gpu);
  }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_mig_policy() { return std::make_unique<Mig>(); }

}  // namespace slicewise::scenario
