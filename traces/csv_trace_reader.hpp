// The shared half of every CSV trace reader: lines, header, field splitting, the key column and
// field-count checks. A format fills in bind() (find its columns) and parse() (one row).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/csv.hpp"
#include "traces/fields.hpp"
#include "traces/line_reader.hpp"
#include "traces/trace_reader.hpp"

namespace slicewise::traces {

class CsvTraceReader : public TraceReader {
 public:
  CsvTraceReader(std::string path, TraceFormat format, ReadOptions options)
      : TraceReader(path, format, std::move(options)), lines_(std::move(path)) {}
  /// Reads the header (or takes `fixed_header` for header-less files) and binds the columns.
  /// Called once, by open_trace, after construction.
  void start(std::optional<std::vector<std::string>> fixed_header = std::nullopt);

 protected:
  /// Finds the format's columns in `header` (require() throws for a missing one).
  virtual void bind(const CsvHeader& header) = 0;
  /// Fills `row` from the fields of one data line; throws TraceError for a bad field.
  virtual void parse(const std::vector<std::string_view>& fields, TraceRow& row, const FieldContext& at) = 0;
  bool read_row(TraceRow& row) override;

  /// Position of `name`, throwing when the header lacks it.
  int require(const CsvHeader& header, std::string_view name) const {
    return header.require(name, path_, header_line_);
  }
  /// Rows may have fewer fields than the header (e.g. a trailing empty column left out).
  std::size_t min_fields_ = 0;

 private:
  LineReader lines_;
  CsvHeader header_;
  long header_line_ = 1;
  int key_index_ = -1;
  std::vector<std::string_view> fields_;
  std::string scratch_;
};

/// Constructs a CSV reader of `format` and reads its header (or takes `header`).
template <class Reader>
std::unique_ptr<TraceReader> open_csv(const std::string& path, TraceFormat format, const ReadOptions& options,
                                      std::optional<std::vector<std::string>> header = std::nullopt) {
  auto reader = std::make_unique<Reader>(path, format, options);
  reader->start(std::move(header));
  return reader;
}

/// The column names of a header-less table from `<table>.header` beside it (the PAI release ships
/// them so), else `fallback`.
std::vector<std::string> header_file_or(const std::string& path, const std::vector<std::string>& fallback);

}  // namespace slicewise::traces
