// time_slicing: the Kubernetes device plugin's replicas on one GPU; the driver gives busy contexts
// turns of one quantum each, paying a context switch between turns. Memory is not isolated.
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

namespace {

class TimeSlicing final : public DriverTimeSlicingPolicy {
 public:
  std::string priority_not_deployable() const override { return kDevicePluginHasNoPriority; }
  DeploySharer deploy_sharer() const override { return DeploySharer::device_plugin_time_slicing; }
  models::StrategyKind kind() const override { return models::StrategyKind::time_slicing; }
  std::string summary() const override {
    return "busy contexts take turns on the GPU (quantum q, switch cost c, share η·w/Σw); memory not isolated";
  }
  std::string configuration(const StrategySpec& spec) const override {
    return spec.replicas > 0 ? "time-slicing, " + std::to_string(spec.replicas) + " replicas per GPU" : "time-slicing";
  }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::none; }

  std::vector<std::string> strategy_keys() const override {
    return {"replicas", "quantum_ms", "switch_cost_ms", "exact"};
  }
  std::vector<std::string> tenant_keys() const override { return {"weight"}; }
  AdvisorTuning advisor_tuning() const override { return AdvisorTuning::tightest_first; }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_time_slicing_policy() { return std::make_unique<TimeSlicing>(); }

}  // namespace slicewise::scenario
