#include "report/text_table.hpp"

#include <gtest/gtest.h>

namespace slicewise::report {
namespace {

TextTable sample() {
  TextTable t({{"strategy"}, {"$/month", Align::right}, {"note"}});
  t.add_row({"dedicated", "3273.44", "2 x g6e.2xlarge"});
  t.add_row({"time_slicing", "1758.19", "a, \"quoted\" | piped"});
  return t;
}

TEST(TextTable, AlignsColumnsAndTrimsTrailingSpaces) {
  EXPECT_EQ(sample().to_text(),
            "strategy      $/month  note\n"
            "------------  -------  -------------------\n"
            "dedicated     3273.44  2 x g6e.2xlarge\n"
            "time_slicing  1758.19  a, \"quoted\" | piped\n");
}

TEST(TextTable, CsvQuotesCellsThatNeedIt) {
  EXPECT_EQ(sample().to_csv(),
            "strategy,$/month,note\n"
            "dedicated,3273.44,2 x g6e.2xlarge\n"
            "time_slicing,1758.19,\"a, \"\"quoted\"\" | piped\"\n");
}

TEST(TextTable, CsvKeepsFormulaLikeTextAsTextAndNumbersAsNumbers) {
  // Strategy and axis names went to results.csv as written: "=HYPERLINK(...)" ran in a spreadsheet.
  TextTable t({{"strategy"}, {"saving"}});
  t.add_row({"=HYPERLINK(\"http://x\",\"y\")", "-12.5"});
  t.add_row({"+cmd", "1e-3"});
  t.add_row({"-x", "-"});
  t.add_row({"@SUM(A1)", "+4"});
  t.add_row({"\tTAB", "ok"});
  EXPECT_EQ(t.to_csv(),
            "strategy,saving\n"
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-12.5\n"
            "'+cmd,1e-3\n"
            "'-x,'-\n"
            "'@SUM(A1),+4\n"
            "'\tTAB,ok\n");
}

TEST(TextTable, MarkdownEscapesPipesAndAlignsNumbersRight) {
  EXPECT_EQ(sample().to_markdown(),
            "| strategy | $/month | note |\n"
            "|---|---:|---|\n"
            "| dedicated | 3273.44 | 2 x g6e.2xlarge |\n"
            "| time_slicing | 1758.19 | a, \"quoted\" \\| piped |\n");
}

TEST(TextTable, MarkdownCellsKeepAnyTextInOneCell) {
  // A trailing backslash must not escape the cell's closing pipe, a line break must not end the
  // row, and markup must show as text.
  TextTable t({{"name"}, {"n", Align::right}});
  t.add_row({"a\\", "1"});
  t.add_row({"x\\|y", "2"});
  t.add_row({"line1\nline2\r", "3"});
  t.add_row({"<b>bold</b> & co", "4"});
  EXPECT_EQ(t.to_markdown(),
            "| name | n |\n"
            "|---|---:|\n"
            "| a\\\\ | 1 |\n"
            "| x\\\\\\|y | 2 |\n"
            "| line1 line2  | 3 |\n"
            "| &lt;b&gt;bold&lt;/b&gt; &amp; co | 4 |\n");
}

TEST(TextTable, WidthCountsCharactersNotBytes) {
  TextTable t({{"x"}, {"y"}});
  t.add_row({"×2", "a"});
  t.add_row({"abc", "b"});
  EXPECT_EQ(t.to_text(), "x    y\n---  -\n×2   a\nabc  b\n");
}

TEST(FormatFixed, RoundsHalfAwayAndNeverPrintsMinusZero) {
  EXPECT_EQ(format_fixed(3273.4368, 2), "3273.44");
  EXPECT_EQ(format_fixed(1758.1904, 2), "1758.19");
  EXPECT_EQ(format_fixed(-0.001, 2), "0.00");
  EXPECT_EQ(format_fixed(0.4631, 3), "0.463");
}

TEST(FormatPercent, WithAndWithoutItsUnit) {
  EXPECT_EQ(format_percent(0.4630), "46.3 %");
  EXPECT_EQ(percent_number(0.4630), "46.3");
  EXPECT_EQ(percent_number(0.001234, 2), "0.12");
  EXPECT_EQ(format_percent(-0.00001, 1), "0.0 %");
}

}  // namespace
}  // namespace slicewise::report
