// The GPU catalog (data/gpus.json): one GpuSpec per GPU model, each with its source and date.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slicewise::models {

/// Full-GPU specification. Values are the vendor's nominal figures for the whole device.
struct GpuSpec {
  std::string id;                           ///< short stable id, e.g. "A100-80GB", "H100-SXM-80GB", "L40S"
  std::vector<std::string> aliases;         ///< other names accepted on input ("A100-SXM4-80GB")
  std::string name;                         ///< marketing name, e.g. "NVIDIA A100-SXM4-80GB"
  std::string arch;                         ///< volta | turing | ampere | ada | hopper | blackwell
  std::string form_factor;                  ///< "SXM4", "PCIe", ...
  int num_sms = 0;                          ///< streaming multiprocessors on the full device
  double memory_gib = 0.0;                  ///< device memory (nominal capacity)
  double memory_bandwidth_gbps = 0.0;       ///< peak memory bandwidth, GB/s (1e9 bytes/s)
  std::optional<double> fp16_dense_tflops;  ///< dense tensor-core FP16, TFLOP/s; absent when unknown
  std::optional<double> bf16_dense_tflops;  ///< dense tensor-core BF16, TFLOP/s; absent when unknown
  std::optional<double> tdp_w;              ///< board power, W; absent when unknown
  /// Board power at rest (driver loaded, no work, as nvidia-smi reports it), W, below tdp_w;
  /// absent when no public measurement was found (models/power_model.hpp then estimates it).
  std::optional<double> idle_w;
  std::string idle_source;  ///< where idle_w comes from; "" without idle_w
  /// How the GPU talks to the others of its node, and at what bandwidth (GB/s, both directions
  /// together, as NVIDIA's datasheets give it): NVLink, or PCIe x16 of the GPU's generation.
  /// What a tensor-parallel group's all-reduces cross; "" and 0 when unknown.
  std::string interconnect;
  double interconnect_gbps = 0.0;
  bool mig_capable = false;  ///< supports Multi-Instance GPU
  std::string source;        ///< where the figures come from
  std::string as_of;         ///< date of the source (YYYY-MM or YYYY-MM-DD)

  bool operator==(const GpuSpec&) const = default;
};

/// All known GPUs, in catalog order.
class GpuCatalog {
 public:
  /// Loads and strictly validates a catalog file. Throws ConfigError listing every problem.
  static GpuCatalog load(const std::filesystem::path& file);
  /// The shipped catalog, data_dir()/gpus.json, loaded once per process.
  static const GpuCatalog& shipped();

  const std::vector<GpuSpec>& gpus() const { return gpus_; }
  /// By id or alias (exact match), or as nvidia-smi names it (the catalog's name, or "NVIDIA " and
  /// an id or alias); nullptr when unknown.
  const GpuSpec* find(std::string_view id_or_alias) const;
  /// Every id, in catalog order (for "expected ..." and did-you-mean messages).
  std::vector<std::string> ids() const;
  /// " (did you mean \"H100-SXM-80GB\", \"H100-PCIe-80GB\" or \"H100-NVL-94GB\"?)" for an unknown
  /// GPU "H100": the ids whose aliases, names or beginnings fit before the closest by edit distance
  /// (core/spell.hpp suggestions()); "" when nothing is close.
  std::string did_you_mean_suffix(std::string_view name) const;

  const std::string& source() const { return source_; }
  const std::string& as_of() const { return as_of_; }

 private:
  std::vector<GpuSpec> gpus_;
  std::string source_;
  std::string as_of_;
};

}  // namespace slicewise::models
