// Pricing a simulation result.
#include "report/costing.hpp"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "core/units.hpp"
#include "pricing/spot_interruptions.hpp"
#include "report/autoscale_cost.hpp"
#include "report/cost_lines.hpp"
#include "report/spot_exposure.hpp"
#include "report/tenant_usage.hpp"
#include "report/text_table.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

namespace {

/// The GPUs of a cost line as instances that its GPUs in use (`gpus`, by index) fill in turn.
InstanceGroup instance_group(const pricing::PriceTable& table, const pricing::CostLine& line, const std::string& gpu_id,
                             const std::map<int, bool>& gpus) {
  const auto* row = table.find(line.instance_type, line.region);
  InstanceGroup group;
  group.instance_type = line.instance_type;
  group.gpu = gpu_id;
  group.gpus_per_instance = line.num_gpus / line.count;
  group.spot_usd_per_hour = line.usd_per_hour_each;
  if (row) group.on_demand_usd_per_hour = row->usd_per_hour(pricing::PurchaseOption::on_demand);
  for (const auto& entry : gpus) group.gpus.push_back(entry.first);
  return group;
}

/// One strategy's cost lines (money figures not yet settled): the GPUs it used, its licence and
/// its sidecars. `usd_per_gpu_hour` receives, per GPU model, the hourly price of one GPU of the
/// instances that carry it (what a reservation of that GPU is worth).
pricing::StrategyCost strategy_lines(const scenario::StrategyResult& strategy, const scenario::Scenario& scenario,
                                     const pricing::PriceTable& table, pricing::PurchaseOption option,
                                     std::map<std::string, double>& usd_per_gpu_hour,
                                     std::vector<InstanceGroup>* groups = nullptr) {
  pricing::StrategyCost cost;
  cost.strategy = strategy.name;
  // GPUs used, per GPU model (a heterogeneous fleet prices each model separately), the shared ones
  // apart from reserved pools': each on instances that hold its widest tensor-parallel group.
  int shared = 0;  // GPUs the strategy shares (a licence covers those, not reserved pools)
  for (const auto& [key, part] : fleet_parts(strategy)) {
    if (!key.first) shared += static_cast<int>(part.gpus.size());
    const auto& gpu_id = key.second;
    const auto line =
        gpu_line(scenario, table, option, gpu_id, static_cast<int>(part.gpus.size()), part.widest, key.first);
    if (line.num_gpus > 0 && usd_per_gpu_hour.count(gpu_id) == 0) {
      usd_per_gpu_hour[gpu_id] = line.usd_per_hour_each * line.count / line.num_gpus;
    }
    if (groups && line.count > 0) groups->push_back(instance_group(table, line, gpu_id, part.gpus));
    cost.lines.push_back(line);
  }
  for (const auto& spec : scenario.strategies) {
    if (spec.name != strategy.name) continue;
    if (auto line = licence_line(spec, shared)) cost.lines.push_back(std::move(*line));
    for (const auto& sidecar : spec.sidecars) cost.lines.push_back(sidecar_line(scenario, table, option, sidecar));
  }
  return cost;
}

/// What every saving is measured against.
struct Baseline {
  std::string name;  ///< "" when there is none
  double monthly_usd = 0.0;
  std::vector<pricing::CostLine> sized_lines;  ///< its fleet when sized (not a strategy of the result)
  std::vector<pricing::TenantUsage> usage;     ///< empty unless the baseline is a strategy of the result
  std::size_t index = 0;                       ///< its strategy in the result; the number of strategies if none
};

/// The result's first baseline strategy (dedicated); the number of strategies when it has none.
std::size_t dedicated_index(const scenario::SimResult& result) {
  for (std::size_t i = 0; i < result.strategies.size(); ++i) {
    if (scenario::is_baseline(result.strategies[i].kind)) return i;
  }
  return result.strategies.size();
}

/// The GPU of the fleet's first entry (from the table when the entry names only an instance type).
std::string first_fleet_gpu(const scenario::Scenario& scenario, const pricing::PriceTable& table) {
  std::string gpu = scenario.fleet.front().gpu;
  if (gpu.empty()) {
    if (const auto* row = table.find(scenario.fleet.front().instance_type, scenario.pricing.region); row && row->gpu)
      gpu = *row->gpu;
  }
  return gpu;
}

/// The baseline: the dedicated strategy (priced in `costs`), else one GPU per context on the
/// fleet's first GPU model.
Baseline baseline_of(const scenario::SimResult& result, const scenario::Scenario& scenario,
                     const pricing::PriceTable& table, pricing::PurchaseOption option,
                     const std::vector<pricing::StrategyCost>& costs) {
  Baseline baseline;
  baseline.index = dedicated_index(result);
  if (baseline.index < result.strategies.size()) {
    baseline.name = result.strategies[baseline.index].name;
    for (const auto& line : costs[baseline.index].lines)
      baseline.monthly_usd += line.count * line.usd_per_hour_each * kHoursPerMonth;
    baseline.usage = usage_of(scenario, result.strategies[baseline.index]);
  } else if (!scenario.fleet.empty()) {
    int contexts = 0;
    for (const auto& tenant : scenario.tenants) contexts += tenant.num_contexts;
    const auto line = gpu_line(scenario, table, option, first_fleet_gpu(scenario, table), contexts, 1, false);
    baseline.name = "dedicated (sized: one GPU per context)";
    baseline.monthly_usd = line.count * line.usd_per_hour_each * kHoursPerMonth;
    baseline.sized_lines.push_back(line);
  }
  return baseline;
}

double total_throughput(const scenario::StrategyResult& strategy) {
  double throughput = 0.0;
  for (const auto& t : strategy.tenants) throughput += t.throughput_per_s;
  return throughput;
}

/// What a reader of a strategy's saving must see: a sized fleet that missed, or less work than the
/// baseline's (`baseline_throughput`, 0 when the baseline is this strategy or none of the result).
std::vector<std::string> strategy_notes(const scenario::StrategyResult& strategy, double baseline_throughput,
                                        const std::string& baseline, bool baseline_sized) {
  std::vector<std::string> notes;
  if (strategy.num_gpus_used == 0 && !strategy.tenants.empty()) {
    notes.emplace_back("placed no context (see its issues): it has no fleet to price, and its $0.00 is no saving");
    return notes;
  }
  if (strategy.sizing && !strategy.sizing->feasible) {
    notes.push_back(strategy.sizing->shortfall + "; the closest fleet is priced");
  }
  const double throughput = total_throughput(strategy);
  if (baseline_throughput > 0.0 && throughput < 0.99 * baseline_throughput) {
    // Sizing both for SLA makes them deliver the same work, unless it already did and this one missed.
    const bool both_sized = strategy.sizing && baseline_sized;
    notes.push_back("completes " + format_fixed(100.0 * (1.0 - throughput / baseline_throughput), 1) +
                    " % fewer requests per second than " + baseline +
                    ": its saving compares fleets that do not deliver the same work; the cost per 1,000 requests "
                    "served within SLA compares equal work" +
                    (both_sized ? std::string(" (both were sized for SLA: this fleet serves less)")
                                : std::string(" (or size both for SLA)")));
  }
  return notes;
}

}  // namespace

