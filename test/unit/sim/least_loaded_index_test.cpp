// The least-loaded index answers what a scan of every load would, the left one on a tie.
#include "sim/least_loaded_index.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace slicewise::sim {
namespace {

TEST(LeastLoadedIndex, StartsAtTheFirstPositionWithEveryLoadZero) {
  const LeastLoadedIndex index(5);
  EXPECT_EQ(index.least(), 0u);
  EXPECT_EQ(index.size(), 5u);
}

TEST(LeastLoadedIndex, FollowsEachChangeAndPrefersTheLeftOnATie) {
  LeastLoadedIndex index(3);
  index.set(0, 2);
  EXPECT_EQ(index.least(), 1u);  // loads 2 0 0
  index.set(1, 1);
  EXPECT_EQ(index.least(), 2u);  // 2 1 0
  index.set(2, 1);
  EXPECT_EQ(index.least(), 1u);  // 2 1 1: the left of the two
  index.set(0, 1);
  EXPECT_EQ(index.least(), 0u);  // 1 1 1
  index.set(0, 5);
  index.set(1, 5);
  EXPECT_EQ(index.least(), 2u);  // 5 5 1
}

TEST(LeastLoadedIndex, OnePositionIsAlwaysTheLeast) {
  LeastLoadedIndex index(1);
  index.set(0, 7);
  EXPECT_EQ(index.least(), 0u);
  EXPECT_EQ(index.load(0), 7u);
}

TEST(LeastLoadedIndex, AgreesWithMinElementOverRandomChanges) {
  // Sizes that are and are not powers of two; small loads, so that ties are common.
  for (const std::size_t size : {2u, 5u, 8u, 13u, 1000u}) {
    LeastLoadedIndex index(size);
    std::vector<std::size_t> loads(size, 0);
    std::mt19937 rng(static_cast<unsigned>(size));
    for (int step = 0; step < 5000; ++step) {
      const std::size_t position = rng() % size;
      loads[position] = rng() % 4;
      index.set(position, loads[position]);
      const auto expected = static_cast<std::size_t>(std::min_element(loads.begin(), loads.end()) - loads.begin());
      ASSERT_EQ(index.least(), expected) << "size " << size << ", step " << step;
    }
  }
}

}  // namespace
}  // namespace slicewise::sim
