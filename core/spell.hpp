// "Did you mean" suggestions and small string helpers for error messages (after ninja's
// SpellcheckString).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slicewise {

/// Edit distance between two strings (byte-wise): insertions, deletions, substitutions and
/// transpositions of two adjacent characters each count 1 (optimal string alignment), so that
/// "spto" is one edit from "spot".
int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` by edit distance alone, if it is close enough to be a plausible
/// typo: distance at most max(1, |word| / 3) and at most 3; ties go to the earlier candidate.
std::optional<std::string> did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

/// A name a user may mean, with the other names that stand for it (a GPU id and its aliases).
struct KnownName {
  std::string id;
  std::vector<std::string> aliases;
};

/// The ids a user most likely meant by `word`, in the order of `known`; empty when none is
/// plausible. Names are compared without case, '-', '_' and spaces ("h100 sxm" ~ "H100-SXM"), and
/// the first rule that finds one to five ids wins (a rule that fits more narrows nothing):
///   1. `word` is an id or an alias: "h100-sxm5-80gb" -> H100-SXM-80GB;
///   2. `word` begins ids: "H100" -> H100-SXM-80GB, H100-PCIe-80GB, H100-NVL-94GB (not H200);
///   3. `word` begins aliases: "H100-SXM5" -> H100-SXM-80GB (alias H100-SXM5-80GB);
///   4. did_you_mean() among the ids: "H1OO-SXM-80GB" -> H100-SXM-80GB.
std::vector<std::string> suggestions(std::string_view word, const std::vector<KnownName>& known);

/// " (did you mean \"x\"?)", " (did you mean \"x\" or \"y\"?)", " (did you mean \"x\", \"y\" or
/// \"z\"?)"; "" for none.
std::string suggestion_suffix(const std::vector<std::string>& suggested);

/// suggestion_suffix() of suggestions() among `candidates` (names without aliases), "" when nothing
/// is close.
std::string did_you_mean_suffix(std::string_view word, const std::vector<std::string>& candidates);

/// `unknown "X"; expected a|b|c (did you mean "b"?)`: the message for a value outside a fixed set.
std::string unknown_choice(std::string_view value, const std::vector<std::string>& allowed);

/// Text from an input file as a message may quote it: at most `max_chars` bytes (then "..."), every
/// control character, backslash and quote escaped (\x1b, \n, \", \\), a byte that is not UTF-8
/// as \xe9 (a Latin-1 file), and a noncharacter as \ufffe, so that a message never carries a whole
/// file's line, raw terminal escapes, nor text the XML outputs cannot hold. Without quotes.
std::string excerpt(std::string_view text, std::size_t max_chars = 80);

/// The most bytes of `text`, up to `max_bytes`, that end at a character's start: a cut there never
/// splits a UTF-8 sequence (its continuation bytes are 10xxxxxx). text.size() when it is shorter.
std::size_t utf8_cut(std::string_view text, std::size_t max_bytes);

/// Text a message carries whole but a terminal must not obey (a JSON pointer built from the input's
/// keys, a parser's own quote of the input): excerpt() without escaping quotes and backslashes, at
/// most `max_bytes` bytes (then "...").
std::string printable(std::string_view text, std::size_t max_bytes = 400);

/// excerpt() in double quotes: "\"root:x:0...\"".
std::string quoted_excerpt(std::string_view text, std::size_t max_chars = 80);

/// The length in bytes of the control character or line-breaking code point that starts `text`, 0
/// when it starts with neither: C0 controls and DEL (1 byte), C1 controls U+0080-U+009F (NEL U+0085
/// among them) and the line and paragraph separators U+2028/U+2029 (2 and 3 bytes of UTF-8). YAML
/// and JavaScript end a line at each of them, so none may reach a comment, a name or a script.
std::size_t line_break_at(std::string_view text);

/// True when `text` holds a control character or a line-breaking code point (line_break_at).
bool has_line_break(std::string_view text);

/// `text` on one line: each control character or line-breaking code point becomes one space.
std::string one_line(std::string_view text);

/// The byte offset of the first byte of `text` that does not start valid UTF-8: a stray
/// continuation byte, a truncated or overlong sequence, a surrogate (U+D800..U+DFFF) or a code
/// point beyond U+10FFFF; nullopt when all of it is valid.
std::optional<std::size_t> invalid_utf8_at(std::string_view text);

/// True when `text` holds a Unicode noncharacter: U+FDD0..U+FDEF, or U+FFFE or U+FFFF of any plane.
/// XML 1.0 cannot hold U+FFFE or U+FFFF, so a name with one would make the JUnit, SVG and XLSX
/// outputs malformed; none is meant for text to interchange. Bytes that are not valid UTF-8 are
/// skipped.
bool has_noncharacter(std::string_view text);

/// A count and its noun: plural(1, "GPU", "GPUs") == "1 GPU", plural(3, ...) == "3 GPUs".
std::string plural(long n, const std::string& one, const std::string& many);

/// Joins with a separator: join({"a","b"}, "|") == "a|b".
std::string join(const std::vector<std::string>& parts, std::string_view separator);

}  // namespace slicewise
