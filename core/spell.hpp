// "Did you mean" suggestions and small string helpers for error messages (after ninja's
// SpellcheckString).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slicewise {

/// Levenshtein distance between two strings (byte-wise).
int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word`, if it is close enough to be a plausible typo: distance at
/// most max(1, |word| / 3) and at most 3; ties go to the earlier candidate.
std::optional<std::string> did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean \"x\"?)" or "" when nothing is close.
std::string did_you_mean_suffix(std::string_view word, const std::vector<std::string>& candidates);

/// `unknown "X"; expected a|b|c (did you mean "b"?)`: the message for a value outside a fixed set.
std::string unknown_choice(std::string_view value, const std::vector<std::string>& allowed);

/// Text from an input file as a message may quote it: at most `max_chars` bytes (then "..."), every
/// control character, backslash and quote escaped (\x1b, \n, \", \\), so that a message never
/// carries a whole file's line nor raw terminal escapes. Without quotes around it.
std::string excerpt(std::string_view text, std::size_t max_chars = 80);

/// excerpt() in double quotes: "\"root:x:0...\"".
std::string quoted_excerpt(std::string_view text, std::size_t max_chars = 80);

/// Joins with a separator: join({"a","b"}, "|") == "a|b".
std::string join(const std::vector<std::string>& parts, std::string_view separator);

}  // namespace slicewise
