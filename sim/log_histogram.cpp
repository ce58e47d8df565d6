// Log-bucketed histogram: a hash table of the buckets in use, dense once that is no smaller.
#include "sim/log_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace slicewise::sim {

namespace {
constexpr std::size_t kNumBuckets = 29962;  // log(1e13) / log(1.001): 1e-6 s .. 1e7 s
constexpr std::size_t kFirstTableSlots = 16;
/// Sparse while the table (8 bytes a slot, at most half full) is smaller than the dense counts.
constexpr std::size_t kMaxTableSlots = kNumBuckets / 2;

std::size_t slot_of(std::uint32_t bucket, std::size_t mask) {
  return (static_cast<std::size_t>(bucket) * 0x9E3779B97F4A7C15ULL >> 32) & mask;
}
}  // namespace

LogHistogram::LogHistogram() : log_growth_(std::log(kGrowth)) {}

std::size_t LogHistogram::bucket_of(double value) const {
  if (value <= kMin) return 0;
  const double index = std::log(value / kMin) / log_growth_;
  return std::min(kNumBuckets - 1, static_cast<std::size_t>(index));
}

double LogHistogram::value_of(std::size_t bucket) const {
  return kMin * std::exp((static_cast<double>(bucket) + 0.5) * log_growth_);
}

void LogHistogram::add(double value) {
  ++count_;
  sum_ += value;
  max_ = std::max(max_, value);
  if (value <= 0.0) {
    ++zeros_;
    return;
  }
  const auto bucket = static_cast<std::uint32_t>(bucket_of(value));
  if (!dense_.empty()) {
    ++dense_[bucket];
  } else {
    add_sparse(bucket);
  }
}

void LogHistogram::add_sparse(std::uint32_t bucket) {
  sorted_valid_ = false;
  if (table_.empty()) table_.assign(kFirstTableSlots, {0, 0});
  const std::size_t mask = table_.size() - 1;
  for (std::size_t slot = slot_of(bucket, mask);; slot = (slot + 1) & mask) {
    auto& entry = table_[slot];
    if (entry.first == bucket + 1) {
      ++entry.second;
      return;
    }
    if (entry.first == 0) {
      entry = {bucket + 1, 1};
      if (++used_ * 2 > table_.size()) grow_table();
      return;
    }
  }
}

void LogHistogram::grow_table() {
  if (table_.size() * 2 > kMaxTableSlots) {
    make_dense();
    return;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> old(table_.size() * 2, {0, 0});
  old.swap(table_);
  const std::size_t mask = table_.size() - 1;
  for (const auto& entry : old) {
    if (entry.first == 0) continue;
    std::size_t slot = slot_of(entry.first - 1, mask);
    while (table_[slot].first != 0) slot = (slot + 1) & mask;
    table_[slot] = entry;
  }
}

void LogHistogram::make_dense() {
  dense_.assign(kNumBuckets, 0);
  for (const auto& entry : table_) {
    if (entry.first != 0) dense_[entry.first - 1] = entry.second;
  }
  decltype(table_)().swap(table_);  // give the memory back, not only the contents
  decltype(sorted_)().swap(sorted_);
  used_ = 0;
}

const std::vector<std::pair<std::uint32_t, std::uint32_t>>& LogHistogram::sorted() const {
  if (!sorted_valid_) {
    sorted_.clear();
    for (const auto& entry : table_) {
      if (entry.first != 0) sorted_.emplace_back(entry.first - 1, entry.second);
    }
    std::sort(sorted_.begin(), sorted_.end());
    sorted_valid_ = true;
  }
  return sorted_;
}

double LogHistogram::quantile(double q) const {
  if (count_ == 0) return 0.0;
  // Nearest-rank definition: the smallest value with at least q * count values at or below it.
  const auto rank = static_cast<std::int64_t>(std::max(1.0, std::ceil(q * static_cast<double>(count_))));
  auto seen = static_cast<std::int64_t>(zeros_);
  if (seen >= rank) return 0.0;
  if (!dense_.empty()) {
    for (std::size_t b = 0; b < dense_.size(); ++b) {
      seen += dense_[b];
      if (seen >= rank) return std::min(value_of(b), max_);
    }
    return max_;
  }
  for (const auto& [bucket, count] : sorted()) {
    seen += count;
    if (seen >= rank) return std::min(value_of(bucket), max_);
  }
  return max_;
}

scenario::Distribution LogHistogram::summary() const {
  scenario::Distribution d;
  d.count = count_;
  if (count_ == 0) return d;
  d.mean = sum_ / static_cast<double>(count_);
  d.p50 = quantile(0.50);
  d.p90 = quantile(0.90);
  d.p95 = quantile(0.95);
  d.p99 = quantile(0.99);
  d.max = max_;
  return d;
}

std::size_t LogHistogram::bucket_bytes() const {
  return dense_.capacity() * sizeof(std::uint32_t) + (table_.capacity() + sorted_.capacity()) * sizeof(table_[0]);
}

}  // namespace slicewise::sim
