// CSV splitting: one pass, no allocation for unquoted lines.
#include "traces/csv.hpp"

#include <optional>

#include "core/error.hpp"
#include "core/spell.hpp"

namespace slicewise::traces {

namespace {

/// The quoted field whose opening quote is at `pos`: up to the closing quote, "" standing for one
/// quote (unescaped into `scratch`). Moves `pos` past the closing quote; nullopt when there is none.
std::optional<std::string_view> quoted_field(std::string_view line, std::size_t& pos, std::string& scratch) {
  std::size_t start = pos + 1;
  std::size_t close = line.find('"', start);
  bool escaped = false;
  while (close != std::string_view::npos && close + 1 < line.size() && line[close + 1] == '"') {
    escaped = true;
    close = line.find('"', close + 2);
  }
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view raw = line.substr(start, close - start);
  if (escaped) {
    // Views into scratch stay valid: reserve the line's size up front so it never reallocates.
    if (scratch.capacity() < line.size()) scratch.reserve(line.size());
    const std::size_t from = scratch.size();
    for (std::size_t i = 0; i < raw.size(); ++i) {
      scratch.push_back(raw[i]);
      if (raw[i] == '"') ++i;
    }
    raw = std::string_view(scratch).substr(from);
  }
  pos = close + 1;
  return raw;
}

}  // namespace

bool split_csv(std::string_view line, std::vector<std::string_view>& fields, std::string& scratch) {
  fields.clear();
  scratch.clear();
  std::size_t pos = 0;
  while (true) {
    if (pos < line.size() && line[pos] == '"') {
      const auto field = quoted_field(line, pos, scratch);
      if (!field) return false;
      fields.push_back(*field);
      if (pos == line.size()) return true;
      if (line[pos] != ',') return false;  // text after the closing quote
      ++pos;
      continue;
    }
    const std::size_t comma = line.find(',', pos);
    if (comma == std::string_view::npos) {
      fields.push_back(line.substr(pos));
      return true;
    }
    fields.push_back(line.substr(pos, comma - pos));
    pos = comma + 1;
  }
}

int CsvHeader::find(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

int CsvHeader::require(std::string_view name, const std::string& file, long line) const {
  const int at = find(name);
  if (at < 0) {
    throw TraceError(file, line, "",
                     "missing column \"" + std::string(name) + "\" (the header has: " + excerpt(joined()) + ")");
  }
  return at;
}

std::string CsvHeader::joined() const {
  std::string out;
  for (const auto& n : names_) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

}  // namespace slicewise::traces
