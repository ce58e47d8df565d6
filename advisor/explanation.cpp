// The advice's explanation in plain words (explanation.hpp).
#include "advisor/explanation.hpp"

#include <algorithm>
#include <cmath>

#include "advisor/pools.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/spot_exposure.hpp"
#include "report/text_table.hpp"
#include "scenario/llm_serving.hpp"
#include "scenario/sizing.hpp"

namespace slicewise::advisor {

using report::format_fixed;
using report::format_percent;
using report::spot_note;
using scenario::gpus_text;

namespace {

double largest_tenant_gib(const scenario::Scenario& s) {
  double most = 0.0;
  for (const auto& t : s.tenants) most = std::max(most, scenario::memory_need_gib(t.workload));
  return most;
}

/// "Settings from the baseline: ..." when some candidate has per-tenant settings; "" otherwise.
std::string baseline_settings_text(const Advice& advice, const scenario::Scenario& s,
                                   const scenario::StrategyResult& baseline) {
  const bool any = std::any_of(advice.candidates.begin(), advice.candidates.end(), [](const AdviceCandidate& c) {
    return !c.priorities.empty() || !c.strategy.tenants.empty();
  });
  if (!any) return "";
  const auto slack = baseline_slacks(s, baseline);
  std::vector<std::string> each;
  for (std::size_t i = 0; i < s.tenants.size(); ++i) {
    each.push_back(s.tenants[i].name + " " +
                   (std::isfinite(slack[i]) ? "x" + format_fixed(slack[i], 2) : std::string("(no target)")));
  }
  return "Settings from the baseline: on their dedicated GPUs the tenants' SLA slack (target over their figure at the "
         "SLA quantile) was " +
         join(each, ", ") +
         ". The MPS candidates with \"N % threads for\" a tenant cap it at the lowest of 25, 50 and 75 % whose "
         "slowdown uses at most half its slack (the others run uncapped); the time-slicing candidates with tenants "
         "\"first\" give those with under twice the least slack high priority.";
}

/// Where a row's purchase option is not the scenario's: " under the same option (OPTION itself
/// saves $X a month on the baseline against SCENARIO_OPTION)"; "" otherwise.
std::string option_saving_text(const AdviceRow& r, const scenario::Scenario& s) {
  if (r.option == s.pricing.option) return "";
  return " under the same option (" + pricing::to_string(r.option) + " itself saves " + usd(r.option_savings_usd) +
         " a month on the baseline against " + pricing::to_string(s.pricing.option) + ")";
}

/// " Its fleet is minimal ..." or " ... the fewest found ...", from the answer's sizing record.
std::string minimal_text(const Advice& advice, const AdviceRow& a) {
  const auto& record = advice.answer_sizing;
  if (!record || record->placement.empty()) return "";  // its contexts own their devices: they decide the GPUs
  if (record->minimal) return " Its fleet is minimal: memory and the contexts per device need as many GPUs.";
  return " Its " + gpus_text(a.num_gpus) + " (contexts placed " + record->placement +
         ") are the fewest found, not proven minimal: one GPU fewer missed balanced by load, spread and packed, and "
         "memory and the contexts per device need " +
         gpus_text(record->lower_bound_gpus) + " at least.";
}

}  // namespace

void explain(Advice& advice, const scenario::Scenario& s, const scenario::StrategyResult* baseline) {
  auto& out = advice.explanation;
  const auto& base = advice.rows[advice.baseline_row];
  out.push_back(
      "Every configuration was sized by simulation to the fewest GPUs (and contexts) with which every tenant meets "
      "its SLA, with the scenario's seed for all of them (" +
      std::to_string(advice.num_simulations) + " simulations; " + std::to_string(advice.num_reused) +
      " runs reused). The baseline is " + advice.candidates[base.candidate].label + ": " + gpus_text(base.num_gpus) +
      ", " + usd(base.monthly_usd) + " per month.");
  // The seeds' decision rules, as they applied to these tenants.
  std::vector<std::string> hardware, software, high, bursty;
  for (const auto& t : s.tenants) {
    if (t.isolation == models::IsolationLevel::hardware) hardware.push_back(t.name);
    if (t.isolation == models::IsolationLevel::software) software.push_back(t.name);
    if (t.priority == scenario::Priority::high) high.push_back(t.name);
    if (t.load.kind == scenario::LoadKind::mmpp || t.load.kind == scenario::LoadKind::trace) bursty.push_back(t.name);
  }
  if (!hardware.empty()) {
    out.push_back("Isolation: " + join(hardware, ", ") +
                  " require hardware isolation, which only dedicated GPUs and MIG "
                  "instances give; under the other strategies they get GPUs of their own, which the sizing paid for.");
  } else if (!software.empty()) {
    out.push_back("Isolation: " + join(software, ", ") +
                  " require software isolation (memory limits): MPS, HAMi, vGPU, MIG "
                  "or dedicated; under time slicing they get GPUs of their own.");
  } else {
    out.emplace_back("Isolation: no tenant requires isolation, so every strategy could share GPUs between them.");
  }
  out.push_back("Memory: the largest tenant needs " + format_number(largest_tenant_gib(s)) +
                " GiB; a tenant that a GPU, MIG layout or vGPU profile could not hold, or whose model spans several "
                "GPUs, ran in a pool of whole GPUs of its own (\"pools:\" in a label); MIG layouts and vGPU profiles "
                "that could not hold a tenant of half a GPU or less were not considered.");
  if (!bursty.empty()) {
    out.push_back("Burstiness: " + join(bursty, ", ") +
                  " arrive in bursts (trace or MMPP load); sharing strategies "
                  "were sized on those bursts, not on the mean rate.");
  }
  if (baseline) {
    if (auto text = baseline_settings_text(advice, s, *baseline); !text.empty()) out.push_back(std::move(text));
  }
  if (!high.empty()) {
    out.push_back("Priority: " + join(high, ", ") +
                  " run at high priority: time slicing serves them first, and MPS caps "
                  "low-priority clients' threads.");
  }
  if (advice.answer) {
    const auto& a = advice.rows[*advice.answer];
    out.push_back("Answer: " + advice.candidates[a.candidate].label + " (" + pricing::to_string(a.option) + "), " +
                  gpus_text(a.num_gpus) + " as " + a.instances + ", " + usd(a.monthly_usd) +
                  " per month: " + usd(a.monthly_savings_usd) + " (" + format_percent(a.savings_frac) +
                  ") less than the baseline" + option_saving_text(a, s) + ". Its worst tenant, " + a.worst_tenant +
                  ", has " + format_percent(a.worst_margin) + " of its SLA target to spare; isolation " + a.isolation +
                  "." + minimal_text(advice, a));
    if (a.option == pricing::PurchaseOption::spot && a.spot) {
      auto note = spot_note(*a.spot);
      note[0] = 'O';  // "on spot, ..." opens the paragraph
      out.push_back(std::move(note));
    } else if (a.option == pricing::PurchaseOption::reserved_1y || a.option == pricing::PurchaseOption::reserved_3y) {
      out.emplace_back("Reserved prices commit to the fleet for the whole term.");
    }
  }
}

}  // namespace slicewise::advisor
