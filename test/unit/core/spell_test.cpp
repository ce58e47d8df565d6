#include "core/spell.hpp"

#include <string>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise {
namespace {

TEST(Spell, EditDistanceCountsInsertionsDeletionsSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0);
  EXPECT_EQ(edit_distance("mps", "mps"), 0);
  EXPECT_EQ(edit_distance("mps2", "mps"), 1);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);
  EXPECT_EQ(edit_distance("", "abc"), 3);
  // A swap of two adjacent characters is one edit (Levenshtein alone counts two).
  EXPECT_EQ(edit_distance("spto", "spot"), 1);
  EXPECT_EQ(edit_distance("ab", "ba"), 1);
  EXPECT_EQ(edit_distance("ca", "abc"), 3);  // optimal string alignment: no edit of a swapped pair
}

TEST(Spell, SuggestsTheClosestPlausibleCandidate) {
  const std::vector<std::string> kinds = {"dedicated", "time_slicing", "mps", "mig"};
  EXPECT_EQ(did_you_mean("mps2", kinds), "mps");
  EXPECT_EQ(did_you_mean("time_slcing", kinds), "time_slicing");
  EXPECT_EQ(did_you_mean("kubernetes", kinds), std::nullopt);
}

TEST(Spell, SuffixIsEmptyWithoutSuggestion) {
  EXPECT_EQ(did_you_mean_suffix("memroy_gib", {"memory_gib", "name"}), " (did you mean \"memory_gib\"?)");
  EXPECT_EQ(did_you_mean_suffix("zzz", {"memory_gib"}), "");
}

/// Ids and aliases of part of data/gpus.json, in its order.
const std::vector<KnownName>& gpus() {
  static const std::vector<KnownName> known = {
      {"A30-24GB", {"A30"}},
      {"A100-40GB", {"A100-SXM4-40GB", "A100-40GB SXM"}},
      {"A100-80GB", {"A100-SXM4-80GB", "A100-80GB SXM"}},
      {"A100-PCIe-80GB", {"A100-80GB PCIe", "A100-PCIE-80GB"}},
      {"H100-SXM-80GB", {"H100-SXM5-80GB", "H100-80GB", "H100 SXM 80GB", "H100 80GB HBM3"}},
      {"H100-PCIe-80GB", {"H100 PCIe 80GB", "H100-PCIE-80GB"}},
      {"H100-NVL-94GB", {"H100 NVL 94GB", "H100-NVL"}},
      {"H200", {"H200-SXM-141GB", "H200-141GB"}},
      {"L40S", {"L40S-48GB"}},
      {"L4", {"L4-24GB"}},
  };
  return known;
}

using Ids = std::vector<std::string>;

TEST(Spell, APrefixComesBeforeEditDistance) {
  // Edit distance alone answered "H200" (one substitution away) and one A100 of three.
  EXPECT_EQ(suggestions("H100", gpus()), (Ids{"H100-SXM-80GB", "H100-PCIe-80GB", "H100-NVL-94GB"}));
  EXPECT_EQ(suggestions("A100", gpus()), (Ids{"A100-40GB", "A100-80GB", "A100-PCIe-80GB"}));
  // Without case, '-', '_' and spaces.
  EXPECT_EQ(suggestions("h100 sxm", gpus()), (Ids{"H100-SXM-80GB"}));
  EXPECT_EQ(suggestions("a100_pcie", gpus()), (Ids{"A100-PCIe-80GB"}));
  // An id's beginning comes before an alias's: "A100-80GB PCIe" begins with "A100-80G" too.
  EXPECT_EQ(suggestions("A100-80G", gpus()), (Ids{"A100-80GB"}));
  EXPECT_EQ(suggestions("L40", gpus()), (Ids{"L40S"}));
}

TEST(Spell, AnAliasNamesItsId) {
  EXPECT_EQ(suggestions("h200-141gb", gpus()), (Ids{"H200"}));
  EXPECT_EQ(suggestions("H100-SXM5", gpus()), (Ids{"H100-SXM-80GB"}));
  EXPECT_EQ(suggestions("a100-sxm4", gpus()), (Ids{"A100-40GB", "A100-80GB"}));
  // A whole id or alias comes before the ids it begins: "l4" is L4, not also L40S.
  EXPECT_EQ(suggestions("l4", gpus()), (Ids{"L4"}));
}

