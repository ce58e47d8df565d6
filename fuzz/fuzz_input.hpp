// What every harness shares: the fuzz input as a file (the parsers read paths, as the CLI does),
// and the rule the harnesses enforce. A parser may refuse any input, but only with a slicewise
// Error (a located message, exit 1 in the CLI); any other exception escapes the harness and
// libFuzzer reports it as a crash, like a sanitizer finding, a hang or a blown memory limit. The
// message of that Error must pass check_message.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace slicewise::fuzz {

/// A file in the process's own temporary folder, rewritten with each input. `name` keeps the
/// extension a parser may look at (".json", ".csv").
class InputFile {
 public:
  explicit InputFile(const std::string& name) {
    folder_ = std::filesystem::temp_directory_path() / ("slicewise-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder_);
    path_ = folder_ / name;
  }
  ~InputFile() {
    std::error_code ec;
    std::filesystem::remove_all(folder_, ec);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Writes `bytes` to the file (replacing what was there) and returns its path.
  const std::filesystem::path& write(std::string_view bytes) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path_;
  }
  /// Another file beside it (a sweep's base scenario, a trace's .header file).
  std::filesystem::path beside(const std::string& name) const { return folder_ / name; }

 private:
  std::filesystem::path folder_;
  std::filesystem::path path_;
};

/// Message hygiene (issue 41): what slicewise says about an input never carries a control
/// character but a line break (a terminal would obey it), and stays bounded however large the input
/// (at most 100 problems a file, each quoting at most 80 bytes of it): at most 102 lines of at most
/// 4,096 bytes (`bounded`). Aborts, which libFuzzer reports as a crash with the input, when one does
/// not.
inline void check_message(std::string_view text, const char* what = "message", bool bounded = true) {
  std::size_t lines = 1;
  std::size_t line_bytes = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;  // U+0080..U+009F (CSI, OSC as one)
    if ((c < 0x20 && c != '\n') || c == 0x7F || c1) {
      std::fprintf(stderr, "%s holds control character 0x%02x at byte %zu:\n%.*s\n", what, c1 ? text[i + 1] & 0xFF : c,
                   i, static_cast<int>(std::min<std::size_t>(text.size(), 2000)), text.data());
      std::abort();
    }
    if (c == '\n') {
      ++lines;
      line_bytes = 0;
    } else if (++line_bytes > 4096 && bounded) {
      std::fprintf(stderr, "%s has a line over 4096 bytes\n", what);
      std::abort();
    }
  }
  if (lines > 102 && bounded) {
    std::fprintf(stderr, "%s has %zu lines\n", what, lines);
    std::abort();
  }
}

/// The input as bytes.
inline std::string_view bytes_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace slicewise::fuzz
