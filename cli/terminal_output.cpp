// The terminal's safe stream buffer (see terminal_output.hpp).
#include "cli/terminal_output.hpp"

#include <string>

namespace slicewise::cli {

namespace {

/// `prefix` and `byte` in two hex digits: "\x1b" for a C0 control or DEL, "\u009b" for a C1 control.
std::string byte_escape(const char* prefix, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string(prefix) + kHex[byte >> 4] + kHex[byte & 0xf];
}

bool is_c0_control(unsigned char byte) {
  return (byte < 0x20 && byte != '\n' && byte != '\t' && byte != '\r') || byte == 0x7f;
}

}  // namespace

TerminalSafeBuf::TerminalSafeBuf(std::streambuf* sink, std::size_t max_line_bytes)
    : sink_(sink), max_line_bytes_(max_line_bytes) {}

TerminalSafeBuf::~TerminalSafeBuf() {
  if (held_c2_) emit("\xc2", true);
  if (dropped_bytes_ > 0) end_line();
  sink_->pubsync();
}

void TerminalSafeBuf::emit(const std::string& text, bool starts_character) {
  if (max_line_bytes_ > 0 && (dropped_bytes_ > 0 || (starts_character && line_bytes_ >= max_line_bytes_))) {
    dropped_bytes_ += text.size();
    return;
  }
  const auto n = static_cast<std::streamsize>(text.size());
  if (sink_->sputn(text.data(), n) != n) failed_ = true;
  line_bytes_ += text.size();
}

void TerminalSafeBuf::end_line() {
  if (dropped_bytes_ > 0) {
    const std::string note = " ... (" + std::to_string(dropped_bytes_) + " bytes not shown)";
    if (sink_->sputn(note.data(), static_cast<std::streamsize>(note.size())) !=
        static_cast<std::streamsize>(note.size())) {
      failed_ = true;
    }
  }
  line_bytes_ = 0;
  dropped_bytes_ = 0;
}

void TerminalSafeBuf::take(unsigned char byte) {
  if (held_c2_) {
    held_c2_ = false;
    if (byte >= 0x80 && byte <= 0x9f) {
      emit(byte_escape("\\u00", byte), true);
      return;
    }
    emit("\xc2", true);
  }
  if (byte == '\n') {
    end_line();
    if (sink_->sputc('\n') == traits_type::eof()) failed_ = true;
    return;
  }
  if (byte == 0xc2) {
    held_c2_ = true;
    return;
  }
  if (is_c0_control(byte)) {
    emit(byte_escape("\\x", byte), true);
    return;
  }
  // A UTF-8 continuation byte (10xxxxxx) never starts a character: a cut keeps whole characters.
  emit(std::string(1, static_cast<char>(byte)), (byte & 0xc0) != 0x80);
}

TerminalSafeBuf::int_type TerminalSafeBuf::overflow(int_type ch) {
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  take(static_cast<unsigned char>(traits_type::to_char_type(ch)));
  return failed_ ? traits_type::eof() : ch;
}

std::streamsize TerminalSafeBuf::xsputn(const char* s, std::streamsize n) {
  for (std::streamsize i = 0; i < n; ++i) take(static_cast<unsigned char>(s[i]));
  return failed_ ? 0 : n;
}

int TerminalSafeBuf::sync() { return sink_->pubsync() == 0 && !failed_ ? 0 : -1; }

}  // namespace slicewise::cli
