// The ROI report's content: each strategy's and tenant's figures, the executive summary (the
// recommendation, its savings and its SLA risk), the assumptions and the methodology.
#include "report/roi_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "core/units.hpp"
#include "models/strategy_kind.hpp"
#include "report/text_table.hpp"
#include "scenario/strategies/policy.hpp"
#include "scenario/validate.hpp"

namespace slicewise::report {

namespace {

/// The isolation the strategy kind named `kind` provides; nullopt for a name no kind has.
std::optional<models::IsolationLevel> isolation_of_kind(const std::string& kind) {
  for (const auto& [name, value] : models::strategy_kind_table()) {
    if (name == kind) return scenario::policy_of(value).isolation();
  }
  return std::nullopt;
}

std::string plural(long n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

const scenario::UncertaintyBand* band_of(const scenario::SimResult& result, const std::string& strategy) {
  for (const auto& band : result.uncertainty) {
    if (band.strategy == strategy) return &band;
  }
  return nullptr;
}

/// "closed_loop, 1 user, think 0 s" / "trace traces/x.csv (azure-llm), window 0..600 s, x2".
std::string load_text(const scenario::LoadSpec& load) {
  switch (load.kind) {
    case scenario::LoadKind::poisson:
      return "Poisson, " + format_number(load.rate_per_s * load.multiplier) + " requests/s";
    case scenario::LoadKind::closed_loop:
      return "closed loop, " + plural(load.num_users, "user", "users") + ", think time " +
             format_number(load.think_time_s) + " s";
    case scenario::LoadKind::diurnal:
      return "diurnal, daily mean " + format_number(load.rate_per_s * load.multiplier) + " requests/s";
    case scenario::LoadKind::mmpp:
      return "MMPP bursts, " + std::to_string(load.states.size()) + " states" +
             (load.multiplier != 1.0 ? ", x" + format_number(load.multiplier) : "");
    case scenario::LoadKind::trace: {
      std::string text = "trace " + load.trace_file + (load.trace_format.empty() ? "" : " (" + load.trace_format + ")");
      if (load.window_start_s > 0.0 || load.window_end_s) {
        text += ", window " + format_number(load.window_start_s) + ".." +
                (load.window_end_s ? format_number(*load.window_end_s) : std::string("end")) + " s";
      }
      if (!load.split_column.empty())
        text += ", rows with " + load.split_column + " in {" + join(load.split_values, ", ") + "}";
      if (load.multiplier != 1.0) text += ", x" + format_number(load.multiplier);
      if (load.time_compression != 1.0) text += ", time compressed x" + format_number(load.time_compression);
      if (load.sample_frac != 1.0) text += ", sampled " + format_percent(load.sample_frac, 0);
      return text;
    }
  }
  return "";
}

/// Tenant `t` of strategy `s`: its latency, SLA target (from `input`) and chargeback (from `c`).
TenantRow tenant_row(const scenario::StrategyResult& s, std::size_t t, const pricing::StrategyCost& c,
                     const scenario::Scenario& input) {
  const auto& tenant = s.tenants[t];
  TenantRow tr;
  tr.strategy = s.name;
  tr.tenant = tenant.name;
  tr.p50_s = tenant.latency_s.p50;
  tr.p95_s = tenant.latency_s.p95;
  tr.p99_s = tenant.latency_s.p99;
  if (tenant.slowdown.count > 0) tr.slowdown_p95 = tenant.slowdown.p95;
  if (tenant.ttft_s.count > 0) tr.ttft_p95_s = tenant.ttft_s.p95;
  if (tenant.tpot_s.count > 0) tr.tpot_p95_s = tenant.tpot_s.p95;
  for (const auto& spec : input.tenants) {
    if (spec.name == tenant.name && spec.sla.latency_s) tr.sla_target_s = *spec.sla.latency_s;
  }
  tr.sla_violation_frac = tenant.sla_violation_frac;
  tr.sla_max_violation_frac = tenant.sla_max_violation_frac;
  tr.sla_met = tenant.sla_met;
  if (t < c.chargeback.size()) tr.monthly_chargeback_usd = c.chargeback[t].monthly_usd;
  return tr;
}

/// The tenant name of a device's context entry "tenant#k".
std::string tenant_of_context(const std::string& context) { return context.substr(0, context.rfind('#')); }

/// Why strategy `s` cannot be recommended, whatever its SLA and cost (StrategySummary::rejections).
std::vector<std::string> rejections_of(const scenario::StrategyResult& s, const scenario::Scenario& input) {
  std::vector<std::string> out;
  for (const auto& device : s.devices) {
    if (device.oom_risk) {
      out.push_back("out-of-memory risk on " + device.name + " (contexts hold " +
                    format_number(device.memory_allocated_gib) + " GiB of " +
                    format_number(device.memory_capacity_gib) + " GiB)");
    }
  }
  for (const auto& tenant : s.tenants) {
    if (tenant.num_contexts_unplaced > 0) {
      out.push_back(tenant.name + ": " + std::to_string(tenant.num_contexts_unplaced) + " of " +
                    std::to_string(tenant.num_contexts + tenant.num_contexts_unplaced) + " contexts unplaceable");
    }
  }
  const models::IsolationLevel provided = isolation_of_kind(s.kind).value_or(models::IsolationLevel::none);
  for (const auto& tenant : input.tenants) {
    if (tenant.isolation <= provided) continue;
    for (const auto& device : s.devices) {
      const bool has_it = std::any_of(device.contexts.begin(), device.contexts.end(),
                                      [&](const std::string& c) { return tenant_of_context(c) == tenant.name; });
      const bool shared = std::any_of(device.contexts.begin(), device.contexts.end(),
                                      [&](const std::string& c) { return tenant_of_context(c) != tenant.name; });
      if (has_it && shared) {
        out.push_back(tenant.name + " requires " + models::to_string(tenant.isolation) + " isolation and shares " +
                      device.name + " under " + models::to_string(provided) + " isolation");
      }
    }
  }
  return out;
}

/// Strategy `s` priced by `c`: its row of the report; its tenants' rows go to `tenants`.
StrategySummary strategy_summary(const scenario::StrategyResult& s, const pricing::StrategyCost& c,
                                 const scenario::Scenario& input, std::vector<TenantRow>& tenants) {
  StrategySummary row;
  row.name = s.name;
  row.kind = s.kind;
  const auto isolation = isolation_of_kind(s.kind);
  row.isolation = isolation ? models::to_string(*isolation) : "unknown";
  row.num_gpus = s.num_gpus_used;
  row.monthly_usd = c.monthly_usd;
  row.monthly_savings_usd = c.monthly_savings_usd;
  row.annual_savings_usd = c.annual_savings_usd;
  row.savings_frac = c.savings_frac;
  row.fleet_busy_frac = s.fleet_busy_frac;
  row.fleet_sm_util_frac = s.fleet_sm_util_frac;
  row.issues = s.issues;
  row.rejections = rejections_of(s, input);
  for (std::size_t t = 0; t < s.tenants.size(); ++t) {
    const auto& tenant = s.tenants[t];
    row.num_arrived += tenant.num_arrived;
    row.num_violations += tenant.sla_violations;
    if (!tenant.sla_met) ++row.num_tenants_missing_sla;
    tenants.push_back(tenant_row(s, t, c, input));
  }
  row.sla_violation_frac = row.num_arrived > 0 ? static_cast<double>(row.num_violations) / row.num_arrived : 0.0;
  row.sla_met = row.num_tenants_missing_sla == 0;
  return row;
}

/// "on_demand prices of table aws, us-east-1, as of 2024-05-01".
std::string prices_text(const CostReport& costs) {
  return pricing::to_string(costs.option) + " prices of table " + costs.table +
         (costs.region.empty() ? "" : ", " + costs.region) + ", as of " + costs.as_of;
}

/// The executive summary when no strategy qualifies, the baseline included.
void summarize_none_qualifies(RoiReport& r, const std::string& prices) {
  const bool any_rejected = std::any_of(r.strategies.begin(), r.strategies.end(),
                                        [](const StrategySummary& s) { return !s.rejections.empty(); });
  r.recommendation = any_rejected
                         ? "No strategy qualifies, the baseline included: each misses an SLA or is rejected (see "
                           "below); add capacity or relax the targets before sharing."
                         : "No strategy meets every tenant's SLA, the baseline included: add capacity or relax "
                           "the targets before sharing.";
  const auto cheapest = std::min_element(r.strategies.begin(), r.strategies.end(),
                                         [](const auto& a, const auto& b) { return a.monthly_usd < b.monthly_usd; });
  r.savings = "No saving can be claimed while every strategy misses an SLA; the cheapest, " + cheapest->name +
              ", costs " + format_usd(cheapest->monthly_usd) + " per month (" + prices + ").";
}

/// The recommendation and savings when `best`, the baseline, stays: nothing cheaper meets every SLA.
void summarize_keep_baseline(RoiReport& r, const StrategySummary& best, const std::string& baseline,
                             const std::string& prices) {
  std::vector<std::string> missed;
  std::vector<std::string> rejected;
  for (const auto& s : r.strategies) {
    if (!s.rejections.empty()) rejected.push_back(s.name);
    else if (!s.sla_met) missed.push_back(s.name);
  }
  std::string why = "no sharing strategy is cheaper while meeting every SLA.";
  if (!missed.empty() && rejected.empty()) why = "every cheaper strategy misses an SLA (" + join(missed, ", ") + ").";
  if (!rejected.empty()) {
    why = "every cheaper strategy " +
          (missed.empty() ? std::string() : "misses an SLA (" + join(missed, ", ") + ") or ") + "is rejected (" +
          join(rejected, ", ") + ").";
  }
  r.recommendation = "Keep " + best.name + ": " + why;
  r.savings =
      "No monthly saving against " + baseline + " (" + format_usd(best.monthly_usd) + " per month, " + prices + ").";
}

/// The recommendation and savings when sharing with `best` costs less than the baseline.
void summarize_sharing(RoiReport& r, const StrategySummary& best, const scenario::SimResult& result,
                       const std::string& baseline, const std::string& prices) {
  r.recommendation =
      "Share with " + best.name + " (" + best.kind + ", isolation " + best.isolation +
      "): it meets every tenant's SLA on " + plural(best.num_gpus, "GPU", "GPUs") +
      (r.baseline >= 0 ? " instead of " + std::to_string(r.strategies[static_cast<std::size_t>(r.baseline)].num_gpus)
                       : std::string()) +
      ".";
  r.savings = best.name + " saves " + format_usd(best.monthly_savings_usd) + " per month (" +
              format_usd(best.annual_savings_usd, 0) + " per year, " + format_percent(best.savings_frac) +
              ") against " + baseline + ", at " + prices;
  if (const auto* band = band_of(result, best.name)) {
    r.savings += "; 90 % interval " + format_usd(band->monthly_savings_p05_usd) + " to " +
                 format_usd(band->monthly_savings_p95_usd) + " over " + std::to_string(band->num_samples) +
                 " samples of the fitted constants";
  }
  r.savings += ".";
}

/// SLA risk of the recommendation `best`: the tenant closest to its allowance, and the fitted
/// constants' uncertainty when sampled.
std::string sla_risk_text(const RoiReport& r, const StrategySummary& best, const scenario::SimResult& result) {
  const TenantRow* worst = nullptr;
  double worst_ratio = -1.0;
  for (const auto& t : r.tenants) {
    if (t.strategy != best.name) continue;
    const double ratio = t.sla_max_violation_frac > 0.0 ? t.sla_violation_frac / t.sla_max_violation_frac
                                                        : (t.sla_violation_frac > 0.0 ? 1e9 : 0.0);
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      worst = &t;
    }
  }
  std::string level = worst_ratio <= 0.5 ? "low" : "moderate";
  std::string tail;
  if (const auto* band = band_of(result, best.name);
      band && worst && band->sla_violation_p95_frac > worst->sla_max_violation_frac) {
    level = "moderate";
    tail = "; with the fitted constants' uncertainty the violation rate reaches " +
           format_percent(band->sla_violation_p95_frac) + " (95th percentile of " + std::to_string(band->num_samples) +
           " samples)";
  }
  return "SLA risk is " + level + " under " + best.name +
         (worst ? ": the tenant nearest its limit, " + worst->tenant + ", has " +
                      format_percent(worst->sla_violation_frac) + " of requests over target (allowed " +
                      format_percent(worst->sla_max_violation_frac) + ")"
                : std::string()) +
         tail + ".";
}

/// "Rejected: time_slicing (out-of-memory risk on gpu0 ...; ...); mps (...)." or "".
std::string rejected_text(const RoiReport& r) {
  std::vector<std::string> parts;
  for (const auto& s : r.strategies) {
    if (!s.rejections.empty()) parts.push_back(s.name + " (" + join(s.rejections, "; ") + ")");
  }
  if (parts.empty()) return "";
  return "Not recommended whatever its cost: " + join(parts, "; ") + ".";
}

/// Sets the executive summary: recommendation, savings, (when one qualifies) SLA risk, and the
/// strategies rejected.
void summarize(RoiReport& r, const scenario::SimResult& result, const CostReport& costs, const std::string& prices) {
  r.rejected = rejected_text(r);
  if (r.recommended < 0) {
    summarize_none_qualifies(r, prices);
    return;
  }
  const auto& best = r.strategies[static_cast<std::size_t>(r.recommended)];
  const bool is_baseline = r.recommended == r.baseline || best.monthly_savings_usd <= 0.005;
  if (is_baseline) {
    summarize_keep_baseline(r, best, costs.baseline, prices);
  } else {
    summarize_sharing(r, best, result, costs.baseline, prices);
  }
  r.sla_risk = sla_risk_text(r, best, result);
}

/// Assumptions and provenance: prices, simulation, each tenant's load and SLA, calibration, issues.
std::vector<std::string> assumptions_of(const RoiReport& r, const scenario::SimResult& result, const CostReport& costs,
                                        const std::string& prices) {
  std::vector<std::string> lines;
  const auto& input = result.input;
  lines.push_back("Prices: " + prices + " (" + costs.currency + "); " + format_number(kHoursPerMonth) +
                  " hours per month; the baseline is " + costs.baseline + ".");
  lines.push_back("Simulation: " + format_number(result.horizon_s) + " s of arrivals (warm-up " +
                  format_number(input.warmup_s) + " s), seed " + std::to_string(result.seed) + ".");
  for (const auto& tenant : input.tenants) {
    std::string sla;
    if (tenant.sla.latency_s) sla += ", latency target " + format_number(*tenant.sla.latency_s) + " s";
    if (tenant.sla.ttft_s) sla += ", TTFT target " + format_number(*tenant.sla.ttft_s) + " s";
    if (tenant.sla.tpot_s) sla += ", TPOT target " + format_number(*tenant.sla.tpot_s) + " s";
    lines.push_back("Tenant " + tenant.name + ": " + load_text(tenant.load) + sla + ".");
  }
  if (!result.calibration.profile_id.empty()) {
    lines.push_back("Calibration: profile " + result.calibration.profile_id + ", worst fit MAPE " +
                    format_percent(result.calibration.fit_mape) + "; data: " +
                    (result.calibration.sources.empty() ? std::string("none (uncalibrated defaults)")
                                                        : join(result.calibration.sources, "; ")) +
                    ".");
    for (const auto& constant : result.calibration.constants) lines.push_back("Constant: " + constant + ".");
  }
  for (const auto& s : r.strategies) {
    for (const auto& issue : s.issues) lines.push_back("Issue under " + s.name + ": " + issue + ".");
  }
  return lines;
}

std::vector<std::string> methodology() {
  return {
      "Each strategy was simulated on its own with slicewise's discrete-event simulator (SimGrid): every request is "
      "an event, and between events each context on a device progresses at a rate set by the sharing strategy "
      "(time-slicing shares GPU time with a context-switch cost, MPS and MIG split SMs and memory bandwidth, MIG "
      "instances are isolated partitions). docs/model.md gives the equations.",
      "The constants of that rate model come from the calibration profile named above, fitted to measurements; its "
      "fit error is shown so that the figures can be weighed accordingly (docs/calibration.md, docs/validation.md).",
      "A strategy is priced by the GPUs its placement actually used, as the cheapest instances of the price table "
      "that carry them, plus its CPU sidecars; savings are the baseline's monthly cost minus the strategy's.",
      "A tenant meets its SLA when the fraction of its requests over any latency target (plus dropped and "
      "unfinished ones) stays within the fraction its environment allows. The recommended strategy is the one with "
      "the largest monthly savings among those that meet every tenant's SLA; a strategy with an out-of-memory risk, "
      "an unplaceable context or a tenant sharing a device with less isolation than it requires is never "
      "recommended, whatever its cost.",
  };
}

}  // namespace

std::string format_usd(double value, int decimals) {
  const std::string digits = format_fixed(std::abs(value), decimals);
  const auto point = digits.find('.');
  const std::string whole = digits.substr(0, point);
  std::string grouped;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
    grouped += whole[i];
  }
  const bool negative = value < 0.0 && digits.find_first_not_of("0.") != std::string::npos;
  return (negative ? "-$" : "$") + grouped + (point == std::string::npos ? "" : digits.substr(point));
}

