// One problem found in user input, located by file, optional line/column and JSON pointer.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace slicewise {

/// A located problem. format() gives `<file>[:line[:col]]: [<pointer>: ]<message>`.
struct Diagnostic {
  std::string file;     ///< path as the user gave it; may be empty for in-memory documents
  int line = 0;         ///< 1-based; 0 when unknown
  int column = 0;       ///< 1-based; 0 when unknown
  std::string pointer;  ///< RFC 6901 JSON pointer ("/tenants/0/name") or a CSV column name
  std::string message;  ///< what is wrong, "(got X; expected Y)" where that helps

  std::string format() const;
  bool operator==(const Diagnostic&) const = default;
};

using Diagnostics = std::vector<Diagnostic>;

/// Messages shown per file; the rest are counted ("FILE: and N more problems").
inline constexpr std::size_t kMaxMessagesPerFile = 100;

/// All diagnostics formatted, one per line, no trailing newline; at most kMaxMessagesPerFile per
/// file, then one line per file with how many more there are.
std::string format_all(const Diagnostics& diagnostics);

}  // namespace slicewise