std::string chargeback_model_text(pricing::ChargebackModel model) {
  return model == pricing::ChargebackModel::reservation
             ? "by reservation (each tenant pays for the capacity reserved for it: its GPUs, its MIG instances, "
               "its share of a GPU it shares; capacity reserved for nobody is spread in proportion)"
             : "by usage (each strategy's monthly cost split by the GPU work of each tenant's completed requests, "
               "idle capacity included)";
}

std::string fleet_basis(const scenario::StrategyResult& strategy) {
  if (!strategy.sizing) return "as given";
  return strategy.sizing->feasible ? "sized for SLA" : "no SLA fleet";
}

bool any_sized(const CostReport& costs) {
  return std::any_of(costs.fleet_basis.begin(), costs.fleet_basis.end(),
                     [](const std::string& basis) { return basis != "as given"; });
}

CostReport cost_result(const scenario::SimResult& result, const scenario::Scenario& scenario,
                       const pricing::PriceTable& table, pricing::PurchaseOption option,
                       pricing::ChargebackModel chargeback) {
  CostReport report;
  report.table = table.name;
  report.currency = table.currency;
  report.as_of = table.as_of;
  report.region = scenario.pricing.region;
  report.option = option;
  report.chargeback_model = chargeback;

  std::vector<pricing::StrategyCost> costs;
  std::vector<std::map<std::string, double>> gpu_prices(result.strategies.size());
  std::vector<std::vector<InstanceGroup>> groups(result.strategies.size());
  for (std::size_t i = 0; i < result.strategies.size(); ++i)
    costs.push_back(strategy_lines(result.strategies[i], scenario, table, option, gpu_prices[i], &groups[i]));
  const Baseline baseline = baseline_of(result, scenario, table, option, costs);
  report.baseline = baseline.name;
  report.baseline_lines = baseline.sized_lines;
  const pricing::BusinessInputs business{scenario.pricing.monthly_revenue_usd,
                                         scenario.pricing.abandonment_per_100ms_frac};
  for (std::size_t i = 0; i < costs.size(); ++i) {
    const auto& strategy = result.strategies[i];
    const auto usage = usage_of(scenario, strategy, scenario::find_strategy(scenario, strategy.name), gpu_prices[i]);
    pricing::settle(costs[i], baseline.monthly_usd, usage, baseline.usage.empty() ? usage : baseline.usage, business,
                    chargeback);
    if (option == pricing::PurchaseOption::spot) {
      costs[i].spot = spot_exposure(strategy, scenario, groups[i], table.name, costs[i].monthly_usd,
                                    pricing::shipped_spot_interruptions());
    }
    costs[i].autoscaled = autoscaled_cost(strategy, scenario, table, option, costs[i].monthly_usd);
    if (strategy.num_gpus_used == 0 && !strategy.tenants.empty()) {
      // No fleet is not a saving: nothing ran, so nothing is saved.
      costs[i].monthly_savings_usd = costs[i].annual_savings_usd = costs[i].savings_frac = 0.0;
      costs[i].net_monthly_value_usd = -costs[i].revenue_at_risk_usd;
    }
  }
  report.strategies = std::move(costs);
  // Say what each saving compares: a sized fleet that missed, or less work than the baseline's.
  const bool has_baseline_run = baseline.index < result.strategies.size();
  const double baseline_throughput = has_baseline_run ? total_throughput(result.strategies[baseline.index]) : 0.0;
  for (std::size_t i = 0; i < result.strategies.size(); ++i) {
    const auto& strategy = result.strategies[i];
    report.fleet_basis.push_back(fleet_basis(strategy));
    report.notes.push_back(strategy_notes(strategy, i == baseline.index ? 0.0 : baseline_throughput, report.baseline,
                                          has_baseline_run && result.strategies[baseline.index].sizing.has_value()));
    if (const auto& spot = report.strategies[i].spot) report.notes.back().push_back(spot_note(*spot));
    if (const auto& autoscaled = report.strategies[i].autoscaled) {
      report.notes.back().push_back(autoscaled_note(*autoscaled));
    }
  }
  return report;
}

