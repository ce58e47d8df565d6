// How often spot capacity is taken back, per provider and GPU, from data/spot_interruptions.json:
// each rate with its band, source and date, the notice each provider gives, and how long a
// replacement instance takes (docs/roi.md, "Spot interruptions").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace slicewise::pricing {

/// The interruption rate of one GPU's spot instances on one provider.
struct SpotRate {
  double per_month = 0.0;  ///< chance that a running instance is interrupted within a 730-hour month
  std::string band;        ///< the published band it is the upper edge of: "15-20 %"
  std::string source;      ///< where the band comes from (the instance read and its date), or why it is assumed
  bool assumed = false;    ///< no published reading for this GPU and provider: the table's default
  bool operator==(const SpotRate&) const = default;
};

struct SpotProvider {
  std::string table;  ///< the price table's name: "aws"
  double notice_s = 0.0;
  std::string source;
  bool operator==(const SpotProvider&) const = default;
};

struct SpotInterruptionTable {
  std::string source;
  std::string as_of;
  std::string reading;         ///< how a band becomes a rate
  double replacement_s = 0.0;  ///< a replacement instance ready to serve, model load aside
  std::string replacement_source;
  std::vector<SpotProvider> providers;
  struct Row {
    std::string table;
    std::string gpu;
    SpotRate rate;
  };
  std::vector<Row> rates;
  SpotRate fallback;  ///< for a GPU or provider with no reading (assumed = true)

  /// Loads and strictly validates a file; throws ConfigError listing every problem: rates in
  /// [0, 1] per month, notices and the replacement time in [0, 86400] s, one row per table and GPU.
  static SpotInterruptionTable load(const std::filesystem::path& file);
  /// The rate for spot instances of `gpu` (a catalog id) in the price table named `table`.
  SpotRate rate(const std::string& table, const std::string& gpu) const;
  /// The provider's notice before an interruption; a table with none gets the shortest listed
  /// (`assumed` set).
  double notice_s(const std::string& table, bool* assumed = nullptr) const;
};

/// The shipped table (data_dir()/spot_interruptions.json), loaded once.
const SpotInterruptionTable& shipped_spot_interruptions();

}  // namespace slicewise::pricing
