// Field parsers shared by every trace reader.
#include "traces/fields.hpp"

#include <charconv>
#include <chrono>
#include <cmath>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "core/spell.hpp"

namespace slicewise::traces {

namespace {

[[noreturn]] void bad_field(std::string_view column, const FieldContext& at, const std::string& problem) {
  throw TraceError(at.file != nullptr ? *at.file : std::string(), at.line, std::string(column), problem);
}

std::string quoted(std::string_view text) { return quoted_excerpt(text); }

/// `width` digits at `pos` as an int, or -1.
int digits(std::string_view s, std::size_t pos, std::size_t width) {
  if (pos + width > s.size()) return -1;
  int value = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

}  // namespace

std::string json_problem(const std::exception& error) {
  std::string what = error.what();
  if (const auto bracket = what.find("] "); what.starts_with("[json.exception.") && bracket != std::string::npos) {
    what.erase(0, bracket + 2);
  }
  if (what.starts_with("parse error at ")) what.erase(0, 15);
  return what;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_missing(std::string_view text) {
  text = trim(text);
  return text.empty() || text == "None" || text == "NULL" || text == "NA" || text == "NaN" || text == "nan";
}

double parse_number(std::string_view text, std::string_view column, const FieldContext& at) {
  const std::string_view t = trim(text);
  if (t.empty()) bad_field(column, at, "expected a number, got an empty field");
  const char* first = t.data();
  if (*first == '+') ++first;  // from_chars takes no leading plus
  double value = 0.0;
  const auto [end, ec] = std::from_chars(first, t.data() + t.size(), value);
  if (ec != std::errc() || end != t.data() + t.size() || !std::isfinite(value)) {
    bad_field(column, at, "expected a number, got " + quoted(text));
  }
  return value;
}

double parse_non_negative(std::string_view text, std::string_view column, const FieldContext& at) {
  const double value = parse_number(text, column, at);
  if (value < 0.0) bad_field(column, at, "must be >= 0 (got " + std::string(trim(text)) + ")");
  return value;
}

double parse_non_negative(std::string_view text, std::string_view column, const FieldContext& at, double max) {
  const double value = parse_non_negative(text, column, at);
  if (value > max) {
    bad_field(column, at, "must be <= " + format_number(max) + " (got " + std::string(trim(text)) + ")");
  }
  return value;
}

double parse_seconds(std::string_view text, std::string_view column, const FieldContext& at) {
  return parse_non_negative(text, column, at, kMaxTraceSeconds);
}

std::int64_t parse_count(std::string_view text, std::string_view column, const FieldContext& at, std::int64_t max) {
  const std::int64_t value = parse_count(text, column, at);
  if (value > max)
    bad_field(column, at, "must be <= " + std::to_string(max) + " (got " + std::string(trim(text)) + ")");
  return value;
}

std::int64_t parse_count(std::string_view text, std::string_view column, const FieldContext& at) {
  const std::string_view t = trim(text);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec == std::errc() && end == t.data() + t.size() && !t.empty()) {
    if (value < 0) bad_field(column, at, "must be >= 0 (got " + std::string(t) + ")");
    return value;
  }
  const double d = parse_non_negative(text, column, at);
  if (d != std::floor(d) || d > 9e15) bad_field(column, at, "expected a whole number, got " + quoted(text));
  return static_cast<std::int64_t>(d);
}

namespace {

/// The fraction of a second at `pos` (".5" up to nine digits; none is 0) in nanoseconds, moving
/// `pos` past it; nullopt when malformed.
std::optional<std::int64_t> fraction_ns(std::string_view s, std::size_t& pos) {
  if (pos >= s.size() || s[pos] != '.') return 0;
  ++pos;
  std::int64_t fraction = 0;
  std::int64_t scale = 100'000'000;
  const std::size_t start = pos;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    if (pos - start >= 9) return std::nullopt;  // finer than a nanosecond
    fraction += (s[pos] - '0') * scale;
    scale /= 10;
    ++pos;
  }
  if (pos == start) return std::nullopt;
  return fraction;
}

/// The UTC offset that ends the timestamp at `pos` ("Z", "+HH:MM", "-HH:MM" or none), in seconds;
/// nullopt when malformed or followed by anything.
std::optional<std::int64_t> offset_seconds(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return 0;
  if (s[pos] == 'Z' && pos + 1 == s.size()) return 0;
  if ((s[pos] == '+' || s[pos] == '-') && pos + 6 == s.size() && s[pos + 3] == ':') {
    const std::int64_t oh = digits(s, pos + 1, 2);
    const std::int64_t om = digits(s, pos + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return std::nullopt;
    return (s[pos] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
  }
  return std::nullopt;
}

/// parse_datetime_ns without its range check; `out_of_range` is set for a well-formed timestamp
/// outside the years 1970 .. 2261 (or before 1970 once its offset is applied).
std::optional<std::int64_t> parse_datetime(std::string_view s, bool& out_of_range) {
  out_of_range = false;
  s = trim(s);
  // YYYY-MM-DD?HH:MM:SS
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  const int year = digits(s, 0, 4);
  const int month = digits(s, 5, 2);
  const int day = digits(s, 8, 2);
  const std::int64_t hour = digits(s, 11, 2);
  const std::int64_t minute = digits(s, 14, 2);
  const std::int64_t second = digits(s, 17, 2);
  if (year < 0 || month < 1 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 ||
      second > 60) {
    return std::nullopt;
  }
  const std::chrono::year_month_day ymd{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                        std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok()) return std::nullopt;
  std::size_t pos = 19;
  const auto fraction = fraction_ns(s, pos);
  if (!fraction) return std::nullopt;
  const auto offset = offset_seconds(s, pos);
  if (!offset) return std::nullopt;
  const std::int64_t offset_s = *offset;
  const std::int64_t days = std::chrono::sys_days{ymd}.time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_s;
  // Before 1970 (also once the offset is applied) or after 2261, nanoseconds since 1970 or the
  // difference of two timestamps would not fit in 64 bits.
  if (year > 2261 || seconds < 0) {
    out_of_range = true;
    return std::nullopt;
  }
  return seconds * 1'000'000'000 + *fraction;
}

}  // namespace

std::optional<std::int64_t> parse_datetime_ns(std::string_view text) {
  bool out_of_range = false;
  return parse_datetime(text, out_of_range);
}

std::int64_t parse_datetime_field(std::string_view text, std::string_view column, const FieldContext& at) {
  bool out_of_range = false;
  const auto ns = parse_datetime(text, out_of_range);
  if (out_of_range) {
    bad_field(column, at,
              "timestamp out of range: expected 1970-01-01 00:00:00 UTC to 2261-12-31, got " + quoted(text));
  }
  if (!ns) {
    bad_field(column, at, "expected a timestamp YYYY-MM-DD HH:MM:SS[.fraction][Z|+HH:MM], got " + quoted(text));
  }
  return *ns;
}

}  // namespace slicewise::traces
