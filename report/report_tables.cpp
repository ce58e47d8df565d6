// The ROI report's tables and list of figures, already formatted, shared by every format
// (Markdown, HTML, PDF).
#include <algorithm>
#include <cmath>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "report/roi_report.hpp"
#include "report/text_table.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

namespace {

/// The sweep overview: one row per point, its savings per strategy and its recommendation.
ReportTable sweep_table(const SweepSection& sw) {
  ReportTable t{"sweep",
                "Sweep " + sw.name,
                std::to_string(sw.rows.size()) +
                    " points; monthly savings per strategy (\"missed\" when a tenant misses its "
                    "SLA). The rest of the report details point " +
                    sw.detail_point + ".",
                {"point"},
                {false},
                {},
                {}};
  for (const auto& axis : sw.axes) {
    t.columns.push_back(axis);
    t.numeric.push_back(false);
  }
  for (const auto& strategy : sw.strategies) {
    t.columns.push_back(strategy + " savings $/month");
    t.numeric.push_back(true);
  }
  t.columns.emplace_back("recommended");
  t.numeric.push_back(false);
  for (const auto& row : sw.rows) {
    std::vector<std::string> cells = {row.point};
    cells.insert(cells.end(), row.labels.begin(), row.labels.end());
    for (std::size_t i = 0; i < sw.strategies.size(); ++i) {
      if (row.failed || std::isnan(row.savings_usd[i])) {
        cells.emplace_back(row.failed ? "failed" : "-");
      } else {
        cells.push_back(format_usd(row.savings_usd[i]) + (row.sla_met[i] ? "" : " (missed)"));
      }
    }
    cells.push_back(row.recommended.empty() ? "none" : row.recommended);
    t.rows.push_back(std::move(cells));
  }
  return t;
}

/// The business view, before the detail: each strategy's monthly cost and saving, the revenue its
/// added p95 latency puts at risk and the net value, when the scenario gives a monthly revenue;
/// without one the saving is the whole net value and the intro says how to price the risk.
ReportTable business_table(const RoiReport& r) {
  const auto& pricing = r.result.input.pricing;
  const bool revenue = pricing.monthly_revenue_usd > 0.0;
  ReportTable t{
      "business",
      "Business view",
      revenue ? "Revenue " + format_usd(pricing.monthly_revenue_usd) + " a month, of which " +
                    format_percent(pricing.abandonment_per_100ms_frac) +
                    " of users is lost per 100 ms of added p95 latency: the revenue at risk. Net value is "
                    "the saving less it."
              : "Revenue at risk is not evaluated: the scenario gives no monthly revenue "
                "(pricing.monthly_revenue_usd); with one, each strategy's added p95 latency is priced as "
                "users lost. Net value is the saving alone.",
      {"strategy", "$/month", "saving $/month", "saving %", "revenue at risk $/month", "net value $/month", "SLA"},
      {false, true, true, true, true, true, false},
      {},
      {}};
  for (std::size_t i = 0; i < r.strategies.size(); ++i) {
    const auto& s = r.strategies[i];
    const auto* cost = i < r.costs.strategies.size() ? &r.costs.strategies[i] : nullptr;
    std::string name = s.name;
    if (static_cast<int>(i) == r.recommended) name += " (recommended)";
    if (static_cast<int>(i) == r.baseline) name += " (baseline)";
    t.rows.push_back({name, format_usd(s.monthly_usd), format_usd(s.monthly_savings_usd),
                      format_fixed(100.0 * s.savings_frac, 1),
                      revenue && cost ? format_usd(cost->revenue_at_risk_usd) : "-",
                      format_usd(revenue && cost ? cost->net_monthly_value_usd : s.monthly_savings_usd),
                      s.sla_met ? "met" : "missed (" + std::to_string(s.num_tenants_missing_sla) + ")"});
  }
  return t;
}

ReportTable strategies_table(const RoiReport& r) {
  ReportTable strategies{"strategies",
                         "Strategies",
                         "",
                         {"strategy", "kind", "isolation", "GPUs", "$/month", "savings $/month", "savings %",
                          "GPU busy %", "SLA violations %", "SLA"},
                         {false, false, false, true, true, true, true, true, true, false},
                         {},
                         {}};
  // How each fleet was sized, when any was sized for SLA (as-given reports read as before).
  const auto& basis = r.costs.fleet_basis;
  const bool sized = any_sized(r.costs);
  if (sized) {
    strategies.columns.insert(strategies.columns.begin() + 4, "fleet");
    strategies.numeric.insert(strategies.numeric.begin() + 4, false);
  }
  for (std::size_t i = 0; i < r.strategies.size(); ++i) {
    const auto& s = r.strategies[i];
    std::string name = s.name;
    if (static_cast<int>(i) == r.recommended) name += " (recommended)";
    if (static_cast<int>(i) == r.baseline) name += " (baseline)";
    std::vector<std::string> row = {name,
                                    s.kind,
                                    s.isolation,
                                    std::to_string(s.num_gpus),
                                    format_usd(s.monthly_usd),
                                    format_usd(s.monthly_savings_usd),
                                    format_fixed(100.0 * s.savings_frac, 1),
                                    format_fixed(100.0 * s.fleet_busy_frac, 1),
                                    format_fixed(100.0 * s.sla_violation_frac, 2),
                                    s.sla_met ? "met" : "missed (" + std::to_string(s.num_tenants_missing_sla) + ")"};
    if (sized) row.insert(row.begin() + 4, i < basis.size() ? basis[i] : "as given");
    strategies.rows.push_back(std::move(row));
  }
  return strategies;
}

ReportTable tenants_table(const RoiReport& r) {
  // The slowdown (latency / solo time) for every workload; TTFT and TPOT where a tenant has them.
  bool ttft = false;
  bool tpot = false;
  for (const auto& t : r.tenants) {
    ttft = ttft || t.ttft_p95_s.has_value();
    tpot = tpot || t.tpot_p95_s.has_value();
  }
  // The chargeback column names its model; the intro says what it means (docs/roi.md).
  const bool reservation = r.costs.chargeback_model == pricing::ChargebackModel::reservation;
  ReportTable tenants{"tenants",
                      "Tenants",
                      "Slowdown: a request's latency over its solo time (alone on its reference GPU), 95th "
                      "percentile. Chargeback " +
                          chargeback_model_text(r.costs.chargeback_model) +
                          "; each strategy's charges add up to its monthly cost.",
                      {},
                      {},
                      {},
                      {}};
  const auto column = [&](bool shown, const char* header, bool numeric) {
    if (!shown) return;
    tenants.columns.emplace_back(header);
    tenants.numeric.push_back(numeric);
  };
  column(true, "strategy", false);
  column(true, "tenant", false);
  column(true, "p50 s", true);
  column(true, "p95 s", true);
  column(true, "p99 s", true);
  column(true, "slowdown p95", true);
  column(ttft, "TTFT p95 s", true);
  column(tpot, "TPOT p95 s", true);
  column(true, "target s", true);
  column(true, "over target %", true);
  column(true, "allowed %", true);
  column(true, "SLA", false);
  column(true, reservation ? "chargeback by reservation $/month" : "chargeback by usage $/month", true);
  const auto fixed_or_dash = [](const std::optional<double>& value, int decimals) {
    return value ? format_fixed(*value, decimals) : std::string("-");
  };
  for (const auto& t : r.tenants) {
    std::vector<std::string> row = {t.strategy,
                                    t.tenant,
                                    format_fixed(t.p50_s, 3),
                                    format_fixed(t.p95_s, 3),
                                    format_fixed(t.p99_s, 3),
                                    fixed_or_dash(t.slowdown_p95, 2)};
    if (ttft) row.push_back(fixed_or_dash(t.ttft_p95_s, 3));
    if (tpot) row.push_back(fixed_or_dash(t.tpot_p95_s, 4));
    row.insert(row.end(),
               {t.sla_target_s > 0.0 ? format_number(t.sla_target_s) : "-",
                format_fixed(100.0 * t.sla_violation_frac, 2), format_fixed(100.0 * t.sla_max_violation_frac, 1),
                scenario::sla_word(t.sla_met, t.num_arrived), format_usd(t.monthly_chargeback_usd)});
    tenants.rows.push_back(std::move(row));
  }
  return tenants;
}

/// Each strategy's GPU energy and what it would cost in electricity (docs/energy.md): information,
/// since the cloud prices already include power.
ReportTable energy_table(const RoiReport& r) {
  const auto& e = r.energy;
  ReportTable energy{"energy",
                     "Energy",
                     energy_basis_text(e),
                     {"strategy", "GPUs", "mean power W", "kWh/month", "kWh/month with PUE", "electricity $/month",
                      "unused GPUs (idle W)"},
                     {false, true, true, true, true, true, true},
                     {},
                     {}};
  for (const auto& row : e.rows) {
    if (!row.energy) {
      energy.rows.push_back({row.strategy, "-", "-", "-", "-", "-",
                             "no TDP in the GPU catalog for " + join(row.gpus_without_power, ", ")});
      continue;
    }
    const auto& g = *row.energy;
    energy.rows.push_back(
        {row.strategy, std::to_string(g.per_gpu.size()), format_fixed(g.mean_power_w, 0),
         format_fixed(g.monthly_kwh, 1), format_fixed(row.facility_monthly_kwh, 1),
         format_usd(row.electricity_monthly_usd),
         g.unused_gpus == 0 ? "0" : std::to_string(g.unused_gpus) + " (" + format_fixed(g.unused_idle_w, 0) + ")"});
  }
  return energy;
}

/// The savings and SLA violations of each strategy over the samples of the fitted constants.
ReportTable uncertainty_table(const RoiReport& r) {
  ReportTable bands{"uncertainty",
                    "Uncertainty of the fitted constants",
                    "Each strategy re-simulated with the calibration constants drawn from their fitted errors; a "
                    "strategy sized for SLA is re-sized per draw, and its recommended fleet run under the same draw.",
                    {"strategy", "samples", "savings $/month, median", "90 % interval", "SLA violations %, median",
                     "90 % interval", "GPUs, median", "90 % interval", "fleet meets every SLA %"},
                    {false, true, true, true, true, true, true, true, true},
                    {},
                    {}};
  for (const auto& b : r.result.uncertainty) {
    bands.rows.push_back(
        {b.strategy, std::to_string(b.num_samples), format_usd(b.monthly_savings_p50_usd),
         format_usd(b.monthly_savings_p05_usd) + " to " + format_usd(b.monthly_savings_p95_usd),
         format_fixed(100.0 * b.sla_violation_p50_frac, 2),
         format_fixed(100.0 * b.sla_violation_p05_frac, 2) + " to " + format_fixed(100.0 * b.sla_violation_p95_frac, 2),
         format_fixed(b.num_gpus_p50, 1), format_fixed(b.num_gpus_p05, 1) + " to " + format_fixed(b.num_gpus_p95, 1),
         format_fixed(100.0 * b.fleet_meets_sla_frac, 1)});
  }
  return bands;
}

}  // namespace

