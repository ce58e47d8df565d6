// The report's one-sentence answer (report_answer.hpp).
#include "report/report_answer.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/cost_lines.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

namespace {

using models::StrategyKind;

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

/// The calibration constants a kind's rates use: their names' prefixes.
std::vector<std::string> constant_prefixes(const std::string& kind) {
  if (kind == "mps") return {"mps_"};
  if (kind == "hami") return {"hami_", "time_slicing_efficiency"};
  if (kind == "time_slicing" || kind == "mig_time_slicing" || kind == "vgpu") {
    return {"time_slicing_efficiency", "timeslice_ms", "yield_switch_ms", "preempt_switch_ms"};
  }
  return {};
}

}  // namespace

std::string configuration_text(const scenario::StrategySpec& spec) {
  std::string text;
  switch (spec.kind) {
    case StrategyKind::dedicated: return "dedicated GPUs";
    case StrategyKind::time_slicing:
      text = "time-slicing";
      if (spec.replicas > 0) text += ", " + std::to_string(spec.replicas) + " replicas per GPU";
      return text;
    case StrategyKind::mps:
      text = "MPS";
      if (spec.active_thread_pct) {
        text += " with " + format_number(*spec.active_thread_pct) + " % active threads";
      } else if (spec.mps_daemon == scenario::MpsDaemon::device_plugin && spec.replicas > 0) {
        text += ", " + std::to_string(spec.replicas) + " replicas per GPU (each " +
                format_number(scenario::device_plugin_thread_pct(spec.replicas)) + " % of the threads)";
      }
      if (std::any_of(spec.tenants.begin(), spec.tenants.end(),
                      [](const auto& t) { return t.second.active_thread_pct.has_value(); })) {
        text += ", thread caps per tenant";
      }
      return text;
    case StrategyKind::mig:
    case StrategyKind::mig_time_slicing:
      text = spec.kind == StrategyKind::mig ? "MIG" : "MIG with time-slicing";
      if (spec.layout_schedule) return text + " on a layout schedule";
      if (!spec.layouts.empty()) return text + " " + join(spec.layouts, " / ");
      return spec.layout.empty() ? text : text + " " + spec.layout;
    case StrategyKind::hami:
      text = "HAMi fractional GPUs";
      if (spec.gpucores_pct) text += " with " + format_number(*spec.gpucores_pct) + " % of the cores each";
      return text;
    case StrategyKind::vgpu: return "vGPU";
  }
  return models::to_string(spec.kind);
}

std::string model_confidence_text(const scenario::CalibrationRecord& calibration, const std::string& kind) {
  const auto prefixes = constant_prefixes(kind);
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
