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
#include "core/units.hpp"
#include "models/strategy_kind.hpp"
#include "pricing/licences.hpp"
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

/// "on-demand", "spot", "1-year reserved", "3-year reserved".
std::string option_text(pricing::PurchaseOption option) {
  switch (option) {
    case pricing::PurchaseOption::on_demand: return "on-demand";
    case pricing::PurchaseOption::spot: return "spot";
    case pricing::PurchaseOption::reserved_1y: return "1-year reserved";
    case pricing::PurchaseOption::reserved_3y: return "3-year reserved";
  }
  return pricing::to_string(option);
}

/// The price table row behind `line`: in `table` when given; otherwise in the shipped table of the
/// costs' table name, provided it has the very price the costs used (a user table may share the
/// name); nullptr when unknown.
const pricing::InstancePrice* price_row(const CostReport& costs, const pricing::PriceTable* table,
                                        const pricing::CostLine& line) {
  const pricing::PriceTable* source = table;
  if (!source) {
    try {
      source = pricing::find_shipped_price_table(costs.table);
    } catch (const Error&) {
      source = nullptr;  // no shipped tables to read: the table's date stands for every price
    }
  }
  const pricing::InstancePrice* row = source ? source->find(line.instance_type, line.region) : nullptr;
  if (!row || table) return row;
  const auto price = row->usd_per_hour(costs.option);
  return price && std::abs(*price - line.usd_per_hour_each) <= 1e-9 * std::max(1.0, *price) ? row : nullptr;
}

/// `line` as a priced item: its price's own date and source (spot and reserved prices have theirs).
PricedItem priced_item(const CostReport& costs, const pricing::PriceTable* table, const pricing::CostLine& line) {
  PricedItem item;
  item.name = line.instance_type;
  item.role = line.role;
  item.region = line.region;
  item.usd_per_hour = line.usd_per_hour_each;
  item.as_of = costs.as_of;
  item.option_usd_per_hour[static_cast<std::size_t>(costs.option)] = line.usd_per_hour_each;
  if (line.role == "licence") {
    item.option_usd_per_hour.fill(line.usd_per_hour_each);
    for (const auto& licence : pricing::shipped_licences().licences) {
      if (licence.name == line.instance_type) item.as_of = licence.as_of, item.source = licence.source;
    }
    return item;
  }
  const auto* row = price_row(costs, table, line);
  if (!row) return item;
  for (const auto& [name, option] : pricing::purchase_option_table()) {
    if (option != costs.option) item.option_usd_per_hour[static_cast<std::size_t>(option)] = row->usd_per_hour(option);
  }
  item.as_of = row->as_of;
  item.source = row->source;
  const bool spot = costs.option == pricing::PurchaseOption::spot;
  const bool reserved =
      costs.option == pricing::PurchaseOption::reserved_1y || costs.option == pricing::PurchaseOption::reserved_3y;
  const std::string& own_as_of = spot ? row->spot_as_of : reserved ? row->reserved_as_of : row->as_of;
  const std::string& own_source = spot ? row->spot_source : reserved ? row->reserved_source : row->source;
  if (!own_as_of.empty()) item.as_of = own_as_of;
  if (!own_source.empty()) item.source = own_source;
  return item;
}

/// Every price `costs` used, once each, in order of first use.
std::vector<PricedItem> priced_items_of(const CostReport& costs, const pricing::PriceTable* table) {
  std::vector<PricedItem> items;
  std::set<std::string> seen;
  const auto add = [&](const pricing::CostLine& line) {
    if (line.count <= 0 || !seen.insert(line.role + "\n" + line.instance_type + "\n" + line.region).second) return;
    items.push_back(priced_item(costs, table, line));
  };
  for (const auto& strategy : costs.strategies) {
    for (const auto& line : strategy.lines) add(line);
  }
  for (const auto& line : costs.baseline_lines) add(line);
  return items;
}

