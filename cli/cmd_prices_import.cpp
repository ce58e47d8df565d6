// `slicewise prices import FILE... --format aws-offer|azure-retail --out table.json [--retrieved DAY]`:
// turn the providers' own price feeds into a slicewise price table.
#include <algorithm>
#include <filesystem>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"
#include "models/gpu_catalog.hpp"
#include "pricing/json_io.hpp"
#include "pricing/price_import.hpp"

namespace slicewise::cli {

namespace {

/// Refuses a provider file given twice (its rows would be counted twice) and an --out that is an
/// input, a folder, or in a missing folder, before anything is read.
void check_files(const PricesOptions& options) {
  constexpr const char* kCommand = "slicewise prices import";
  const auto& inputs = options.import_files;
  std::error_code ec;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (inputs[i] == inputs[j] || std::filesystem::equivalent(inputs[i], inputs[j], ec)) {
        throw ConfigError(kCommand, inputs[i],
                          "given twice (as argument " + std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                              "); each provider file may be given once");
      }
    }
    if (std::filesystem::equivalent(options.import_out, inputs[i], ec)) {
      throw ConfigError(kCommand, "--out",
                        options.import_out + " is a provider file being read; write the table to another file");
    }
  }
  const std::filesystem::path out(options.import_out);
  if (std::filesystem::is_directory(out, ec)) {
    throw ConfigError(kCommand, "--out", options.import_out + " is a directory; expected a file to write the table to");
  }
  if (out.has_parent_path() && !std::filesystem::is_directory(out.parent_path(), ec)) {
    throw ConfigError(kCommand, "--out",
                      "no folder " + out.parent_path().string() + " to write " + options.import_out + " in");
  }
}

/// The day the files were fetched: required for Azure Retail Prices pages, which carry no date of
/// their own (only when each price took effect); refused for an AWS offer file, dated by its own
/// publicationDate.
void check_retrieved(const PricesOptions& options, pricing::ImportFormat format) {
  constexpr const char* kCommand = "slicewise prices import";
  const std::string& day = options.import_retrieved;
  if (format == pricing::ImportFormat::aws_offer) {
    if (!day.empty()) {
      throw ConfigError(kCommand, "--retrieved",
                        "only for --format azure-retail (an AWS offer file is dated by its own publicationDate)");
    }
    return;
  }
  if (day.empty()) {
    throw ConfigError(kCommand, "--retrieved",
                      "required with --format azure-retail: its pages say when each price took effect, not when "
                      "they were fetched; give that day, YYYY-MM-DD");
  }
  if (day.size() != 10 || !pricing::is_price_date(day)) {
    throw ConfigError(kCommand, "--retrieved", "expected a date YYYY-MM-DD (got " + quoted_excerpt(day) + ")");
  }
}

/// "; prices took effect 2022-05-01 to 2026-10-15" over the rows that say when (Azure); "" when none does.
std::string effective_dates_text(const pricing::PriceTable& table) {
  std::string first;
  std::string last;
  for (const auto& row : table.instances) {
    if (row.effective_from.empty()) continue;
    if (first.empty() || row.effective_from < first) first = row.effective_from;
    last = std::max(last, row.effective_from);
  }
  if (first.empty()) return "";
  return "; prices took effect " + (first == last ? first : first + " to " + last);
}

}  // namespace

void setup_prices_import(CLI::App& prices, PricesOptions& options) {
  auto* sub = prices.add_subcommand("import", "Import an AWS Price List offer file or Azure Retail Prices pages");
  sub->add_option("files", options.import_files, "Provider files (several Azure pages may be given)")->required();
  one_of(sub->add_option("--format", options.import_format, "Feed format")->required(), {"aws-offer", "azure-retail"});
  sub->add_option("--out", options.import_out, "Write the slicewise table here")->required();
  sub->add_option("--name", options.import_name, "Table name (default: aws or azure)");
  sub->add_option("--retrieved", options.import_retrieved,
                  "Day the Azure pages were fetched, YYYY-MM-DD: the table's as_of (required for azure-retail)");
  sub->callback([&options] { options.importing = true; });
}

int run_prices_import(const PricesOptions& options, Io io) {
  const auto format =
      options.import_format == "aws-offer" ? pricing::ImportFormat::aws_offer : pricing::ImportFormat::azure_retail;
  const std::string name = !options.import_name.empty()                 ? options.import_name
                           : format == pricing::ImportFormat::aws_offer ? "aws"
                                                                        : "azure";
  check_files(options);
  check_retrieved(options, format);
  std::vector<std::filesystem::path> files(options.import_files.begin(), options.import_files.end());
  const auto& gpus = models::GpuCatalog::shipped();
  const auto gpu_of = [&gpus](const std::string& type) {
    auto known = pricing::known_instance_gpu(type);
    if (known && known->second > 0 && !gpus.find(known->first)) return std::optional<std::pair<std::string, int>>();
    return known;
  };
  const auto result = pricing::import_prices(files, format, name, gpu_of, options.import_retrieved);
  write_file_atomically(options.import_out, pricing::price_table_to_text(result.table));
  io.out << options.import_out << ": " << result.num_rows_kept << " rows kept of " << result.num_rows_read << " read ("
         << result.table.instance_types().size() << " instance types, " << result.table.regions().size()
         << " regions, currency " << result.table.currency << ", as of " << result.table.as_of
         << effective_dates_text(result.table) << ")\n";
  if (!result.skipped_types.empty()) {
    io.out << "skipped (GPU not known for the instance type): " << excerpt(join(result.skipped_types, ", "), 400)
           << "\n";
  }
  return 0;
}

}  // namespace slicewise::cli
