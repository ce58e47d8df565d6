// Reading a JSON document from disk or text with precise parse errors: `file:line:col: parse
// error: ...`, and duplicate object keys rejected (nlohmann keeps the last one silently).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace slicewise {

/// Parses `text` (named `file` in messages). Throws ConfigError on a syntax error (with line and
/// column) or on a key that appears twice in one object (with its JSON pointer).
nlohmann::json parse_json_text(const std::string& text, const std::string& file);

/// Reads and parses a file. Throws ConfigError when it cannot be read or parsed.
nlohmann::json read_json_file(const std::filesystem::path& path);

/// The largest file read_text_file reads whole (1 GiB): scenarios, profiles, tables and results
/// are far smaller; traces are streamed and not read this way.
inline constexpr std::uintmax_t kMaxTextFileBytes = std::uintmax_t{1} << 30;

/// Reads a whole file into a string; throws ConfigError naming the file and the reason (the OS's,
/// a folder, a device or pipe, more than kMaxTextFileBytes).
std::string read_text_file(const std::filesystem::path& path);

/// Writes `text` to `path` atomically through core/atomic_output.hpp (a unique temporary file in
/// the same folder, every write checked, then rename), so an interrupted or failed write never
/// leaves a truncated file behind, and a device or FIFO at `path` is refused, never replaced.
/// Throws Error on failure ("PATH: cannot write: REASON"), leaving no temporary file and any older
/// PATH as it was.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

/// One file of a set written together.
struct OutputFile {
  std::filesystem::path path;
  std::string text;
  bool executable = false;  ///< a script: gets the execute bits (0111)
};

/// Writes `files` as one output (an export-config folder, a sweep's results, a report and its
/// figures): each to a temporary file beside its target, all of them flushed and closed, and only
/// then renamed over their targets in order. A failure writing any leaves every target as it was,
/// no temporary file, and no folder that it created for them (the missing folders of each path
/// are created first). Throws Error as write_file_atomically does. Between the renames, a few
/// system calls long, a kill -9 can leave some files new and the rest old.
void write_files_atomically(const std::vector<OutputFile>& files);

}  // namespace slicewise