namespace {
nlohmann::json line_json(const pricing::CostLine& l) {
  return {{"role", l.role},
          {"instance_type", l.instance_type},
          {"region", l.region},
          {"count", l.count},
          {"num_gpus", l.num_gpus},
          {"usd_per_hour_each", l.usd_per_hour_each},
          {"monthly_usd", l.monthly_usd}};
}

/// A tenant's charge: the model in use's figures at the top (as before both models existed), then
/// each model's share and charge with its weight.
nlohmann::json charge_json(const pricing::TenantCharge& t) {
  return {{"tenant", t.name},
          {"share_frac", t.share_frac},
          {"monthly_usd", t.monthly_usd},
          {"cost_per_1k_requests_usd", t.cost_per_1k_requests_usd},
          {"added_p95_latency_s", t.added_p95_latency_s},
          {"by_reservation",
           {{"share_frac", t.reservation_share_frac},
            {"monthly_usd", t.reservation_monthly_usd},
            {"reserved_gpus", t.reserved_gpus},
            {"reserved_usd_per_hour", t.reserved_usd_per_hour}}},
          {"by_usage",
           {{"share_frac", t.usage_share_frac}, {"monthly_usd", t.usage_monthly_usd}, {"gpu_work_s", t.gpu_work_s}}}};
}
nlohmann::json spot_tenants_json(const std::vector<pricing::SpotTenant>& tenants) {
  auto out = nlohmann::json::array();
  for (const auto& t : tenants) {
    out.push_back({{"name", t.name},
                   {"interruptions_per_month", t.interruptions_per_month},
                   {"outage_hours_per_month", t.outage_hours_per_month},
                   {"availability", t.availability},
                   {"delayed_requests_per_month", t.delayed_requests_per_month},
                   {"resent_requests_per_month", t.resent_requests_per_month},
                   {"revenue_bearing", t.revenue_bearing}});
  }
  return out;
}

nlohmann::json spot_json(const pricing::SpotExposure& e) {
  return {{"instances", e.num_instances},
          {"interruptions_per_month", e.interruptions_per_month},
          {"notice_s", e.notice_s},
          {"outage_s", e.outage_s},
          {"rates", e.rates},
          {"assumed", e.assumed},
          {"tenants", spot_tenants_json(e.tenants)},
          {"mix",
           {{"on_demand_instances", e.mix_on_demand_instances},
            {"spot_instances", e.num_instances - e.mix_on_demand_instances},
            {"monthly_usd", e.mix_priced ? nlohmann::json(e.mix_monthly_usd) : nlohmann::json(nullptr)},
            {"tenants", spot_tenants_json(e.mix_tenants)}}}};
}
}  // namespace