/// A price's date as a reader can use it: "price as of 2025-11-30"; for a snapshot that carries
/// none, the day it was retrieved ("price retrieved 2026-11-22; its source gives no snapshot date")
/// rather than the table's wording ("catalog snapshot date not determinable from the file ...").
std::string price_date_text(const std::string& as_of) {
  const auto is_date = [](const std::string& s) {
    return s.size() == 10 && s[4] == '-' && s[7] == '-' &&
           std::all_of(s.begin(), s.end(), [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
  };
  if (is_date(as_of)) return "price as of " + as_of;
  if (const auto at = as_of.rfind("retrieved "); at != std::string::npos && is_date(as_of.substr(at + 10, 10))) {
    return "price retrieved " + as_of.substr(at + 10, 10) + "; its source gives no snapshot date";
  }
  return "price date: " + as_of;
}

/// "g6e.2xlarge: $2.24208/h on-demand, aws us-east-1, price as of 2025-11-30 (source: ...)".
std::string priced_item_text(const RoiReport& r, const PricedItem& item) {
  if (item.role == "licence") {
    return item.name + ": " + format_usd(item.usd_per_hour * kHoursPerMonth * 12.0, 0) + " per GPU-year (licence), " +
           price_date_text(item.as_of) + (item.source.empty() ? std::string() : " (source: " + item.source + ")");
  }
  return item.name + ": $" + format_number(item.usd_per_hour) + "/h " + option_text(r.costs.option) + ", " +
         r.costs.table + (item.region.empty() ? "" : " " + item.region) + ", " + price_date_text(item.as_of) +
         (item.source.empty() ? std::string() : " (source: " + item.source + ")");
}

/// Where the tenants' workload figures come from, in a line: given in the scenario, or how many
/// carry a source (`profile import` writes one); the appendix lists them.
std::string workload_provenance_text(const scenario::Scenario& input) {
  const auto sourced = std::count_if(input.tenants.begin(), input.tenants.end(),
                                     [](const scenario::Tenant& t) { return !t.workload.source.empty(); });
  const auto all = static_cast<long>(input.tenants.size());
  std::string where = "given in the scenario for every tenant";
  if (sourced == all && all > 0) {
    where = "every tenant's from the source its workload names";
  } else if (sourced > 0) {
    where = std::to_string(sourced) + " of " + std::to_string(all) +
            " tenants' from the source their workload names, the others given in the scenario";
  }
  return "Workload figures (GPU duty, SM occupancy, memory bandwidth, memory): " + where +
         "; the appendix lists them per tenant";
}

/// "fleet as given (4 GPUs)", "fleet sized to the SLA (2 GPUs)".
std::string fleet_text(const std::string& basis, int num_gpus) {
  const std::string gpus = plural(num_gpus, "GPU", "GPUs");
  if (basis == "sized for SLA") return "fleet sized to the SLA (" + gpus + ")";
  if (basis == "no SLA fleet")
    return "fleet sized to the SLA, which no fleet within its limit met: the closest (" + gpus + ") is priced";
  return "fleet as given (" + gpus + ")";
}

// ---- The sweep's headline (add_sweep) ----

using SweepRow = SweepSection::Row;

/// Where a point is, for a sentence: "users=8" on one axis; "p0003 (phi_users=4, deepseek_users=2)"
/// on several, where the commas would blur the sentence without the point's name.
std::string where(const SweepSection& sw, const SweepRow& row) {
  std::string values = axis_values(sw.axes, row.labels);
  if (sw.axes.size() == 1) return values;
  return values.empty() ? row.point : row.point + " (" + values + ")";
}

/// The rows that ran, in the order sentences read them: by the swept number when one numeric axis
/// is swept, else in sweep order.
std::vector<const SweepRow*> ordered_rows(const SweepSection& sw) {
  std::vector<const SweepRow*> rows;
  for (const auto& row : sw.rows) {
    if (!row.failed) rows.push_back(&row);
  }
  if (sw.axes.size() != 1) return rows;
  const auto numbers = sweep_axis_numbers(sw, 0);
  if (numbers.empty()) return rows;
  const auto number_of = [&](const SweepRow* row) { return numbers[static_cast<std::size_t>(row - sw.rows.data())]; };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const SweepRow* a, const SweepRow* b) { return number_of(a) < number_of(b); });
  return rows;
}

/// "users = 2 … 16" per axis ("model = a, b, c" when not numeric), joined with " and ".
std::string axes_range(const SweepSection& sw) {
  std::vector<std::string> parts;
  for (std::size_t a = 0; a < sw.axes.size(); ++a) {
    std::vector<std::string> distinct;
    for (const auto& row : sw.rows) {
      if (a < row.labels.size() && std::find(distinct.begin(), distinct.end(), row.labels[a]) == distinct.end())
        distinct.push_back(row.labels[a]);
    }
    const auto numbers = sweep_axis_numbers(sw, a);
    std::string range = join(distinct, ", ");
    if (!numbers.empty() && distinct.size() > 1) {
      const auto [low, high] = std::minmax_element(numbers.begin(), numbers.end());
      range = sw.rows[static_cast<std::size_t>(low - numbers.begin())].labels[a] + " … " +
              sw.rows[static_cast<std::size_t>(high - numbers.begin())].labels[a];
    } else if (distinct.size() > 4) {
      range = distinct.front() + " … " + distinct.back() + " (" + std::to_string(distinct.size()) + " values)";
    }
    parts.push_back(sw.axes[a] + " = " + range);
  }
  return join(parts, " and ");
}

