// The report's one-sentence answer (report_answer.hpp).
#include "report/report_answer.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/spell.hpp"
#include "report/cost_lines.hpp"
#include "report/roi_content.hpp"
#include "report/text_table.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

namespace {

/// "2 L40S GPUs", "1 A100-80GB GPU", "3 GPUs (2 A10G, 1 L40S)".
std::string gpus_text(const scenario::StrategyResult& strategy, int num_gpus) {
  std::map<std::string, std::set<int>> by_model;
  for (const auto& device : strategy.devices) {
    if (device.contexts.empty()) continue;
    for (int g = device.gpu_index; g < device.gpu_index + std::max(1, device.gpu_count); ++g)
      by_model[device.gpu].insert(g);
  }
  const std::string gpus = num_gpus == 1 ? " GPU" : " GPUs";
  if (by_model.size() == 1) return std::to_string(num_gpus) + " " + by_model.begin()->first + gpus;
  std::vector<std::string> parts;
  parts.reserve(by_model.size());
  for (const auto& [model, indices] : by_model) parts.push_back(std::to_string(indices.size()) + " " + model);
  return std::to_string(num_gpus) + gpus + (parts.empty() ? "" : " (" + join(parts, ", ") + ")");
}

/// "a, b and c".
std::string and_list(const std::vector<std::string>& parts) {
  if (parts.size() <= 1) return parts.empty() ? std::string() : parts.front();
  return join(std::vector<std::string>(parts.begin(), parts.end() - 1), ", ") + " and " + parts.back();
}

}  // namespace

std::string configuration_text(const scenario::StrategySpec& spec) {
  return scenario::policy_of(spec.kind).configuration(spec);
}

std::string model_confidence_text(const scenario::CalibrationRecord& calibration, const std::string& kind) {
  std::vector<std::string> prefixes;  // an unknown kind (a hand-edited result) runs on none
  for (const auto& [name, value] : models::strategy_kind_table()) {
    if (name == kind) prefixes = scenario::policy_of(value).calibration_constants();
  }
  const std::string profile = calibration.profile_id.empty()
                                  ? std::string("no calibration profile")
                                  : "profile worst fit " + format_percent(calibration.fit_mape) + " MAPE";
  if (prefixes.empty()) return "no sharing constant applies (whole GPUs or MIG instances; " + profile + ")";
  std::vector<std::string> fitted;
  std::vector<std::string> defaults;
  for (const auto& constant : calibration.constants) {
    const std::string name = constant.substr(0, constant.find(' '));
    const bool used = std::any_of(prefixes.begin(), prefixes.end(),
                                  [&](const std::string& prefix) { return name.rfind(prefix, 0) == 0; });
    if (!used) continue;
    if (constant.find("uncalibrated") != std::string::npos) {
      defaults.push_back(name);
    } else if (fitted.empty()) {
      // The first fitted one with its value: "time_slicing_efficiency 0.8366 ± 0.0058".
      const auto eq = constant.find(" = ");
      const auto comma = constant.find(',', eq);
      fitted.push_back(name + (eq == std::string::npos ? "" : " " + constant.substr(eq + 3, comma - eq - 3)));
    }
  }
  if (!defaults.empty()) {
    return "uncalibrated: " + and_list(defaults) + (defaults.size() == 1 ? " is a default" : " are defaults") + " (" +
           profile + ")";
  }
  if (fitted.empty()) return "not stated: the result names none of the constants it ran on (" + profile + ")";
  return "fitted (" + fitted.front() + "; " + profile + ")";
}

std::string answer_sentence(const RoiReport& r, const scenario::SimResult& result) {
  const std::string option = pricing::to_string(r.costs.option);
  if (r.recommended < 0) {
    const auto cheapest = std::min_element(r.strategies.begin(), r.strategies.end(),
                                           [](const auto& a, const auto& b) { return a.monthly_usd < b.monthly_usd; });
    return "No configuration meets every SLA, " + r.costs.baseline +
           " included: add capacity or relax the targets before sharing (the cheapest, " + cheapest->name + ", costs " +
           format_usd(cheapest->monthly_usd) + " a month at " + option + " prices).";
  }
  const auto index = static_cast<std::size_t>(r.recommended);
  const auto& best = r.strategies[index];
  const auto& strategy = result.strategies[index];
  const auto* spec = scenario::find_strategy(result.input, best.name);
  const std::string config = spec ? configuration_text(*spec) : best.kind;
  const std::string instances =
      index < r.costs.strategies.size() ? instances_text(r.costs.strategies[index]) : std::string();
  const std::string fleet = gpus_text(strategy, best.num_gpus) + (instances.empty() ? "" : " (" + instances + ")") +
                            " at " + format_usd(best.monthly_usd) + " a month";
  const bool keeps_baseline = r.recommended == r.baseline || best.monthly_savings_usd <= 0.005;
  std::string text = keeps_baseline ? "Keep " + config + ": " + fleet + "; nothing cheaper meets every SLA"
                                    : "Run " + config + " on " + fleet + ", " + format_usd(best.monthly_savings_usd) +
                                          " (" + format_percent(best.savings_frac) + ") less than " + r.costs.baseline +
                                          " at the same " + option + " prices";
  return text + "; SLA risk " + r.sla_risk_level +
         "; model confidence: " + model_confidence_text(result.calibration, best.kind) + ".";
}

}  // namespace slicewise::report
