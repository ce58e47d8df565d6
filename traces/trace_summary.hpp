// What `slicewise trace inspect` reports about a trace: rows, time span, arrival rate per minute,
// token, duration and GPU percentiles, bad rows. Computed in one streaming pass.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "traces/trace_reader.hpp"

namespace slicewise::traces {

/// Exact quantiles of integer values (token counts, milliseconds) from their counts: memory grows
/// with the number of distinct values, not of rows.
class CountQuantiles {
 public:
  void add(std::int64_t value, std::int64_t times = 1);
  std::int64_t count() const { return count_; }
  /// Smallest value v with at least ceil(q × count) values <= v (q in [0, 1]); 0 when empty.
  std::int64_t quantile(double q) const;
  double mean() const { return count_ > 0 ? sum_ / static_cast<double>(count_) : 0.0; }
  std::int64_t max() const { return counts_.empty() ? 0 : counts_.rbegin()->first; }

 private:
  std::map<std::int64_t, std::int64_t> counts_;
  std::int64_t count_ = 0;
  double sum_ = 0.0;
};

struct TraceSummary {
  std::string path;
  std::string format;
  bool absolute_time = false;         ///< the trace has calendar times: epoch_s + first/last are UTC
  double epoch_s = 0.0;               ///< seconds since 1970 of trace time 0 (absolute_time only)
  std::int64_t num_rows = 0;          ///< good rows
  std::int64_t num_bad_rows = 0;      ///< skipped under --on-bad-row=skip
  std::vector<std::string> bad_rows;  ///< the first five messages
  std::int64_t num_without_time = 0;  ///< rows with no arrival time (not replayed)
  std::int64_t num_incomplete = 0;    ///< rows missing a measurement
  std::int64_t num_failed = 0;        ///< rows the trace marks failed (kept)
  std::int64_t num_out_of_order = 0;  ///< rows earlier than the row before them
  long first_out_of_order_line = 0;   ///< line of the first such row (0 when none)
  bool must_be_sorted = false;        ///< the format is read in file order (formats_sorted): replay and
                                      ///< convert stop at the first row out of order
  double first_at_s = 0.0;
  double last_at_s = 0.0;
  CountQuantiles per_minute;  ///< arrivals in each minute from the first to the last row
  CountQuantiles prompt_tokens, output_tokens;
  CountQuantiles duration_ms;                        ///< rows with a duration
  CountQuantiles gpu_milli;                          ///< per-GPU share × 1000, rows asking for GPUs
  CountQuantiles num_gpus;                           ///< rows asking for GPUs
  CountQuantiles memory_mib;                         ///< rows with a GPU memory figure
  std::int64_t total_gpus = 0;                       ///< Σ num_gpus (a node list: the fleet's GPUs)
  std::map<std::string, std::int64_t> rows_per_key;  ///< when a key column was given
  std::map<std::string, std::int64_t> gpus_per_key;
};

/// Reads `reader` to the end (its bad-row policy applies).
TraceSummary summarize(TraceReader& reader);

/// "2023-11-16 18:15:46.680" for seconds since 1970 (UTC), millisecond precision.
std::string format_utc(double seconds_since_epoch);

}  // namespace slicewise::traces
