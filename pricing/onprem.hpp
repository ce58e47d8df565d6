// On-premises TCO (issue: pricing): buying servers instead of renting instances. Capex is
// depreciated straight-line; power is what the GPUs draw in the simulation (each on its power curve
// at its utilisation, docs/energy.md), the installed GPUs left idle and the hosts, times PUE and the
// electricity price; support is a yearly share of capex; licences are per GPU-year (NVIDIA AI
// Enterprise / vGPU).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace slicewise::pricing {

/// One server model one can buy.
struct OnPremServer {
  std::string name;                       ///< "hgx-h100-8gpu"
  std::string gpu;                        ///< GPU catalog id
  int num_gpus = 0;                       ///< GPUs per server, >= 1
  double capex_usd = 0.0;                 ///< purchase price per server
  double depreciation_years = 5.0;        ///< straight-line life
  double gpu_tdp_w = 0.0;                 ///< board power per GPU at full load
  double host_power_w = 0.0;              ///< CPUs, memory, fans, NICs per server
  double pue = 1.0;                       ///< facility power / IT power, >= 1
  double usd_per_kwh = 0.0;               ///< electricity price
  double support_frac_per_year = 0.0;     ///< support contract per year, as a share of capex
  double license_usd_per_gpu_year = 0.0;  ///< software licence per GPU per year
  std::string source;
  std::string as_of;
  std::string note;
  bool operator==(const OnPremServer&) const = default;
};

struct OnPremTable {
  std::string name;
  std::string currency;
  std::string source;
  std::string as_of;
  std::vector<OnPremServer> servers;

  /// Loads and strictly validates a file; throws ConfigError listing every problem. When
  /// `known_gpu_ids` is not empty, every server's `gpu` must be one of them (did-you-mean). Numbers
  /// are bounded so that every cost stays finite: num_gpus 1..1000000, capex_usd (0, 1e12],
  /// depreciation_years [0.1, 100], gpu_tdp_w (0, 100000], host_power_w [0, 1e6], pue [1, 10],
  /// usd_per_kwh [0, 100], license_usd_per_gpu_year [0, 1e9].
  static OnPremTable load(const std::filesystem::path& file, const std::vector<std::string>& known_gpu_ids = {});
  /// The cheapest server model carrying `gpu` (lowest capex per GPU); nullptr when none does.
  const OnPremServer* server_for(const std::string& gpu) const;
};

/// The shipped on-prem table (data_dir()/onprem.json), loaded once.
const OnPremTable& shipped_onprem_table();

/// What the GPUs of one model draw on these servers, from the run (scenario/energy.hpp, each GPU on
/// its power curve up to the server's gpu_tdp_w): the caller computes it, pricing knows no GPUs.
struct OnPremGpuPower {
  double used_w = 0.0;      ///< the GPUs in use together, mean over the run
  double idle_gpu_w = 0.0;  ///< one installed GPU that carries no work (powered, at rest)
  bool operator==(const OnPremGpuPower&) const = default;
};

/// Monthly cost of the servers that carry `num_gpus` GPUs drawing `power`; licences count every
/// installed GPU.
struct OnPremCost {
  int num_servers = 0;
  int num_gpus = 0;                   ///< GPUs in use
  int num_gpus_installed = 0;         ///< servers × GPUs per server (every one licensed)
  double gpu_utilization_frac = 0.0;  ///< the GPUs in use: their mean SM utilisation, clamped to [0, 1]
  double capex_usd = 0.0;
  double depreciation_monthly_usd = 0.0;  ///< capex / (years × 12)
  double gpu_power_w = 0.0;               ///< the GPUs in use together (OnPremGpuPower::used_w)
  double idle_gpus_power_w = 0.0;         ///< (installed − used GPUs) × an idle GPU's power
  double hosts_power_w = 0.0;             ///< servers × host W
  double it_power_w = 0.0;                ///< GPUs in use + idle GPUs + hosts, before PUE
  double energy_monthly_kwh = 0.0;        ///< it_power_w × PUE × 730 h / 1000
  double power_monthly_usd = 0.0;         ///< energy × $/kWh
  double support_monthly_usd = 0.0;       ///< capex × support share / 12
  double license_monthly_usd = 0.0;       ///< GPUs × licence / 12
  double opex_monthly_usd = 0.0;          ///< power + support + licence
  double monthly_usd = 0.0;               ///< depreciation + opex
  double three_year_usd = 0.0;            ///< capex + 36 × opex
  double usd_per_gpu_hour = 0.0;          ///< monthly / (installed GPUs × 730): one owned GPU-hour; 0 without GPUs
  bool operator==(const OnPremCost&) const = default;
};
OnPremCost onprem_cost(const OnPremServer& server, int num_gpus, double gpu_utilization_frac,
                       const OnPremGpuPower& power);

/// Every figure of `cost` as a JSON object whose keys carry their unit (`capex_usd`,
/// `energy_monthly_kwh`, `usd_per_gpu_hour`, ...), as `slicewise roi --onprem --json` prints it.
void to_json(nlohmann::json& out, const OnPremCost& cost);

/// Months until buying pays back against renting at `cloud_monthly_usd`: capex / (cloud − on-prem
/// opex); nullopt when the on-prem opex is not below the cloud bill (it never pays back).
std::optional<double> payback_months(const OnPremCost& onprem, double cloud_monthly_usd);

}  // namespace slicewise::pricing