TEST(Spell, EditDistanceDecidesWhenNothingBeginsOrMatches) {
  EXPECT_EQ(suggestions("H1OO-SXM-80GB", gpus()), (Ids{"H100-SXM-80GB"}));
  EXPECT_EQ(suggestions("Z9000", gpus()), Ids{});
  EXPECT_EQ(suggestions("", gpus()), Ids{});
  EXPECT_EQ(suggestions("--", gpus()), Ids{});
}

TEST(Spell, APrefixOfMoreThanFiveNarrowsNothing) {
  const std::vector<KnownName> types = {{"g6e.xlarge", {}},  {"g6e.2xlarge", {}},  {"g6e.4xlarge", {}},
                                        {"g6e.8xlarge", {}}, {"g6e.12xlarge", {}}, {"g6e.16xlarge", {}},
                                        {"p5.48xlarge", {}}};
  EXPECT_EQ(suggestions("g6e", types), Ids{});
  EXPECT_EQ(suggestions("g6e.1", types), (Ids{"g6e.12xlarge", "g6e.16xlarge"}));
  EXPECT_EQ(suggestions("g6e.2xlarg", types), (Ids{"g6e.2xlarge"}));
}

TEST(Spell, SuffixNamesEverySuggestion) {
  EXPECT_EQ(suggestion_suffix({}), "");
  EXPECT_EQ(suggestion_suffix({"L4"}), " (did you mean \"L4\"?)");
  EXPECT_EQ(suggestion_suffix({"A100-40GB", "A100-80GB"}), " (did you mean \"A100-40GB\" or \"A100-80GB\"?)");
  EXPECT_EQ(suggestion_suffix(suggestions("H100", gpus())),
            " (did you mean \"H100-SXM-80GB\", \"H100-PCIe-80GB\" or \"H100-NVL-94GB\"?)");
  const std::vector<std::string> options = {"on_demand", "spot", "reserved_1y", "reserved_3y"};
  EXPECT_EQ(did_you_mean_suffix("reserved", options), " (did you mean \"reserved_1y\" or \"reserved_3y\"?)");
  EXPECT_EQ(did_you_mean_suffix("OnDemand", options), " (did you mean \"on_demand\"?)");
}

TEST(Spell, JoinUsesTheSeparator) {
  EXPECT_EQ(join({"a", "b", "c"}, "|"), "a|b|c");
  EXPECT_EQ(join({}, ", "), "");
}

TEST(Excerpt, QuotesAtMostEightyBytesWithControlCharactersEscaped) {
  EXPECT_EQ(quoted_excerpt("plain"), "\"plain\"");
  EXPECT_EQ(excerpt("a\x1b[31mb\n\t\"\\\x7f"), "a\\x1b[31mb\\n\\t\\\"\\\\\\x7f");
  EXPECT_EQ(excerpt(std::string(100, 'x')), std::string(80, 'x') + "...");
  EXPECT_EQ(excerpt(std::string(80, 'x')), std::string(80, 'x'));
  // C1 controls (U+009B is a terminal's CSI) and the YAML line breaks U+2028/U+2029 are escaped; a cut
  // never splits a UTF-8 sequence.
  EXPECT_EQ(excerpt("a\xc2\x9b[31m\xe2\x80\xa8"
                    "b\xe2\x80\xa9\xc2\x85"),
            "a\\u009b[31m\\u2028b\\u2029\\u0085");
  EXPECT_EQ(excerpt(std::string(79, 'x') + "\xc3\xa9z"), std::string(79, 'x') + "...");
  EXPECT_EQ(excerpt("caf\xc3\xa9"), "caf\xc3\xa9");
}

TEST(Excerpt, BytesThatAreNotUtf8AndNoncharactersAreEscaped) {
  EXPECT_EQ(excerpt("caf\xe9 lab"), "caf\\xe9 lab");      // Latin-1
  EXPECT_EQ(excerpt("\xc0\xaf"), "\\xc0\\xaf");           // an overlong "/"
  EXPECT_EQ(excerpt("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(excerpt("a\xef\xbf\xbe"
                    "b\xef\xbf\xbf"),
            "a\\ufffeb\\uffff");                                                       // U+FFFE, U+FFFF
  EXPECT_EQ(excerpt("\xf4\x8f\xbf\xbf"), "\\u10ffff");                                 // the last plane's U+10FFFF
  EXPECT_EQ(excerpt("\xe6\x99\x82\xf0\x9f\x99\x82"), "\xe6\x99\x82\xf0\x9f\x99\x82");  // 時 and an emoji pass
}

