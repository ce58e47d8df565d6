// The ROI report's sections of sentences and tables after its main tables (availability and blast
// radius, the MIG layout schedule) and the appendix's workload figures, already formatted and
// shared by every format (Markdown, HTML, PDF). docs/reports.md describes each.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "core/units.hpp"
#include "models/fault_rates.hpp"
#include "report/autoscale_cost.hpp"
#include "report/roi_report.hpp"
#include "report/spot_exposure.hpp"
#include "report/text_table.hpp"
#include "scenario/enum_tables.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

namespace {

/// A whole number with thousands separators: "82,944".
std::string grouped(double value) {
  const std::string text = format_usd(value, 0);  // "$82,944", "-$5"
  return value < 0.0 && text.rfind("-$", 0) == 0 ? "-" + text.substr(2) : text.substr(1);
}

/// `value` to `digits` significant digits, never in exponent form: "0.00880", "0.500", "12.3".
std::string significant(double value, int digits = 3) {
  if (value == 0.0 || !std::isfinite(value)) return format_fixed(value, 0);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
  return format_fixed(value, std::clamp(digits - 1 - magnitude, 0, 8));
}

/// A rate per hour in a sentence: three significant digits, "1.21e-5" when small.
std::string rate_text(double rate) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", rate);
  std::string out = text;
  // "1.21e-05" reads "1.21e-5"
  if (const auto e = out.find("e-0"); e != std::string::npos) out.erase(e + 2, 1);
  return out;
}

/// "3600 s".
std::string seconds_text(double s) { return format_number(s) + " s"; }

/// An hour of the day as a clock reads it: 7.5 -> "07:30".
std::string clock_text(double hour) {
  const long minutes = std::lround(hour * 60.0) % (24L * 60L);
  char text[16];
  std::snprintf(text, sizeof text, "%02ld:%02ld", minutes / 60, minutes % 60);
  return text;
}

/// "a", "a or b", "a, b or c".
std::string either(const std::vector<std::string>& parts) {
  if (parts.size() <= 1) return parts.empty() ? std::string() : parts.front();
  return join(std::vector<std::string>(parts.begin(), parts.end() - 1), ", ") + " or " + parts.back();
}

