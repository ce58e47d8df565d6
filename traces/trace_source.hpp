// Replays a trace file as one tenant's requests: the rows a tenant takes (split by a column), a
// time window, time compression, a load multiplier and sampling, all seeded.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "traces/request_source.hpp"
#include "traces/trace_reader.hpp"

namespace slicewise::traces {

/// The most copies of one row a trace replay makes (TraceMapping::multiplier <= this).
inline constexpr double kMaxTraceMultiplier = 10000;

/// How the rows of a trace become a tenant's arrivals. Trace time t is measured from the first
/// row with a time (t = 0), so every tenant split from one file sees the same clock.
struct TraceMapping {
  double window_start_s = 0.0;         ///< replay rows with t >= this (trace time)
  std::optional<double> window_end_s;  ///< ... and t < this; none = to the end
  double time_compression = 1.0;       ///< > 0; 2 replays an hour of trace in 30 simulated minutes
  double multiplier = 1.0;   ///< in (0, kMaxTraceMultiplier]; arrivals per row: floor(m) copies plus one more with
                             ///< probability frac(m); copies spread over the gap to the next row
  double sample_frac = 1.0;  ///< (0, 1]; each row is kept with this probability
  /// Rows kept at one simulated time (Mooncake's ~3 s buckets) are spread evenly over the gap to
  /// the next kept time: n rows at t, next time t' -> t + k (t' - t) / n, k = 0..n-1. The last
  /// group (no next time) stays where it is.
  bool spread_ties = false;
  std::vector<std::string> select;  ///< keep rows whose key is one of these; empty = all rows
  double horizon_s = 0.0;           ///< stop at this simulated time (> 0)
  double solo_latency_s = 0.0;      ///< > 0: a row's duration_s becomes work_scale = duration / solo
  /// A row's GPU share g (gpu_frac > 0) becomes its SM demand: demand_scale = g / sm_occupancy_frac,
  /// so the request uses g of the reference GPU's SMs at full speed. Rows without a share keep 1.
  bool gpu_frac_demand = false;
  double sm_occupancy_frac = 1.0;  ///< the tenant's SM demand per request, (0, 1]
  std::uint64_t seed = 1;
};

/// A RequestSource over a TraceReader. Simulated time = (t - window_start_s) / time_compression.
/// Rows without a time are passed over (counted). Streaming (constant memory) for formats stored in
/// arrival order; a row earlier than the one before it is then a TraceError. Formats whose files
/// need not be sorted (formats_sorted) are read whole and stable-sorted first.
class TraceSource final : public RequestSource {
 public:
  TraceSource(std::unique_ptr<TraceReader> reader, TraceMapping mapping);
  bool next(RequestRecord& out) override;

  std::int64_t num_emitted() const { return num_emitted_; }
  std::int64_t num_without_time() const { return num_without_time_; }
  const TraceReader& reader() const { return *reader_; }

 private:
  bool next_row(TraceRow& row);                          // the next timed row in arrival order
  bool next_kept(RequestRecord& record, int& copies);    // the next row this tenant replays
  bool next_spread(RequestRecord& record, int& copies);  // next_kept, ties spread when asked

  std::unique_ptr<TraceReader> reader_;
  TraceMapping mapping_;
  std::mt19937_64 rng_;
  std::vector<TraceRow> sorted_;  // unsorted formats: every timed row, sorted
  std::size_t sorted_next_ = 0;
  bool sorted_loaded_ = false;
  std::optional<double> origin_s_;  // trace time 0 on the reader's clock
  double last_at_s_ = 0.0;
  long last_line_ = 0;
  bool done_ = false;
  // The row read last, whose extra copies wait for the next row's time to be spread.
  std::optional<RequestRecord> held_;
  int held_copies_ = 0;
  std::deque<RequestRecord> ready_;
  // spread_ties: the rows of the current time, and the first row of the next time once read.
  std::deque<std::pair<RequestRecord, int>> tie_group_;
  std::optional<std::pair<RequestRecord, int>> tie_next_;
  std::deque<std::pair<RequestRecord, int>> tie_ready_;
  std::int64_t num_emitted_ = 0;
  std::int64_t num_without_time_ = 0;
};

}  // namespace slicewise::traces