/// "mig is recommended at 5 points, dedicated at 3; no strategy qualifies at 1".
std::string recommended_counts(const SweepSection& sw) {
  std::map<std::string, int> count;
  int none = 0;
  for (const auto& row : sw.rows) {
    if (row.failed) continue;
    if (row.recommended.empty()) ++none;
    else ++count[row.recommended];
  }
  std::vector<std::string> names;
  for (const auto& strategy : sw.strategies) {
    if (count.count(strategy)) names.push_back(strategy);
  }
  std::stable_sort(names.begin(), names.end(), [&](const auto& a, const auto& b) { return count[a] > count[b]; });
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int n = count[names[i]];
    text += (i == 0 ? names[i] + " is recommended at " + plural(n, "point", "points")
                    : ", " + names[i] + " at " + std::to_string(n));
  }
  if (none > 0)
    text += (text.empty() ? "no strategy qualifies at " + plural(none, "point", "points")
                          : "; no strategy qualifies at " + std::to_string(none));
  return text;
}

/// "mig saves $15,067.20 at users=2 to $9,000.00 at users=16", or "" when the strategy has no saving.
std::string savings_clause(const SweepSection& sw, std::size_t s, const std::vector<const SweepRow*>& rows) {
  std::vector<const SweepRow*> priced;
  for (const auto* row : rows) {
    if (s < row->savings_usd.size() && std::isfinite(row->savings_usd[s])) priced.push_back(row);
  }
  if (priced.empty()) return "";
  const auto value = [&](const SweepRow* row) { return row->savings_usd[s]; };
  const auto [low, high] = std::minmax_element(
      priced.begin(), priced.end(), [&](const SweepRow* a, const SweepRow* b) { return value(a) < value(b); });
  const std::string& name = sw.strategies[s];
  if (value(*high) - value(*low) <= 0.005)
    return name + " saves " + format_usd(value(priced.front())) + " at every point";
  const SweepRow* first = priced.front();
  const SweepRow* last = priced.back();
  std::string text = value(*low) >= 0.0 ? name + " saves " : name + "'s monthly savings go from ";
  text += format_usd(value(first)) + " at " + where(sw, *first) + " to " + format_usd(value(last)) + " at " +
          where(sw, *last);
  if (value(*low) < std::min(value(first), value(last)) - 0.005 ||
      value(*high) > std::max(value(first), value(last)) + 0.005) {
    text += " (lowest " + format_usd(value(*low)) + " at " + where(sw, **low) + ", highest " +
            format_usd(value(*high)) + " at " + where(sw, **high) + ")";
  }
  return text;
}

/// Up to four places, then "…".
std::string some_places(const SweepSection& sw, const std::vector<const SweepRow*>& rows) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < rows.size() && i < 4; ++i) parts.push_back(where(sw, *rows[i]));
  if (rows.size() > 4) parts.emplace_back("…");
  return join(parts, "; ");
}

/// Where `met` splits `rows` in two (all true then all false, or the reverse): the index of the
/// first row of the second run; 0 when it does not.
std::size_t one_change(const std::vector<bool>& met) {
  std::size_t changes = 0, at = 0;
  for (std::size_t i = 1; i < met.size(); ++i) {
    if (met[i] != met[i - 1]) ++changes, at = i;
  }
  return changes == 1 ? at : 0;
}

