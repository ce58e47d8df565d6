// `slicewise roi RESULT.json`: re-price a finished simulation (another table, region file or
// purchase option) without running it again.
#include <algorithm>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "pricing/roi.hpp"
#include "report/costing.hpp"
#include "report/energy_summary.hpp"
#include "report/money_tables.hpp"
#include "report/onprem_cost.hpp"
#include "report/simulate_text.hpp"
#include "scenario/result_json.hpp"
#include "scenario/validate.hpp"

namespace slicewise::cli {

namespace {
/// An option given as "" is refused, not taken for an absent one.
const CLI::Validator kNonEmpty(
    [](std::string& text) { return text.empty() ? std::string("must not be empty") : std::string(); }, "TEXT");
}  // namespace

void add_chargeback_option(CLI::App& sub, std::string& chargeback) {
  std::vector<std::string> names;
  for (const auto& [name, model] : pricing::chargeback_model_table()) names.push_back(name);
  one_of(sub.add_option("--chargeback", chargeback,
                        "How tenants are charged: by the capacity reserved for them, or by the GPU work they did "
                        "(docs/roi.md)"),
         names, "reservation");
}

CLI::App* setup_roi(CLI::App& app, RoiOptions& options) {
  auto* sub = app.add_subcommand("roi", "Re-price a simulation result: monthly cost, savings, chargeback");
  sub->add_option("result", options.result, "Result JSON written by `slicewise simulate --out`")->required();
  sub->add_option("--pricing", options.pricing,
                  "Price table: aws, azure, gcp or a table file (default: the scenario's)")
      ->check(kNonEmpty);
  sub->add_option("--region", options.region, "Region (default: the scenario's; none when --pricing is given)")
      ->check(kNonEmpty);
  sub->add_option("--option", options.option, "Purchase option: on_demand, spot, reserved_1y, reserved_3y")
      ->check(kNonEmpty);
  sub->add_option("--onprem", options.onprem,
                  "Also compare buying servers: \"onprem\" (the shipped table) or an on-prem table file")
      ->check(kNonEmpty);
  add_chargeback_option(*sub, options.chargeback);
  sub->add_flag("--json", options.json, "Print the cost report as JSON");
  return sub;
}

namespace {
/// Whose electricity price and PUE the energy is priced at: the --onprem table, else the shipped one.
const pricing::OnPremTable& energy_site(const std::optional<pricing::OnPremTable>& onprem) {
  return onprem ? *onprem : pricing::shipped_onprem_table();
}
}  // namespace

int run_roi(const RoiOptions& options, Io io) {
  const auto result = scenario::load_result(options.result);
  // Every input is read before anything is printed: a bad file never leaves half a report.
  std::optional<pricing::OnPremTable> onprem;
  if (!options.onprem.empty()) {
    // A server whose gpu is not a catalog id would never match a strategy's GPUs: refused.
    onprem = options.onprem == "onprem"
                 ? pricing::shipped_onprem_table()
                 : pricing::OnPremTable::load(options.onprem, models::GpuCatalog::shipped().ids());
  }
  scenario::Scenario scenario = result.input;
  if (scenario.tenants.empty()) {
    throw ConfigError(options.result, "/input", "the result carries no scenario; re-run `slicewise simulate --out`");
  }
  if (!options.pricing.empty()) {
    scenario.pricing.table = options.pricing;
    scenario.pricing.region.clear();  // regions are the table's own
  }
  if (!options.region.empty()) scenario.pricing.region = options.region;
  auto option = scenario.pricing.option;
  if (!options.option.empty()) {
    std::vector<std::string> names;
    bool found = false;
    for (const auto& [name, value] : pricing::purchase_option_table()) {
      names.push_back(name);
      if (name == options.option) {
        option = value;
        found = true;
      }
    }
    if (!found) {
      throw ConfigError("slicewise roi", "--option", unknown_choice(options.option, names));
    }
  }
  // A table given on the command line is resolved from the working directory.
  scenario.source_file = std::filesystem::path("slicewise roi");
  const auto catalogs = scenario::Catalogs::shipped();
  for (auto& entry : scenario.fleet) {
    if (entry.gpu.empty()) entry.gpu = scenario::fleet_gpu_id(entry, scenario, catalogs);
  }
  const auto table = scenario::resolve_price_table(scenario, catalogs);
  if (const auto regions = table.regions();
      !options.region.empty() && std::find(regions.begin(), regions.end(), options.region) == regions.end()) {
    throw ConfigError("slicewise roi", "--region",
                      "unknown region " + quoted_excerpt(options.region) + " in price table \"" + table.name +
                          "\"; expected " + join(regions, "|") + did_you_mean_suffix(options.region, regions));
  }
  const auto costs = report::cost_result(
      result, scenario, table, option,
      pricing::chargeback_model_named(options.chargeback).value_or(pricing::ChargebackModel::reservation));
  if (options.json) {
    nlohmann::json document = report::cost_report_json(costs);
    if (onprem) document["onprem"] = report::onprem_json(report::cost_onprem(result, *onprem, costs), *onprem);
    document["energy"] = report::energy_json(report::energy_summary(result, energy_site(onprem)));
    io.out << document.dump(1) << "\n";
    return 0;
  }
  io.out << result.scenario << " (" << options.result << ")\n\n"
         << report::money_table_text(costs) << "\n"
         << report::chargeback_table_text(costs);
  if (onprem) io.out << "\n" << report::onprem_table_text(report::cost_onprem(result, *onprem, costs), *onprem);
  io.out << "\n" << report::energy_table_text(report::energy_summary(result, energy_site(onprem)));
  if (const auto faults = report::faults_text(result); !faults.empty()) io.out << "\n" << faults;
  if (const auto business = report::business_text(costs, scenario.pricing.monthly_revenue_usd,
                                                  scenario.pricing.abandonment_per_100ms_frac);
      !business.empty()) {
    io.out << "\n" << business;
  }
  return 0;
}

}  // namespace slicewise::cli