TEST(Utf8, InvalidSequencesAreFoundAtTheirFirstByte) {
  EXPECT_EQ(invalid_utf8_at("caf\xc3\xa9 \xe6\x99\x82 \xf0\x9f\x99\x82"), std::nullopt);
  EXPECT_EQ(invalid_utf8_at(""), std::nullopt);
  EXPECT_EQ(invalid_utf8_at("caf\xe9 lab"), 3u);        // Latin-1 e-acute
  EXPECT_EQ(invalid_utf8_at("ab\x80"), 2u);             // a stray continuation byte
  EXPECT_EQ(invalid_utf8_at("ab\xe6\x99"), 2u);         // truncated
  EXPECT_EQ(invalid_utf8_at("\xc1\xbf"), 0u);           // overlong
  EXPECT_EQ(invalid_utf8_at("x\xed\xbf\xbf"), 1u);      // the surrogate U+DFFF
  EXPECT_EQ(invalid_utf8_at("x\xf4\x90\x80\x80"), 1u);  // beyond U+10FFFF
  EXPECT_EQ(invalid_utf8_at("x\xff"), 1u);
}

TEST(Utf8, NoncharactersAreFoundInEveryPlane) {
  EXPECT_TRUE(has_noncharacter("a\xef\xbf\xbe"));     // U+FFFE
  EXPECT_TRUE(has_noncharacter("\xef\xbf\xbf"));      // U+FFFF
  EXPECT_TRUE(has_noncharacter("\xef\xb7\x90"));      // U+FDD0
  EXPECT_TRUE(has_noncharacter("\xf0\x9f\xbf\xbe"));  // U+1FFFE
  EXPECT_FALSE(has_noncharacter("\xef\xbf\xbd"));     // U+FFFD, the replacement character
  EXPECT_FALSE(has_noncharacter("\xef\xb7\xb0"));     // U+FDF0
  EXPECT_FALSE(has_noncharacter("caf\xe9"));          // not UTF-8: skipped, not a noncharacter
}

TEST(Spell, LineBreaksAreEveryControlAndEveryLineBreakingCodePoint) {
  EXPECT_EQ(line_break_at("\n"), 1u);
  EXPECT_EQ(line_break_at("\x7f"), 1u);
  EXPECT_EQ(line_break_at("\xc2\x85x"), 2u);
  EXPECT_EQ(line_break_at("\xc2\x9f"), 2u);
  EXPECT_EQ(line_break_at("\xc2\xa0"), 0u);  // no-break space: printable
  EXPECT_EQ(line_break_at("\xe2\x80\xa8"), 3u);
  EXPECT_EQ(line_break_at("\xe2\x80\xa9"), 3u);
  EXPECT_EQ(line_break_at("\xe2\x80\xa7"), 0u);  // U+2027, a hyphenation point
  EXPECT_EQ(line_break_at("\xe2\x80"), 0u);      // a cut sequence is not one
  EXPECT_FALSE(has_line_break("caf\xc3\xa9 \xe2\x82\xac"));
  EXPECT_TRUE(
      has_line_break("a\xe2\x80\xa9"
                     "b"));
  EXPECT_EQ(one_line("a\nb\xe2\x80\xa8"
                     "c\xc2\x85"
                     "d\xc3\xa9"),
            "a b c d\xc3\xa9");
  EXPECT_EQ(excerpt("abcdef", 3), "abc...");
}

TEST(Printable, EscapesWhatATerminalWouldObeyAndCutsButKeepsQuotes) {
  // The fuzzers found a JSON pointer built from a key with DEL and ESC, and nlohmann's "last read"
  // quote of the input, reaching messages raw (issue 41, item 11).
  EXPECT_EQ(printable("/tenants/0/ma\x7fx\x1b]52;c;x\x07"), "/tenants/0/ma\\x7fx\\x1b]52;c;x\\x07");
  EXPECT_EQ(printable("last read: '\"a\\b\xc2\x9b'"), "last read: '\"a\\b\\u009b'");
  EXPECT_EQ(printable(std::string(500, 'k'), 10), "kkkkkkkkkk...");
  EXPECT_EQ(printable("/a/b"), "/a/b");
}

TEST(Printable, ADiagnosticsPointerAndATraceErrorsColumnArePrintable) {
  const Diagnostic d{"s.json", 0, 0, "/tenants/0/na\x1bme", "unknown key"};
  EXPECT_EQ(d.format(), "s.json: /tenants/0/na\\x1bme: unknown key");
  EXPECT_EQ(std::string(TraceError("t.json", 0,
                                   "/0/st\x7f"
                                   "art",
                                   "bad")
                            .what()),
            "t.json: /0/st\\x7fart: bad");
}

}  // namespace
}  // namespace slicewise
