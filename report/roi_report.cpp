// The ROI report's content and its Markdown rendering.
#include "report/roi_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "core/units.hpp"
#include "models/strategy_kind.hpp"
#include "report/text_table.hpp"
#include "scenario/validate.hpp"

namespace slicewise::report {

namespace {

std::string percent(double frac, int decimals = 1) { return format_fixed(100.0 * frac, decimals) + " %"; }

std::string isolation_of_kind(const std::string& kind) {
  for (const auto& [name, value] : models::strategy_kind_table()) {
    if (name == kind) return models::to_string(models::isolation_of(value));
  }
  return "unknown";
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
      return "closed loop, " + plural(load.num_users, "user", "users") + ", think time " + format_number(load.think_time_s) + " s";
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
      if (!load.split_column.empty()) text += ", rows with " + load.split_column + " in {" + join(load.split_values, ", ") + "}";
      if (load.multiplier != 1.0) text += ", x" + format_number(load.multiplier);
      if (load.time_compression != 1.0) text += ", time compressed x" + format_number(load.time_compression);
      if (load.sample_frac != 1.0) text += ", sampled " + percent(load.sample_frac, 0);
      return text;
    }
  }
  return "";
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
  // Most savings among the strategies that meet every SLA; ties (within half a cent) go to fewer GPUs.
  int chosen = -1;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const auto& s = strategies[i];
    if (!s.sla_met) continue;
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
    const auto& c = costs.strategies.at(i);
    StrategySummary row;
    row.name = s.name;
    row.kind = s.kind;
    row.isolation = isolation_of_kind(s.kind);
    row.num_gpus = s.num_gpus_used;
    row.monthly_usd = c.monthly_usd;
    row.monthly_savings_usd = c.monthly_savings_usd;
    row.annual_savings_usd = c.annual_savings_usd;
    row.savings_frac = c.savings_frac;
    row.fleet_busy_frac = s.fleet_busy_frac;
    row.fleet_sm_util_frac = s.fleet_sm_util_frac;
    row.issues = s.issues;
    for (std::size_t t = 0; t < s.tenants.size(); ++t) {
      const auto& tenant = s.tenants[t];
      row.num_arrived += tenant.num_arrived;
      row.num_violations += tenant.sla_violations;
      if (!tenant.sla_met) ++row.num_tenants_missing_sla;
      TenantRow tr;
      tr.strategy = s.name;
      tr.tenant = tenant.name;
      tr.p50_s = tenant.latency_s.p50;
      tr.p95_s = tenant.latency_s.p95;
      tr.p99_s = tenant.latency_s.p99;
      for (const auto& spec : result.input.tenants) {
        if (spec.name == tenant.name && spec.sla.latency_s) tr.sla_target_s = *spec.sla.latency_s;
      }
      tr.sla_violation_frac = tenant.sla_violation_frac;
      tr.sla_max_violation_frac = tenant.sla_max_violation_frac;
      tr.sla_met = tenant.sla_met;
      if (t < c.chargeback.size()) tr.monthly_chargeback_usd = c.chargeback[t].monthly_usd;
      r.tenants.push_back(std::move(tr));
    }
    row.sla_violation_frac = row.num_arrived > 0 ? static_cast<double>(row.num_violations) / row.num_arrived : 0.0;
    row.sla_met = row.num_tenants_missing_sla == 0;
    if (s.name == costs.baseline) r.baseline = static_cast<int>(i);
    r.strategies.push_back(std::move(row));
  }

  r.recommended = recommend(r.strategies);

  const std::string prices = pricing::to_string(costs.option) + " prices of table " + costs.table +
                             (costs.region.empty() ? "" : ", " + costs.region) + ", as of " + costs.as_of;
  if (r.recommended < 0) {
    r.recommendation = "No strategy meets every tenant's SLA, the baseline included: add capacity or relax the targets "
                       "before sharing.";
    r.savings = "No saving can be claimed while every strategy misses an SLA; the cheapest, " +
                std::min_element(r.strategies.begin(), r.strategies.end(), [](const auto& a, const auto& b) {
                  return a.monthly_usd < b.monthly_usd;
                })->name + ", costs " + format_usd(std::min_element(r.strategies.begin(), r.strategies.end(),
                                                                    [](const auto& a, const auto& b) {
                                                                      return a.monthly_usd < b.monthly_usd;
                                                                    })->monthly_usd) +
                " per month (" + prices + ").";
  } else {
    const auto& best = r.strategies[static_cast<std::size_t>(r.recommended)];
    const bool is_baseline = r.recommended == r.baseline || best.monthly_savings_usd <= 0.005;
    if (is_baseline) {
      std::vector<std::string> missed;
      for (const auto& s : r.strategies) {
        if (!s.sla_met) missed.push_back(s.name);
      }
      r.recommendation = "Keep " + best.name + ": " +
                         (missed.empty() ? std::string("no sharing strategy is cheaper while meeting every SLA.")
                                         : "every cheaper strategy misses an SLA (" + join(missed, ", ") + ").");
      r.savings = "No monthly saving against " + costs.baseline + " (" + format_usd(best.monthly_usd) + " per month, " +
                  prices + ").";
    } else {
      r.recommendation = "Share with " + best.name + " (" + best.kind + ", isolation " + best.isolation +
                         "): it meets every tenant's SLA on " + plural(best.num_gpus, "GPU", "GPUs") +
                         (r.baseline >= 0 ? " instead of " + std::to_string(r.strategies[static_cast<std::size_t>(r.baseline)].num_gpus)
                                          : std::string()) +
                         ".";
      r.savings = best.name + " saves " + format_usd(best.monthly_savings_usd) + " per month (" +
                  format_usd(best.annual_savings_usd, 0) + " per year, " + percent(best.savings_frac) + ") against " +
                  costs.baseline + ", at " + prices;
      if (const auto* band = band_of(result, best.name)) {
        r.savings += "; 90 % interval " + format_usd(band->monthly_savings_p05_usd) + " to " +
                     format_usd(band->monthly_savings_p95_usd) + " over " + std::to_string(band->num_samples) +
                     " samples of the fitted constants";
      }
      r.savings += ".";
    }
    // SLA risk of the recommendation: the tenant closest to its allowance.
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
    if (const auto* band = band_of(result, best.name); band && worst && band->sla_violation_p95_frac > worst->sla_max_violation_frac) {
      level = "moderate";
      tail = "; with the fitted constants' uncertainty the violation rate reaches " + percent(band->sla_violation_p95_frac) +
             " (95th percentile of " + std::to_string(band->num_samples) + " samples)";
    }
    r.sla_risk = "SLA risk is " + level + " under " + best.name +
                 (worst ? ": the tenant nearest its limit, " + worst->tenant + ", has " + percent(worst->sla_violation_frac) +
                              " of requests over target (allowed " + percent(worst->sla_max_violation_frac) + ")"
                        : std::string()) +
                 tail + ".";
  }

  // Assumptions and provenance.
  const auto& input = result.input;
  r.assumptions.push_back("Prices: " + prices + " (" + costs.currency + "); " + format_number(kHoursPerMonth) +
                          " hours per month; the baseline is " + costs.baseline + ".");
  r.assumptions.push_back("Simulation: " + format_number(result.horizon_s) + " s of arrivals (warm-up " +
                          format_number(input.warmup_s) + " s), seed " + std::to_string(result.seed) + ".");
  for (const auto& tenant : input.tenants) {
    std::string sla;
    if (tenant.sla.latency_s) sla += ", latency target " + format_number(*tenant.sla.latency_s) + " s";
    if (tenant.sla.ttft_s) sla += ", TTFT target " + format_number(*tenant.sla.ttft_s) + " s";
    if (tenant.sla.tpot_s) sla += ", TPOT target " + format_number(*tenant.sla.tpot_s) + " s";
    r.assumptions.push_back("Tenant " + tenant.name + ": " + load_text(tenant.load) + sla + ".");
  }
  if (!result.calibration.profile_id.empty()) {
    r.assumptions.push_back("Calibration: profile " + result.calibration.profile_id + ", worst fit MAPE " +
                            percent(result.calibration.fit_mape) + "; data: " +
                            (result.calibration.sources.empty() ? std::string("none (uncalibrated defaults)")
                                                                : join(result.calibration.sources, "; ")) +
                            ".");
    for (const auto& constant : result.calibration.constants) r.assumptions.push_back("Constant: " + constant + ".");
  }
  for (const auto& s : r.strategies) {
    for (const auto& issue : s.issues) r.assumptions.push_back("Issue under " + s.name + ": " + issue + ".");
  }

  r.methodology = {
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
      "the largest monthly savings among those that meet every tenant's SLA with every context placed.",
  };
  return r;
}