std::vector<Figure> report_figures(const RoiReport& report) {
  std::vector<Figure> figures;
  if (report.sweep) {
    figures.push_back({"sweep-savings",
                       "Monthly savings against the swept values",
                       "Each point's monthly savings per strategy against its baseline: a line per strategy over the "
                       "first numeric swept variable, a hollow marker where the strategy misses an SLA; bars labelled "
                       "by the swept values, in sweep order, when no swept variable is a number.",
                       "",
                       {}});
  }
  figures.push_back({"cost", "Monthly cost per strategy", "What each strategy's fleet costs per month.", "", {}});
  figures.push_back({"savings",
                     "Monthly savings against " + report.costs.baseline,
                     "Baseline monthly cost minus the strategy's; negative means it costs more.",
                     "",
                     {}});
  // The tenants with latency quantiles, in order of first appearance, kCdfPanelsPerFigure a figure.
  std::vector<std::string> cdf_tenants;
  for (const auto& s : report.result.strategies) {
    for (const auto& t : s.tenants) {
      if (!t.latency_cdf_s.empty() && std::find(cdf_tenants.begin(), cdf_tenants.end(), t.name) == cdf_tenants.end()) {
        cdf_tenants.push_back(t.name);
      }
    }
  }
  const std::size_t cdf_figures = (cdf_tenants.size() + kCdfPanelsPerFigure - 1) / kCdfPanelsPerFigure;
  for (std::size_t k = 0; k < cdf_figures; ++k) {
    const auto first = cdf_tenants.begin() + static_cast<std::ptrdiff_t>(k * kCdfPanelsPerFigure);
    const auto last =
        cdf_tenants.begin() + static_cast<std::ptrdiff_t>(std::min(cdf_tenants.size(), (k + 1) * kCdfPanelsPerFigure));
    const std::string part =
        cdf_figures > 1 ? " (" + std::to_string(k + 1) + " of " + std::to_string(cdf_figures) + ")" : "";
    figures.push_back({k == 0 ? "latency-cdf" : "latency-cdf-" + std::to_string(k + 1),
                       "Latency CDF per tenant" + part,
                       "Share of requests finished within a latency, one panel per tenant, one line per strategy.",
                       "",
                       {first, last}});
  }
  figures.push_back({"utilization",
                     "GPU utilization over time",
                     "Busy fraction of each strategy's GPUs per metrics interval, as in the strategies table: the "
                     "mean over its used GPUs, a MIG instance counting by its share of the GPU's SMs.",
                     "",
                     {}});
  bool mig = false;
  bool phases = false;
  for (const auto& s : report.result.strategies) {
    for (const auto& d : s.devices) {
      mig = mig || !d.mig_profile.empty();
      phases = phases || (!d.mig_profile.empty() && !d.phase.empty());
    }
  }
  if (mig) {
    figures.push_back({"mig-layout",
                       "MIG layout",
                       std::string("Instances per GPU on the memory slices they occupy, with their tenants") +
                           (phases ? "; under a layout schedule, a row per phase and GPU." : "."),
                       "",
                       {}});
  }
  return figures;
}

std::vector<ReportTable> report_tables(const RoiReport& r) {
  std::vector<ReportTable> tables;
  tables.push_back(business_table(r));
  if (r.sweep) tables.push_back(sweep_table(*r.sweep));
  tables.push_back(strategies_table(r));
  tables.push_back(tenants_table(r));
  tables.push_back(energy_table(r));
  if (!r.result.uncertainty.empty()) tables.push_back(uncertainty_table(r));
  return tables;
}

}  // namespace slicewise::report
