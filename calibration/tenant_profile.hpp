// Scenario tenants from telemetry (docs/telemetry.md): the estimators that turn a workload's DCGM
// samples (traces/telemetry_readers.hpp) into the workload figures of docs/scenario-format.md
// (gpu_duty_frac, sm_occupancy_frac, mem_bw_frac, memory_gib, reference_gpu), each with its
// spread over the samples, and the JSON `slicewise profile import` writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/gpu_catalog.hpp"

namespace slicewise::traces {
struct TelemetryData;
}

namespace slicewise::calibration {

/// How one quantity varies over a workload's samples: weighted mean, population standard deviation
/// sqrt(Σ w (x - mean)² / Σ w), and nearest-rank quantiles (the smallest value whose cumulative
/// weight reaches q Σ w; with equal weights p95 of 20 samples is the 19th smallest).
struct Spread {
  std::int64_t num_samples = 0;
  double mean = 0.0;
  double std_dev = 0.0;
  double min = 0.0;
  double p5 = 0.0;
  double p50 = 0.0;
  double p95 = 0.0;
  double max = 0.0;
};

/// The spread of `values`, each a (value, weight > 0) pair; nullopt when there are none.
std::optional<Spread> weighted_spread(std::vector<std::pair<double, double>> values);

/// One workload as a scenario tenant.
struct TenantEstimate {
  std::string name;
  std::int64_t num_samples = 0;
  std::int64_t num_busy = 0;  ///< samples with GR_ENGINE_ACTIVE above EstimateOptions::busy_above
  /// The figures as written into the tenant's workload (rounded: fractions to 4 decimals, at least
  /// 0.0001 where the scenario wants > 0; memory up to the next 0.001 GiB); empty when the
  /// telemetry cannot give one (a note says why).
  std::optional<double> gpu_duty_frac;
  std::optional<double> sm_occupancy_frac;
  std::optional<double> mem_bw_frac;
  std::optional<double> memory_gib;
  std::string reference_gpu;  ///< catalog id; "" when not known
  /// Spread of each figure over the samples it comes from (unrounded).
  std::optional<Spread> duty;
  std::optional<Spread> sm;         ///< SM_ACTIVE / GR_ENGINE_ACTIVE, weighted by GR_ENGINE_ACTIVE
  std::optional<Spread> bandwidth;  ///< DRAM_ACTIVE / GR_ENGINE_ACTIVE, weighted by GR_ENGINE_ACTIVE
  std::optional<Spread> memory;     ///< GiB, every sample (busy or not)
  /// DCGM's SM_OCCUPANCY / SM_ACTIVE (resident warps while an SM is busy), weighted by SM_ACTIVE:
  /// reported, not used by the model.
  std::optional<Spread> warp_occupancy;
  std::vector<std::string> gpu_models;    ///< modelName labels seen
  std::vector<std::string> mig_profiles;  ///< MIG instance profiles seen ("" for one dmon does not name)
  std::vector<std::string> notes;         ///< what was left out and why, in words
};

/// A workload that gave no tenant.
struct SkippedWorkload {
  std::string name;
  std::int64_t num_samples = 0;
  std::string reason;
};

struct TenantProfiles {
  std::vector<TenantEstimate> tenants;  ///< in the data's workload order (by name)
  std::vector<SkippedWorkload> skipped;
  double busy_above = 0.0;  ///< the busy threshold used (EstimateOptions::busy_above)
};

struct EstimateOptions {
  /// A sample is busy when its GR_ENGINE_ACTIVE is above this; idle samples count for memory only.
  double busy_above = 0.0;
  /// A catalog id for every tenant; "" = each tenant's GPU model mapped to the catalog.
  std::string reference_gpu;
};

/// The tenant of each workload of `data` that was ever busy; the others are skipped with a reason.
TenantProfiles estimate_tenants(const traces::TelemetryData& data, const EstimateOptions& options,
                                const models::GpuCatalog& gpus);

/// The catalog id of a GPU as NVML / DCGM name it ("NVIDIA H100 80GB HBM3" -> H100-SXM-80GB,
/// "Tesla T4" -> T4): an id, alias or catalog name, with or without the "NVIDIA " and "Tesla "
/// prefixes; "" when none fits.
std::string catalog_gpu_of(std::string_view model_name, const models::GpuCatalog& gpus);

/// Where a tenant's figures come from, as its workload's `source` says it: "dcgm-prometheus:
/// scrape.prom, 4 busy samples of 4; gpu_duty_frac 0.700 ± 0.100, sm_occupancy_frac 0.800 ± 0.000,
/// mem_bw_frac 0.500 ± 0.000, memory_gib max 41.000" (each figure as written ± its standard
/// deviation; memory the largest sample). The file's base name only, so that the text does not
/// depend on the folder it was read from.
std::string workload_source(const traces::TelemetryData& data, const TenantEstimate& tenant);

/// The document `profile import --out` writes: {"source": {...}, "tenants": [{"name", "workload",
/// "spread", ...}], "skipped": [...]}. Each tenant's "workload" object pastes into a scenario
/// tenant's workload (add kind and solo_latency_s); its "source" is workload_source().
nlohmann::ordered_json to_json(const traces::TelemetryData& data, const TenantProfiles& profiles);

}  // namespace slicewise::calibration
