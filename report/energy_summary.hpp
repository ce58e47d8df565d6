// Each strategy's energy as the reports show it (docs/energy.md): the result's GPU energy, a month
// of it, and what it would cost in electricity at a site's price and PUE (the on-prem table's).
// Information for a cloud run (its prices already include power); the on-prem TCO prices the same
// power (report/onprem_cost.hpp cost_onprem). Shared by `simulate`, `roi`, the ROI report and the GUI.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "pricing/onprem.hpp"
#include "scenario/sim_result.hpp"

namespace slicewise::report {

/// One strategy's energy.
struct EnergyRow {
  std::string strategy;
  /// nullopt when a GPU it uses has no power curve (no TDP in the catalog): gpus_without_power says which.
  std::optional<scenario::EnergyRecord> energy;
  std::vector<std::string> gpus_without_power;
  double facility_monthly_kwh = 0.0;     ///< monthly_kwh × PUE: what the meter reads
  double electricity_monthly_usd = 0.0;  ///< facility_monthly_kwh × $/kWh
};

struct EnergySummary {
  std::vector<EnergyRow> rows;  ///< the result's order
  std::string site;             ///< the on-prem table whose price and PUE are used; "" when it has no server
  double usd_per_kwh = 0.0;     ///< its first server's electricity price
  double pue = 1.0;             ///< and PUE
  /// GPUs whose idle power is estimated (no measurement in the catalog), each once, and the share of
  /// TDP the estimate takes (models::measured_idle_frac).
  std::vector<std::string> estimated_idle;
  double estimated_idle_frac = 0.0;
};

/// The energy of every strategy of `result` (the result's own, or computed from its devices for a
/// result written before energy was modelled), priced at `site`'s first server's electricity price
/// and PUE (every server of a site shares them).
EnergySummary energy_summary(const scenario::SimResult& result, const pricing::OnPremTable& site);

/// The sentence that says what the figures are: "Information: ... at 0.08 USD/kWh and PUE 1.56 (on-prem
/// table \"onprem\") ..." (the ROI report's table intro and the text's heading).
std::string energy_basis_text(const EnergySummary& summary);

/// Terminal table: strategy, GPUs, mean W, kWh over the run, kWh/month, with PUE, $/month; a
/// strategy without a power curve says why below the table. Preceded by energy_basis_text.
std::string energy_table_text(const EnergySummary& summary);

/// The summary as the `energy` member of `roi --json`: the site's price and PUE, and per strategy
/// its EnergyRecord figures (without per_gpu) and electricity, or null with the GPUs lacking a TDP.
nlohmann::json energy_json(const EnergySummary& summary);

}  // namespace slicewise::report
