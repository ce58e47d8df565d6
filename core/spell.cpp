// Edit distance and did-you-mean.
#include "core/spell.hpp"

#include <algorithm>
#include <numeric>

namespace slicewise {

int edit_distance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
    }
  }
  return row[b.size()];
}

std::optional<std::string> did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const int limit = std::min(3, std::max(1, static_cast<int>(word.size()) / 3));
  std::optional<std::string> best;
  int best_distance = limit + 1;
  for (const auto& candidate : candidates) {
    const int d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string did_you_mean_suffix(std::string_view word, const std::vector<std::string>& candidates) {
  auto best = did_you_mean(word, candidates);
  return best ? " (did you mean \"" + *best + "\"?)" : std::string();
}

std::string unknown_choice(std::string_view value, const std::vector<std::string>& allowed) {
  return "unknown \"" + std::string(value) + "\"; expected " + join(allowed, "|") + did_you_mean_suffix(value, allowed);
}

std::string excerpt(std::string_view text, std::size_t max_chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const bool cut = text.size() > max_chars;
  for (const char ch : text.substr(0, max_chars)) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  return cut ? out + "..." : out;
}

std::string quoted_excerpt(std::string_view text, std::size_t max_chars) {
  return "\"" + excerpt(text, max_chars) + "\"";
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

}  // namespace slicewise
