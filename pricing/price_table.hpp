// Instance price tables (data/prices/<cloud>.json): what one instance type costs per hour under
// each purchase option, with region, currency, source and date.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slicewise::pricing {

/// How capacity is bought.
enum class PurchaseOption { on_demand, spot, reserved_1y, reserved_3y };
const std::vector<std::pair<std::string, PurchaseOption>>& purchase_option_table();  ///< "on_demand", ...
std::string to_string(PurchaseOption option);

/// One instance type in one region.
struct InstancePrice {
  std::string instance_type;       ///< "g6e.2xlarge", "a2-highgpu-1g", "Standard_NC24ads_A100_v4"
  std::string region;              ///< "us-east-1"
  std::optional<std::string> gpu;  ///< GPU catalog id; absent for CPU-only instances
  int num_gpus = 0;                ///< GPUs in the instance (0 for CPU-only)
  std::optional<int> num_vcpus;
  std::optional<double> memory_gib;  ///< host RAM
  double on_demand_usd_per_hour = 0.0;
  std::optional<double> spot_usd_per_hour;
  std::optional<double> reserved_1y_usd_per_hour;
  std::optional<double> reserved_3y_usd_per_hour;
  std::string source;
  std::string as_of;
  std::string effective_from;  ///< when the price took effect (YYYY-MM[-DD]; imported feeds); "" when unknown
  /// Where the spot price comes from and its date (YYYY-MM or YYYY-MM-DD), when not `source` and
  /// `as_of`; "" when not given. Only with a spot price.
  std::string spot_source;
  std::string spot_as_of;
  /// The same for the reserved prices (both terms). Only with a reserved price.
  std::string reserved_source;
  std::string reserved_as_of;
  std::string note;

  /// Hourly price under `option`; nullopt when the table has no such price.
  std::optional<double> usd_per_hour(PurchaseOption option) const;
  bool operator==(const InstancePrice&) const = default;
};

/// A price table for one provider.
struct PriceTable {
  std::string name;      ///< "aws", "gcp", "azure", or a user table's name
  std::string currency;  ///< "USD"
  std::string source;
  std::string as_of;
  std::vector<InstancePrice> instances;
  /// A shipped table this one extends: its rows are added unless this table has a row for the
  /// same instance type and region (which then overrides it). Empty for a self-contained table.
  std::string extends;

  /// Loads and strictly validates a table file. When `known_gpu_ids` is not empty, every `gpu`
  /// must be one of them (did-you-mean). A table with `extends` gets the named shipped table's rows
  /// it does not override. Throws ConfigError listing every problem.
  static PriceTable load(const std::filesystem::path& file, const std::vector<std::string>& known_gpu_ids = {});

  /// The row for an instance type; in `region` when given, else the first row of that type.
  const InstancePrice* find(std::string_view instance_type, std::string_view region = {}) const;
  /// Distinct instance types and regions, in table order.
  std::vector<std::string> instance_types() const;
  std::vector<std::string> regions() const;

  bool operator==(const PriceTable&) const = default;
};

/// The shipped tables (data/prices/*.json), loaded once per process, in name order.
const std::vector<PriceTable>& shipped_price_tables();
/// A shipped table by name; nullptr when unknown.
const PriceTable* find_shipped_price_table(std::string_view name);

}  // namespace slicewise::pricing
