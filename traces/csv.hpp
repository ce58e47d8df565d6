// Splitting CSV lines into fields and finding columns by header name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace slicewise::traces {

/// Splits one CSV line (RFC 4180: fields may be "quoted", with "" for a quote inside) into
/// `fields`, reusing its storage. Quoted fields that contain "" are unescaped into `scratch`, which
/// must outlive the views. Returns false when a quote is not closed.
bool split_csv(std::string_view line, std::vector<std::string_view>& fields, std::string& scratch);

/// Column names of a CSV file and their positions.
class CsvHeader {
 public:
  CsvHeader() = default;
  explicit CsvHeader(std::vector<std::string> names) : names_(std::move(names)) {}
  /// Position of `name`, or -1.
  int find(std::string_view name) const;
  /// Position of `name`; throws TraceError(file, line, "", "missing column ...") listing the header.
  int require(std::string_view name, const std::string& file, long line) const;
  const std::vector<std::string>& names() const { return names_; }
  std::size_t size() const { return names_.size(); }
  /// "a, b, c"
  std::string joined() const;

 private:
  std::vector<std::string> names_;
};

}  // namespace slicewise::traces
