// The advisor's answer: candidates priced and compared, the Pareto front (advice.hpp); its
// explanation is explanation.cpp's.
#include "advisor/advice.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "advisor/explanation.hpp"
#include "advisor/pools.hpp"
#include "core/error.hpp"
#include "report/autoscale_cost.hpp"
#include "report/cost_lines.hpp"
#include "report/costing.hpp"
#include "report/text_table.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/sizing.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::advisor {

using report::autoscaled_note;
using report::cost_result;
using report::format_percent;
using report::instances_text;
using scenario::gpus_text;

namespace {

/// The candidate's pools' GPUs at the scenario's contexts, per GPU type.
std::map<std::string, int> pool_gpus(const scenario::Scenario& base, const AdviceCandidate& candidate) {
  std::map<std::string, int> gpus;
  for (const auto& t : base.tenants) {
    if (const auto it = candidate.pools.find(t.name); it != candidate.pools.end()) {
      gpus[it->second] += t.num_contexts * pool_gpus_of(t, candidate);
    }
  }
  return gpus;
}

/// The shared GPUs a candidate needs at least (no pools).
int shared_lower_bound(const scenario::Scenario& base, const AdviceCandidate& candidate,
                       const scenario::Catalogs& catalogs) {
  const auto& policy = scenario::policy_of(candidate.strategy.kind);
  const auto* gpu = catalogs.gpus->find(candidate.gpu);
  int contexts = 0;
  double memory = 0.0;
  for (const auto& t : base.tenants) {
    if (candidate.pools.count(t.name)) continue;
    contexts += t.num_contexts;
    memory += t.num_contexts * scenario::memory_on_gib(t.workload, gpu->id, gpu->memory_gib);
  }
  if (contexts == 0) return 0;
  if (policy.partitions_gpus()) {
    const int instances = scenario::most_mig_per_gpu(*catalogs.mig->find(candidate.gpu), candidate.strategy).first;
    const int per_gpu = instances * std::max(1, policy.context_limit(candidate.strategy));
    return std::max(1, (contexts + per_gpu - 1) / per_gpu);
  }
  if (policy.context_limit(candidate.strategy) == 1) return contexts;
  int bound = std::max(1, static_cast<int>(std::ceil(memory / gpu->memory_gib - 1e-9)));
  if (const int limit = policy.context_limit(candidate.strategy); limit > 0)
    bound = std::max(bound, (contexts + limit - 1) / limit);
  return bound;
}

}  // namespace

int candidate_lower_bound(const scenario::Scenario& base, const AdviceCandidate& candidate,
                          const scenario::Catalogs& catalogs) {
  int bound = shared_lower_bound(base, candidate, catalogs);
  for (const auto& [gpu, n] : pool_gpus(base, candidate)) bound += n;
  return std::max(1, bound);
}

double candidate_floor_monthly_usd(const scenario::Scenario& base, const AdviceCandidate& candidate,
                                   const scenario::Catalogs& catalogs, const pricing::PriceTable& table,
                                   const std::vector<pricing::PurchaseOption>& options) {
  const std::string& region = base.pricing.region;
  double total = 0.0;
  if (const int shared = shared_lower_bound(base, candidate, catalogs); shared > 0) {
    const double usd = cheapest_monthly_usd(table, candidate.gpu, shared, options, region);
    if (usd < 0.0) return -1.0;
    total += usd;
  }
  for (const auto& [gpu, n] : pool_gpus(base, candidate)) {
    const double usd = cheapest_monthly_usd(table, gpu, n, options, region);
    if (usd < 0.0) return -1.0;
    total += usd;
  }
  return total;
}

std::optional<pricing::StrategyCost> price_candidate(const scenario::Scenario& variant,
                                                     const scenario::StrategyResult& result,
                                                     const pricing::PriceTable& table, pricing::PurchaseOption option) {
  scenario::SimResult one;
  one.scenario = variant.name;
  one.input = variant;
  one.strategies = {result};
  try {
    return cost_result(one, one.input, table, option).strategies.front();
  } catch (const ConfigError&) {
    return std::nullopt;  // no price under this option
  }
}