std::vector<Figure> report_figures(const RoiReport& report) {
  std::vector<Figure> figures;
  if (report.sweep) {
    figures.push_back({"sweep-savings", "Monthly savings per sweep point",
                       "Each point's monthly savings per strategy against its baseline; points in sweep order.", ""});
  }
  figures.push_back({"cost", "Monthly cost per strategy", "What each strategy's fleet costs per month.", ""});
  figures.push_back({"savings", "Monthly savings against " + report.costs.baseline,
                     "Baseline monthly cost minus the strategy's; negative means it costs more.", ""});
  bool cdf = false;
  for (const auto& s : report.result.strategies) {
    for (const auto& t : s.tenants) cdf = cdf || !t.latency_cdf_s.empty();
  }
  if (cdf) {
    figures.push_back({"latency-cdf", "Latency CDF per tenant",
                       "Share of requests finished within a latency, one panel per tenant, one line per strategy.", ""});
  }
  figures.push_back({"utilization", "GPU utilization over time",
                     "Mean busy fraction of each strategy's GPUs per metrics interval.", ""});
  bool mig = false;
  for (const auto& s : report.result.strategies) {
    for (const auto& d : s.devices) mig = mig || !d.mig_profile.empty();
  }
  if (mig) {
    figures.push_back({"mig-layout", "MIG layout", "Instances per GPU on the memory slices they occupy, with their tenants.", ""});
  }
  return figures;
}

