// On-premises TCO.
#include "pricing/onprem.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "core/units.hpp"
#include "pricing/json_io.hpp"

namespace slicewise::pricing {

namespace {

/// (lo, hi]: a positive amount with an upper bound.
NumberRange positive_up_to(double hi) { return {0.0, true, hi, false}; }

OnPremServer read_server(JsonReader& r, const std::vector<std::string>& known_gpu_ids) {
  OnPremServer s;
  s.name = r.required_string("name");
  const std::size_t before = r.diagnostics().size();
  s.gpu = r.required_string("gpu");
  if (r.diagnostics().size() == before && r.valid() && !known_gpu_ids.empty() &&
      std::find(known_gpu_ids.begin(), known_gpu_ids.end(), s.gpu) == known_gpu_ids.end()) {
    const std::string hint = did_you_mean_suffix(s.gpu, known_gpu_ids);
    r.error("gpu", "unknown GPU " + quoted_excerpt(s.gpu) +
                       (hint.empty() ? "; run \"slicewise gpus\" to list the known ones" : hint));
  }
  s.num_gpus = static_cast<int>(r.required_integer("num_gpus", NumberRange::between(1, 1000000)));
  s.capex_usd = r.required_number("capex_usd", positive_up_to(1e12));
  s.depreciation_years = r.required_number("depreciation_years", NumberRange::between(0.1, 100));
  s.gpu_tdp_w = r.required_number("gpu_tdp_w", positive_up_to(1e5));
  s.host_power_w = r.optional_number("host_power_w", 0.0, NumberRange::between(0, 1e6));
  s.pue = r.required_number("pue", NumberRange::between(1, 10));
  s.usd_per_kwh = r.required_number("usd_per_kwh", NumberRange::between(0, 100));
  s.support_frac_per_year = r.optional_number("support_frac_per_year", 0.0, NumberRange::fraction());
  s.license_usd_per_gpu_year = r.optional_number("license_usd_per_gpu_year", 0.0, NumberRange::between(0, 1e9));
  s.source = r.required_string("source");
  s.as_of = read_price_date(r, "as_of");
  s.note = r.optional_string("note", "");
  r.finish();
  return s;
}

}  // namespace

OnPremTable OnPremTable::load(const std::filesystem::path& file, const std::vector<std::string>& known_gpu_ids) {
  const auto document = read_json_file(file);
  const std::string name = file.string();
  Diagnostics problems;
  OnPremTable table;
  JsonReader top(document, "", problems, name);
  top.schema_version(1);
  table.name = top.required_string("name");
  const std::size_t before = problems.size();
  table.currency = top.required_string("currency");
  const bool iso = table.currency.size() == 3 && std::all_of(table.currency.begin(), table.currency.end(),
                                                             [](char c) { return c >= 'A' && c <= 'Z'; });
  if (problems.size() == before && top.valid() && !iso) {
    top.error("currency", "expected a 3-letter ISO 4217 code such as \"USD\" (got \"" + table.currency + "\")");
  }
  table.source = top.required_string("source");
  table.as_of = read_price_date(top, "as_of");
  top.optional_string("note", "");
  if (const auto* servers = top.required_array("servers")) {
    for (std::size_t i = 0; i < servers->size(); ++i) {
      JsonReader r((*servers)[i], "/servers/" + std::to_string(i), problems, name);
      table.servers.push_back(read_server(r, known_gpu_ids));
    }
  }
  top.finish();
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return table;
}

const OnPremServer* OnPremTable::server_for(const std::string& gpu) const {
  const OnPremServer* best = nullptr;
  for (const auto& server : servers) {
    if (server.gpu != gpu) continue;
    if (!best || server.capex_usd / server.num_gpus < best->capex_usd / best->num_gpus) best = &server;
  }
  return best;
}

const OnPremTable& shipped_onprem_table() {
  static const OnPremTable table = OnPremTable::load(data_dir() / "onprem.json");
  return table;
}

OnPremCost onprem_cost(const OnPremServer& server, int num_gpus, double gpu_utilization_frac,
                       const OnPremGpuPower& power) {
  OnPremCost cost;
  cost.num_servers = num_gpus <= 0 ? 0 : (num_gpus + server.num_gpus - 1) / server.num_gpus;
  cost.num_gpus = std::max(0, num_gpus);
  cost.num_gpus_installed = cost.num_servers * server.num_gpus;
  cost.gpu_utilization_frac = std::clamp(gpu_utilization_frac, 0.0, 1.0);
  cost.capex_usd = cost.num_servers * server.capex_usd;
  cost.depreciation_monthly_usd = cost.capex_usd / (server.depreciation_years * kMonthsPerYear);
  // Every installed GPU is powered: those without work draw their idle power (docs/energy.md).
  cost.gpu_power_w = std::max(0.0, power.used_w);
  cost.idle_gpus_power_w = (cost.num_gpus_installed - cost.num_gpus) * std::max(0.0, power.idle_gpu_w);
  cost.hosts_power_w = cost.num_servers * server.host_power_w;
  cost.it_power_w = cost.gpu_power_w + cost.idle_gpus_power_w + cost.hosts_power_w;
  cost.energy_monthly_kwh = cost.it_power_w * server.pue * kHoursPerMonth / 1000.0;
  cost.power_monthly_usd = cost.energy_monthly_kwh * server.usd_per_kwh;
  cost.support_monthly_usd = cost.capex_usd * server.support_frac_per_year / kMonthsPerYear;
  cost.license_monthly_usd = cost.num_gpus_installed * server.license_usd_per_gpu_year / kMonthsPerYear;
  cost.opex_monthly_usd = cost.power_monthly_usd + cost.support_monthly_usd + cost.license_monthly_usd;
  cost.monthly_usd = cost.depreciation_monthly_usd + cost.opex_monthly_usd;
  cost.three_year_usd = cost.capex_usd + 3.0 * kMonthsPerYear * cost.opex_monthly_usd;
  if (cost.num_gpus_installed > 0) {
    cost.usd_per_gpu_hour = cost.monthly_usd / (cost.num_gpus_installed * kHoursPerMonth);
  }
  return cost;
}

void to_json(nlohmann::json& out, const OnPremCost& cost) {
  out = {{"num_servers", cost.num_servers},
         {"num_gpus", cost.num_gpus},
         {"num_gpus_installed", cost.num_gpus_installed},
         {"gpu_utilization_frac", cost.gpu_utilization_frac},
         {"capex_usd", cost.capex_usd},
         {"depreciation_monthly_usd", cost.depreciation_monthly_usd},
         {"gpu_power_w", cost.gpu_power_w},
         {"idle_gpus_power_w", cost.idle_gpus_power_w},
         {"hosts_power_w", cost.hosts_power_w},
         {"it_power_w", cost.it_power_w},
         {"energy_monthly_kwh", cost.energy_monthly_kwh},
         {"power_monthly_usd", cost.power_monthly_usd},
         {"support_monthly_usd", cost.support_monthly_usd},
         {"license_monthly_usd", cost.license_monthly_usd},
         {"opex_monthly_usd", cost.opex_monthly_usd},
         {"monthly_usd", cost.monthly_usd},
         {"three_year_usd", cost.three_year_usd},
         {"usd_per_gpu_hour", cost.usd_per_gpu_hour}};
}

std::optional<double> payback_months(const OnPremCost& onprem, double cloud_monthly_usd) {
  const double saved_per_month = cloud_monthly_usd - onprem.opex_monthly_usd;
  if (saved_per_month <= 0.0) return std::nullopt;
  return onprem.capex_usd / saved_per_month;
}

}  // namespace slicewise::pricing