void add_autoscaled(Advice& advice, const scenario::Scenario& variant, const scenario::StrategyResult& answer,
                    const pricing::PriceTable& table) {
  if (!advice.answer) return;
  const auto cost = price_candidate(variant, answer, table, advice.rows[*advice.answer].option);
  if (!cost || !cost->autoscaled) return;
  advice.autoscaled = cost->autoscaled;
  auto note = autoscaled_note(*cost->autoscaled);
  note[0] = 'A';
  advice.explanation.push_back("The loads follow the day, so the answer was sized again for each hour. " + note +
                               ". The fleet above is the peak's; an autoscaler that follows this schedule "
                               "pays the autoscaled figure.");
}

namespace {

/// The answer's sizing record; none without an answer.
std::optional<scenario::SizingRecord> answer_sizing(const Advice& advice,
                                                    const std::vector<CandidateOutcome>& outcomes) {
  if (!advice.answer) return std::nullopt;
  const auto& r = outcomes[advice.rows[*advice.answer].candidate].result;
  return r ? r->sizing : std::nullopt;
}

/// The baseline's monthly cost under `option` (0 when it was not simulated or has no price there).
double baseline_monthly_usd(const scenario::Scenario& s, const pricing::PriceTable& table,
                            const AdviceSelection& selection, const AdviceCandidate& baseline,
                            const CandidateOutcome& outcome, pricing::PurchaseOption option) {
  if (const auto& r = outcome.result) {
    if (const auto cost = price_candidate(candidate_scenario(s, baseline, selection.max_gpus), *r, table, option)) {
      return cost->monthly_usd;
    }
  }
  return 0.0;
}

/// What a row's savings are measured against: the baseline under the row's own option (like for
/// like), or under the scenario's option where the baseline has no price under the row's.
struct BaselineCosts {
  double own = 0.0;                                 ///< under the scenario's option
  std::map<pricing::PurchaseOption, double> under;  ///< per option, where priced
  double for_option(pricing::PurchaseOption option) const {
    const auto it = under.find(option);
    return it != under.end() && it->second > 0.0 ? it->second : own;
  }
};

/// One candidate (number `c`, sized in `variant`) under one option: pruned, unpriced, or priced
/// against the baseline's `baseline_monthly`.
AdviceRow candidate_row(const scenario::Scenario& s, const scenario::Scenario& variant,
                        const pricing::PriceTable& table, std::size_t c, const AdviceCandidate& candidate,
                        const CandidateOutcome& outcome, pricing::PurchaseOption option,
                        const BaselineCosts& baseline) {
  const double baseline_monthly = baseline.for_option(option);
  AdviceRow row;
  row.candidate = c;
  row.option = option;
  row.isolation = models::to_string(scenario::policy_of(candidate.strategy.kind).isolation());
  if (!outcome.result) {
    row.status = "pruned";
    row.num_gpus = outcome.lower_bound_gpus;
    row.reason = outcome.pruned;
    return row;
  }
  const auto& result = *outcome.result;
  const auto& sizing = *result.sizing;
  row.num_gpus = result.num_gpus_used;
  row.contexts = sizing.contexts;
  const auto worst = scenario::worst_tenant(s, result);  // a candidate keeps the scenario's tenants
  row.worst_tenant = worst.name;
  row.worst_margin = worst.margin;
  const auto cost = price_candidate(variant, result, table, option);
  if (!cost) {
    row.status = "unpriced";
    row.reason = "no " + pricing::to_string(option) + " price for " + candidate.gpu +
                 (s.pricing.region.empty() ? "" : " in " + s.pricing.region);
  } else {
    row.instances = instances_text(*cost);
    row.monthly_usd = cost->monthly_usd;
    row.monthly_savings_usd = baseline_monthly - cost->monthly_usd;
    row.savings_frac = baseline_monthly > 0.0 ? row.monthly_savings_usd / baseline_monthly : 0.0;
    row.option_savings_usd = baseline.own - baseline_monthly;
    row.spot = cost->spot;
    row.status = sizing.feasible ? "meets" : "misses";
    if (!sizing.feasible) row.reason = sizing.shortfall;
  }
  return row;
}

/// True when `r` beats the answer so far: cheaper (by more than half a cent), else more margin,
/// else fewer GPUs.
bool better_answer(const AdviceRow& r, const AdviceRow& best) {
  return r.monthly_usd < best.monthly_usd - 0.005 ||
         (std::abs(r.monthly_usd - best.monthly_usd) <= 0.005 &&
          (r.worst_margin > best.worst_margin + 1e-12 ||
           (r.worst_margin == best.worst_margin && r.num_gpus < best.num_gpus)));
}

/// Why a candidate cannot be deployed as simulated ("" when it can): priorities or weights under a
/// strategy whose Kubernetes components have none (time slicing through the device plugin).
std::string undeployable(const scenario::Scenario& variant, const AdviceCandidate& candidate) {
  if (scenario::tenants_with_undeployable_priority(variant, candidate.strategy).empty()) return "";
  return scenario::policy_of(candidate.strategy.kind).priority_not_deployable();
}

/// The cheapest row that meets every SLA and can be deployed (ties: more margin, fewer GPUs, first).
std::optional<std::size_t> cheapest_meeting(const std::vector<AdviceRow>& rows, const std::vector<bool>& deployable) {
  std::optional<std::size_t> answer;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].status != "meets" || !deployable[i]) continue;
    if (!answer || better_answer(rows[i], rows[*answer])) answer = i;
  }
  return answer;
}

