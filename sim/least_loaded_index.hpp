// The least-loaded of a tenant's contexts, for least-loaded routing: O(1) to read, O(log n) to
// keep when one context's load changes, instead of a scan of every context per arrival.
#pragma once

#include <cstddef>
#include <vector>

namespace slicewise::sim {

/// A tournament tree over positions 0 .. n-1 (a tenant's contexts in routing order). Each node
/// holds the position of the least load below it, the left one on a tie, so that least() is
/// the position std::min_element would find over the same loads.
class LeastLoadedIndex {
 public:
  /// Every load starts at 0. `size` >= 1.
  explicit LeastLoadedIndex(std::size_t size);
  void set(std::size_t position, std::size_t load);
  std::size_t least() const { return node_[1]; }
  std::size_t load(std::size_t position) const { return load_[position]; }
  std::size_t size() const { return size_; }

 private:
  std::size_t size_;
  std::size_t leaves_;             ///< a power of two >= size_; leaf i is node leaves_ + i
  std::vector<std::size_t> load_;  ///< per position; padding positions never win
  std::vector<std::size_t> node_;  ///< node_[1] is the root; node_[0] is unused
};

}  // namespace slicewise::sim
