// On-prem costing of a result (onprem_cost.hpp).
#include "report/onprem_cost.hpp"

#include <algorithm>

#include "models/gpu_catalog.hpp"
#include "models/power_model.hpp"
#include "report/text_table.hpp"
#include "scenario/energy.hpp"

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
