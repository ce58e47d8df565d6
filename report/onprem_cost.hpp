// A result's strategies bought on-prem instead of rented (`slicewise roi --onprem`): servers,
// capex and opex with power at the simulated utilisation, and the payback against the cloud.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pricing/onprem.hpp"
#include "report/costing.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// One strategy bought on-prem instead of rented.
struct OnPremRow {
  std::string strategy;
  std::string server;  ///< server model; empty when the table has none for the GPU
  std::string gpu;
  pricing::OnPremCost cost;
  double cloud_monthly_usd = 0.0;  ///< the same strategy rented (from the CostReport)
  std::optional<double> payback_months;
};

/// Prices every strategy's GPUs as servers of `table` and compares them with `cloud` (same
/// strategies, same order). Power (docs/energy.md): each GPU in use on its curve from the catalog's
/// idle power to the server's gpu_tdp_w at its simulated SM utilisation (scenario::gpu_utilisation),
/// the servers' other GPUs at idle, and the hosts; OnPremCost::gpu_utilization_frac is the mean SM
/// utilisation of the GPUs in use.
std::vector<OnPremRow> cost_onprem(const scenario::SimResult& result, const pricing::OnPremTable& table,
                                   const CostReport& cloud);

/// Terminal table of the rows (strategies without a server model are listed below it).
std::string onprem_table_text(const std::vector<OnPremRow>& rows, const pricing::OnPremTable& table);
/// The rows as the `onprem` member of `roi --json`: every figure of the text table (servers, capex,
/// opex, $/month, 3-year TCO, cloud $/month, payback) and its parts; a strategy whose GPU no server
/// model carries has no figures, only the note the text prints.
nlohmann::json onprem_json(const std::vector<OnPremRow>& rows, const pricing::OnPremTable& table);

}  // namespace slicewise::report
