// mig_time_slicing: driver time slicing inside each MIG instance of the layout (device-plugin
// replicas per instance). Hardware isolation between instances, none inside one.
#include "scenario/strategies/mig_checks.hpp"

#include "core/json_reader.hpp"

namespace slicewise::scenario {

namespace {

class MigTimeSlicing final : public DriverTimeSlicingPolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::mig_time_slicing; }
  std::string summary() const override {
    return "time slicing inside each MIG instance of the layout; memory not isolated inside an instance";
  }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::none; }
  std::string configuration(const StrategySpec& spec) const override {
    return mig_configuration("MIG with time-slicing", spec);
  }

  std::vector<std::string> strategy_keys() const override {
    return {"replicas", "quantum_ms", "switch_cost_ms", "exact", "layout", "layouts", "layout_schedule"};
  }
  std::vector<std::string> tenant_keys() const override { return {"mig_profile", "weight"}; }
  std::string tenant_key_problem(const StrategySpec& spec, const std::string& key) const override {
    return mig_tenant_key_problem(spec, key);
  }
  void check(const StrategySpec& spec, const StrategyCheck& c) const override { check_mig_layout(spec, c); }
  std::vector<AdvisorSetting> advisor_settings(const AdvisorGpu& gpu) const override {
    return mig_advisor_settings(kind(), gpu);
  }

  std::string crash_isolation(double co_tenant_kill_frac) const override {
    return "a tenant's crash stays in its MIG instance, but can take the co-tenants time-sliced in that instance "
           "with it (co_tenant_kill_frac " +
           format_number(co_tenant_kill_frac) + ")";
  }
  bool shares_by_profile() const override { return true; }
  std::string priority_not_deployable() const override { return kDevicePluginHasNoPriority; }
  DeploySharer deploy_sharer() const override { return DeploySharer::device_plugin_time_slicing; }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_mig_time_slicing_policy() { return std::make_unique<MigTimeSlicing>(); }

}  // namespace slicewise::scenario
