// The ROI report's content: each strategy's and tenant's figures, the executive summary (the
// recommendation, its savings and its SLA risk), the assumptions and the methodology.
#include "report/roi_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/strategy_kind.hpp"
#include "report/report_answer.hpp"
#include "report/text_table.hpp"
#include "scenario/sizing.hpp"
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

const scenario::UncertaintyBand* band_of(const scenario::SimResult& result, const std::string& strategy) {
  for (const auto& band : result.uncertainty) {
    if (band.strategy == strategy) return &band;
  }
  return nullptr;
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
  tr.num_arrived = tenant.num_arrived;
  if (t < c.chargeback.size()) tr.monthly_chargeback_usd = c.chargeback[t].monthly_usd;
  return tr;
}

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
      const bool has_it = std::any_of(device.contexts.begin(), device.contexts.end(), [&](const std::string& c) {
        return scenario::tenant_of_context(c) == tenant.name;
      });
      const bool shared = std::any_of(device.contexts.begin(), device.contexts.end(), [&](const std::string& c) {
        return scenario::tenant_of_context(c) != tenant.name;
      });
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
  row.cost_per_1k_in_sla_usd = c.cost_per_1k_in_sla_usd;
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
  // Equal work: what a request served within its SLA costs under each.
  if (r.baseline >= 0) {
    const auto& base = r.strategies[static_cast<std::size_t>(r.baseline)];
    if (base.cost_per_1k_in_sla_usd > 0.0 && best.cost_per_1k_in_sla_usd > 0.0) {
      const double change = best.cost_per_1k_in_sla_usd / base.cost_per_1k_in_sla_usd - 1.0;
      r.savings +=
          " Per 1,000 requests served within SLA it costs " + format_usd(best.cost_per_1k_in_sla_usd, 4) + " against " +
          format_usd(base.cost_per_1k_in_sla_usd, 4) + " (" +
          (change <= 0.0 ? format_percent(-change) + " less" : format_percent(change) + " more") + ")" +
          // Equal work would change it by exactly −saving %: a gap says the work differs.
          (std::abs(change + best.savings_frac) > 0.05 ? ": the two fleets do not deliver the same work." : ".");
    }
  }
}

/// The latency margins that bound "low" and "high" SLA risk: a tenant with 25 % of its target to
/// spare can take a quarter slower run before it misses; one under 10 % is a noisy neighbour away.
constexpr double kLowRiskMargin = 0.25;
constexpr double kHighRiskMargin = 0.10;

/// The tenant of `best` nearest its violation allowance, and how much of it it uses.
std::pair<const TenantRow*, double> nearest_allowance(const RoiReport& r, const StrategySummary& best) {
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
  return {worst, worst_ratio};
}

/// The tightest tenant of `best`'s run and its relative margin, among those whose latency
/// distribution the result holds (results before 2026-11-22 lack it).
std::optional<std::pair<std::string, double>> tightest_margin(const StrategySummary& best,
                                                              const scenario::SimResult& result) {
  const auto run = std::find_if(result.strategies.begin(), result.strategies.end(),
                                [&](const scenario::StrategyResult& s) { return s.name == best.name; });
  if (run == result.strategies.end()) return std::nullopt;
  std::optional<std::pair<std::string, double>> tight;
  for (const auto& tr : run->tenants) {
    const auto* tenant = scenario::find_tenant(result.input, tr.name);
    if (!tenant || tr.latency_cdf_s.empty()) continue;
    const auto margin = scenario::sla_margin(*tenant, tr);
    if (margin.metric.empty()) continue;  // no target
    if (!tight || margin.relative < tight->second) tight = std::make_pair(tr.name, margin.relative);
  }
  return tight;
}

