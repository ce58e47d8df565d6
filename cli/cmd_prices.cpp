// `slicewise prices [--gpu X] [--cloud Y | --file T] [--region R]`: the shipped instance price tables,
// or one table file (an imported one, your own).
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
  auto* sub =
      app.add_subcommand("prices", "List instance prices (on-demand, spot) from the shipped tables or a table file");
  sub->add_option("--gpu", options.gpu, "Only instances with this GPU (id or alias)");
  sub->add_option("--cloud", options.cloud, "Only this table: aws, azure or gcp");
  sub->add_option("--file", options.file,
                  "List this table file instead (as `prices import` writes it, or your own; extends honoured)");
  sub->add_option("--region", options.region, "Only this region");
  sub->add_flag("--json", options.json, "Print JSON instead of a table");
  setup_prices_import(*sub, options);
  return sub;
}

namespace {

/// Whether --cloud keeps `price_table`.
bool keeps_table(const PricesOptions& options, const pricing::PriceTable& price_table) {
  return options.cloud.empty() || price_table.name == options.cloud;
}

/// Whether --gpu (as the catalog id `gpu_id`, "" for none) and --region keep `row`.
bool keeps_row(const PricesOptions& options, const std::string& gpu_id, const pricing::InstancePrice& row) {
  if (!gpu_id.empty() && row.gpu.value_or("") != gpu_id) return false;
  return options.region.empty() || row.region == options.region;
}

/// The catalog id of --gpu (an id or an alias); "" when not given. Throws ConfigError when unknown.
std::string gpu_filter(const PricesOptions& options) {
  if (options.gpu.empty()) return "";
  const auto& gpus = models::GpuCatalog::shipped();
  const auto* gpu = gpus.find(options.gpu);
  if (!gpu) {
    throw ConfigError("slicewise prices", "--gpu",
                      "unknown GPU " + quoted_excerpt(options.gpu) + gpus.did_you_mean_suffix(options.gpu) +
                          "; see `slicewise gpus`");
  }
  return gpu->id;
}

/// Throws ConfigError when --cloud names no shipped table.
void check_cloud_filter(const PricesOptions& options, const std::vector<pricing::PriceTable>& tables) {
  if (options.cloud.empty() || pricing::find_shipped_price_table(options.cloud)) return;
  std::vector<std::string> names;
  names.reserve(tables.size());
  for (const auto& table : tables) names.push_back(table.name);
  throw ConfigError("slicewise prices", "--cloud", unknown_choice(options.cloud, names));
}

/// What --region is looked for in, for messages: the table file, one shipped table or all of them.
std::string tables_text(const PricesOptions& options) {
  if (!options.file.empty()) return options.file;
  return options.cloud.empty() ? std::string("the shipped tables") : "table " + options.cloud;
}

/// Throws ConfigError when --region is in none of the tables --cloud keeps.
void check_region_filter(const PricesOptions& options, const std::vector<pricing::PriceTable>& tables) {
  if (options.region.empty()) return;
  std::vector<std::string> regions;  // of the tables --cloud leaves, sorted
  for (const auto& price_table : tables) {
    if (!keeps_table(options, price_table)) continue;
    for (const auto& region : price_table.regions()) {
      if (std::find(regions.begin(), regions.end(), region) == regions.end()) regions.push_back(region);
    }
  }
  std::sort(regions.begin(), regions.end());
  if (std::find(regions.begin(), regions.end(), options.region) == regions.end()) {
    throw ConfigError("slicewise prices", "--region",
                      "no region \"" + options.region + "\" in " + tables_text(options) + "; expected " +
                          join(regions, "|") + did_you_mean_suffix(options.region, regions));
  }
}

/// What to say when the filters each match on their own but together match nothing.
std::string no_match_message(const PricesOptions& options) {
  std::vector<std::string> filters;
  if (!options.gpu.empty()) filters.push_back("--gpu " + options.gpu);
  if (!options.cloud.empty()) filters.push_back("--cloud " + options.cloud);
  if (!options.file.empty()) filters.push_back("--file " + options.file);
  if (!options.region.empty()) filters.push_back("--region " + options.region);
  return "no instance matches " + join(filters, " ") + " together; drop a filter to see what there is";
}

/// The text table's columns.
report::TextTable empty_prices_table() {
  using report::Align;
  return report::TextTable({{"cloud"},
                            {"instance"},
                            {"region"},
                            {"GPU"},
                            {"GPUs", Align::right},
                            {"vCPU", Align::right},
                            {"RAM GiB", Align::right},
                            {"on-demand $/h", Align::right},
                            {"spot $/h", Align::right},
                            {"$/GPU-h", Align::right}});
}

/// One instance as a row of the text table.
std::vector<std::string> price_cells(const pricing::PriceTable& price_table, const pricing::InstancePrice& row) {
  const std::string per_gpu =
      row.num_gpus > 0 ? report::format_fixed(row.on_demand_usd_per_hour / row.num_gpus, 4) : "-";
  return {price_table.name,
          row.instance_type,
          row.region,
          row.gpu.value_or("-"),
          std::to_string(row.num_gpus),
          row.num_vcpus ? std::to_string(*row.num_vcpus) : "-",
          row.memory_gib ? format_number(*row.memory_gib) : "-",
          format_number(row.on_demand_usd_per_hour),
          row.spot_usd_per_hour ? format_number(*row.spot_usd_per_hour) : "-",
          per_gpu};
}

/// One instance as an element of the --json array.
nlohmann::ordered_json price_json(const pricing::PriceTable& price_table, const pricing::InstancePrice& row) {
  nlohmann::ordered_json item = {{"cloud", price_table.name}, {"instance_type", row.instance_type},
                                 {"region", row.region},      {"gpu", row.gpu.value_or("")},
                                 {"num_gpus", row.num_gpus},  {"on_demand_usd_per_hour", row.on_demand_usd_per_hour}};
  item["spot_usd_per_hour"] = row.spot_usd_per_hour ? nlohmann::ordered_json(*row.spot_usd_per_hour) : nullptr;
  item["currency"] = price_table.currency;
  item["source"] = row.source;
  item["as_of"] = row.as_of;
  // When the price took effect, where the table says (imported Azure prices); as_of is when it was read.
  item["effective_from"] = row.effective_from.empty() ? nullptr : nlohmann::ordered_json(row.effective_from);
  return item;
}

/// The table file of --file, loaded as `roi --pricing FILE` loads it (GPU ids checked, `extends`
/// applied). Throws ConfigError naming the file: not found, not JSON, not a valid table, no rows.
std::vector<pricing::PriceTable> load_table_file(const PricesOptions& options) {
  if (!options.cloud.empty()) {
    throw ConfigError("slicewise prices", "--cloud",
                      "picks a shipped table; give either --cloud or --file (which lists the file's table alone)");
  }
  std::vector<pricing::PriceTable> tables;
  tables.push_back(pricing::PriceTable::load(options.file, models::GpuCatalog::shipped().ids()));
  if (tables.front().instances.empty()) {
    throw ConfigError(options.file, "/instances", "no instance to list (the array is empty)");
  }
  return tables;
}

}  // namespace

int run_prices(const PricesOptions& options, Io io) {
  if (options.importing) return run_prices_import(options, io);
  const std::string gpu_id = gpu_filter(options);
  const std::vector<pricing::PriceTable> file_tables =
      options.file.empty() ? std::vector<pricing::PriceTable>() : load_table_file(options);
  const auto& tables = options.file.empty() ? pricing::shipped_price_tables() : file_tables;
  check_cloud_filter(options, tables);
  check_region_filter(options, tables);

  report::TextTable table = empty_prices_table();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& price_table : tables) {
    if (!keeps_table(options, price_table)) continue;
    for (const auto& row : price_table.instances) {
      if (!keeps_row(options, gpu_id, row)) continue;
      table.add_row(price_cells(price_table, row));
      rows.push_back(price_json(price_table, row));
    }
  }
  // Each filter matches on its own (checked above); together they match nothing.
  if (table.num_rows() == 0) throw ConfigError("slicewise prices", "", no_match_message(options));
  if (options.json) {
    io.out << rows.dump(2) << "\n";
    return 0;
  }
  io.out << table.to_text();
  return 0;
}

}  // namespace slicewise::cli