const scenario::TenantResult* tenant_named(const scenario::StrategyResult& s, const std::string& name) {
  for (const auto& t : s.tenants) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

/// "mig" or "mig-day (mig)": the strategy as a sentence names it.
std::string strategy_label(const scenario::StrategyResult& s) {
  return s.name == s.kind ? s.name : s.name + " (" + s.kind + ")";
}

// ---- Availability and blast radius ----

bool is_fault(const scenario::FaultEvent& event) { return event.kind != "repartition"; }

/// True when the report has an availability section: the scenario injects faults, or (a result
/// whose input lost them) a strategy's fault record holds more than re-partitions.
bool shows_availability(const scenario::SimResult& result) {
  bool any_record = false;
  for (const auto& s : result.strategies) {
    if (!s.faults) continue;
    any_record = true;
    const auto& events = s.faults->events;
    if (!s.faults->expected.empty() || std::any_of(events.begin(), events.end(), is_fault)) return true;
  }
  return any_record && result.input.faults.has_value();
}

/// "GPU failures 1.21e-5 per GPU-hour, one per 82,944 GPU-hours (...)", or "" for a rate of 0.
std::string gpu_failure_rate_text(const scenario::FaultSpec& f) {
  const double rate = f.gpu_failure_per_gpu_hour.value_or(models::kGpuFailurePerGpuHour);
  if (!(rate > 0.0)) return "";
  std::string text = "GPU failures " + rate_text(rate) + " per GPU-hour, one per " + grouped(1.0 / rate) + " GPU-hours";
  if (!f.gpu_failure_per_gpu_hour) {
    text += " (the scenario leaves it unset: the rate of Meta's Llama 3 run; source: " +
            std::string(models::kGpuFailureSource) + ")";
  }
  return text;
}

/// The rates and recovery times the run used, the co-tenants' fate and the retries.
std::string fault_rates_text(const scenario::FaultSpec& f) {
  std::vector<std::string> rates;
  std::vector<std::string> none;
  if (const std::string gpu = gpu_failure_rate_text(f); !gpu.empty()) rates.push_back(gpu);
  else none.emplace_back("GPU failures");
  const auto add = [&](double rate, const std::string& what, const std::string& per) {
    if (rate > 0.0) rates.push_back(what + " " + rate_text(rate) + " per " + per);
    else none.push_back(what);
  };
  add(f.driver_reset_per_gpu_hour, "driver resets", "GPU-hour");
  add(f.tenant_crash_per_context_hour, "tenant crashes", "context-hour");
  add(f.mps_server_fault_per_gpu_hour, "MPS server faults", "GPU-hour under MPS");
  std::string text = "Fault rates: " + join(rates, "; ");
  if (!none.empty()) text += (rates.empty() ? "no " : "; no ") + either(none);
  text += ". Recovery: a failed GPU is back after " + seconds_text(f.gpu_repair_s) + " and a reset one after " +
          seconds_text(f.driver_reset_s) + "; a context that went down serves again " +
          seconds_text(f.context_restart_s) +
          " after its crash, its MPS server's fault or its GPU's return. Under time-sliced sharing a crashed context "
          "takes each co-tenant's context on its GPU with it with probability " +
          format_number(f.co_tenant_kill_frac) + " (co_tenant_kill_frac); a request lost to a fault is re-sent up to " +
          plural(f.max_retries, "time", "times") + ".";
  const auto scheduled = static_cast<long>(f.schedule.size());
  if (!f.random) {
    text += " The run draws no faults from these rates (random false): it has only its " +
            plural(scheduled, "scheduled fault", "scheduled faults") +
            "; the expected figures below come from the rates all the same.";
  } else if (scheduled > 0) {
    text += " The run adds " + plural(scheduled, "scheduled fault", "scheduled faults") + " to those it draws.";
  }
  return text;
}

/// Expected faults per month over every kind of strategy `s`, and its contexts hit per fault
/// weighted by the kinds' rates (nullopt when no kind has a rate).
std::pair<double, std::optional<double>> expected_faults(const scenario::FaultRecord& record) {
  double per_month = 0.0;
  double contexts = 0.0;
  for (const auto& e : record.expected) {
    per_month += e.per_month;
    contexts += e.per_month * e.contexts_hit;
  }
  if (!(per_month > 0.0)) return {per_month, std::nullopt};
  return {per_month, contexts / per_month};
}

ReportTable faults_table(const RoiReport& r) {
  ReportTable t{"faults",
                "Faults per strategy",
                "Expected over a " + format_number(kHoursPerMonth) +
                    "-hour month from the rates and each strategy's placement: faults over the GPUs and contexts "
                    "exposed, and the tenants and contexts one fault takes down (the blast radius), weighted by the "
                    "kinds' rates. Then the run's own faults, with the tenants each took down on average; a run far "
                    "shorter than a fault's mean time may see none.",
                {"strategy", "kind", "faults/month", "tenants per fault", "contexts per fault", "faults in the run",
                 "tenants per fault in the run"},
                {false, false, true, true, true, true, true},
                {},
                {}};
  for (const auto& s : r.result.strategies) {
    if (!s.faults) continue;
    const auto& record = *s.faults;
    const auto [per_month, contexts] = expected_faults(record);
    const auto run_faults = std::count_if(record.events.begin(), record.events.end(), is_fault);
    t.rows.push_back({s.name, s.kind, significant(per_month),
                      contexts ? format_fixed(record.expected_blast_radius, 2) : "-",
                      contexts ? format_fixed(*contexts, 2) : "-", std::to_string(run_faults),
                      run_faults > 0 ? format_fixed(record.blast_radius_tenants, 2) : "-"});
  }
  return t;
}

ReportTable tenant_availability_table(const RoiReport& r) {
  ReportTable t{"tenant-availability",
                "Availability per tenant",
                "Expected per " + format_number(kHoursPerMonth) +
                    "-hour month: the faults that take down one of the tenant's contexts, the hours with none of "
                    "its contexts up, and its availability (1 − outage / " +
                    format_number(kHoursPerMonth) +
                    " h). Then the run: requests lost to a fault and not re-sent (counted as SLA violations), "
                    "requests re-sent, and the time with none of its contexts up.",
                {"strategy", "tenant", "interruptions/month", "outage h/month", "availability %", "failed in the run",
                 "retried in the run", "downtime s in the run"},
                {false, false, true, true, true, true, true, true},
                {},
                {}};
  for (const auto& s : r.result.strategies) {
    if (!s.faults) continue;
    for (const auto& tenant : s.tenants) {
      const scenario::TenantExposure* exposure = nullptr;
      for (const auto& e : s.faults->tenants) {
        if (e.name == tenant.name) exposure = &e;
      }
      t.rows.push_back({s.name, tenant.name, exposure ? significant(exposure->interruptions_per_month) : "-",
                        exposure ? significant(exposure->outage_hours_per_month) : "-",
                        exposure ? percent_number(exposure->availability, 3) : "-", std::to_string(tenant.num_failed),
                        std::to_string(tenant.num_retried), format_fixed(tenant.downtime_s, 1)});
    }
  }
  return t;
}

/// What the mechanism of strategy kind `kind` keeps a tenant's crash from, in a clause.
std::string crash_isolation(const std::string& kind, double co_tenant_kill_frac) {
  const auto* policy = scenario::policy_named(kind);
  return policy ? policy->crash_isolation(co_tenant_kill_frac) : "slicewise knows no fault isolation of this kind";
}

/// One sentence per strategy with a fault record: what its mechanism isolates.
std::vector<std::string> isolation_notes(const RoiReport& r) {
  const auto& faults = r.result.input.faults;
  const double kill = faults ? faults->co_tenant_kill_frac : scenario::FaultSpec{}.co_tenant_kill_frac;
  std::vector<std::string> notes;
  for (const auto& s : r.result.strategies) {
    if (!s.faults) continue;
    notes.push_back(strategy_label(s) + ": " + crash_isolation(s.kind, kill) +
                    "; like every strategy, it loses everything on a GPU that fails or resets.");
  }
  return notes;
}

ReportSection availability_section(const RoiReport& r) {
  ReportSection section;
  section.id = "availability";
  section.title = "Availability and blast radius";
  const auto& faults = r.result.input.faults;
  section.paragraphs.push_back(faults ? fault_rates_text(*faults)
                                      : "The result does not carry the fault rates it was simulated with; the "
                                        "figures below are the simulator's.");
  section.tables = {faults_table(r), tenant_availability_table(r)};
  section.notes = isolation_notes(r);
  return section;
}

// ---- MIG layout schedule ----

/// "llm-8b 3g.40gb, vision 2g.20gb × 2; waiting: notebook": a phase's tenants in the scenario's
/// order with their profiles (and contexts when more than one), then those that wait.
std::string phase_tenants_text(const scenario::LayoutPhase& phase, const scenario::Scenario& input) {
  std::vector<std::string> served;
  std::vector<std::string> waiting;
  for (const auto& tenant : input.tenants) {
    const auto it = phase.tenants.find(tenant.name);
    if (it == phase.tenants.end()) {
      waiting.push_back(tenant.name);
      continue;
    }
    const int contexts = it->second.num_contexts > 0 ? it->second.num_contexts : tenant.num_contexts;
    served.push_back(tenant.name + " " + it->second.mig_profile +
                     (contexts > 1 ? " × " + std::to_string(contexts) : std::string()));
  }
  for (const auto& entry : phase.tenants) {
    if (!scenario::find_tenant(input, entry.first)) served.push_back(entry.first + " " + entry.second.mig_profile);
  }
  return join(served, ", ") + (waiting.empty() ? std::string() : "; waiting: " + join(waiting, ", "));
}

ReportTable phases_table(const RoiReport& r) {
  ReportTable t{"mig-schedule",
                "Phases",
                "Each phase's layout holds on every GPU of the strategy from its hour until the next phase's; a "
                "tenant not in a phase waits for one that serves it.",
                {"strategy", "phase", "starts at", "layout", "tenants and profiles"},
                {false, false, true, false, false},
                {},
                {false, false, false, false, true}};
  for (const auto& s : r.result.strategies) {
    const auto* spec = scenario::find_strategy(r.result.input, s.name);
    if (!spec || !spec->layout_schedule) continue;
    for (const auto& phase : spec->layout_schedule->phases) {
      t.rows.push_back(
          {s.name, phase.name, clock_text(phase.from_hour), phase.layout, phase_tenants_text(phase, r.result.input)});
    }
  }
  return t;
}

/// The re-partitions of scheduled strategy `s`: how, how long, and how many the run had.
std::string repartition_text(const scenario::StrategyResult& s, const scenario::LayoutSchedule& schedule) {
  int count = 0;
  double lost_s = 0.0;
  if (s.faults) {
    count = s.faults->num_repartitions;
    for (const auto& event : s.faults->events) {
      if (!is_fault(event)) lost_s += event.outage_s;
    }
  }
  std::string text = strategy_label(s) + ": simulated time 0 is " + clock_text(schedule.start_hour) +
                     "; at each phase's hour its GPUs re-partition " +
                     (schedule.rolling ? "one after another (rolling)" : "all at once") +
                     ", each serving nothing for " + seconds_text(schedule.repartition_s) +
                     " (drain, destroy and create the instances, restart the pods). ";
  if (count == 0) return text + "The run had no re-partition: it ended before the next phase.";
  return text + "The run had " + plural(count, "re-partition", "re-partitions") + ", which took " + grouped(lost_s) +
         " GPU-seconds (" + format_fixed(lost_s / 3600.0, 2) + " GPU-hours) of service.";
}

/// The strategy a scheduled one compares with: the first of the same kind without a schedule, else
/// the first MIG one without; nullptr when the result has none.
const scenario::StrategyResult* static_mig_of(const RoiReport& r, const scenario::StrategyResult& scheduled) {
  const auto is_static = [&](const scenario::StrategyResult& s) {
    const auto* spec = scenario::find_strategy(r.result.input, s.name);
    return &s != &scheduled && spec && !spec->layout_schedule;
  };
  for (const auto& s : r.result.strategies) {
    if (is_static(s) && s.kind == scheduled.kind) return &s;
  }
  for (const auto& s : r.result.strategies) {
    const auto* policy = scenario::policy_named(s.kind);
    if (is_static(s) && policy && policy->partitions_gpus()) return &s;
  }
  return nullptr;
}

/// "meets every SLA" or "misses the SLA of a, b".
std::string sla_state(const scenario::StrategyResult& s) {
  std::vector<std::string> missed;
  for (const auto& t : s.tenants) {
    if (!t.sla_met) missed.push_back(t.name);
  }
  return missed.empty() ? "meets every SLA" : "misses the SLA of " + join(missed, ", ");
}

/// One sentence comparing scheduled strategy `s` with static `other`: SLA, each tenant's p95
/// latency, GPU busy.
std::string schedule_comparison(const scenario::StrategyResult& s, const scenario::StrategyResult& other) {
  std::vector<std::string> latencies;
  for (const auto& t : s.tenants) {
    const auto* o = tenant_named(other, t.name);
    latencies.push_back(t.name + " " + format_fixed(t.latency_s.p95, 3) + " s against " +
                        (o ? format_fixed(o->latency_s.p95, 3) + " s" : std::string("none")));
  }
  return "Against the static " + other.name + ": " + s.name + " " + sla_state(s) + ", " + other.name + " " +
         sla_state(other) + "; p95 latency " + join(latencies, ", ") + "; GPU busy " +
         format_percent(s.fleet_busy_frac) + " against " + format_percent(other.fleet_busy_frac) + ".";
}

ReportSection schedule_section(const RoiReport& r) {
  ReportSection section;
  section.id = "mig-schedule";
  section.title = "MIG layout schedule";
  section.paragraphs.emplace_back(
      "A layout schedule re-partitions the MIG GPUs over the day instead of keeping one layout "
      "(docs/mig-schedule.md); the strategies and tenants tables above compare it with the other strategies over "
      "the whole run, re-partitions included.");
  section.tables = {phases_table(r)};
  for (const auto& s : r.result.strategies) {
    const auto* spec = scenario::find_strategy(r.result.input, s.name);
    if (!spec || !spec->layout_schedule) continue;
    section.notes.push_back(repartition_text(s, *spec->layout_schedule));
    if (const auto* other = static_mig_of(r, s)) section.notes.push_back(schedule_comparison(s, *other));
  }
  return section;
}

bool has_schedule(const scenario::SimResult& result) {
  return std::any_of(result.strategies.begin(), result.strategies.end(), [&](const scenario::StrategyResult& s) {
    const auto* spec = scenario::find_strategy(result.input, s.name);
    return spec && spec->layout_schedule;
  });
}

/// One note per strategy on spot capacity (its interruptions and the spot/on-demand mix) and one per
/// strategy sized by the hour (its autoscaled fleet); empty when none applies.
std::vector<std::string> capacity_notes(const RoiReport& r) {
  std::vector<std::string> notes;
  for (const auto& cost : r.costs.strategies) {
    if (cost.spot) notes.push_back(cost.strategy + ": " + spot_note(*cost.spot));
    if (cost.autoscaled) notes.push_back(cost.strategy + ": " + autoscaled_note(*cost.autoscaled));
  }
  return notes;
}

ReportSection capacity_section(std::vector<std::string> notes) {
  ReportSection section;
  section.id = "capacity";
  section.title = "Spot interruptions and autoscaling";
  section.paragraphs.emplace_back(
      "What the purchase option and the hours of the day do to each fleet (docs/roi.md): spot capacity is taken "
      "back at the published interruption rates, and a fleet sized for every hour of day can follow its load.");
  section.notes = std::move(notes);
  return section;
}

}  // namespace

