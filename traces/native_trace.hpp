// slicewise's own trace format (docs/trace-formats.md): a CSV with a header, `arrived_at_s`
// required, the other known columns optional, any further columns kept for splitting.
#pragma once

#include <ostream>

#include "traces/trace_reader.hpp"

namespace slicewise::traces {

/// The columns write_native writes, in order.
inline constexpr const char* kNativeColumns[] = {"arrived_at_s", "prompt_tokens", "output_tokens", "duration_s",
                                                 "gpu_frac",     "num_gpus",      "failed"};

/// Writes every row of `reader` (with a time) as native CSV, arrival times relative to the first
/// row, in arrival order: formats that need not be sorted are sorted first (stable, in memory).
/// A key column given to the reader is written as a last column of that name. Returns the number of
/// rows written.
std::int64_t write_native(TraceReader& reader, std::ostream& out, const std::string& key_column = "");

}  // namespace slicewise::traces
