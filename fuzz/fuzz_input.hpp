// What every harness shares: the fuzz input as a file (the parsers read paths, as the CLI does),
// and the rule the harnesses enforce. A parser may refuse any input, but only with a slicewise
// Error (a located message, exit 1 in the CLI); any other exception escapes the harness and
// libFuzzer reports it as a crash, like a sanitizer finding, a hang or a blown memory limit.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
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

/// The input as bytes.
inline std::string_view bytes_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace slicewise::fuzz
