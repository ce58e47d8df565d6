// Pricing a simulation result.
#include "report/costing.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <nlohmann/json.hpp>

#include "core/units.hpp"
#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "models/power_model.hpp"
#include "pricing/spot_interruptions.hpp"
#include "report/autoscale_cost.hpp"
#include "report/cost_lines.hpp"
#include "report/spot_exposure.hpp"
#include "report/text_table.hpp"
#include "scenario/energy.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {

namespace {

/// The part of its GPU a device is: 1 for a whole GPU; a MIG instance's compute slices over the
/// GPU's (3g.40gb on an H100: 3/7). A profile the catalog lacks counts by the digits before its "g"
/// over 7, the slices of every 7-slice GPU.
double gpu_fraction(const scenario::DeviceResult& device) {
  if (device.mig_profile.empty()) return 1.0;
  if (const auto* gpu = models::MigCatalog::shipped().find(device.gpu)) {
    if (const auto* profile = gpu->find(device.mig_profile); profile && gpu->compute_slices > 0)
      return static_cast<double>(profile->compute_slices) / gpu->compute_slices;
  }
  int slices = 0;
  for (const char c : device.mig_profile) {
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    slices = slices * 10 + (c - '0');
  }
  return std::clamp(slices / 7.0, 0.0, 1.0);
}

/// What one context of `tenant` holds of a device it shares, relative to the others there, as the
/// strategy's policy says (its thread or core cap, its weight); 1 for every context without a spec.
double context_weight(const scenario::StrategySpec* spec, const std::string& tenant) {
  if (!spec) return 1.0;
  const auto it = spec->tenants.find(tenant);
  const scenario::TenantStrategySettings* own = it == spec->tenants.end() ? nullptr : &it->second;
  return scenario::policy_of(spec->kind).chargeback_weight(*spec, own);
}

/// Adds what each device of `strategy` reserves to its tenants' usage (same order as the strategy's
/// tenants): the device's part of its GPU, split over the contexts on it by their weights, in
/// GPU-equivalents and at `usd_per_gpu_hour` of its GPU model. A device with no context, a MIG slice
/// with no instance and a GPU of an instance that carries no device are reserved for nobody.
void add_reservations(const scenario::StrategyResult& strategy, const scenario::StrategySpec* spec,
                      const std::map<std::string, double>& usd_per_gpu_hour, std::vector<pricing::TenantUsage>& usage) {
  for (const auto& device : strategy.devices) {
    double total_weight = 0.0;
    for (const auto& context : device.contexts)
      total_weight += context_weight(spec, scenario::tenant_of_context(context));
    if (total_weight <= 0.0) continue;
    const auto price = usd_per_gpu_hour.find(device.gpu);
    const double gpu_usd_per_hour = price == usd_per_gpu_hour.end() ? 0.0 : price->second;
    const double fraction = gpu_fraction(device);
    for (const auto& context : device.contexts) {
      const std::string tenant = scenario::tenant_of_context(context);
      const double gpus = fraction * context_weight(spec, tenant) / total_weight;
      for (auto& u : usage) {
        if (u.name != tenant) continue;
        u.reserved_gpus += gpus;
        u.reserved_usd_per_hour += gpus * gpu_usd_per_hour;
      }
    }
  }
}

/// Per tenant of `strategy`, what it used and what it holds (`usd_per_gpu_hour`: by GPU model, the
/// price of one GPU of the instances that carry it; empty for what the baseline needs: latency).
std::vector<pricing::TenantUsage> usage_of(const scenario::Scenario& scenario, const scenario::StrategyResult& strategy,
                                           const scenario::StrategySpec* spec = nullptr,
                                           const std::map<std::string, double>& usd_per_gpu_hour = {}) {
  std::vector<pricing::TenantUsage> out;
  for (const auto& t : strategy.tenants) {
    pricing::TenantUsage u;
    u.name = t.name;
    const auto* tenant = scenario::find_tenant(scenario, t.name);
    u.revenue_bearing = !tenant || scenario::revenue_bearing(*tenant);
    u.gpu_work_s = t.gpu_work_s;
    u.throughput_per_s = t.throughput_per_s;
    // Requests served within the SLA: its violations (late, dropped, unfinished) taken out.
    u.in_sla_per_s = t.throughput_per_s * std::clamp(1.0 - t.sla_violation_frac, 0.0, 1.0);
    u.p95_latency_s = t.latency_s.p95;
    out.push_back(std::move(u));
  }
  add_reservations(strategy, spec, usd_per_gpu_hour, out);
  return out;
}

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

namespace slicewise::report {

namespace {

/// What the strategy's GPUs of model `gpu_id` draw on `server`: each on its power curve up to the
/// server's own gpu_tdp_w (the catalog's idle power below it), at its simulated SM utilisation; and
/// their mean utilisation. Without any measured idle power in the catalog, idle counts 0.
std::pair<pricing::OnPremGpuPower, double> onprem_gpu_power(const std::vector<scenario::GpuUtilisation>& gpus,
                                                            const std::string& gpu_id,
                                                            const pricing::OnPremServer& server) {
  const auto& catalog = models::GpuCatalog::shipped();
  const models::PowerCurve curve = models::power_curve_at(catalog.find(gpu_id), server.gpu_tdp_w, catalog)
                                       .value_or(models::PowerCurve{0.0, server.gpu_tdp_w, true});
  pricing::OnPremGpuPower power;
  power.idle_gpu_w = curve.idle_w;
  double util_sum = 0.0;
  int count = 0;
  for (const auto& gpu : gpus) {
    if (gpu.gpu != gpu_id) continue;
    power.used_w += curve.watts(gpu.util_frac);
    util_sum += gpu.util_frac;
    ++count;
  }
  return {power, count > 0 ? util_sum / count : 0.0};
}

}  // namespace

std::vector<OnPremRow> cost_onprem(const scenario::SimResult& result, const pricing::OnPremTable& table,
                                   const CostReport& cloud) {
  std::vector<OnPremRow> rows;
  for (std::size_t i = 0; i < result.strategies.size(); ++i) {
    const auto& strategy = result.strategies[i];
    const auto utilisation = scenario::gpu_utilisation(strategy);
    std::map<std::string, int> gpus;  // used GPUs per model
    for (const auto& gpu : utilisation) ++gpus[gpu.gpu];
    for (const auto& [gpu_id, count] : gpus) {
      OnPremRow row;
      row.strategy = strategy.name;
      row.gpu = gpu_id;
      row.cloud_monthly_usd = i < cloud.strategies.size() ? cloud.strategies[i].monthly_usd : 0.0;
      if (const auto* server = table.server_for(gpu_id)) {
        row.server = server->name;
        const auto [power, util] = onprem_gpu_power(utilisation, gpu_id, *server);
        row.cost = pricing::onprem_cost(*server, count, util, power);
        row.payback_months = pricing::payback_months(row.cost, row.cloud_monthly_usd);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

namespace {
/// Why a row has no on-prem figures: the text table's line below it and the JSON's "note".
std::string no_server_note(const OnPremRow& row, const pricing::OnPremTable& table) {
  return "no server model with " + row.gpu + " in table \"" + table.name + "\"";
}
}  // namespace

std::string onprem_table_text(const std::vector<OnPremRow>& rows, const pricing::OnPremTable& table) {
  TextTable out({{"strategy"},
                 {"servers"},
                 {"capex $", Align::right},
                 {"opex $/month", Align::right},
                 {"$/month", Align::right},
                 {"3-year TCO $", Align::right},
                 {"cloud $/month", Align::right},
                 {"payback months", Align::right}});
  std::string missing;
  for (const auto& row : rows) {
    if (row.server.empty()) {
      missing += row.strategy + ": " + no_server_note(row, table) + "\n";
      continue;
    }
    out.add_row({row.strategy, std::to_string(row.cost.num_servers) + " x " + row.server,
                 format_fixed(row.cost.capex_usd, 0), format_fixed(row.cost.opex_monthly_usd, 2),
                 format_fixed(row.cost.monthly_usd, 2), format_fixed(row.cost.three_year_usd, 0),
                 format_fixed(row.cloud_monthly_usd, 2),
                 row.payback_months ? format_fixed(*row.payback_months, 1) : "never"});
  }
  std::string text =
      "On-prem (" + table.name + ", prices as of " + table.as_of +
      "; power: each GPU from idle to TDP at its simulated SM utilisation, the servers' other GPUs idle, "
      "the hosts, times PUE; depreciation straight-line):\n\n";
  if (out.num_rows() > 0) text += out.to_text();
  return text + missing;
}

nlohmann::json onprem_json(const std::vector<OnPremRow>& rows, const pricing::OnPremTable& table) {
  nlohmann::json out = {{"table", table.name},
                        {"currency", table.currency},
                        {"source", table.source},
                        {"as_of", table.as_of},
                        {"strategies", nlohmann::json::array()}};
  for (const auto& row : rows) {
    nlohmann::json item = nlohmann::json::object();
    if (row.server.empty()) {
      item["server"] = nullptr;
      item["note"] = no_server_note(row, table);
    } else {
      item = row.cost;
      item["server"] = row.server;
      // null: the on-prem opex is not below the cloud bill, so buying never pays back ("never").
      item["payback_months"] = row.payback_months ? nlohmann::json(*row.payback_months) : nlohmann::json(nullptr);
    }
    item["strategy"] = row.strategy;
    item["gpu"] = row.gpu;
    item["cloud_monthly_usd"] = row.cloud_monthly_usd;
    out["strategies"].push_back(std::move(item));
  }
  return out;
}

}  // namespace slicewise::report