std::vector<ReportTable> report_tables(const RoiReport& r) {
  std::vector<ReportTable> tables;
  if (r.sweep) {
    const auto& sw = *r.sweep;
    ReportTable t{"sweep", "Sweep " + sw.name,
                  std::to_string(sw.rows.size()) + " points; monthly savings per strategy (\"missed\" when a tenant misses its "
                  "SLA). The rest of the report details point " + sw.detail_point + ".",
                  {"point"}, {false}, {}};
    for (const auto& axis : sw.axes) {
      t.columns.push_back(axis);
      t.numeric.push_back(false);
    }
    for (const auto& strategy : sw.strategies) {
      t.columns.push_back(strategy + " savings $/month");
      t.numeric.push_back(true);
    }
    t.columns.push_back("recommended");
    t.numeric.push_back(false);
    for (const auto& row : sw.rows) {
      std::vector<std::string> cells = {row.point};
      cells.insert(cells.end(), row.labels.begin(), row.labels.end());
      for (std::size_t i = 0; i < sw.strategies.size(); ++i) {
        if (row.failed || std::isnan(row.savings_usd[i])) {
          cells.push_back(row.failed ? "failed" : "-");
        } else {
          cells.push_back(format_usd(row.savings_usd[i]) + (row.sla_met[i] ? "" : " (missed)"));
        }
      }
      cells.push_back(row.recommended.empty() ? "none" : row.recommended);
      t.rows.push_back(std::move(cells));
    }
    tables.push_back(std::move(t));
  }

  ReportTable strategies{"strategies", "Strategies", "",
                         {"strategy", "kind", "isolation", "GPUs", "$/month", "savings $/month", "savings %",
                          "GPU busy %", "SLA violations %", "SLA"},
                         {false, false, false, true, true, true, true, true, true, false}, {}};
  for (std::size_t i = 0; i < r.strategies.size(); ++i) {
    const auto& s = r.strategies[i];
    std::string name = s.name;
    if (static_cast<int>(i) == r.recommended) name += " (recommended)";
    if (static_cast<int>(i) == r.baseline) name += " (baseline)";
    strategies.rows.push_back({name, s.kind, s.isolation, std::to_string(s.num_gpus), format_usd(s.monthly_usd),
                               format_usd(s.monthly_savings_usd), format_fixed(100.0 * s.savings_frac, 1),
                               format_fixed(100.0 * s.fleet_busy_frac, 1), format_fixed(100.0 * s.sla_violation_frac, 2),
                               s.sla_met ? "met" : "missed (" + std::to_string(s.num_tenants_missing_sla) + ")"});
  }
  tables.push_back(std::move(strategies));

  ReportTable tenants{"tenants", "Tenants", "",
                      {"strategy", "tenant", "p50 s", "p95 s", "p99 s", "target s", "over target %", "allowed %", "SLA",
                       "chargeback $/month"},
                      {false, false, true, true, true, true, true, true, false, true}, {}};
  for (const auto& t : r.tenants) {
    tenants.rows.push_back({t.strategy, t.tenant, format_fixed(t.p50_s, 3), format_fixed(t.p95_s, 3), format_fixed(t.p99_s, 3),
                            t.sla_target_s > 0.0 ? format_number(t.sla_target_s) : "-",
                            format_fixed(100.0 * t.sla_violation_frac, 2), format_fixed(100.0 * t.sla_max_violation_frac, 1),
                            t.sla_met ? "met" : "missed", format_usd(t.monthly_chargeback_usd)});
  }
  tables.push_back(std::move(tenants));

  if (!r.result.uncertainty.empty()) {
    ReportTable bands{"uncertainty", "Uncertainty of the fitted constants",
                      "Each strategy re-simulated with the calibration constants drawn from their fitted errors.",
                      {"strategy", "samples", "savings $/month, median", "90 % interval", "SLA violations %, median",
                       "90 % interval"},
                      {false, true, true, true, true, true}, {}};
    for (const auto& b : r.result.uncertainty) {
      bands.rows.push_back({b.strategy, std::to_string(b.num_samples), format_usd(b.monthly_savings_p50_usd),
                            format_usd(b.monthly_savings_p05_usd) + " to " + format_usd(b.monthly_savings_p95_usd),
                            format_fixed(100.0 * b.sla_violation_p50_frac, 2),
                            format_fixed(100.0 * b.sla_violation_p05_frac, 2) + " to " +
                                format_fixed(100.0 * b.sla_violation_p95_frac, 2)});
    }
    tables.push_back(std::move(bands));
  }
  return tables;
}