/// SLA risk of the recommendation `best`, stated from the latency margin of its tightest tenant (its
/// figure at the quantile its SLA allows against its target), the violations nearest their allowance
/// and, when the constants were sampled, the share of samples in which the fleet meets every SLA.
/// Never "low" below a 25 % margin.
std::string sla_risk_text(RoiReport& r, const StrategySummary& best, const scenario::SimResult& result) {
  const auto [worst, worst_ratio] = nearest_allowance(r, best);
  int level = worst_ratio > 0.5 ? 1 : 0;  // 0 low, 1 moderate, 2 high
  std::string margin_text;
  if (const auto tight = tightest_margin(best, result)) {
    level = std::max(level, tight->second < kHighRiskMargin ? 2 : tight->second < kLowRiskMargin ? 1 : 0);
    margin_text = ": its tightest tenant, " + tight->first + ", has " + format_percent(tight->second) +
                  " of its target to spare (low risk needs " + format_percent(kLowRiskMargin) + ", under " +
                  format_percent(kHighRiskMargin) + " is high)";
  }
  std::string tail;
  if (worst && worst->sla_violation_frac > 0.0) {
    tail += "; " + worst->tenant + " has " + format_percent(worst->sla_violation_frac) +
            " of requests over target (allowed " + format_percent(worst->sla_max_violation_frac) + ")";
  }
  if (const auto* band = band_of(result, best.name)) {
    const double meets = band->fleet_meets_sla_frac;
    level = std::max(level, meets < 0.5 ? 2 : meets < 0.9 ? 1 : 0);
    tail += "; with the fitted constants' uncertainty the fleet meets every SLA in " + format_percent(meets) + " of " +
            std::to_string(band->num_samples) + " samples";
    if (worst && band->sla_violation_p95_frac > worst->sla_max_violation_frac) {
      level = std::max(level, 1);
      tail += ", and the violation rate reaches " + format_percent(band->sla_violation_p95_frac) + " (95th percentile)";
    }
  }
  static constexpr const char* kLevels[] = {"low", "moderate", "high"};
  r.sla_risk_level = margin_text.empty() && level == 0 ? "not stated" : kLevels[level];
  if (margin_text.empty() && level == 0) {
    // Without a margin nothing says the risk is low.
    return "SLA risk under " + best.name +
           " is not stated: the result holds no latency distribution to measure its margin by (simulate it again)" +
           tail + ".";
  }
  return "SLA risk is " + std::string(kLevels[level]) + " under " + best.name + margin_text + tail + ".";
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

/// Which answer this is: the advisor's search, or the comparison of the strategies as given (which
/// a search over GPU types, settings and pools can answer otherwise), so that a reader of both knows
/// why they differ.
std::string scope_text(const scenario::SimResult& result) {
  if (!result.origin.empty()) {
    const auto colon = result.origin.find(": ");
    return "This is the advisor's answer (slicewise advise): " +
           (colon == std::string::npos ? result.origin : result.origin.substr(colon + 2)) + ".";
  }
  return "This compares the scenario's strategies as given, on its fleet and settings; it is not a search: the "
         "advisor (slicewise advise) searches GPU types, settings and pools, and can answer otherwise.";
}

/// Sets the executive summary: recommendation, savings, (when one qualifies) SLA risk, and the
/// strategies rejected.
void summarize(RoiReport& r, const scenario::SimResult& result, const CostReport& costs, const std::string& prices) {
  r.rejected = rejected_text(r);
  r.scope = scope_text(result);
  if (r.recommended < 0) {
    summarize_none_qualifies(r, prices);
    r.answer = answer_sentence(r, result);
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
  r.answer = answer_sentence(r, result);
}

}  // namespace

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
         " on Kubernetes with the NVIDIA GPU operator: `slicewise export-config RESULT --strategy " + name +
         " --out DIR` writes these files.";
}

RoiReport build_roi_report(const scenario::SimResult& result, const CostReport& costs,
                           const pricing::PriceTable* table) {
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
  r.energy = energy_summary(result, pricing::shipped_onprem_table());
  for (std::size_t i = 0; i < r.strategies.size() && i < r.energy.rows.size(); ++i) {
    if (const auto& e = r.energy.rows[i].energy) r.strategies[i].monthly_kwh = e->monthly_kwh;
  }
  r.recommended = recommend(r.strategies);
  if (r.recommended >= 0) {
    try {
      r.deploy_configs = deploy_configs(result, r.strategies[static_cast<std::size_t>(r.recommended)].name);
    } catch (const Error&) {
      r.deploy_configs.clear();  // a result whose input lacks the strategy: no appendix, the rest stands
    }
  }
  r.priced_items = priced_items_of(costs, table);
  const std::string prices = prices_text(costs);
  summarize(r, result, costs, prices);
  r.assumptions = assumptions_of(r, result, costs, prices);
  r.methodology = methodology();
  return r;
}

RoiReport priced_roi_report(const scenario::SimResult& result, const scenario::Scenario& scenario) {
  const auto table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
  return build_roi_report(result, cost_result(result, scenario, table, scenario.pricing.option), &table);
}

std::string recommended_headline(const RoiReport& r) {
  if (r.recommended < 0) return "";
  std::string name = r.strategies[static_cast<std::size_t>(r.recommended)].name;
  // The mechanism and settings beside the label (the headline said "mps", not "MPS with 50 %
  // active threads").
  if (const auto* spec = scenario::find_strategy(r.result.input, name)) name += " (" + configuration_text(*spec) + ")";
  if (!r.sweep) return "Recommended strategy: " + name;
  std::string point = r.sweep->detail_point;
  for (const auto& row : r.sweep->rows) {
    if (row.point == r.sweep->detail_point) point += " (" + axis_values(r.sweep->axes, row.labels) + ")";
  }
  return "Recommended strategy at point " + point + ": " + name;
}

}  // namespace slicewise::report
