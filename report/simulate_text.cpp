// The text summary of a simulation.
#include "report/simulate_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/energy_summary.hpp"
#include "report/money_tables.hpp"
#include "report/text_table.hpp"
#include "scenario/sim_result.hpp"
#include "scenario/sizing.hpp"

namespace slicewise::report {

namespace {

std::string seconds(double value) { return format_fixed(value, 3); }

/// "-" for a distribution with nothing in it.
std::string p95_or_dash(const scenario::Distribution& d, int decimals) {
  return d.count > 0 ? format_fixed(d.p95, decimals) : "-";
}

/// Whether a tenant of the result has TTFT or TPOT figures (an LLM workload).
bool has_llm_figures(const scenario::SimResult& result) {
  for (const auto& strategy : result.strategies) {
    for (const auto& tenant : strategy.tenants) {
      if (tenant.ttft_s.count > 0 || tenant.tpot_s.count > 0) return true;
    }
  }
  return false;
}

std::string strategy_table(const scenario::SimResult& result) {
  // TTFT and TPOT only where a tenant has them (LLM workloads); the slowdown for every tenant.
  const bool llm = has_llm_figures(result);
  std::vector<Column> columns = {{"strategy"},
                                 {"GPUs", Align::right},
                                 {"busy %", Align::right},
                                 {"SM util %", Align::right},
                                 {"tenant"},
                                 {"done", Align::right},
                                 {"p50 s", Align::right},
                                 {"p95 s", Align::right},
                                 {"p99 s", Align::right},
                                 {"slowdown p95", Align::right}};
  if (llm) {
    columns.push_back({"TTFT p95 s", Align::right});
    columns.push_back({"TPOT p95 s", Align::right});
  }
  columns.push_back({"SLA viol %", Align::right});
  columns.push_back({"SLA"});
  TextTable table(columns);
  for (const auto& strategy : result.strategies) {
    bool first = true;
    for (const auto& tenant : strategy.tenants) {
      std::vector<std::string> row = {first ? strategy.name : "",
                                      first ? std::to_string(strategy.num_gpus_used) : "",
                                      first ? percent_number(strategy.fleet_busy_frac) : "",
                                      first ? percent_number(strategy.fleet_sm_util_frac) : "",
                                      tenant.name,
                                      std::to_string(tenant.num_completed),
                                      seconds(tenant.latency_s.p50),
                                      seconds(tenant.latency_s.p95),
                                      seconds(tenant.latency_s.p99),
                                      p95_or_dash(tenant.slowdown, 2)};
      if (llm) {
        row.push_back(p95_or_dash(tenant.ttft_s, 3));
        row.push_back(p95_or_dash(tenant.tpot_s, 4));
      }
      row.push_back(percent_number(tenant.sla_violation_frac));
      const std::string word = scenario::sla_word(tenant.sla_met, tenant.num_arrived);
      row.push_back(word == "missed" ? "MISSED" : word);
      table.add_row(row);
      first = false;
    }
  }
  return table.to_text();
}

/// "1 fault", "3 faults".
std::string counted(std::int64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// A strategy's expected figures for `tenant`; nullptr when the record has none.
const scenario::TenantExposure* exposure_of(const scenario::FaultRecord& faults, const std::string& tenant) {
  const auto it = std::find_if(faults.tenants.begin(), faults.tenants.end(),
                               [&](const scenario::TenantExposure& e) { return e.name == tenant; });
  return it == faults.tenants.end() ? nullptr : &*it;
}

/// Per tenant of each strategy with faults: what the run saw, then what the rates make expected.
std::string availability_table(const scenario::SimResult& result) {
  TextTable table({{"strategy"},
                   {"tenant"},
                   {"interruptions", Align::right},
                   {"failed", Align::right},
                   {"retried", Align::right},
                   {"downtime s", Align::right},
                   {"availability %", Align::right},
                   {"interruptions/month", Align::right},
                   {"outage h/month", Align::right},
                   {"expected availability %", Align::right}});
  for (const auto& strategy : result.strategies) {
    if (!strategy.faults) continue;
    bool first = true;
    for (const auto& tenant : strategy.tenants) {
      const auto* expected = exposure_of(*strategy.faults, tenant.name);
      table.add_row({first ? strategy.name : "", tenant.name, std::to_string(tenant.num_interruptions),
                     std::to_string(tenant.num_failed), std::to_string(tenant.num_retried), seconds(tenant.downtime_s),
                     percent_number(tenant.availability, 3),
                     expected ? format_fixed(expected->interruptions_per_month, 4) : "-",
                     expected ? format_fixed(expected->outage_hours_per_month, 4) : "-",
                     expected ? percent_number(expected->availability, 3) : "-"});
      first = false;
    }
  }
  return table.to_text();
}

/// "mps: blast radius 2.00 tenants per fault in the run (3 faults), 1.50 expected from the rates;
/// 0 re-partitions" ("-" where the run had no fault, or no fault has a rate).
std::string blast_radius_line(const scenario::StrategyResult& strategy) {
  const auto& f = *strategy.faults;
  const auto faults = std::count_if(f.events.begin(), f.events.end(),
                                    [](const scenario::FaultEvent& e) { return e.kind != "repartition"; });
  return strategy.name + ": blast radius " + (faults == 0 ? "-" : format_fixed(f.blast_radius_tenants, 2)) +
         " tenants per fault in the run (" + counted(faults, "fault") + "), " +
         (f.expected.empty() ? "-" : format_fixed(f.expected_blast_radius, 2)) + " expected from the rates; " +
         counted(f.num_repartitions, "re-partition") + "\n";
}

/// Devices that belong to a layout phase or were down, per strategy; "" when there are none.
/// Their names, phases and contexts come from the result file: escaped for the terminal.
std::string phase_devices_table(const scenario::SimResult& result) {
  TextTable table(
      {{"strategy"}, {"device"}, {"phase"}, {"out of phase s", Align::right}, {"down s", Align::right}, {"contexts"}});
  for (const auto& strategy : result.strategies) {
    bool first = true;
    for (const auto& device : strategy.devices) {
      if (device.phase.empty() && device.down_s == 0.0) continue;
      table.add_row({first ? strategy.name : "", excerpt(device.name),
                     device.phase.empty() ? "-" : excerpt(device.phase),
                     device.phase.empty() ? "-" : seconds(device.out_of_phase_s), seconds(device.down_s),
                     device.contexts.empty() ? "-" : excerpt(join(device.contexts, ", "))});
      first = false;
    }
  }
  return table.num_rows() == 0 ? ""
                               : "devices in a layout phase or down (out of phase: another phase in force or "
                                 "re-partitioning, the schedule; down: off in its own phase, a fault)\n" +
                                     table.to_text();
}

/// The first kMaxEventLines events of a strategy, then how many more there were; "" when none.
std::string events_text(const scenario::StrategyResult& strategy) {
  constexpr std::size_t kMaxEventLines = 20;
  const auto& events = strategy.faults->events;
  if (events.empty()) return "";
  TextTable table({{"at s", Align::right},
                   {"event"},
                   {"GPU", Align::right},
                   {"origin"},
                   {"tenants hit", Align::right},
                   {"outage s", Align::right},
                   {"contexts hit"}});
  for (std::size_t i = 0; i < events.size() && i < kMaxEventLines; ++i) {
    const auto& e = events[i];
    table.add_row({seconds(e.at_s), excerpt(e.kind) + (e.scheduled ? " (scheduled)" : ""), std::to_string(e.gpu_index),
                   e.origin.empty() ? "-" : excerpt(e.origin), std::to_string(e.tenants_hit), seconds(e.outage_s),
                   e.contexts_hit.empty() ? "-" : excerpt(join(e.contexts_hit, ", "))});
  }
  std::string text = strategy.name + ": events\n" + table.to_text();
  if (events.size() > kMaxEventLines) text += "… and " + std::to_string(events.size() - kMaxEventLines) + " more\n";
  return text;
}

std::string uncertainty_table(const std::vector<scenario::UncertaintyBand>& uncertainty) {
  TextTable bands({{"strategy"},
                   {"samples", Align::right},
                   {"savings $/month p50", Align::right},
                   {"90 % interval", Align::right},
                   {"SLA viol % p50", Align::right},
                   {"90 % interval", Align::right},
                   {"GPUs p50", Align::right},
                   {"90 % interval", Align::right},
                   {"fleet meets SLA %", Align::right}});
  for (const auto& b : uncertainty) {
    bands.add_row({b.strategy, std::to_string(b.num_samples), format_fixed(b.monthly_savings_p50_usd, 2),
                   format_fixed(b.monthly_savings_p05_usd, 2) + " .. " + format_fixed(b.monthly_savings_p95_usd, 2),
                   percent_number(b.sla_violation_p50_frac),
                   percent_number(b.sla_violation_p05_frac) + " .. " + percent_number(b.sla_violation_p95_frac),
                   format_fixed(b.num_gpus_p50, 1),
                   format_fixed(b.num_gpus_p05, 1) + " .. " + format_fixed(b.num_gpus_p95, 1),
                   percent_number(b.fleet_meets_sla_frac)});
  }
  return bands.to_text();
}

}  // namespace

namespace {

/// "14:00", "09:30".
std::string hour_text(double hour) {
  const int minutes = static_cast<int>(std::lround(hour * 60.0));
  char text[8];
  std::snprintf(text, sizeof text, "%02d:%02d", (minutes / 60) % 24, minutes % 60);
  return text;
}

}  // namespace

std::string sizing_text(const scenario::SizingRecord& record, const scenario::Scenario& scenario) {
  std::string text = std::string(record.feasible ? "sized for SLA" : "not sizable for SLA") + " in " +
                     std::to_string(record.steps.size()) +
                     (record.steps.size() == 1 ? " simulation: " : " simulations: ") +
                     scenario::gpus_text(record.num_gpus) + " (lower bound " + std::to_string(record.lower_bound_gpus) +
                     ", at most " + std::to_string(record.max_gpus) + ")";
  std::vector<std::string> grown;
  for (std::size_t t = 0; t < record.contexts.size() && t < scenario.tenants.size(); ++t) {
    if (record.contexts[t] != scenario.tenants[t].num_contexts) {
      grown.push_back(scenario.tenants[t].name + " x" + std::to_string(record.contexts[t]));
    }
  }
  text += grown.empty() ? "; contexts as given" : "; contexts: " + join(grown, ", ") + ", the others as given";
  if (record.feasible && !record.placement.empty()) {
    text += record.minimal ? "; minimal (the lower bound)"
                           : "; placed " + record.placement +
                                 ", the fewest found (one GPU fewer missed balanced, spread and packed; not proven "
                                 "minimal)";
  }
  if (!record.peak_hours.empty()) {
    // Diurnal loads: each configuration ran at every tenant's busiest hour, not the scenario's own.
    std::vector<std::string> hours;
    for (const double h : record.peak_hours) hours.push_back(hour_text(h));
    text += "; at the load's peak " + std::string(hours.size() == 1 ? "hour " : "hours ") + join(hours, ", ") +
            (hours.size() > 1 ? " (the result's run: " + hour_text(record.result_hour) + ")" : std::string());
  }
  if (!record.hourly.empty()) {
    const auto [least, most] = std::minmax_element(
        record.hourly.begin(), record.hourly.end(),
        [](const scenario::HourFleet& a, const scenario::HourFleet& b) { return a.num_gpus < b.num_gpus; });
    text += "; sized again for each hour of day: " + std::to_string(least->num_gpus) + " to " +
            scenario::gpus_text(most->num_gpus) + " (autoscaled in the money table)";
  }
  if (!record.trace_windows.empty()) {
    // Traces longer than the run: each configuration ran the trace's busiest stretch.
    std::vector<std::string> windows;
    for (const auto& w : record.trace_windows) {
      windows.push_back(w.tenant + " from trace time " + format_fixed(w.window_start_s, 0) + " s (" +
                        std::to_string(w.arrivals) + " arrivals measured, " + std::to_string(w.arrivals_as_given) +
                        " as given)");
    }
    text += "; at the traces' busiest window: " + join(windows, ", ");
  }
  return text;  // a shortfall is in the money table's notes
}

std::string faults_text(const scenario::SimResult& result) {
  const bool any = std::any_of(result.strategies.begin(), result.strategies.end(),
                               [](const scenario::StrategyResult& s) { return s.faults.has_value(); });
  if (!any) return "";
  std::string text =
      "Faults and availability (docs/faults.md): in the run, over the measured window; expected, per 730-hour "
      "month from the fault rates and the placement\n\n" +
      availability_table(result);
  for (const auto& strategy : result.strategies) {
    if (strategy.faults) text += blast_radius_line(strategy);
  }
  if (const auto devices = phase_devices_table(result); !devices.empty()) text += "\n" + devices;
  for (const auto& strategy : result.strategies) {
    if (!strategy.faults) continue;
    if (const auto events = events_text(strategy); !events.empty()) text += "\n" + events;
  }
  return text;
}

std::string simulate_text(const scenario::SimResult& result, const scenario::Scenario& scenario,
                          const CostReport& costs) {
  std::ostringstream out;
  out << scenario.name << ": " << format_number(scenario.horizon_s) << " s simulated, seed " << scenario.seed << "\n\n"
      << strategy_table(result);
  // Money: every strategy's fleet priced against the dedicated baseline.
  out << "\n" << money_table_text(costs);
  if (const auto business =
          business_text(costs, scenario.pricing.monthly_revenue_usd, scenario.pricing.abandonment_per_100ms_frac);
      !business.empty()) {
    out << "\n" << business;
  }
  // Energy, as information: the cloud prices above already include power (docs/energy.md).
  out << "\n" << energy_table_text(energy_summary(result, pricing::shipped_onprem_table()));
  if (const auto faults = faults_text(result); !faults.empty()) out << "\n" << faults;
  for (const auto& strategy : result.strategies) {
    for (const auto& issue : strategy.issues) out << strategy.name << ": " << issue << "\n";
  }
  for (const auto& strategy : result.strategies) {
    if (strategy.sizing) out << strategy.name << ": " << sizing_text(*strategy.sizing, scenario) << "\n";
  }
  if (!result.uncertainty.empty()) {
    out << "\nuncertainty of the fitted constants\n" << uncertainty_table(result.uncertainty);
  }
  out << "\ncalibration: " << result.calibration.profile_id << " (worst fit MAPE "
      << format_percent(result.calibration.fit_mape) << ")\n";
  return out.str();
}

}  // namespace slicewise::report