int recommend(const std::vector<StrategySummary>& strategies) {
  // Most savings among the strategies that meet every SLA and have no rejection; ties (within half a
  // cent) go to fewer GPUs.
  int chosen = -1;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const auto& s = strategies[i];
    if (!s.sla_met || !s.rejections.empty()) continue;
    if (chosen < 0) {
      chosen = static_cast<int>(i);
      continue;
    }
    const auto& best = strategies[static_cast<std::size_t>(chosen)];
    const double gain = s.monthly_savings_usd - best.monthly_savings_usd;
    if (gain > 0.005 || (std::abs(gain) <= 0.005 && s.num_gpus < best.num_gpus)) chosen = static_cast<int>(i);
  }
  return chosen;
}

std::string appendix_intro(const RoiReport& report) {
  const std::string name =
      report.recommended >= 0 ? report.strategies[static_cast<std::size_t>(report.recommended)].name : std::string();
  return "What a platform team applies to run " + name +
         " on Kubernetes with the NVIDIA GPU operator. `slicewise export-config RESULT --strategy " + name +
         " --out DIR` writes these files with a README: the order to apply them and what slicewise assumed.";
}

RoiReport build_roi_report(const scenario::SimResult& result, const CostReport& costs) {
  SW_CHECK(!result.strategies.empty(), "a result without strategies (load_result refuses them)");
  RoiReport r;
  r.scenario = result.scenario;
  r.title = "ROI report: " + result.scenario;
  r.description = result.input.description;
  r.result = result;
  r.costs = costs;
  for (std::size_t i = 0; i < result.strategies.size(); ++i) {
    const auto& s = result.strategies[i];
    r.strategies.push_back(strategy_summary(s, costs.strategies.at(i), result.input, r.tenants));
    if (s.name == costs.baseline) r.baseline = static_cast<int>(i);
  }
  r.recommended = recommend(r.strategies);
  if (r.recommended >= 0) {
    try {
      r.deploy_configs = deploy_configs(result, r.strategies[static_cast<std::size_t>(r.recommended)].name);
    } catch (const Error&) {
      r.deploy_configs.clear();  // a result whose input lacks the strategy: no appendix, the rest stands
    }
  }
  const std::string prices = prices_text(costs);
  summarize(r, result, costs, prices);
  r.assumptions = assumptions_of(r, result, costs, prices);
  r.methodology = methodology();
  return r;
}

RoiReport priced_roi_report(const scenario::SimResult& result, const scenario::Scenario& scenario) {
  const auto table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
  return build_roi_report(result, cost_result(result, scenario, table, scenario.pricing.option));
}

}  // namespace slicewise::report
