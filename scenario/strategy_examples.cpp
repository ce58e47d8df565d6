// A strategy of each kind with every key it reads set to its declared example (strategy_params.hpp):
// what `slicewise strategies --example` prints, the tests validate and the fuzzer starts from.
#include <algorithm>
#include <string>
#include <vector>

#include "scenario/strategy_params.hpp"

namespace slicewise::scenario {

using nlohmann::ordered_json;

nlohmann::ordered_json example_strategy(models::StrategyKind kind, const std::vector<std::string>& tenants) {
  ordered_json out;
  out["kind"] = models::to_string(kind);
  std::vector<std::string> skipped;  // the alternatives of a key given
  for (const auto& param : strategy_params()) {
    if (!uses(strategy_keys(), param.key, kind) ||
        std::find(skipped.begin(), skipped.end(), param.key) != skipped.end()) {
      continue;
    }
    out[param.key] = ordered_json::parse(param.example);
    skipped.insert(skipped.end(), param.alternatives.begin(), param.alternatives.end());
  }
  ordered_json settings = ordered_json::object();
  for (const auto& param : tenant_params()) {
    if (uses(tenant_setting_keys(), param.key, kind)) settings[param.key] = ordered_json::parse(param.example);
  }
  if (!settings.empty()) {
    for (const auto& tenant : tenants) out["tenants"][tenant] = settings;
  }
  return out;
}

}  // namespace slicewise::scenario
