// The advice's files and terminal summary: advice.json, candidates.csv, pareto.csv, advice.md
// (advice.hpp).
#include "advisor/advice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "advisor/pools.hpp"
#include "core/json_reader.hpp"
#include "report/text_table.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/json_io.hpp"
#include "scenario/sizing.hpp"

namespace slicewise::advisor {

using report::Align;
using report::Column;
using report::format_fixed;
using report::format_percent;
using report::markdown_text;
using report::TextTable;
using scenario::gpus_text;

namespace {

nlohmann::ordered_json row_json(const Advice& advice, const AdviceRow& r) {
  nlohmann::ordered_json out;
  out["candidate"] = advice.candidates[r.candidate].label;
  out["gpu"] = advice.candidates[r.candidate].gpu;
  out["strategy"] = models::to_string(advice.candidates[r.candidate].strategy.kind);
  out["option"] = pricing::to_string(r.option);
  out["status"] = r.status;
  out["reason"] = r.reason;
  out["num_gpus"] = r.num_gpus;
  out["contexts"] = r.contexts;
  out["instances"] = r.instances;
  out["monthly_usd"] = r.monthly_usd;
  out["monthly_savings_usd"] = r.monthly_savings_usd;
  out["savings_frac"] = r.savings_frac;
  out["option_savings_usd"] = r.option_savings_usd;
  out["worst_sla_margin"] = r.worst_margin;
  out["worst_tenant"] = r.worst_tenant;
  out["isolation"] = r.isolation;
  out["on_front"] = r.on_front;
  if (r.spot) {
    const auto worst = std::min_element(
        r.spot->tenants.begin(), r.spot->tenants.end(),
        [](const pricing::SpotTenant& a, const pricing::SpotTenant& b) { return a.availability < b.availability; });
    out["spot"] = {{"interruptions_per_month", r.spot->interruptions_per_month},
                   {"worst_availability", worst == r.spot->tenants.end() ? 1.0 : worst->availability},
                   {"mix_on_demand_instances", r.spot->mix_on_demand_instances},
                   {"mix_monthly_usd",
                    r.spot->mix_priced ? nlohmann::ordered_json(r.spot->mix_monthly_usd) : nlohmann::ordered_json()}};
  }
  return out;
}

}  // namespace

std::string advice_to_json_text(const Advice& advice) {
  nlohmann::ordered_json out;
  out["schema_version"] = 1;
  out["scenario"] = advice.scenario;
  out["pricing"] = {{"table", advice.table}, {"region", advice.region}, {"as_of", advice.as_of}};
  out["max_gpus"] = advice.max_gpus;
  out["num_simulations"] = advice.num_simulations;
  out["num_reused"] = advice.num_reused;
  out["baseline"] = row_json(advice, advice.rows[advice.baseline_row]);
  if (const auto& a = advice.autoscaled) {
    out["autoscaled"] = {{"monthly_usd", a->monthly_usd},   {"peak_monthly_usd", a->peak_monthly_usd},
                         {"min_gpus", a->min_gpus},         {"max_gpus", a->max_gpus},
                         {"scale_up_s", a->scale_up_s},     {"scale_up_usd", a->scale_up_usd},
                         {"gpus_by_hour", a->gpus_by_hour}, {"usd_per_hour_by_hour", a->usd_per_hour_by_hour}};
  }
  out["answer"] = advice.answer ? row_json(advice, advice.rows[*advice.answer]) : nlohmann::ordered_json();
  nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
  for (const auto& c : advice.candidates) {
    nlohmann::ordered_json one{{"label", c.label},
                               {"gpu", c.gpu},
                               {"baseline", c.baseline},
                               {"strategy", scenario::strategy_to_json(c.strategy)}};
    if (!c.priorities.empty()) {
      nlohmann::ordered_json priorities;
      for (const auto& [name, priority] : c.priorities)
        priorities[name] = scenario::name_of(scenario::priority_table(), priority);
      one["tenant_priorities"] = priorities;
    }
    candidates.push_back(one);
  }
  out["candidates"] = candidates;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& r : advice.rows) rows.push_back(row_json(advice, r));
  out["rows"] = rows;
  out["explanation"] = advice.explanation;
  return out.dump(1) + "\n";
}

