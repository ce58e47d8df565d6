// Reads a text file line by line in constant memory, decompressing gzip (.gz) and Zstandard
// (.zst) transparently. The compression is told by the file's magic bytes, not its name.
#pragma once

#include <memory>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace slicewise::traces {

enum class Compression { none, gzip, zstd };

/// Streams the lines of one file. Line endings (\n or \r\n) are stripped; a last line without a
/// newline is returned like any other; a UTF-8 byte-order mark at the start is skipped. Memory is
/// a 1 MiB buffer plus the longest line, or nothing for a file keep_decoded() holds; lines over 64
/// MiB are refused. Throws TraceError.
class LineReader {
 public:
  explicit LineReader(std::string path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// The next line into `line` (valid until the next call); false at the end of the file.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned (0 before the first).
  long line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

  class Decoder;  ///< bytes from the file, decompressed

 private:
  bool fill();  // appends decoded bytes after the unread tail; false at end of input

  std::string path_;
  std::unique_ptr<Decoder> decoder_;  // null for a file keep_decoded() holds
  std::vector<char> buffer_;
  const char* data_ = nullptr;  // buffer_'s bytes, or the held file's
  std::size_t begin_ = 0;       // first unread byte
  std::size_t end_ = 0;         // one past the last decoded byte
  bool eof_ = false;
  long line_number_ = 0;
};

/// Decodes `path` whole and holds its bytes for the rest of the process, so that every LineReader
/// of it reads them in place: no file, no decoder, no buffer. For a process that forks a child per
/// simulation (`simulate`, `advise`, `sweep` over several strategies), called before forking, each
/// child reads the parent's bytes instead of decoding the trace again into pages of its own. True
/// when held; false, holding nothing, for a file that cannot be read or decoded (its reader then
/// reports why, located), one over 32 MiB decoded, or once 256 MiB are held: those stream.
bool keep_decoded(const std::string& path);

/// The compression of a file from its first bytes (gzip 1f 8b, zstd 28 b5 2f fd).
Compression detect_compression(std::string_view first_bytes);

/// The decompressed bytes of a file as a stream buffer, for parsers that read a std::istream (the
/// Philly JSON array). Throws TraceError when the file cannot be opened; reading it throws
/// TraceError for a read error or corrupt compressed data.
std::unique_ptr<std::streambuf> open_decoded(const std::string& path);

}  // namespace slicewise::traces
