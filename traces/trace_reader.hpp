// Trace readers: one streaming reader per public format, behind one interface. A reader turns the
// rows of a file into TraceRows on the trace's own clock; TraceSource (trace_source.hpp) maps them
// onto a tenant's simulated time. docs/trace-formats.md lists the formats and their gotchas.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "traces/trace_format.hpp"

namespace slicewise::traces {

/// One row of a trace, in the units slicewise uses.
struct TraceRow {
  double at_s = 0.0;           ///< arrival (submission, creation) on the trace's clock, seconds
  double prompt_tokens = 0.0;  ///< LLM prompt tokens (0 for non-LLM rows)
  double output_tokens = 0.0;  ///< LLM output tokens
  double duration_s = -1.0;    ///< run time the trace records for the row; < 0 when it gives none
  double gpu_frac = 0.0;       ///< share of one GPU asked or used per GPU, [0, 1]; 0 when not given
  int num_gpus = 0;            ///< GPUs asked (pods, jobs, nodes); 0 when not given
  double memory_gib = 0.0;     ///< GPU memory used (PAI sensor), 0 when not given
  bool failed = false;         ///< the trace marks the request failed (kept, counted)
  bool has_time = true;        ///< false for rows without an arrival time (snapshot files,
                               ///< unknown start times): counted, never replayed
  bool complete = true;        ///< false when a measurement the format needs is missing
  std::string key;             ///< value of the split column (ReadOptions::key_column), else ""
  long line = 0;               ///< line of the file the row came from
  /// LLM: hashes of the prompt's blocks of prefix_block_tokens tokens, first block first (Mooncake's
  /// hash_ids): equal leading hashes mean an equal prefix, which a prefix cache can reuse.
  std::vector<std::uint64_t> prefix_hashes;
  double prefix_block_tokens = 0.0;  ///< tokens per hashed block; 0 when the row has no hashes
};

struct ReadOptions {
  BadRowPolicy on_bad_row = BadRowPolicy::fail;
  /// Column whose value goes into TraceRow::key (e.g. BurstGPT "Model", openb "qos"); "" = none.
  /// A column the file does not have is an error listing the columns it has.
  std::string key_column;
};

/// Reads one trace file row by row. Rows come in file order; formats_sorted(format()) says whether
/// that is arrival order.
class TraceReader {
 public:
  virtual ~TraceReader() = default;
  /// The next good row; false at the end. A bad row throws TraceError (`file:line: column:
  /// problem`) under BadRowPolicy::fail and is counted and passed over under skip.
  bool next(TraceRow& row);

  TraceFormat format() const { return format_; }
  const std::string& path() const { return path_; }
  /// True when the trace has calendar timestamps: at_s is then seconds after epoch_s().
  virtual bool absolute_time() const { return false; }
  /// Seconds since 1970-01-01 UTC at which at_s = 0: the first row's timestamp (0 when the trace
  /// has no calendar times). Rows keep full precision as offsets from it.
  double epoch_s() const { return static_cast<double>(epoch_ns_) / 1e9; }
  std::int64_t num_rows() const { return num_rows_; }
  std::int64_t num_bad_rows() const { return num_bad_rows_; }
  /// The first five bad-row messages.
  const std::vector<std::string>& bad_rows() const { return bad_rows_; }

 protected:
  TraceReader(std::string path, TraceFormat format, ReadOptions options)
      : path_(std::move(path)), format_(format), options_(std::move(options)) {}
  /// Reads one row into `row`; false at the end; throws TraceError for a bad row (after
  /// consuming it, so that reading can go on).
  virtual bool read_row(TraceRow& row) = 0;
  /// Seconds from the first timestamp seen (which becomes the epoch) to `ns` since 1970.
  double since_epoch_s(std::int64_t ns) {
    if (!epoch_set_) {
      epoch_ns_ = ns;
      epoch_set_ = true;
    }
    return static_cast<double>(ns - epoch_ns_) / 1e9;
  }
  /// Applies the bad-row policy to `error`: rethrows it under fail, counts it under skip.
  void bad_row(const TraceError& error);

  std::string path_;
  TraceFormat format_;
  ReadOptions options_;

 private:
  std::int64_t epoch_ns_ = 0;
  bool epoch_set_ = false;
  std::int64_t num_rows_ = 0;
  std::int64_t num_bad_rows_ = 0;
  std::vector<std::string> bad_rows_;
};

/// Why a row of a format read in file order (formats_sorted) cannot be replayed: "arrival goes back
/// in time (3.000000 s after the first row, line 3 was at 5.000000 s); this format must be in arrival
/// order". Times are seconds after the first row.
std::string out_of_order_message(double at_s, long previous_line, double previous_at_s);

/// Opens `path` in `format`, or in the format detect_format finds when `format` is nullopt.
/// Throws TraceError when the file cannot be read or its header does not fit the format.
std::unique_ptr<TraceReader> open_trace(const std::string& path, std::optional<TraceFormat> format,
                                        const ReadOptions& options = {});

}  // namespace slicewise::traces
