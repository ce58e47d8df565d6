// Each strategy's energy for the reports (see energy_summary.hpp).
#include "report/energy_summary.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "models/power_model.hpp"
#include "report/text_table.hpp"
#include "scenario/energy.hpp"

namespace slicewise::report {

namespace {

void add_once(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

/// "no TDP in the GPU catalog for B200, GH200-96GB".
std::string no_power_text(const EnergyRow& row) {
  return "no TDP in the GPU catalog for " + join(row.gpus_without_power, ", ");
}

}  // namespace

EnergySummary energy_summary(const scenario::SimResult& result, const pricing::OnPremTable& site) {
  EnergySummary summary;
  if (!site.servers.empty()) {
    summary.site = site.name;
    summary.usd_per_kwh = site.servers.front().usd_per_kwh;
    summary.pue = site.servers.front().pue;
  }
  const auto& catalog = models::GpuCatalog::shipped();
  summary.estimated_idle_frac = models::measured_idle_frac(catalog).value_or(0.0);
  for (std::size_t i = 0; i < result.strategies.size(); ++i) {
    EnergyRow row;
    row.strategy = result.strategies[i].name;
    row.energy = scenario::energy_of(result, i);
    if (row.energy) {
      row.facility_monthly_kwh = row.energy->monthly_kwh * summary.pue;
      row.electricity_monthly_usd = row.facility_monthly_kwh * summary.usd_per_kwh;
      for (const auto& gpu : row.energy->per_gpu) {
        if (gpu.idle_estimated) add_once(summary.estimated_idle, gpu.gpu);
      }
    } else {
      row.gpus_without_power = scenario::gpus_without_power(result.strategies[i], catalog);
    }
    summary.rows.push_back(std::move(row));
  }
  return summary;
}

std::string energy_basis_text(const EnergySummary& s) {
  std::string text =
      "Information (cloud prices already include power): each GPU a strategy uses draws from its idle power to its "
      "TDP in proportion to its simulated SM utilisation; GPUs it leaves unused are not counted; a month is 730 h";
  if (!s.site.empty()) {
    text += "; electricity at " + format_number(s.usd_per_kwh) + " USD/kWh and PUE " + format_number(s.pue) +
            " (on-prem table \"" + s.site + "\")";
  }
  if (!s.estimated_idle.empty()) {
    text += "; idle power estimated at " + format_fixed(100.0 * s.estimated_idle_frac, 1) +
            " % of TDP (the median of the catalog's measured GPUs) for " + join(s.estimated_idle, ", ");
  }
  return text + ".";
}

std::string energy_table_text(const EnergySummary& s) {
  TextTable table({{"strategy"},
                   {"GPUs", Align::right},
                   {"mean W", Align::right},
                   {"kWh (run)", Align::right},
                   {"kWh/month", Align::right},
                   {"with PUE", Align::right},
                   {"electricity $/month", Align::right},
                   {"unused GPUs", Align::right}});
  std::string missing;
  for (const auto& row : s.rows) {
    if (!row.energy) {
      missing += row.strategy + ": " + no_power_text(row) + "\n";
      continue;
    }
    const auto& e = *row.energy;
    table.add_row({row.strategy, std::to_string(e.per_gpu.size()), format_fixed(e.mean_power_w, 1),
                   format_fixed(e.gpu_kwh, 3), format_fixed(e.monthly_kwh, 1),
                   format_fixed(row.facility_monthly_kwh, 1), format_fixed(row.electricity_monthly_usd, 2),
                   e.unused_gpus == 0
                       ? "0"
                       : std::to_string(e.unused_gpus) + " (" + format_fixed(e.unused_idle_w, 0) + " W idle)"});
  }
  std::string text = "energy: " + energy_basis_text(s) + "\n\n";
  if (table.num_rows() > 0) text += table.to_text();
  return text + missing;
}

nlohmann::json energy_json(const EnergySummary& s) {
  nlohmann::json out = {{"site", s.site},
                        {"usd_per_kwh", s.usd_per_kwh},
                        {"pue", s.pue},
                        {"estimated_idle", s.estimated_idle},
                        {"estimated_idle_frac", s.estimated_idle_frac},
                        {"strategies", nlohmann::json::array()}};
  for (const auto& row : s.rows) {
    nlohmann::json item = {{"strategy", row.strategy}};
    if (row.energy) {
      const auto& e = *row.energy;
      item.update({{"num_gpus", e.per_gpu.size()},
                   {"hours", e.hours},
                   {"gpu_kwh", e.gpu_kwh},
                   {"mean_power_w", e.mean_power_w},
                   {"monthly_kwh", e.monthly_kwh},
                   {"facility_monthly_kwh", row.facility_monthly_kwh},
                   {"electricity_monthly_usd", row.electricity_monthly_usd},
                   {"unused_gpus", e.unused_gpus},
                   {"unused_idle_w", e.unused_idle_w}});
    } else {
      item["energy"] = nullptr;
      item["note"] = no_power_text(row);
    }
    out["strategies"].push_back(std::move(item));
  }
  return out;
}

}  // namespace slicewise::report
