// Parsing trace fields: numbers with std::from_chars (exact, locale-free) and calendar timestamps.
// Every failure names the file, line and column: `trace.csv:1042: duration_s: expected a number,
// got "abc"`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace slicewise::traces {

/// Where a field came from, for error messages.
struct FieldContext {
  const std::string* file = nullptr;
  long line = 0;
};

/// A finite decimal number (integers, fractions, exponents); surrounding spaces are ignored.
double parse_number(std::string_view text, std::string_view column, const FieldContext& at);
/// As parse_number, and >= 0.
double parse_non_negative(std::string_view text, std::string_view column, const FieldContext& at);
/// A whole number >= 0 (a float that is integral, such as "1.0", is accepted).
std::int64_t parse_count(std::string_view text, std::string_view column, const FieldContext& at);
/// True for an empty field or one of the missing-value markers the public traces use (None, NULL,
/// NA, NaN, nan).
bool is_missing(std::string_view text);

/// Nanoseconds since 1970-01-01 00:00 UTC of `YYYY-MM-DD HH:MM:SS` with an optional fraction of 1
/// to 9 digits, `T` or a space between date and time, and an optional `Z` or `±HH:MM` offset (no
/// offset = UTC). nullopt when the text is not such a timestamp.
std::optional<std::int64_t> parse_datetime_ns(std::string_view text);
/// As parse_datetime_ns, throwing a TraceError that shows the accepted forms.
std::int64_t parse_datetime_field(std::string_view text, std::string_view column, const FieldContext& at);

/// `s` with leading and trailing spaces and tabs removed.
std::string_view trim(std::string_view s);

}  // namespace slicewise::traces