nlohmann::json cost_report_json(const CostReport& report) {
  nlohmann::json out = {{"table", report.table},
                        {"currency", report.currency},
                        {"as_of", report.as_of},
                        {"region", report.region},
                        {"option", pricing::to_string(report.option)},
                        {"baseline", report.baseline},
                        {"chargeback_model", pricing::to_string(report.chargeback_model)},
                        {"hours_per_month", kHoursPerMonth}};
  if (!report.baseline_lines.empty()) {
    out["baseline_lines"] = nlohmann::json::array();
    for (const auto& l : report.baseline_lines) out["baseline_lines"].push_back(line_json(l));
  }
  out["strategies"] = nlohmann::json::array();
  for (const auto& c : report.strategies) {
    nlohmann::json s = {{"strategy", c.strategy},
                        {"hourly_usd", c.hourly_usd},
                        {"monthly_usd", c.monthly_usd},
                        {"annual_usd", c.annual_usd},
                        {"three_year_usd", c.three_year_usd},
                        {"monthly_savings_usd", c.monthly_savings_usd},
                        {"annual_savings_usd", c.annual_savings_usd},
                        {"savings_frac", c.savings_frac},
                        {"cost_per_1k_requests_usd", c.cost_per_1k_requests_usd},
                        {"cost_per_1k_in_sla_usd", c.cost_per_1k_in_sla_usd},
                        {"revenue_at_risk_usd", c.revenue_at_risk_usd},
                        {"net_monthly_value_usd", c.net_monthly_value_usd}};
    s["lines"] = nlohmann::json::array();
    for (const auto& l : c.lines) s["lines"].push_back(line_json(l));
    s["chargeback"] = nlohmann::json::array();
    for (const auto& t : c.chargeback) s["chargeback"].push_back(charge_json(t));
    if (c.spot) s["spot"] = spot_json(*c.spot);
    if (const auto& a = c.autoscaled) {
      s["autoscaled"] = {{"monthly_usd", a->monthly_usd},   {"peak_monthly_usd", a->peak_monthly_usd},
                         {"min_gpus", a->min_gpus},         {"max_gpus", a->max_gpus},
                         {"scale_up_s", a->scale_up_s},     {"scale_up_usd", a->scale_up_usd},
                         {"gpus_by_hour", a->gpus_by_hour}, {"usd_per_hour_by_hour", a->usd_per_hour_by_hour}};
    }
    out["strategies"].push_back(std::move(s));
  }
  return out;
}

std::string cost_report_to_text(const CostReport& report) { return cost_report_json(report).dump(1) + "\n"; }

}  // namespace slicewise::report
