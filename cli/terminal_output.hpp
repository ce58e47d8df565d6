// What slicewise writes to a terminal, made safe whatever the inputs hold: every control character
// but newline, tab and carriage return is written as an escape, so that a name, a CSV cell or a
// JSON value from a hostile file never reaches the terminal as a control sequence (an OSC 52
// clipboard write, a cursor move, a title change); and on stderr a line longer than a message can
// usefully be is cut, so that a 50 MB header does not make a 50 MB message (docs/reliability.md).
#pragma once

#include <cstddef>
#include <streambuf>
#include <string>

namespace slicewise::cli {

/// The longest line slicewise writes to stderr, in bytes; the rest of a longer line is dropped
/// and counted: "... (51200000 bytes not shown)".
inline constexpr std::size_t kMaxErrorLineBytes = 4096;

/// A stream buffer in front of a terminal's (stdout's or stderr's) that passes text, newlines,
/// tabs and carriage returns, and writes the other control characters as escapes: the C0 controls
/// and DEL as "\x1b", the C1 controls U+0080..U+009F (two bytes of UTF-8) as "\u009b". Other bytes
/// pass as they are (text in any language). With `max_line_bytes` > 0 (stderr), a line is cut at
/// that many bytes, at a character's start; its rest up to the newline is dropped and counted,
/// and " ... (N bytes not shown)" ends it. Unbuffered: each write goes through to `sink` at once.
class TerminalSafeBuf : public std::streambuf {
 public:
  TerminalSafeBuf(std::streambuf* sink, std::size_t max_line_bytes);
  TerminalSafeBuf(const TerminalSafeBuf&) = delete;
  TerminalSafeBuf& operator=(const TerminalSafeBuf&) = delete;
  ~TerminalSafeBuf() override;

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  /// Takes one byte of the text written.
  void take(unsigned char byte);
  /// Writes `text` as part of the current line, within its limit.
  void emit(const std::string& text, bool starts_character);
  /// Ends the current line: the count of what was dropped, then the newline.
  void end_line();

  std::streambuf* sink_;
  std::size_t max_line_bytes_;
  std::size_t line_bytes_ = 0;     ///< bytes of the current line written
  std::size_t dropped_bytes_ = 0;  ///< bytes of the current line dropped past the limit
  bool held_c2_ = false;           ///< a 0xC2 byte waiting for the next: C1 controls are C2 80..9F
  bool failed_ = false;            ///< the sink refused a byte
};

}  // namespace slicewise::cli