namespace {
/// Text for Markdown prose: names are shown as written, never read as HTML.
std::string md_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}
}  // namespace

std::string roi_report_markdown(const RoiReport& r, const std::vector<Figure>& figures) {
  std::string md = "# " + md_text(r.title) + "\n\n";
  md += "## Executive summary\n\n";
  if (r.recommended >= 0) {
    md += "**Recommended strategy: " + md_text(r.strategies[static_cast<std::size_t>(r.recommended)].name) + "**\n\n";
  }
  md += "- " + md_text(r.recommendation) + "\n- " + md_text(r.savings) + "\n- " + md_text(r.sla_risk) + "\n\n";
  for (const auto& t : report_tables(r)) {
    md += "## " + md_text(t.title) + "\n\n";
    if (!t.intro.empty()) md += md_text(t.intro) + "\n\n";
    std::vector<Column> columns;
    for (std::size_t c = 0; c < t.columns.size(); ++c) columns.push_back({t.columns[c], t.numeric[c] ? Align::right : Align::left});
    TextTable table(columns);
    for (const auto& row : t.rows) table.add_row(row);
    md += table.to_markdown() + "\n";
  }
  md += "## Figures\n\n";
  for (const auto& f : figures) {
    md += "### " + md_text(f.title) + "\n\n![" + md_text(f.title) + "](" + f.file + ")\n\n" + md_text(f.caption) + "\n\n";
  }
  md += "## Assumptions and provenance\n\n";
  if (!r.description.empty()) md += "Scenario: " + md_text(r.description) + "\n\n";
  for (const auto& line : r.assumptions) md += "- " + md_text(line) + "\n";
  md += "\n## Methodology\n\n";
  for (const auto& paragraph : r.methodology) md += md_text(paragraph) + "\n\n";
  return md;
}

RoiReport priced_roi_report(const scenario::SimResult& result, const scenario::Scenario& scenario) {
  const auto table = scenario::resolve_price_table(scenario, scenario::Catalogs::shipped());
  return build_roi_report(result, cost_result(result, scenario, table, scenario.pricing.option));
}

}  // namespace slicewise::report
