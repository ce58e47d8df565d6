// dedicated: one context per GPU, the baseline every saving is measured against.
#include "scenario/strategies/policy.hpp"

namespace slicewise::scenario {

namespace {

class Dedicated final : public StrategyPolicy {
 public:
  models::StrategyKind kind() const override { return models::StrategyKind::dedicated; }
  std::string summary() const override { return "one context per GPU; nothing is shared"; }
  models::IsolationLevel isolation() const override { return models::IsolationLevel::hardware; }

  int context_limit(const StrategySpec& /*spec*/) const override { return 1; }
  MemoryRule memory_rule(const StrategySpec& /*spec*/, const TenantStrategySettings* /*settings*/, double /*need_gib*/,
                         double /*device_gib*/) const override {
    return {true, 0.0, ""};  // the whole GPU is the context's
  }
  models::SharingParams sharing(const StrategySpec& spec, const models::SharingDefaults& defaults,
                                int /*contexts_on_device*/) const override {
    models::SharingParams p;
    p.discipline = models::SharingDiscipline::exclusive;
    p.efficiency = models::SharingDefaults::efficiency(quantum_ms(spec, defaults), switch_cost_ms(spec, defaults));
    return p;
  }
};

}  // namespace

std::unique_ptr<StrategyPolicy> make_dedicated_policy() { return std::make_unique<Dedicated>(); }

}  // namespace slicewise::scenario
