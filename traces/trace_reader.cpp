// TraceReader's bad-row policy (CsvTraceReader is csv_trace_reader.cpp's, open_trace open_trace.cpp's).
#include "traces/trace_reader.hpp"

#include "core/error.hpp"

namespace slicewise::traces {

bool TraceReader::next(TraceRow& row) {
  while (true) {
    try {
      if (!read_row(row)) return false;
      ++num_rows_;
      return true;
    } catch (const TraceError& e) {
      if (e.line() <= 0) throw;  // the file itself, not one row
      bad_row(e);
    }
  }
}

void TraceReader::bad_row(const TraceError& error) {
  if (options_.on_bad_row == BadRowPolicy::fail) throw error;
  ++num_bad_rows_;
  if (bad_rows_.size() < 5) bad_rows_.emplace_back(error.what());
}

std::string out_of_order_message(double at_s, long previous_line, double previous_at_s) {
  return "arrival goes back in time (" + std::to_string(at_s) + " s after the first row, line " +
         std::to_string(previous_line) + " was at " + std::to_string(previous_at_s) +
         " s); this format must be in arrival order";
}

}  // namespace slicewise::traces
