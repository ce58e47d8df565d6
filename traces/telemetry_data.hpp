// The vocabulary of GPU telemetry (docs/telemetry.md): the formats and groupings by name, a
// workload's samples and what a reader gives back. telemetry_readers.hpp reads files into it.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "traces/trace_format.hpp"

namespace slicewise::traces {

enum class TelemetryFormat {
  dcgm_prometheus,  ///< dcgm-exporter's /metrics text, one scrape or many concatenated (timestamps optional)
  dcgmi_dmon,       ///< `dcgmi dmon -e 1001,1002,1003,1005,252` standard output
  pai_sensor,       ///< Alibaba PAI v2020 pai_sensor_table.csv (header-less, per-instance lifetime averages)
};

/// "dcgm-prometheus" | "dcgmi-dmon" | "pai-sensor".
std::string_view to_string(TelemetryFormat format);
const std::vector<std::string>& telemetry_format_names();
std::optional<TelemetryFormat> telemetry_format_from_string(std::string_view name);

/// What one workload is: a Kubernetes container, pod or namespace (dcgm-exporter's pod labels), a
/// GPU (or MIG instance), or a PAI task name or job.
enum class TelemetryGrouping { container, pod, kube_namespace, gpu, task, job };

/// "container" | "pod" | "namespace" | "gpu" | "task" | "job".
std::string_view to_string(TelemetryGrouping grouping);
std::optional<TelemetryGrouping> telemetry_grouping_from_string(std::string_view name);
/// The groupings `format` can tell apart, its default first: dcgm-prometheus container, pod,
/// namespace, gpu; dcgmi-dmon gpu; pai-sensor task, job.
const std::vector<TelemetryGrouping>& groupings_of(TelemetryFormat format);

/// One sample of one workload on one GPU: DCGM's profiling ratios over the sampling period and the
/// device memory in use. A field the source did not give (not scraped, `N/A`, not in the format)
/// is empty.
struct TelemetrySample {
  std::optional<double> gr_engine_active;  ///< DCGM_FI_PROF_GR_ENGINE_ACTIVE, [0, 1]; PAI: gpu_wrk_util per GPU
  std::optional<double> sm_active;         ///< DCGM_FI_PROF_SM_ACTIVE, [0, 1]
  std::optional<double> sm_occupancy;      ///< DCGM_FI_PROF_SM_OCCUPANCY (resident warps / maximum), [0, 1]
  std::optional<double> dram_active;       ///< DCGM_FI_PROF_DRAM_ACTIVE, [0, 1]
  std::optional<double> memory_gib;        ///< DCGM_FI_DEV_FB_USED MiB / 1024; PAI: max_gpu_wrk_mem per GPU
};

/// The samples of one workload, in file order (a scrape with timestamps: by GPU, then time).
struct WorkloadSamples {
  std::string name;
  std::set<std::string> gpu_models;    ///< dcgm-exporter's modelName labels seen
  std::set<std::string> mig_profiles;  ///< MIG instance profiles seen (GPU_I_PROFILE; "" for a dmon GPU-I)
  std::vector<TelemetrySample> samples;
};

struct TelemetryOptions {
  BadRowPolicy on_bad_row = BadRowPolicy::fail;
  /// nullopt = the format's default (groupings_of(format).front()); one the format cannot tell
  /// apart is an InternalError (the CLI refuses it first).
  std::optional<TelemetryGrouping> group_by;
  /// Non-empty: every sample goes to one workload of this name.
  std::string name;
};

/// A telemetry file read: its workloads and how the reading went.
struct TelemetryData {
  std::string path;
  TelemetryFormat format = TelemetryFormat::dcgm_prometheus;
  TelemetryGrouping group_by = TelemetryGrouping::container;
  std::vector<WorkloadSamples> workloads;  ///< sorted by name
  /// Samples of all workloads: a GPU's metrics of one scrape (one timestamp) are one sample; a dmon
  /// row or a PAI instance is one.
  std::int64_t num_samples = 0;
  std::int64_t num_bad_rows = 0;      ///< lines passed over under BadRowPolicy::skip
  std::vector<std::string> bad_rows;  ///< the first five of their messages
  std::int64_t num_incomplete = 0;    ///< PAI rows without gpu_wrk_util or max_gpu_wrk_mem (counted, not used)
  std::optional<double> time_span_s;  ///< last minus first timestamp, when the file has timestamps
};

}  // namespace slicewise::traces