/// "meets every SLA up to users=12 (missed from users=14)", "meets every SLA at 3 of 8 points
/// (missed at ...)": where strategy `s` meets every tenant's SLA.
std::string sla_clause(const SweepSection& sw, std::size_t s, const std::vector<const SweepRow*>& rows) {
  std::vector<const SweepRow*> present;
  std::vector<bool> met;
  for (const auto* row : rows) {
    if (s < row->savings_usd.size() && std::isfinite(row->savings_usd[s])) {
      present.push_back(row);
      met.push_back(s < row->sla_met.size() && row->sla_met[s]);
    }
  }
  const auto n_met = static_cast<std::size_t>(std::count(met.begin(), met.end(), true));
  if (present.empty()) return "";
  if (n_met == present.size()) return "meets every SLA at every point";
  if (n_met == 0) return "misses an SLA at every point";
  const bool one_axis = sw.axes.size() == 1 && !sweep_axis_numbers(sw, 0).empty();
  if (const std::size_t at = one_change(met); one_axis && at > 0) {
    return met.front() ? "meets every SLA up to " + where(sw, *present[at - 1]) + " (missed from " +
                             where(sw, *present[at]) + ")"
                       : "misses an SLA up to " + where(sw, *present[at - 1]) + " and meets every SLA from " +
                             where(sw, *present[at]);
  }
  std::vector<const SweepRow*> missed;
  for (std::size_t i = 0; i < present.size(); ++i) {
    if (!met[i]) missed.push_back(present[i]);
  }
  return "meets every SLA at " + std::to_string(n_met) + " of " + std::to_string(present.size()) +
         " points (missed at " + some_places(sw, missed) + ")";
}

/// "From users=14 no strategy meets every SLA." / "At 2 points no strategy meets every SLA: ...", or "".
std::string no_strategy_text(const SweepSection& sw, const std::vector<const SweepRow*>& rows) {
  std::vector<bool> none;
  std::vector<const SweepRow*> where_none;
  for (const auto* row : rows) {
    const bool any = std::any_of(row->sla_met.begin(), row->sla_met.end(), [](bool met) { return met; });
    none.push_back(!any);
    if (!any) where_none.push_back(row);
  }
  if (where_none.empty()) return "";
  if (where_none.size() == rows.size()) return "No strategy meets every SLA at any point.";
  const bool one_axis = sw.axes.size() == 1 && !sweep_axis_numbers(sw, 0).empty();
  if (const std::size_t at = one_change(none); one_axis && at > 0 && none.back()) {
    return "From " + where(sw, *rows[at]) + " no strategy meets every SLA.";
  }
  return "At " + plural(static_cast<long>(where_none.size()), "point", "points") +
         " no strategy meets every SLA: " + some_places(sw, where_none) + ".";
}

/// Each shared strategy's savings and SLA over the sweep, joined: "mig saves ... and meets every
/// SLA up to users=12; mps saves ... and misses an SLA at every point."
std::vector<std::string> sweep_savings_sentences(const SweepSection& sw, const std::string& baseline,
                                                 const std::vector<const SweepRow*>& rows) {
  std::vector<std::string> clauses;
  for (std::size_t s = 0; s < sw.strategies.size(); ++s) {
    if (sw.strategies[s] == baseline) continue;  // saves nothing against itself
    const std::string savings = savings_clause(sw, s, rows);
    if (savings.empty()) continue;
    std::string clause = savings;
    // "mig's monthly savings go from ..." has no verb of mig's own: "and it misses ...".
    const bool possessive = savings.find("'s monthly savings go from") != std::string::npos;
    if (const std::string sla = sla_clause(sw, s, rows); !sla.empty())
      clause += (possessive ? ", and it " : " and ") + sla;
    clause += ".";
    clauses.push_back(std::move(clause));
  }
  return clauses;
}

/// The point and strategy of the cheapest configuration that meets every SLA; nullptr when none.
std::pair<const SweepRow*, std::size_t> cheapest_meeting(const SweepSection& sw,
                                                         const std::vector<const SweepRow*>& rows) {
  const SweepRow* best_row = nullptr;
  std::size_t best = 0;
  for (const auto* row : rows) {
    for (std::size_t s = 0; s < sw.strategies.size() && s < row->monthly_usd.size(); ++s) {
      const bool met = s < row->sla_met.size() && row->sla_met[s];
      if (!met || !std::isfinite(row->monthly_usd[s])) continue;
      if (!best_row || row->monthly_usd[s] < best_row->monthly_usd[best]) best_row = row, best = s;
    }
  }
  return {best_row, best};
}

