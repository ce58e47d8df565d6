// CsvTraceReader: the shared half of every CSV trace reader (csv_trace_reader.hpp).
#include "traces/csv_trace_reader.hpp"

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/spell.hpp"
#include "traces/csv.hpp"

namespace slicewise::traces {

void CsvTraceReader::start(std::optional<std::vector<std::string>> fixed_header) {
  if (fixed_header) {
    header_ = CsvHeader(std::move(*fixed_header));
    header_line_ = 0;
  } else {
    std::string_view line;
    if (!lines_.next(line)) throw TraceError(path_, 1, "", "empty file: expected a header line");
    if (!split_csv(line, fields_, scratch_)) {
      throw TraceError(path_, 1, "", "unclosed quote in the header (a quoted field must end on its own line)");
    }
    std::vector<std::string> names;
    for (auto f : fields_) names.emplace_back(trim(f));
    header_ = CsvHeader(std::move(names));
    header_line_ = 1;
  }
  const auto& names = header_.names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (!names[i].empty() && names[i] == names[j]) {
        throw TraceError(path_, header_line_, "",
                         "column \"" + names[i] + "\" appears twice (columns " + std::to_string(j + 1) + " and " +
                             std::to_string(i + 1) + "); each column may appear once");
      }
    }
  }
  min_fields_ = header_.size();
  bind(header_);
  if (!options_.key_column.empty()) {
    key_index_ = header_.find(options_.key_column);
    if (key_index_ < 0) {
      throw TraceError(path_, header_line_, "",
                       "no column \"" + options_.key_column +
                           "\" to split by (the header has: " + excerpt(header_.joined(), 400) + ")");
    }
  }
}

bool CsvTraceReader::read_row(TraceRow& row) {
  std::string_view line;
  do {
    if (!lines_.next(line)) return false;
  } while (trim(line).empty());
  const FieldContext at{&path_, lines_.line_number()};
  if (!split_csv(line, fields_, scratch_)) {
    throw TraceError(path_, at.line, "", "unclosed quote (a quoted field must end on its own line)");
  }
  if (fields_.size() < min_fields_ || fields_.size() > header_.size()) {
    throw TraceError(path_, at.line, "",
                     "expected " + std::to_string(header_.size()) + " fields (" + excerpt(header_.joined(), 400) +
                         "), got " + std::to_string(fields_.size()));
  }
  row = TraceRow{};
  row.line = at.line;
  parse(fields_, row, at);
  if (key_index_ >= 0) {
    const auto k = static_cast<std::size_t>(key_index_);
    row.key = k < fields_.size() ? std::string(trim(fields_[k])) : std::string();
  }
  return true;
}

std::vector<std::string> header_file_or(const std::string& path, const std::vector<std::string>& fallback) {
  std::filesystem::path p(path);
  // pai_task_table.csv(.gz) -> pai_task_table.header
  std::string stem = p.filename().string();
  for (const char* ext : {".gz", ".zst", ".csv"}) {
    const std::string e(ext);
    if (stem.size() > e.size() && stem.compare(stem.size() - e.size(), e.size(), e) == 0) {
      stem.resize(stem.size() - e.size());
    }
  }
  const auto header = p.parent_path() / (stem + ".header");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(header, ec)) return fallback;  // a FIFO would block the read
  std::ifstream in(header);
  std::string line;
  if (!in || !std::getline(in, line)) return fallback;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string_view> fields;
  std::string scratch;
  split_csv(line, fields, scratch);
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (auto f : fields) names.emplace_back(trim(f));
  return names;
}

}  // namespace slicewise::traces
