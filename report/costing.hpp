// Prices a finished simulation: each strategy's fleet (the GPUs its placement used, as the cheapest
// instances carrying them, plus its sidecars) against the dedicated baseline sized for the same
// tenants. Shared by `slicewise simulate`, `slicewise roi` and the reports.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "pricing/price_table.hpp"
#include "pricing/roi.hpp"
#include "scenario/scenario.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

struct CostReport {
  std::string table;  ///< price table name
  std::string currency;
  std::string as_of;
  std::string region;
  pricing::PurchaseOption option = pricing::PurchaseOption::on_demand;
  std::string baseline;  ///< strategy the savings are measured against
  /// The baseline's fleet when it is sized (one GPU per context, not a strategy of the result):
  /// the XLSX report keeps its count and price as inputs. Empty otherwise.
  std::vector<pricing::CostLine> baseline_lines;
  /// How tenants' charges (pricing::TenantCharge::monthly_usd) split each strategy's cost; both
  /// models' figures are kept whatever it is.
  pricing::ChargebackModel chargeback_model = pricing::ChargebackModel::reservation;
  std::vector<pricing::StrategyCost> strategies;  ///< same order as the result's
  /// Per strategy (same order): "as given", "sized for SLA", or "no SLA fleet" (sized, and no
  /// fleet within its limit met every SLA: the closest one is priced).
  std::vector<std::string> fleet_basis;
  /// Per strategy: sentences a reader of its saving must see (the fleet that could not meet the
  /// SLA, less work delivered than the baseline); empty when none.
  std::vector<std::vector<std::string>> notes;
};

/// "as given", "sized for SLA" or "no SLA fleet", for one strategy's result.
std::string fleet_basis(const scenario::StrategyResult& strategy);

/// True when a strategy of the report was sized for SLA: tables then show each fleet's basis.
bool any_sized(const CostReport& costs);

/// Prices every strategy of `result` with `table` under `option`. The baseline is the result's
/// dedicated strategy when there is one; otherwise one GPU per placed context, priced the same way.
/// Tenants are charged by both models (docs/roi.md), `chargeback` being the one in use: by
/// reservation, each device's part of its GPU (a MIG instance's compute slices over the GPU's)
/// goes to the contexts on it, split by their MPS thread percentage, HAMi core cap or
/// time-slicing weight (equally when the strategy sets none), at the price of one GPU of the
/// instances that carry it. Throws ConfigError when an instance or GPU has no price under `option`.
CostReport cost_result(const scenario::SimResult& result, const scenario::Scenario& scenario,
                       const pricing::PriceTable& table, pricing::PurchaseOption option,
                       pricing::ChargebackModel chargeback = pricing::ChargebackModel::reservation);

/// The chargeback model and what it means, for reports' titles: "by reservation (each tenant pays
/// for the capacity reserved for it: ...)".
std::string chargeback_model_text(pricing::ChargebackModel model);

/// The report as JSON (`roi --json`), and as indented JSON text (keys sorted, trailing newline).
nlohmann::json cost_report_json(const CostReport& report);
std::string cost_report_to_text(const CostReport& report);

}  // namespace slicewise::report
