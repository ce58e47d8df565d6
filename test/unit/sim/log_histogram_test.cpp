// The log histogram: percentiles within the bucket width of the exact order statistics, in its
// small (hash table) and dense forms, and memory sized to what it holds.
#include "sim/log_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace slicewise::sim {
namespace {

/// Nearest rank: the smallest value with at least q × n values at or below it.
double exact_quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(q * static_cast<double>(values.size()))));
  return values[rank - 1];
}

void expect_quantiles_match(std::size_t n, double decades) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exponent(-3.0, -3.0 + decades);
  std::vector<double> values;
  LogHistogram histogram;
  for (std::size_t i = 0; i < n; ++i) {
    values.push_back(std::pow(10.0, exponent(rng)));
    histogram.add(values.back());
  }
  for (const double q : {0.0, 0.1, 0.5, 0.9, 0.95, 0.99, 1.0}) {
    const double exact = exact_quantile(values, q);
    EXPECT_NEAR(histogram.quantile(q), exact, 5e-4 * exact) << "n=" << n << " q=" << q;
  }
  EXPECT_EQ(histogram.count(), static_cast<std::int64_t>(n));
}

TEST(LogHistogram, PercentilesAreWithinHalfABucketOfTheExactOnesSmallOrDense) {
  expect_quantiles_match(200, 2.0);     // a few hundred buckets in use: the hash table
  expect_quantiles_match(200000, 6.0);  // ~13,800 buckets in use: the dense counts
}

TEST(LogHistogram, ZerosCountBelowEveryBucket) {
  LogHistogram histogram;
  for (int i = 0; i < 90; ++i) histogram.add(0.0);
  for (int i = 0; i < 10; ++i) histogram.add(2.0);
  EXPECT_EQ(histogram.quantile(0.9), 0.0);
  EXPECT_NEAR(histogram.quantile(0.91), 2.0, 1e-3);
  const auto d = histogram.summary();
  EXPECT_DOUBLE_EQ(d.mean, 0.2);
  EXPECT_EQ(d.max, 2.0);
}

TEST(LogHistogram, MemoryIsSizedToTheBucketsInUse) {
  LogHistogram empty;
  EXPECT_EQ(empty.bucket_bytes(), 0U);
  LogHistogram narrow;  // 100,000 values within 5 %: about 50 buckets
  for (int i = 0; i < 100000; ++i) narrow.add(0.1 * (1.0 + 0.05 * (i % 1000) / 1000.0));
  EXPECT_LE(narrow.bucket_bytes(), 1024U);
  LogHistogram few;  // 100 values anywhere: at most 100 buckets, a 256-slot table
  for (int i = 0; i < 100; ++i) few.add(std::pow(10.0, -4.0 + 0.08 * i));
  (void)few.quantile(0.5);  // the sorted view a summary builds counts too
  EXPECT_LE(few.bucket_bytes(), 3U * 1024U);
  LogHistogram wide;  // every bucket: dense, 29,962 counts of 4 bytes
  for (int i = 0; i < 200000; ++i) wide.add(1e-6 * std::pow(1.001, i % 29962 + 0.5));
  EXPECT_EQ(wide.bucket_bytes(), 29962U * 4U);
}

}  // namespace
}  // namespace slicewise::sim