/// Pareto front: marks the rows that meet every SLA and that no such row beats both on cost (or
/// ties) and on margin.
void mark_front(std::vector<AdviceRow>& rows, const std::vector<bool>& deployable) {
  std::vector<std::size_t> meets;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].status == "meets" && deployable[i]) meets.push_back(i);
  }
  for (std::size_t i : meets) {
    const auto& r = rows[i];
    rows[i].on_front = std::none_of(meets.begin(), meets.end(), [&](std::size_t j) {
      const auto& o = rows[j];
      return j != i && o.monthly_usd <= r.monthly_usd + 1e-9 && o.worst_margin >= r.worst_margin - 1e-12 &&
             (o.monthly_usd < r.monthly_usd - 1e-9 || o.worst_margin > r.worst_margin + 1e-12 || j < i);
    });
  }
}

/// Why `r`, which meets every SLA, lost to the answer `a`.
std::string loss_reason(const AdviceRow& r, const AdviceRow& a) {
  if (r.monthly_usd <= a.monthly_usd + 0.005) {
    if (r.worst_margin >= a.worst_margin - 1e-12) {
      return "meets every SLA at the answer's cost and margin (" + format_percent(r.worst_margin) +
             "); the answer uses no more GPUs and came first";
    }
    // As many decimals as it takes to show the two apart (up to four).
    int decimals = 1;
    while (decimals < 4 && format_percent(r.worst_margin, decimals) == format_percent(a.worst_margin, decimals))
      ++decimals;
    return "meets every SLA at the answer's cost, with less margin (" + format_percent(r.worst_margin, decimals) +
           " against " + format_percent(a.worst_margin, decimals) + ")";
  }
  return "meets every SLA but costs " + usd(r.monthly_usd - a.monthly_usd) + " per month more than the answer" +
         (r.on_front ? " (on the front: " + format_percent(r.worst_margin) + " margin against the answer's " +
                           format_percent(a.worst_margin) + ")"
                     : "");
}

}  // namespace