namespace {

std::vector<Column> row_columns() {
  return {{"candidate"},
          {"option"},
          {"status"},
          {"GPUs", Align::right},
          {"instances"},
          {"$/month", Align::right},
          {"saving $/month", Align::right},
          {"saving %", Align::right},
          {"worst margin %", Align::right},
          {"worst tenant"},
          {"isolation"},
          {"front"},
          {"reason"}};
}

std::vector<std::string> row_cells(const Advice& advice, const AdviceRow& r) {
  const bool priced = r.status == "meets" || r.status == "misses";
  return {advice.candidates[r.candidate].label,
          pricing::to_string(r.option),
          r.status,
          std::to_string(r.num_gpus),
          r.instances,
          priced ? format_fixed(r.monthly_usd, 2) : "",
          priced ? format_fixed(r.monthly_savings_usd, 2) : "",
          priced ? format_fixed(100.0 * r.savings_frac, 1) : "",
          r.status == "pruned" ? "" : format_fixed(100.0 * r.worst_margin, 1),
          r.worst_tenant,
          r.isolation,
          r.on_front ? "yes" : "",
          r.reason};
}

}  // namespace

std::string advice_candidates_csv(const Advice& advice) {
  TextTable table(row_columns());
  for (const auto& r : advice.rows) table.add_row(row_cells(advice, r));
  return table.to_csv();
}

std::string advice_pareto_csv(const Advice& advice) {
  std::vector<const AdviceRow*> front;
  for (const auto& r : advice.rows) {
    if (r.on_front) front.push_back(&r);
  }
  std::sort(front.begin(), front.end(),
            [](const AdviceRow* a, const AdviceRow* b) { return a->monthly_usd < b->monthly_usd; });
  TextTable table(row_columns());
  for (const auto* r : front) table.add_row(row_cells(advice, *r));
  return table.to_csv();
}

std::string advice_markdown(const Advice& advice) {
  std::string md = "# What to buy: " + markdown_text(advice.scenario) + "\n\n";
  for (const auto& paragraph : advice.explanation) md += markdown_text(paragraph) + "\n\n";
  md += "Prices: " + markdown_text(advice.table) + (advice.region.empty() ? "" : ", " + markdown_text(advice.region)) +
        ", as of " + markdown_text(advice.as_of) + ". At most " + gpus_text(advice.max_gpus) + " per fleet.\n\n";
  md += "## Pareto front: monthly cost against the worst tenant's SLA margin\n\n![Pareto front](pareto.svg)\n\n";
  TextTable front(row_columns());
  TextTable all(row_columns());
  for (const auto& r : advice.rows) {
    all.add_row(row_cells(advice, r));
    if (r.on_front) front.add_row(row_cells(advice, r));
  }
  md += front.to_markdown() + "\n## Every candidate, and why it lost\n\n" + all.to_markdown();
  return md;
}

std::string advice_summary_text(const Advice& advice) {
  const auto& b = advice.rows[advice.baseline_row];
  std::string text = "baseline: " + advice.candidates[b.candidate].label + ", " + gpus_text(b.num_gpus) + ", " +
                     usd(b.monthly_usd) + "/month\n";
  if (advice.answer) {
    const auto& a = advice.rows[*advice.answer];
    text +=
        "answer:   " + advice.candidates[a.candidate].label + " (" + pricing::to_string(a.option) + "), " +
        gpus_text(a.num_gpus) + " as " + a.instances + ", " + usd(a.monthly_usd) + "/month, saves " +
        usd(a.monthly_savings_usd) + " (" + format_percent(a.savings_frac) + ")" +
        (a.option == b.option ? std::string()
                              : " against the baseline on " + pricing::to_string(a.option) + ", which itself saves " +
                                    usd(a.option_savings_usd) + " against " + pricing::to_string(b.option)) +
        "; worst tenant " + a.worst_tenant + " at " + format_percent(a.worst_margin) + " SLA margin\n";
  }
  if (const auto& a = advice.autoscaled) {
    text += "autoscaled by hour: " + std::to_string(a->min_gpus) + " to " + gpus_text(a->max_gpus) + ", " +
            usd(a->monthly_usd) + "/month\n";
  }
  int front = 0, meets = 0;
  for (const auto& r : advice.rows) {
    front += r.on_front ? 1 : 0;
    meets += r.status == "meets" ? 1 : 0;
  }
  text += std::to_string(advice.candidates.size()) + " candidates, " + std::to_string(meets) +
          " rows meet every SLA, " + std::to_string(front) + " on the Pareto front; " +
          std::to_string(advice.num_simulations) + " simulations (" + std::to_string(advice.num_reused) +
          " runs reused)\n";
  return text;
}

}  // namespace slicewise::advisor
