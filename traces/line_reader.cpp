// LineReader: fread, zlib or libzstd underneath, memchr to find line ends.
#include "traces/line_reader.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include <zlib.h>
#include <zstd.h>

#include "core/error.hpp"

namespace slicewise::traces {

namespace {

constexpr std::size_t kChunk = 1 << 20;
constexpr std::size_t kMaxLine = 64u << 20;
// A file held decoded is at most half the line limit, so none of its lines can reach the limit a
// streamed file's would (no behaviour differs between the two), and the whole process holds at most
// kKeepTotal.
constexpr std::size_t kKeepMax = kMaxLine / 2;
constexpr std::size_t kKeepTotal = 256u << 20;

/// The files keep_decoded() holds, by path.
struct KeptFiles {
  std::mutex mutex;
  std::map<std::string, std::string, std::less<>> bytes;
  std::size_t total = 0;
};

KeptFiles& kept_files() {
  static KeptFiles files;
  return files;
}

/// The held bytes of `path`, or null. They never move or change once held.
const std::string* kept_bytes(const std::string& path) {
  auto& kept = kept_files();
  const std::lock_guard<std::mutex> lock(kept.mutex);
  const auto it = kept.bytes.find(path);
  return it == kept.bytes.end() ? nullptr : &it->second;
}

}  // namespace

Compression detect_compression(std::string_view b) {
  if (b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f && static_cast<unsigned char>(b[1]) == 0x8b) {
    return Compression::gzip;
  }
  if (b.size() >= 4 && static_cast<unsigned char>(b[0]) == 0x28 && static_cast<unsigned char>(b[1]) == 0xb5 &&
      static_cast<unsigned char>(b[2]) == 0x2f && static_cast<unsigned char>(b[3]) == 0xfd) {
    return Compression::zstd;
  }
  return Compression::none;
}

/// Raw bytes from the file, decoded by the compression its magic bytes name.
class LineReader::Decoder {
 public:
  /// Takes ownership of `file`, also when it throws.
  Decoder(const std::string& path, std::FILE* file) : path_(path), file_(file), in_(kChunk) {
    try {
      start();
    } catch (...) {
      std::fclose(file_);  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~Decoder() {
    if (z_ready_) inflateEnd(&z_);
    if (zstd_ != nullptr) ZSTD_freeDStream(zstd_);
    std::fclose(file_);
  }
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  /// Up to `size` decoded bytes into `out`; 0 at the end.
  std::size_t read(char* out, std::size_t size) {
    switch (compression_) {
      case Compression::none: return read_plain(out, size);
      case Compression::gzip: return read_gzip(out, size);
      case Compression::zstd: return read_zstd(out, size);
    }
    return 0;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw TraceError(path_, 0, "", message); }

  void start() {
    in_size_ = std::fread(in_.data(), 1, in_.size(), file_);
    if (std::ferror(file_)) fail("cannot read: " + std::string(std::strerror(errno)));
    compression_ = detect_compression(std::string_view(in_.data(), in_size_));
    if (compression_ == Compression::gzip) {
      // 15 + 32: zlib or gzip header, detected; concatenated gzip members are read one after another.
      if (inflateInit2(&z_, 15 + 32) != Z_OK) fail("cannot start gzip decompression");
      z_ready_ = true;
    } else if (compression_ == Compression::zstd) {
      zstd_ = ZSTD_createDStream();
      if (zstd_ == nullptr) fail("cannot start zstd decompression");
    }
  }

  bool refill() {
    in_pos_ = 0;
    in_size_ = std::fread(in_.data(), 1, in_.size(), file_);
    if (std::ferror(file_)) fail("cannot read: " + std::string(std::strerror(errno)));
    return in_size_ > 0;
  }

  std::size_t read_plain(char* out, std::size_t size) {
    if (in_pos_ == in_size_ && !refill()) return 0;
    const std::size_t n = std::min(size, in_size_ - in_pos_);
    std::memcpy(out, in_.data() + in_pos_, n);
    in_pos_ += n;
    return n;
  }

  std::size_t read_gzip(char* out, std::size_t size) {
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(size);
    while (z_.avail_out == size) {
      if (in_pos_ == in_size_) {
        if (!refill()) {
          if (!z_done_) fail("truncated gzip stream");
          return 0;
        }
      }
      z_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
      z_.avail_in = static_cast<uInt>(in_size_ - in_pos_);
      if (z_done_) {  // another gzip member follows the one just finished
        inflateReset(&z_);
        z_done_ = false;
      }
      const int rc = inflate(&z_, Z_NO_FLUSH);
      in_pos_ = in_size_ - z_.avail_in;
      if (rc == Z_STREAM_END) {
        z_done_ = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        fail(std::string("corrupt gzip data: ") + (z_.msg != nullptr ? z_.msg : "inflate failed"));
      }
      if (z_done_ && in_pos_ == in_size_ && !refill()) break;
    }
    return size - z_.avail_out;
  }

  std::size_t read_zstd(char* out, std::size_t size) {
    ZSTD_outBuffer output{out, size, 0};
    while (output.pos == 0) {
      if (in_pos_ == in_size_ && !refill()) {
        if (zstd_pending_ != 0) fail("truncated zstd stream");
        return 0;
      }
      ZSTD_inBuffer input{in_.data(), in_size_, in_pos_};
      const std::size_t rc = ZSTD_decompressStream(zstd_, &output, &input);
      if (ZSTD_isError(rc)) fail(std::string("corrupt zstd data: ") + ZSTD_getErrorName(rc));
      zstd_pending_ = rc;
      in_pos_ = input.pos;
    }
    return output.pos;
  }

  std::string path_;
  std::FILE* file_;
  std::vector<char> in_;
  std::size_t in_pos_ = 0;
  std::size_t in_size_ = 0;
  Compression compression_ = Compression::none;
  z_stream z_{};
  bool z_ready_ = false;
  bool z_done_ = false;
  ZSTD_DStream* zstd_ = nullptr;
  std::size_t zstd_pending_ = 0;
};

namespace {

std::FILE* open_file(const std::string& path) {
  // A FIFO or a device would block the open or never end: only regular files are traces.
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (!ec && type != std::filesystem::file_type::regular && type != std::filesystem::file_type::not_found) {
    throw TraceError(path, 0, "",
                     type == std::filesystem::file_type::directory ? "cannot open: a folder, not a trace file"
                                                                   : "cannot open: not a regular file");
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw TraceError(path, 0, "", "cannot open: " + std::string(std::strerror(errno)));
  return file;
}

/// Decoded bytes, a chunk at a time.
class DecodedBuffer final : public std::streambuf {
 public:
  explicit DecodedBuffer(const std::string& path) : decoder_(path, open_file(path)), buffer_(kChunk) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const std::size_t n = decoder_.read(buffer_.data(), buffer_.size());
    if (n == 0) return traits_type::eof();
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  LineReader::Decoder decoder_;
  std::vector<char> buffer_;
};

}  // namespace

std::unique_ptr<std::streambuf> open_decoded(const std::string& path) { return std::make_unique<DecodedBuffer>(path); }

bool keep_decoded(const std::string& path) {
  if (kept_bytes(path) != nullptr) return true;
  std::string bytes;
  try {
    LineReader::Decoder decoder(path, open_file(path));
    std::vector<char> chunk(kChunk);
    while (const std::size_t n = decoder.read(chunk.data(), chunk.size())) {
      if (bytes.size() + n > kKeepMax) return false;
      bytes.append(chunk.data(), n);
    }
  } catch (const TraceError&) {
    return false;  // the reader that opens it says what is wrong, with its location
  }
  auto& kept = kept_files();
  const std::lock_guard<std::mutex> lock(kept.mutex);
  if (kept.bytes.count(path) != 0) return true;  // another thread held it meanwhile: count it once
  if (kept.total + bytes.size() > kKeepTotal) return false;
  kept.total += bytes.size();
  kept.bytes.emplace(path, std::move(bytes));
  return true;
}

LineReader::LineReader(std::string path) : path_(std::move(path)) {
  if (const std::string* held = kept_bytes(path_)) {
    data_ = held->data();
    end_ = held->size();
    eof_ = true;
  } else {
    buffer_.resize(kChunk);
    data_ = buffer_.data();
    decoder_ = std::make_unique<Decoder>(path_, open_file(path_));
    fill();
  }
  if (end_ >= 3 && std::memcmp(data_, "\xEF\xBB\xBF", 3) == 0) begin_ = 3;
}

LineReader::~LineReader() = default;

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {  // move the unread tail to the front
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() - end_ < kChunk / 2) {
    if (buffer_.size() >= kMaxLine) {
      throw TraceError(path_, line_number_ + 1, "", "line longer than 64 MiB; is this a text trace?");
    }
    buffer_.resize(buffer_.size() * 2);
    data_ = buffer_.data();
  }
  const std::size_t n = decoder_->read(buffer_.data() + end_, buffer_.size() - end_);
  if (n == 0) eof_ = true;
  end_ += n;
  return n > 0;
}

bool LineReader::next(std::string_view& line) {
  std::size_t scanned = begin_;
  while (true) {
    const void* hit = std::memchr(data_ + scanned, '\n', end_ - scanned);
    if (hit != nullptr) {
      const auto newline = static_cast<std::size_t>(static_cast<const char*>(hit) - data_);
      std::size_t stop = newline;
      if (stop > begin_ && data_[stop - 1] == '\r') --stop;
      line = std::string_view(data_ + begin_, stop - begin_);
      begin_ = newline + 1;
      ++line_number_;
      return true;
    }
    const std::size_t tail = end_ - begin_;
    if (!fill()) {
      if (begin_ == end_) return false;
      std::size_t stop = end_;
      if (data_[stop - 1] == '\r') --stop;
      line = std::string_view(data_ + begin_, stop - begin_);
      begin_ = end_;
      ++line_number_;
      return true;
    }
    scanned = begin_ + tail;
  }
}

}  // namespace slicewise::traces
