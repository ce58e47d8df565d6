// Reading and writing slicewise's native trace CSV.
#include "traces/native_trace.hpp"

#include <algorithm>
#include <charconv>

#include "traces/csv_trace_reader.hpp"
#include "traces/readers.hpp"

namespace slicewise::traces {

namespace {

class NativeReader final : public CsvTraceReader {
 public:
  using CsvTraceReader::CsvTraceReader;

 private:
  void bind(const CsvHeader& h) override {
    arrived_ = require(h, "arrived_at_s");
    prompt_ = h.find("prompt_tokens");
    output_ = h.find("output_tokens");
    duration_ = h.find("duration_s");
    gpu_frac_ = h.find("gpu_frac");
    num_gpus_ = h.find("num_gpus");
    failed_ = h.find("failed");
  }
  static bool given(const std::vector<std::string_view>& f, int index) {
    return index >= 0 && !trim(f[static_cast<std::size_t>(index)]).empty();
  }
  void parse(const std::vector<std::string_view>& f, TraceRow& row, const FieldContext& at) override {
    auto field = [&](int index) { return f[static_cast<std::size_t>(index)]; };
    row.at_s = parse_seconds(f[arrived_], "arrived_at_s", at);
    if (given(f, prompt_)) row.prompt_tokens = parse_non_negative(field(prompt_), "prompt_tokens", at, kMaxTokens);
    if (given(f, output_)) row.output_tokens = parse_non_negative(field(output_), "output_tokens", at, kMaxTokens);
    if (given(f, duration_)) row.duration_s = parse_seconds(field(duration_), "duration_s", at);
    if (given(f, gpu_frac_)) {
      row.gpu_frac = parse_non_negative(field(gpu_frac_), "gpu_frac", at);
      if (row.gpu_frac > 1.0) {
        throw TraceError(*at.file, at.line, "gpu_frac",
                         "must be in [0, 1] (got " + std::string(trim(field(gpu_frac_))) + ")");
      }
    }
    if (given(f, num_gpus_)) row.num_gpus = static_cast<int>(parse_count(field(num_gpus_), "num_gpus", at, kMaxGpus));
    if (given(f, failed_)) {
      const auto v = trim(field(failed_));
      if (v != "0" && v != "1")
        throw TraceError(*at.file, at.line, "failed", "expected 0 or 1, got \"" + std::string(v) + "\"");
      row.failed = v == "1";
    }
  }
  std::size_t arrived_ = 0;
  int prompt_ = -1, output_ = -1, duration_ = -1, gpu_frac_ = -1, num_gpus_ = -1, failed_ = -1;
};

void put(std::ostream& out, double value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.write(buffer, end - buffer);
}

void write_row(std::ostream& out, const TraceRow& row, double origin_s, bool with_key) {
  put(out, row.at_s - origin_s);
  out << ',';
  put(out, row.prompt_tokens);
  out << ',';
  put(out, row.output_tokens);
  out << ',';
  if (row.duration_s >= 0.0) put(out, row.duration_s);
  out << ',';
  put(out, row.gpu_frac);
  out << ',' << row.num_gpus << ',' << (row.failed ? 1 : 0);
  if (with_key) {
    const bool quote = row.key.find_first_of(",\"") != std::string::npos;
    if (!quote) {
      out << ',' << row.key;
    } else {
      out << ",\"";
      for (char c : row.key) out << (c == '"' ? "\"\"" : std::string(1, c));
      out << '"';
    }
  }
  out << '\n';
}

}  // namespace

std::unique_ptr<TraceReader> open_native(const std::string& path, const ReadOptions& options) {
  return open_csv<NativeReader>(path, TraceFormat::native, options);
}

std::int64_t write_native(TraceReader& reader, std::ostream& out, const std::string& key_column) {
  const bool with_key = !key_column.empty();
  for (const char* c : kNativeColumns) out << (c == kNativeColumns[0] ? "" : ",") << c;
  if (with_key) out << ',' << key_column;
  out << '\n';
  TraceRow row;
  std::int64_t written = 0;
  if (formats_sorted(reader.format())) {
    bool first = true;
    double origin = 0.0;
    double previous_at_s = 0.0;
    long previous_line = 0;
    while (reader.next(row)) {
      if (!row.has_time) continue;
      if (first) {
        origin = row.at_s;
      } else if (row.at_s < previous_at_s) {
        throw TraceError(reader.path(), row.line, "",
                         out_of_order_message(row.at_s - origin, previous_line, previous_at_s - origin));
      }
      first = false;
      previous_at_s = row.at_s;
      previous_line = row.line;
      write_row(out, row, origin, with_key);
      ++written;
    }
    return written;
  }
  std::vector<TraceRow> rows;
  while (reader.next(row)) {
    if (row.has_time) rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const TraceRow& a, const TraceRow& b) { return a.at_s < b.at_s; });
  for (const auto& r : rows) write_row(out, r, rows.front().at_s, with_key);
  return static_cast<std::int64_t>(rows.size());
}

}  // namespace slicewise::traces
