// Log-bucketed histogram.
#include "sim/log_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace slicewise::sim {

namespace {
constexpr std::size_t kNumBuckets = 29962;  // log(1e13) / log(1.001): 1e-6 s .. 1e7 s
}

LogHistogram::LogHistogram() : buckets_(kNumBuckets, 0), log_growth_(std::log(kGrowth)) {}

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
  ++buckets_[bucket_of(value)];
}

double LogHistogram::quantile(double q) const {
  if (count_ == 0) return 0.0;
  // Nearest-rank definition: the smallest value with at least q * count values at or below it.
  const auto rank = static_cast<std::int64_t>(std::max(1.0, std::ceil(q * static_cast<double>(count_))));
  std::int64_t seen = static_cast<std::int64_t>(zeros_);
  if (seen >= rank) return 0.0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (seen >= rank) return std::min(value_of(b), max_);
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

}  // namespace slicewise::sim
