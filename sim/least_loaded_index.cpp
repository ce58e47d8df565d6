// A tournament tree for least-loaded routing.
#include "sim/least_loaded_index.hpp"

#include <limits>

#include "core/error.hpp"

namespace slicewise::sim {

LeastLoadedIndex::LeastLoadedIndex(std::size_t size) : size_(size), leaves_(1) {
  SW_CHECK(size >= 1, "a least-loaded index needs a context");
  while (leaves_ < size) leaves_ *= 2;
  load_.assign(leaves_, std::numeric_limits<std::size_t>::max());
  for (std::size_t i = 0; i < size; ++i) load_[i] = 0;
  node_.resize(2 * leaves_);
  for (std::size_t i = 0; i < leaves_; ++i) node_[leaves_ + i] = i;
  // Every load is 0 and the padding's is the largest: the left child wins everywhere.
  for (std::size_t i = leaves_ - 1; i >= 1; --i) node_[i] = node_[2 * i];
}

void LeastLoadedIndex::set(std::size_t position, std::size_t load) {
  SW_CHECK(position < size_, "least-loaded index position out of range");
  load_[position] = load;
  for (std::size_t i = (leaves_ + position) / 2; i >= 1; i /= 2) {
    const std::size_t left = node_[2 * i];
    const std::size_t right = node_[2 * i + 1];
    node_[i] = load_[right] < load_[left] ? right : left;
  }
}

}  // namespace slicewise::sim
