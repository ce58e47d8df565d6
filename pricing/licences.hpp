// Software licences a sharing strategy needs per GPU (NVIDIA vGPU through NVIDIA AI Enterprise),
// from data/licences.json: each with its price per GPU-year, source and date.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace slicewise::pricing {

struct Licence {
  std::string id;    ///< "nvidia-ai-enterprise": what a strategy policy names
  std::string name;  ///< shown in cost lines
  double usd_per_gpu_year = 0.0;
  std::string source;
  std::string as_of;
  /// Per GPU-hour with the 730-hour month: usd_per_gpu_year / (12 × 730).
  double usd_per_gpu_hour() const;
  bool operator==(const Licence&) const = default;
};

struct LicenceTable {
  std::string currency;
  std::string source;
  std::string as_of;
  std::vector<Licence> licences;

  /// Loads and strictly validates a file; throws ConfigError listing every problem. Prices are
  /// in (0, 1e9] per GPU-year; ids are unique.
  static LicenceTable load(const std::filesystem::path& file);
  /// The licence with this id; nullptr when none.
  const Licence* find(const std::string& id) const;
};

/// The shipped table (data_dir()/licences.json), loaded once.
const LicenceTable& shipped_licences();

}  // namespace slicewise::pricing