std::vector<ReportSection> report_sections(const RoiReport& r) {
  std::vector<ReportSection> sections;
  if (shows_availability(r.result)) sections.push_back(availability_section(r));
  if (has_schedule(r.result)) sections.push_back(schedule_section(r));
  if (auto notes = capacity_notes(r); !notes.empty()) sections.push_back(capacity_section(std::move(notes)));
  return sections;
}

ReportTable workload_sources_table(const RoiReport& r) {
  ReportTable t{"workload-sources",
                "Appendix: where the workload figures come from",
                "How each tenant's requests use a GPU, as simulated (docs/scenario-format.md): the share of a "
                "request's time the GPU is busy, the share of SMs and of memory bandwidth it keeps busy, and the "
                "memory a context holds. `slicewise profile import` writes the telemetry file, its samples and "
                "each figure's spread into the workload's source; \"given in the scenario\" where the scenario "
                "states the figures without one.",
                {"tenant", "gpu_duty_frac", "sm_occupancy_frac", "mem_bw_frac", "memory_gib", "source"},
                {false, true, true, true, true, false},
                {},
                {false, false, false, false, false, true}};
  for (const auto& tenant : r.result.input.tenants) {
    const auto& w = tenant.workload;
    if (w.kind == scenario::WorkloadKind::llm && w.llm && w.engine) {
      // Its figures follow from the model's steps and the engine's memory on each device.
      t.rows.push_back({tenant.name, "-", "-", "-", "-",
                        w.llm->model + " (" + w.llm->dtype + ") served by " +
                            scenario::name_of(scenario::serving_engine_table(), w.engine->name) +
                            ": step roofline and engine memory (docs/model.md)"});
      continue;
    }
    t.rows.push_back({tenant.name, format_number(w.gpu_duty_frac), format_number(w.sm_occupancy_frac),
                      format_number(w.mem_bw_frac), format_number(w.memory_gib),
                      w.source.empty() ? "given in the scenario" : w.source});
  }
  return t;
}

}  // namespace slicewise::report
