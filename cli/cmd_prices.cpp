// `slicewise prices [--gpu X] [--cloud Y] [--region R]`: the shipped instance price tables.
#include <algorithm>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "pricing/price_table.hpp"
#include "report/text_table.hpp"

namespace slicewise::cli {

CLI::App* setup_prices(CLI::App& app, PricesOptions& options) {
  auto* sub = app.add_subcommand("prices", "List instance prices (on-demand, spot) from the shipped tables");
  sub->add_option("--gpu", options.gpu, "Only instances with this GPU (id or alias)");
  sub->add_option("--cloud", options.cloud, "Only this table: aws, azure or gcp");
  sub->add_option("--region", options.region, "Only this region");
  sub->add_flag("--json", options.json, "Print JSON instead of a table");
  setup_prices_import(*sub, options);
  return sub;
}

int run_prices(const PricesOptions& options, Io io) {
  if (options.importing) return run_prices_import(options, io);
  const auto& tables = pricing::shipped_price_tables();
  std::string gpu_id;
  if (!options.gpu.empty()) {
    const auto& gpus = models::GpuCatalog::shipped();
    const auto* gpu = gpus.find(options.gpu);
    if (!gpu) {
      throw ConfigError("slicewise prices", "--gpu",
                        "unknown GPU \"" + options.gpu + "\"" + did_you_mean_suffix(options.gpu, gpus.ids()) +
                            "; see `slicewise gpus`");
    }
    gpu_id = gpu->id;
  }
  if (!options.cloud.empty() && !pricing::find_shipped_price_table(options.cloud)) {
    std::vector<std::string> names;
    for (const auto& table : tables) names.push_back(table.name);
    throw ConfigError("slicewise prices", "--cloud", unknown_choice(options.cloud, names));
  }
  if (!options.region.empty()) {
    std::vector<std::string> regions;  // of the tables --cloud leaves, sorted
    for (const auto& price_table : tables) {
      if (!options.cloud.empty() && price_table.name != options.cloud) continue;
      for (const auto& region : price_table.regions()) {
        if (std::find(regions.begin(), regions.end(), region) == regions.end()) regions.push_back(region);
      }
    }
    std::sort(regions.begin(), regions.end());
    if (std::find(regions.begin(), regions.end(), options.region) == regions.end()) {
      throw ConfigError("slicewise prices", "--region",
                        "no region \"" + options.region + "\" in " +
                            (options.cloud.empty() ? std::string("the shipped tables") : "table " + options.cloud) +
                            "; expected " + join(regions, "|") + did_you_mean_suffix(options.region, regions));
    }
  }

  using report::Align;
  report::TextTable table({{"cloud"},
                           {"instance"},
                           {"region"},
                           {"GPU"},
                           {"GPUs", Align::right},
                           {"vCPU", Align::right},
                           {"RAM GiB", Align::right},
                           {"on-demand $/h", Align::right},
                           {"spot $/h", Align::right},
                           {"$/GPU-h", Align::right}});
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& price_table : tables) {
    if (!options.cloud.empty() && price_table.name != options.cloud) continue;
    for (const auto& row : price_table.instances) {
      if (!gpu_id.empty() && row.gpu.value_or("") != gpu_id) continue;
      if (!options.region.empty() && row.region != options.region) continue;
      const std::string per_gpu =
          row.num_gpus > 0 ? report::format_fixed(row.on_demand_usd_per_hour / row.num_gpus, 4) : "-";
      table.add_row({price_table.name, row.instance_type, row.region, row.gpu.value_or("-"),
                     std::to_string(row.num_gpus), row.num_vcpus ? std::to_string(*row.num_vcpus) : "-",
                     row.memory_gib ? format_number(*row.memory_gib) : "-", format_number(row.on_demand_usd_per_hour),
                     row.spot_usd_per_hour ? format_number(*row.spot_usd_per_hour) : "-", per_gpu});
      nlohmann::ordered_json item = {
          {"cloud", price_table.name}, {"instance_type", row.instance_type},
          {"region", row.region},      {"gpu", row.gpu.value_or("")},
          {"num_gpus", row.num_gpus},  {"on_demand_usd_per_hour", row.on_demand_usd_per_hour}};
      item["spot_usd_per_hour"] = row.spot_usd_per_hour ? nlohmann::ordered_json(*row.spot_usd_per_hour) : nullptr;
      item["currency"] = price_table.currency;
      item["source"] = row.source;
      item["as_of"] = row.as_of;
      rows.push_back(item);
    }
  }
  if (table.num_rows() == 0) {
    // Each filter matches on its own (checked above); together they match nothing.
    std::vector<std::string> filters;
    if (!options.gpu.empty()) filters.push_back("--gpu " + options.gpu);
    if (!options.cloud.empty()) filters.push_back("--cloud " + options.cloud);
    if (!options.region.empty()) filters.push_back("--region " + options.region);
    throw ConfigError("slicewise prices", "",
                      "no instance matches " + join(filters, " ") + " together; drop a filter to see what there is");
  }
  if (options.json) {
    io.out << rows.dump(2) << "\n";
    return 0;
  }
  io.out << table.to_text();
  return 0;
}

}  // namespace slicewise::cli