Advice build_advice(const scenario::Scenario& s, const pricing::PriceTable& table, const AdviceSelection& selection,
                    const std::vector<AdviceCandidate>& candidates, const std::vector<CandidateOutcome>& outcomes,
                    int num_simulations, int num_reused) {
  SW_CHECK(candidates.size() == outcomes.size() && !candidates.empty() && candidates.front().baseline,
           "one outcome per candidate, the baseline first");
  Advice advice;
  advice.scenario = s.name;
  advice.table = table.name;
  advice.region = s.pricing.region;
  advice.as_of = table.as_of;
  advice.max_gpus = selection.max_gpus;
  advice.candidates = candidates;
  advice.num_simulations = num_simulations;
  advice.num_reused = num_reused;
  const auto options = advice_options(s, selection);

  BaselineCosts baseline;
  baseline.own = baseline_monthly_usd(s, table, selection, candidates.front(), outcomes.front(), s.pricing.option);
  for (const auto option : options) {
    baseline.under[option] = baseline_monthly_usd(s, table, selection, candidates.front(), outcomes.front(), option);
  }
  std::vector<std::string> not_deployable;  // per row: why it cannot be deployed as simulated
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const auto variant = candidate_scenario(s, candidates[c], selection.max_gpus);
    const std::string why = undeployable(variant, candidates[c]);
    for (const auto option : options) {
      not_deployable.push_back(why);
      // The baseline row: the baseline, simulated, under the scenario's own option.
      if (outcomes[c].result && candidates[c].baseline && option == s.pricing.option)
        advice.baseline_row = advice.rows.size();
      advice.rows.push_back(candidate_row(s, variant, table, c, candidates[c], outcomes[c], option, baseline));
    }
  }
  std::vector<bool> deployable(not_deployable.size());
  for (std::size_t i = 0; i < deployable.size(); ++i) deployable[i] = not_deployable[i].empty();
  advice.answer = cheapest_meeting(advice.rows, deployable);
  mark_front(advice.rows, deployable);
  // Why each of the others lost.
  for (std::size_t i = 0; i < advice.rows.size(); ++i) {
    auto& r = advice.rows[i];
    if (r.status != "meets" || (advice.answer && i == *advice.answer)) continue;
    r.reason = !deployable[i] ? "meets every SLA as simulated, but cannot be deployed: " + not_deployable[i] +
                                    "; it shows what priority would buy"
               : advice.answer ? loss_reason(r, advice.rows[*advice.answer])
                               : r.reason;
  }
  advice.answer_sizing = answer_sizing(advice, outcomes);
  explain(advice, s, outcomes.front().result ? &*outcomes.front().result : nullptr);
  return advice;
}

std::string no_answer_message(const Advice& advice, const scenario::Scenario& base,
                              const std::vector<CandidateOutcome>& outcomes) {
  if (advice.answer) return "";
  // The closest: the simulated candidate whose worst tenant came nearest to its target (the
  // baseline only when nothing else was simulated).
  std::optional<std::size_t> closest;
  double closest_margin = 0.0;
  for (std::size_t c = 0; c < outcomes.size(); ++c) {
    if (!outcomes[c].result || (c == 0 && outcomes.size() > 1 && closest)) continue;
    const double margin = scenario::worst_tenant(base, *outcomes[c].result).margin;
    if (!closest || (closest == 0 && c > 0) || margin > closest_margin) {
      closest = c;
      closest_margin = margin;
    }
  }
  std::string text = "no configuration within " + gpus_text(advice.max_gpus) + " meets every SLA";
  if (!closest) return text;
  const auto& r = *outcomes[*closest].result;
  std::string missing = scenario::worst_shortfall(base, r);
  if (missing.empty() && r.sizing) missing = r.sizing->shortfall;
  return text + ": the closest is " + advice.candidates[*closest].label + " with " + gpus_text(r.num_gpus_used) +
         ", missing " + missing;
}

}  // namespace slicewise::advisor
