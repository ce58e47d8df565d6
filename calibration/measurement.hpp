// Measurements the model constants are fitted to (docs/measurement-format.md): one CSV row per
// measured number, with the GPU, how it was shared, the workload, the metric, and its provenance.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/mig_catalog.hpp"
#include "models/strategy_kind.hpp"

namespace slicewise::calibration {

/// What was measured, per context.
enum class Metric { time_mean, time_median, time_p90, time_p99, throughput, mem_bandwidth };
std::string to_string(Metric metric);
/// True for the duration metrics (time_*), whose value is in seconds.
bool is_time(Metric metric);

/// One measured number, in base units: seconds, 1/s or GB/s.
struct Measurement {
  std::string gpu;  ///< catalog id (an alias in the file is resolved)
  models::StrategyKind strategy = models::StrategyKind::dedicated;
  std::string mig_profile;  ///< "" unless mig / mig_time_slicing
  int n_contexts = 1;       ///< contexts sharing the device, this one included
  std::string workload;
  std::map<std::string, double> params;  ///< workload parameters, sorted by key
  Metric metric = Metric::time_mean;
  double value = 0.0;  ///< > 0, base units
  std::string source;
  std::string date;  ///< YYYY-MM-DD
  std::string run;   ///< co-run id; "" = alone or with copies of itself
  std::string file;  ///< where it was read, for messages
  long line = 0;

  /// `workload` plus its parameters: "resnet[batch_size=64]". Identifies a workload instance.
  std::string workload_key() const;
  /// A parameter, or `fallback` when absent.
  double param(const std::string& key, double fallback) const;
  /// What its strategy kind is (models/strategy_kind.hpp): MIG instances, a device per context, ...
  const models::StrategyKindFacts& facts() const { return models::facts_of(strategy); }
  /// One context alone on a whole GPU of its own: the baseline rows co-runs are scaled by.
  bool solo_on_whole_gpu() const { return facts().baseline && n_contexts == 1; }
  /// One context alone in a MIG instance: the rows MIG slice capacity is fitted on.
  bool alone_in_mig_instance() const { return facts().mig_instances && facts().own_device && n_contexts == 1; }
  /// The context's cap on its share of the SMs, in percent (100 = none).
  double cap_pct() const { return facts().cap_param.empty() ? 100.0 : param(facts().cap_param, 100.0); }
};

/// Reads one measurement file: the CSV of docs/measurement-format.md, or the MISO MIG step table
/// (told apart by its header). `.gz`/`.zst` are read transparently. The first problem throws
/// TraceError `file:line: column: problem`.
/// `notes`, when given, receives what was read but not taken (a co-location file's MPS rows).
std::vector<Measurement> load_measurements(const std::string& path, const models::GpuCatalog& gpus,
                                           const models::MigCatalog& mig, std::vector<std::string>* notes = nullptr);

/// True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one).
bool is_iso_date(std::string_view text);

/// The workload parameter keys the format allows, in documentation order.
const std::vector<std::string>& workload_param_keys();

}  // namespace slicewise::calibration
