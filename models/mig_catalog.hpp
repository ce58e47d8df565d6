// The MIG geometry catalog (data/mig_profiles.json): per MIG-capable GPU, its profiles and the
// memory-slot positions each profile may be placed at.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace slicewise::models {

/// One GPU-instance profile, e.g. A100-80GB "3g.40gb".
struct MigProfile {
  std::string name;                   ///< "3g.40gb", "1g.10gb+me"
  int compute_slices = 0;             ///< the "3" in 3g
  int memory_slices = 0;              ///< memory slices (of memory_slots) the instance occupies
  double memory_gib = 0.0;            ///< memory the driver reports for the instance
  int num_sms = 0;                    ///< SMs of the instance
  int max_instances = 0;              ///< how many may exist on one GPU at once
  std::vector<int> placement_starts;  ///< allowed first memory slot (nvidia-smi mig -lgipp)
  bool media_extensions = false;      ///< "+me" profile: owns the GPU's media engines
  bool estimated = false;             ///< some figure not observed on hardware (see note)
  std::string note;                   ///< provenance remarks for estimated figures

  bool operator==(const MigProfile&) const = default;
};

/// The MIG geometry of one GPU model.
struct MigGpu {
  std::string gpu_id;      ///< id in the GPU catalog
  int compute_slices = 0;  ///< 7 on A100/H100/H200/B200, 4 on A30
  int memory_slots = 0;    ///< memory slices = placement slots: 8, or 4 on A30
  std::vector<MigProfile> profiles;
  std::string source;
  std::string as_of;

  /// Profile by exact name; nullptr when unknown.
  const MigProfile* find(std::string_view profile_name) const;
  /// Profile names in catalog order.
  std::vector<std::string> profile_names() const;

  bool operator==(const MigGpu&) const = default;
};

class MigCatalog {
 public:
  /// Loads and strictly validates a catalog file; throws ConfigError listing every problem.
  static MigCatalog load(const std::filesystem::path& file);
  /// The shipped catalog, data_dir()/mig_profiles.json, loaded once per process.
  static const MigCatalog& shipped();

  const std::vector<MigGpu>& gpus() const { return gpus_; }
  /// By GPU id (as in the GPU catalog); nullptr when the GPU has no MIG geometry here.
  const MigGpu* find(std::string_view gpu_id) const;

 private:
  std::vector<MigGpu> gpus_;
};

}  // namespace slicewise::models
