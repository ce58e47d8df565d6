// time_slicing: the Kubernetes device plugin's replicas on one GPU; the driver gives busy contexts
// turns of one quantum each, paying a context switch between turns. Memory is not isolated.
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

namespace {

class TimeSlicing final : public StrategyPolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::time_slicing; }
  std::string summary() const override {
    return "busy contexts take turns on the GPU (quantum q, switch cost c, share η·w/Σw); memory not isolated";
  }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::none; }

  std::vector<std::string> strategy_keys() const override { return {"replicas", "quantum_ms", "switch_cost_ms", "exact"}; }
  std::vector<std::string> tenant_keys() const override { return {"weight"}; }

  bool schedules_by_priority(const StrategySpec& /*spec*/) const override { return true; }
  double scheduling_round_ms(const StrategySpec& spec, const models::SharingDefaults& defaults,
                             int /*contexts_on_device*/) const override {
    return quantum_ms(spec, defaults) + switch_cost_ms(spec, defaults);
  }
  models::SharingParams sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                int /*contexts_on_device*/) const override {
    return time_sliced(spec, defaults);
  }
  std::optional<ExactQuanta> exact_quanta(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                          int /*contexts_on_device*/) const override {
    return time_slice_quanta(spec, defaults);
  }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_time_slicing_policy() { return std::make_unique<TimeSlicing>(); }

}  // namespace slicewise::scenario
