// Parsing trace fields: numbers with std::from_chars (exact, locale-free) and calendar timestamps.
// Every failure names the file, line and column: `trace.csv:1042: duration_s: expected a number,
// got "abc"`.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace slicewise::traces {

/// Largest time a trace field may give, in seconds (about 31,700 years). Keeps every later
/// difference, sum and conversion to whole milliseconds or minutes finite and exact.
inline constexpr double kMaxTraceSeconds = 1e12;
/// Largest GPU count of one row (pod, task, job, node).
inline constexpr std::int64_t kMaxGpus = 1'000'000;
/// Largest token count of one request.
inline constexpr double kMaxTokens = 1e9;

/// Where a field came from, for error messages.
struct FieldContext {
  const std::string* file = nullptr;
  long line = 0;
};

/// A finite decimal number (integers, fractions, exponents); surrounding spaces are ignored.
double parse_number(std::string_view text, std::string_view column, const FieldContext& at);
/// As parse_number, and >= 0.
double parse_non_negative(std::string_view text, std::string_view column, const FieldContext& at);
/// As parse_non_negative, and <= `max` ("must be <= 1e+09 (got 1e+300)").
double parse_non_negative(std::string_view text, std::string_view column, const FieldContext& at, double max);
/// A time or duration in seconds: >= 0 and <= kMaxTraceSeconds.
double parse_seconds(std::string_view text, std::string_view column, const FieldContext& at);
/// A whole number >= 0 (a float that is integral, such as "1.0", is accepted).
std::int64_t parse_count(std::string_view text, std::string_view column, const FieldContext& at);
/// As parse_count, and <= `max`.
std::int64_t parse_count(std::string_view text, std::string_view column, const FieldContext& at, std::int64_t max);
/// True for an empty field or one of the missing-value markers the public traces use (None, NULL,
/// NA, NaN, nan).
bool is_missing(std::string_view text);

/// Nanoseconds since 1970-01-01 00:00 UTC of `YYYY-MM-DD HH:MM:SS` with an optional fraction of 1
/// to 9 digits, `T` or a space between date and time, and an optional `Z` or `±HH:MM` offset (no
/// offset = UTC). nullopt when the text is not such a timestamp, or when it falls outside 1970-01-01
/// 00:00:00 UTC .. 2261-12-31 (the span where nanoseconds since 1970, and the difference of two of
/// them, fit in 64 bits).
std::optional<std::int64_t> parse_datetime_ns(std::string_view text);
/// As parse_datetime_ns, throwing a TraceError that shows the accepted forms.
std::int64_t parse_datetime_field(std::string_view text, std::string_view column, const FieldContext& at);

/// nlohmann's exception text without its "[json.exception.parse_error.101] parse error at " prefix:
/// "line 1, column 7: syntax error while parsing object - ...".
std::string json_problem(const std::exception& error);

/// `s` with leading and trailing spaces and tabs removed.
std::string_view trim(std::string_view s);

}  // namespace slicewise::traces
