// Money tables for the terminal.
#include "report/money_tables.hpp"

#include "report/text_table.hpp"

namespace slicewise::report {

std::string money_table_text(const CostReport& costs) {
  // The fleet column only when a strategy was sized: as-given comparisons read as they always did.
  const bool sized = any_sized(costs);
  std::vector<Column> columns = {{"strategy"},
                                 {"GPUs", Align::right},
                                 {"instances"},
                                 {"$/hour", Align::right},
                                 {"$/month", Align::right},
                                 {"saving $/month", Align::right},
                                 {"saving %", Align::right},
                                 {"$/year saved", Align::right},
                                 {"$/1k requests", Align::right},
                                 {"$/1k in SLA", Align::right}};
  if (sized) columns.insert(columns.begin() + 2, Column{"fleet"});
  TextTable money(columns);
  std::string notes;
  for (std::size_t i = 0; i < costs.strategies.size(); ++i) {
    const auto& cost = costs.strategies[i];
    std::string instances;
    int gpus = 0;
    for (const auto& line : cost.lines) {
      instances += (instances.empty() ? "" : " + ") + std::to_string(line.count) + " x " + line.instance_type;
      gpus += line.num_gpus;
    }
    std::vector<std::string> row = {cost.strategy,
                                    std::to_string(gpus),
                                    instances.empty() ? "-" : instances,
                                    format_fixed(cost.hourly_usd, 5),
                                    format_fixed(cost.monthly_usd, 2),
                                    format_fixed(cost.monthly_savings_usd, 2),
                                    percent_number(cost.savings_frac),
                                    format_fixed(cost.annual_savings_usd, 2),
                                    format_fixed(cost.cost_per_1k_requests_usd, 4),
                                    format_fixed(cost.cost_per_1k_in_sla_usd, 4)};
    if (sized) row.insert(row.begin() + 2, i < costs.fleet_basis.size() ? costs.fleet_basis[i] : "as given");
    money.add_row(row);
    if (i < costs.notes.size()) {
      for (const auto& note : costs.notes[i]) notes += cost.strategy + ": " + note + "\n";
    }
  }
  return "Monthly cost (" + costs.table + " " + pricing::to_string(costs.option) +
         (costs.region.empty() ? "" : ", " + costs.region) + ", 730 h/month, prices as of " + costs.as_of +
         "; savings against " + costs.baseline + "):\n\n" + money.to_text() + (notes.empty() ? "" : "\n" + notes);
}

std::string chargeback_table_text(const CostReport& costs) {
  const bool reservation = costs.chargeback_model == pricing::ChargebackModel::reservation;
  // The model in use gives the share, the charge and its cost per request; the other model's charge
  // stands last, for comparison.
  TextTable table({{"strategy"},
                   {"tenant"},
                   {"reserved GPUs", Align::right},
                   {"share %", Align::right},
                   {"$/month", Align::right},
                   {"$/1k requests", Align::right},
                   {"added p95 s", Align::right},
                   {reservation ? "by usage $/month" : "by reservation $/month", Align::right}});
  for (const auto& cost : costs.strategies) {
    bool first = true;
    for (const auto& charge : cost.chargeback) {
      table.add_row({first ? cost.strategy : "", charge.name, format_fixed(charge.reserved_gpus, 3),
                     percent_number(charge.share_frac), format_fixed(charge.monthly_usd, 2),
                     format_fixed(charge.cost_per_1k_requests_usd, 4), format_fixed(charge.added_p95_latency_s, 3),
                     format_fixed(reservation ? charge.usage_monthly_usd : charge.reservation_monthly_usd, 2)});
      first = false;
    }
  }
  return "Chargeback " + chargeback_model_text(costs.chargeback_model) + ", adding up to each strategy's $/month:\n\n" +
         table.to_text();
}

std::string business_text(const CostReport& costs, double monthly_revenue_usd, double abandonment_per_100ms_frac) {
  if (monthly_revenue_usd <= 0.0) return {};
  TextTable table({{"strategy"},
                   {"saving $/month", Align::right},
                   {"revenue at risk $/month", Align::right},
                   {"net value $/month", Align::right}});
  for (const auto& cost : costs.strategies) {
    table.add_row({cost.strategy, format_fixed(cost.monthly_savings_usd, 2), format_fixed(cost.revenue_at_risk_usd, 2),
                   format_fixed(cost.net_monthly_value_usd, 2)});
  }
  return "Business view (revenue $" + format_fixed(monthly_revenue_usd, 2) + "/month, " +
         format_percent(abandonment_per_100ms_frac) + " of users lost per 100 ms of added p95):\n\n" + table.to_text();
}

}  // namespace slicewise::report
