// Edit distance and did-you-mean.
#include "core/spell.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <numeric>
#include <utility>

namespace slicewise {

int edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the optimal-string-alignment table: two back (for a transposition), one back, this.
  std::vector<int> before(b.size() + 1, 0);
  std::vector<int> previous(b.size() + 1);
  std::vector<int> row(b.size() + 1);
  std::iota(previous.begin(), previous.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
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

namespace {

/// More ids than this from one rule of suggestions() narrow nothing ("NVIDIA" begins every GPU's name).
constexpr std::size_t kMaxSuggestions = 5;
/// Longer words get no suggestion: no name of the catalogs or a scenario is near this long.
constexpr std::size_t kMaxSuggestedWordBytes = 256;

/// `name` as suggestions() compares it: lower case, without '-', '_' and spaces ("H100 SXM" -> "h100sxm").
std::string folded(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (c == '-' || c == '_' || c == ' ') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

std::vector<std::string> suggestions(std::string_view word, const std::vector<KnownName>& known) {
  // A word this long is no one's typo of a name (a 50 MB header is not worth an edit distance).
  if (word.size() > kMaxSuggestedWordBytes) return {};
  std::vector<std::string> ids;
  ids.reserve(known.size());
  for (const auto& name : known) ids.push_back(name.id);
  const std::string key = folded(word);
  if (!key.empty()) {  // an empty key begins every name
    const auto is = [&](const std::string& name) { return folded(name) == key; };
    const auto begins = [&](const std::string& name) { return folded(name).starts_with(key); };
    const std::function<bool(const KnownName&)> rules[] = {
        [&](const KnownName& k) { return is(k.id) || std::any_of(k.aliases.begin(), k.aliases.end(), is); },
        [&](const KnownName& k) { return begins(k.id); },
        [&](const KnownName& k) { return std::any_of(k.aliases.begin(), k.aliases.end(), begins); },
    };
    for (const auto& rule : rules) {
      std::vector<std::string> found;
      for (const auto& name : known) {
        if (rule(name) && std::find(found.begin(), found.end(), name.id) == found.end()) found.push_back(name.id);
      }
      if (!found.empty() && found.size() <= kMaxSuggestions) return found;
    }
  }
  if (auto best = did_you_mean(word, ids)) return {*best};
  return {};
}

std::string suggestion_suffix(const std::vector<std::string>& suggested) {
  if (suggested.empty()) return "";
  std::string out = " (did you mean ";
  for (std::size_t i = 0; i < suggested.size(); ++i) {
    if (i > 0) out += i + 1 == suggested.size() ? " or " : ", ";
    out += "\"" + suggested[i] + "\"";
  }
  return out + "?)";
}

std::string did_you_mean_suffix(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<KnownName> known;
  known.reserve(candidates.size());
  for (const auto& candidate : candidates) known.push_back({candidate, {}});
  return suggestion_suffix(suggestions(word, known));
}

std::string unknown_choice(std::string_view value, const std::vector<std::string>& allowed) {
  return "unknown " + quoted_excerpt(value) + "; expected " + join(allowed, "|") + did_you_mean_suffix(value, allowed);
}

namespace {

/// The code point of the UTF-8 sequence at the start of `text` and its length in bytes; a length of
/// 0 when it is not a valid sequence (see invalid_utf8_at).
std::pair<char32_t, std::size_t> decode_utf8(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  char32_t point = 0;
  char32_t least = 0;
  if ((lead & 0xe0) == 0xc0) {
    length = 2, point = lead & 0x1f, least = 0x80;
  } else if ((lead & 0xf0) == 0xe0) {
    length = 3, point = lead & 0x0f, least = 0x800;
  } else if ((lead & 0xf8) == 0xf0) {
    length = 4, point = lead & 0x07, least = 0x10000;
  } else {
    return {0, 0};  // a continuation byte, or 0xf8..0xff
  }
  if (text.size() < length) return {0, 0};
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return {0, 0};
    point = (point << 6) | (byte(i) & 0x3f);
  }
  if (point < least || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return {0, 0};
  return {point, length};
}

}  // namespace

namespace {

constexpr char kHex[] = "0123456789abcdef";

bool is_noncharacter(char32_t point) { return (point >= 0xfdd0 && point <= 0xfdef) || (point & 0xfffe) == 0xfffe; }

/// "\\u0085", "\\u10ffff": a code point as an escape, 4 hex digits or 6 beyond U+FFFF.
void append_code_point_escape(char32_t point, std::string& out) {
  out += "\\u";
  for (int shift = point > 0xffff ? 20 : 12; shift >= 0; shift -= 4) out += kHex[(point >> shift) & 15];
}

/// Appends the character at the start of `text` as excerpt() shows it; returns its bytes.
std::size_t append_excerpt_character(std::string_view text, std::string& out) {
  const auto c = static_cast<unsigned char>(text[0]);
  // A C1 control (U+009B is a terminal's CSI) or U+2028/U+2029, as \u0085.
  if (const std::size_t n = line_break_at(text); n > 1) {
    const auto second = static_cast<unsigned char>(text[1]);
    append_code_point_escape(n == 2 ? second : 0x2000u + static_cast<unsigned char>(text[2]) - 0x80u, out);
    return n;
  }
  switch (c) {
    case '\n': out += "\\n"; return 1;
    case '\r': out += "\\r"; return 1;
    case '\t': out += "\\t"; return 1;
    case '"': out += "\\\""; return 1;
    case '\\': out += "\\\\"; return 1;
    default: break;
  }
  if (c >= 0x20 && c < 0x7f) {
    out += static_cast<char>(c);
    return 1;
  }
  const auto [point, length] = c < 0x80 ? std::pair<char32_t, std::size_t>{c, 0} : decode_utf8(text);
  if (length == 0) {
    // A control character, or a byte that is not UTF-8 (a Latin-1 file): the byte, not a
    // replacement character.
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
    return 1;
  }
  if (is_noncharacter(point)) {
    append_code_point_escape(point, out);  // which no output should carry
  } else {
    out.append(text.substr(0, length));
  }
  return length;
}

}  // namespace

std::size_t utf8_cut(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
  return end;
}

std::string excerpt(std::string_view text, std::size_t max_chars) {
  std::string out;
  const bool cut = text.size() > max_chars;
  const std::string_view shown = text.substr(0, utf8_cut(text, max_chars));
  for (std::size_t i = 0; i < shown.size();) i += append_excerpt_character(shown.substr(i), out);
  return cut ? out + "..." : out;
}

std::string printable(std::string_view text, std::size_t max_bytes) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size() && out.size() < max_bytes) {
    if (text[i] == '"' || text[i] == '\\') {
      out += text[i++];
    } else {
      i += append_excerpt_character(text.substr(i), out);
    }
  }
  if (i < text.size()) out = out.substr(0, utf8_cut(out, max_bytes)) + "...";
  return out;
}

std::string quoted_excerpt(std::string_view text, std::size_t max_chars) {
  return "\"" + excerpt(text, max_chars) + "\"";
}

std::size_t line_break_at(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  if (byte(0) < 0x20 || byte(0) == 0x7f) return 1;
  if (byte(0) == 0xc2 && text.size() >= 2 && byte(1) >= 0x80 && byte(1) <= 0x9f) return 2;
  if (byte(0) == 0xe2 && text.size() >= 3 && byte(1) == 0x80 && (byte(2) == 0xa8 || byte(2) == 0xa9)) return 3;
  return 0;
}

bool has_line_break(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (line_break_at(text.substr(i)) > 0) return true;
  }
  return false;
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (const std::size_t n = line_break_at(text.substr(i)); n > 0) {
      out += ' ';
      i += n;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::optional<std::size_t> invalid_utf8_at(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto [point, length] = decode_utf8(text.substr(i));
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

bool has_noncharacter(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto [point, length] = decode_utf8(text.substr(i));
    if (is_noncharacter(point)) return true;
    i += std::max<std::size_t>(length, 1);
  }
  return false;
}

std::string plural(long n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
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
