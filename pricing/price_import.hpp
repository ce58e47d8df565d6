// Importing the providers' own price feeds into a slicewise PriceTable: the AWS Price List offer
// file (products + terms) and Azure Retail Prices API pages (Items, NextPageLink).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pricing/price_table.hpp"

namespace slicewise::pricing {

enum class ImportFormat { aws_offer, azure_retail };

/// Instance type -> (GPU catalog id, GPUs per instance); nullopt for types to skip. CPU-only types
/// map to ("", 0).
using InstanceGpuMap = std::function<std::optional<std::pair<std::string, int>>(const std::string&)>;

struct ImportResult {
  PriceTable table;
  int num_rows_read = 0;                   ///< price entries looked at (after the Linux/shared filters)
  int num_rows_kept = 0;                   ///< table rows written
  std::vector<std::string> skipped_types;  ///< instance types the map did not know, sorted
};

/// Reads the files and builds a table named `table_name`, rows sorted by (instance type, region).
/// AWS instances whose offer lists no GPU, and Azure VM sizes outside the GPU (N) family, are kept
/// as CPU-only rows (sidecars); GPU instances need the map.
/// `retrieved` (YYYY-MM-DD, the day the files were fetched) dates the table and its rows (`as_of`);
/// when empty they are dated by the newest date in the files. An Azure row also keeps the day its
/// prices took effect (`effective_from`: the newest effectiveStartDate of the items that priced it).
/// Throws ConfigError naming the file and JSON pointer of malformed input.
ImportResult import_prices(const std::vector<std::filesystem::path>& files, ImportFormat format,
                           const std::string& table_name, const InstanceGpuMap& gpu_of_instance,
                           const std::string& retrieved = {});

/// The GPU of the instance families slicewise knows (AWS g4dn/g5/g6/g6e/p3/p4d/p4de/p5/p5en/p6-b200
/// and t3; Azure NC A100 v4, NC H100 v5, ND A100/H100, NC T4 v3, NC v3).
std::optional<std::pair<std::string, int>> known_instance_gpu(const std::string& instance_type);

/// The table as JSON text in the shape of data/prices/*.json.
std::string price_table_to_text(const PriceTable& table);

}  // namespace slicewise::pricing
