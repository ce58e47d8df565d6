#include "cli/terminal_output.hpp"

#include <ostream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace slicewise::cli {
namespace {

/// `text` written through a TerminalSafeBuf with `max_line_bytes`, in pieces of `piece` bytes (a
/// stream writes in whatever pieces it has).
std::string through(const std::string& text, std::size_t max_line_bytes, std::size_t piece = 1000) {
  std::ostringstream sink;
  {
    TerminalSafeBuf buf(sink.rdbuf(), max_line_bytes);
    std::ostream out(&buf);
    for (std::size_t at = 0; at < text.size(); at += piece) out << text.substr(at, piece);
  }
  return sink.str();
}

TEST(TerminalSafeBuf, TextNewlinesTabsAndOtherLanguagesPassAsWritten) {
  const std::string text = "mig saves $15,067.20\tper month\r\n— Größe, 時間 ✓\n";
  EXPECT_EQ(through(text, 0), text);
  EXPECT_EQ(through(text, 4096, 1), text);
}

TEST(TerminalSafeBuf, ControlSequencesFromAFileAreWrittenAsEscapes) {
  // An OSC 52 clipboard write, a cursor move, a bell, DEL, and the C1 CSI U+009B.
  const std::string hostile =
      "run\x1b]52;c;aGk=\x07 \x1b[2J\x7f \xc2\x9b"
      "31m end\n";
  const std::string shown = R"(run\x1b]52;c;aGk=\x07 \x1b[2J\x7f \u009b31m end)"
                            "\n";
  EXPECT_EQ(through(hostile, 0), shown);
  EXPECT_EQ(through(hostile, 0, 1), shown);  // a C1 control split across two writes
  EXPECT_EQ(through(hostile, 4096, 3), shown);
  // A 0xC2 before anything but a C1 continuation is the start of a character: "é" is C3 A9, "¢" C2 A2.
  EXPECT_EQ(through("\xc2\xa2 and \xc2", 0, 1), "\xc2\xa2 and \xc2");
}

TEST(TerminalSafeBuf, ALineBeyondTheLimitIsCutAndCounted) {
  const std::string header(100000, 'h');
  EXPECT_EQ(through("m.csv:1: unknown column \"" + header + "\"\nnext\n", 40),
            "m.csv:1: unknown column \"hhhhhhhhhhhhhhh ... (99986 bytes not shown)\nnext\n");
  // Cut at a character's start: the three bytes of "時" stay whole.
  EXPECT_EQ(through("ab時間\n", 3, 1), "ab時 ... (3 bytes not shown)\n");
  // The count also ends a last line without a newline.
  EXPECT_EQ(through("abcdef", 4), "abcd ... (2 bytes not shown)");
  // No limit: stdout's lines are whole.
  EXPECT_EQ(through(header + "\n", 0).size(), header.size() + 1);
}

}  // namespace
}  // namespace slicewise::cli
