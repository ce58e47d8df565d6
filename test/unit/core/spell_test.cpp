#include "core/spell.hpp"

#include <gtest/gtest.h>

namespace slicewise {
namespace {

TEST(Spell, EditDistanceCountsInsertionsDeletionsSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0);
  EXPECT_EQ(edit_distance("mps", "mps"), 0);
  EXPECT_EQ(edit_distance("mps2", "mps"), 1);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);
  EXPECT_EQ(edit_distance("", "abc"), 3);
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

TEST(Spell, JoinUsesTheSeparator) {
  EXPECT_EQ(join({"a", "b", "c"}, "|"), "a|b|c");
  EXPECT_EQ(join({}, ", "), "");
}

TEST(Excerpt, QuotesAtMostEightyBytesWithControlCharactersEscaped) {
  EXPECT_EQ(quoted_excerpt("plain"), "\"plain\"");
  EXPECT_EQ(excerpt("a\x1b[31mb\n\t\"\\\x7f"), "a\\x1b[31mb\\n\\t\\\"\\\\\\x7f");
  EXPECT_EQ(excerpt(std::string(100, 'x')), std::string(80, 'x') + "...");
  EXPECT_EQ(excerpt(std::string(80, 'x')), std::string(80, 'x'));
  EXPECT_EQ(excerpt("abcdef", 3), "abc...");
}

}  // namespace
}  // namespace slicewise
