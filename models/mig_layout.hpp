// MIG layouts: parse "3g.40gb+2g.20gb+1g.10gb+1g.10gb", place it on a GPU's memory-slot grid by
// the placement rules, explain why an invalid layout is invalid, and enumerate every maximal
// valid layout of a GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/mig_catalog.hpp"

namespace slicewise::models {

/// One GPU instance of a placed layout.
struct MigInstance {
  std::string profile;    ///< profile name
  int start_slot = 0;     ///< first memory slot
  int memory_slices = 0;  ///< slots occupied: [start_slot, start_slot + memory_slices)
  int compute_slices = 0;
  int num_sms = 0;
  double memory_gib = 0.0;

  bool operator==(const MigInstance&) const = default;
};

/// Result of placing a layout. When valid, `instances` is in the order the layout named them
/// (with their slots); otherwise `reason` says which rule is broken.
struct MigPlacement {
  bool valid = false;
  std::string reason;  ///< empty when valid
  std::vector<MigInstance> instances;
  int total_compute_slices = 0;
  int total_sms = 0;
  double total_memory_gib = 0.0;
};

/// Splits a layout string into profile names. Accepts "a+b+c" and a count prefix "7x1g.10gb" (also
/// "7×1g.10gb"); spaces around '+' are ignored. Returns an empty vector and sets `error` on bad
/// syntax (empty part, zero count).
std::vector<std::string> split_mig_layout(std::string_view text, std::string& error);

/// Places the named profiles on `gpu`. Checks, in this order: each name is a profile of the GPU
/// (did-you-mean), per-profile max_instances, compute slices <= gpu.compute_slices, then searches
/// for non-overlapping allowed start slots (exhaustive backtracking) and reports the collision when
/// none exists.
MigPlacement place_mig_layout(const MigGpu& gpu, const std::vector<std::string>& profiles);

/// split_mig_layout + place_mig_layout.
MigPlacement place_mig_layout(const MigGpu& gpu, std::string_view layout_text);

/// Canonical text of a layout: profiles sorted by compute slices, then memory slices (largest
/// first), then name, joined with '+'.
std::string canonical_mig_layout(std::vector<std::string> profiles);

/// Every maximal valid layout (no further profile can be added) as canonical strings, sorted
/// by total compute slices descending then lexicographically. `include_media_extensions` adds the
/// "+me" profiles to the search.
std::vector<std::string> enumerate_mig_layouts(const MigGpu& gpu, bool include_media_extensions = false);

}  // namespace slicewise::models