/// When the baseline's own cost differs across the points (a sweep over GPU types, say), each
/// point's savings are against a different bill and do not compare: the baseline's range, and the
/// cheapest configuration meeting every SLA at any point, like for like by its monthly cost. ""
/// when every point's baseline costs the same.
std::string like_for_like_text(const SweepSection& sw, const std::string& baseline,
                               const std::vector<const SweepRow*>& rows) {
  const auto b =
      static_cast<std::size_t>(std::find(sw.strategies.begin(), sw.strategies.end(), baseline) - sw.strategies.begin());
  const SweepRow* low = nullptr;
  const SweepRow* high = nullptr;
  for (const auto* row : rows) {
    if (b >= row->monthly_usd.size() || !std::isfinite(row->monthly_usd[b])) continue;
    if (!low || row->monthly_usd[b] < low->monthly_usd[b]) low = row;
    if (!high || row->monthly_usd[b] > high->monthly_usd[b]) high = row;
  }
  if (!low || high->monthly_usd[b] - low->monthly_usd[b] <= 0.005) return "";
  const auto [best_row, best] = cheapest_meeting(sw, rows);
  std::string text = "Like for like: each point's savings are against its own " + baseline + ", which costs " +
                     format_usd(low->monthly_usd[b]) + " a month at " + where(sw, *low) + " and " +
                     format_usd(high->monthly_usd[b]) + " at " + where(sw, *high) +
                     ", so compare the points by cost, not by saving";
  if (best_row) {
    text += ": the cheapest that meets every SLA is " + sw.strategies[best] + " at " + where(sw, *best_row) + ", " +
            format_usd(best_row->monthly_usd[best]) + " a month, " +
            format_usd(low->monthly_usd[b] - best_row->monthly_usd[best]) + " less than the cheapest " + baseline;
  }
  return text + ".";
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

std::vector<std::string> provenance_lines(const RoiReport& r) {
  std::vector<std::string> lines;
  for (const auto& item : r.priced_items) lines.push_back(priced_item_text(r, item));
  const auto& calibration = r.result.calibration;
  lines.push_back("Calibration profile: " + (calibration.profile_id.empty()
                                                 ? std::string("none (uncalibrated defaults)")
                                                 : calibration.profile_id));
  lines.push_back("Seed: " + std::to_string(r.result.seed));
  for (std::size_t i = 0; i < r.strategies.size(); ++i) {
    const auto& s = r.strategies[i];
    lines.push_back(s.name + ": " +
                    fleet_text(i < r.costs.fleet_basis.size() ? r.costs.fleet_basis[i] : "as given", s.num_gpus));
  }
  lines.push_back(workload_provenance_text(r.result.input));
  return lines;
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

std::string axis_values(const std::vector<std::string>& axes, const std::vector<std::string>& labels) {
  std::vector<std::string> parts;
  for (std::size_t a = 0; a < axes.size() && a < labels.size(); ++a) parts.push_back(axes[a] + "=" + labels[a]);
  return join(parts, ", ");
}

std::vector<double> sweep_axis_numbers(const SweepSection& sweep, std::size_t axis) {
  std::vector<double> numbers;
  for (const auto& row : sweep.rows) {
    if (axis >= row.labels.size()) return {};
    const std::string& label = row.labels[axis];
    if (label.empty() || std::isspace(static_cast<unsigned char>(label.front()))) return {};
    char* end = nullptr;
    const double value = std::strtod(label.c_str(), &end);
    if (end != label.c_str() + label.size() || !std::isfinite(value)) return {};
    numbers.push_back(value);
  }
  return numbers;
}

void add_sweep(RoiReport& r, SweepSection sweep) {
  const auto rows = ordered_rows(sweep);
  std::string detail = "point " + sweep.detail_point;
  for (const auto& row : sweep.rows) {
    if (row.point == sweep.detail_point)
      detail = "point " + sweep.detail_point + " (" + axis_values(sweep.axes, row.labels) + ")";
  }
  const long failed = static_cast<long>(sweep.rows.size() - rows.size());
  std::string across = "Across " + axes_range(sweep) + " (" +
                       plural(static_cast<long>(sweep.rows.size()), "point", "points") +
                       (failed > 0 ? ", " + std::to_string(failed) + " failed" : std::string()) + ")";
  const std::string counts = recommended_counts(sweep);
  r.recommendation =
      across + (counts.empty() ? "." : ": " + counts + ".") + " In detail below, " + detail + ": " + r.recommendation;
  r.sweep_savings = sweep_savings_sentences(sweep, r.costs.baseline, rows);
  const std::string like_for_like = like_for_like_text(sweep, r.costs.baseline, rows);
  r.savings = (like_for_like.empty() ? std::string() : like_for_like + " ") + "At " + detail + ": " + r.savings;
  const std::string none = no_strategy_text(sweep, rows);
  if (!r.sla_risk.empty()) r.sla_risk = "At " + detail + ": " + r.sla_risk;
  if (!none.empty()) r.sla_risk = r.sla_risk.empty() ? none : none + " " + r.sla_risk;
  r.title = "ROI report: sweep " + sweep.name;
  r.sweep = std::move(sweep);
}

}  // namespace slicewise::report
