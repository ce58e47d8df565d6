// Atomic, checked output files (see atomic_output.hpp).
#include "core/atomic_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.hpp"

namespace slicewise {

namespace {

std::string kind_of(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::directory: return "a folder";
    case std::filesystem::file_type::character: return "a character device";
    case std::filesystem::file_type::block: return "a block device";
    case std::filesystem::file_type::fifo: return "a FIFO";
    case std::filesystem::file_type::socket: return "a socket";
    default: return "not a file";
  }
}

}  // namespace

void check_output_target(const std::filesystem::path& target) {
  std::error_code ec;
  const auto status = std::filesystem::status(target, ec);
  if (ec || status.type() == std::filesystem::file_type::not_found) return;  // a new file
  if (status.type() != std::filesystem::file_type::regular) {
    throw Error(target.string() + ": cannot write: not a regular file (" + kind_of(status.type()) + ")");
  }
}

namespace {

/// The file a write to `target` replaces: `target` itself, or where its symbolic links lead (a
/// link to a file that does not exist yet included), so that the rename keeps the links. Throws
/// Error for a link loop or a link one cannot follow.
std::filesystem::path written_path(const std::filesystem::path& target) {
  // Followed link by link, not with weakly_canonical(), which stops at a link to a missing file.
  constexpr int kMaxLinks = 40;  // Linux's own limit before ELOOP
  std::filesystem::path path = target;
  std::error_code ec;
  for (int links = 0; std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec)); ++links) {
    if (links == kMaxLinks) throw Error(target.string() + ": cannot write: " + std::strerror(ELOOP));
    const std::filesystem::path next = std::filesystem::read_symlink(path, ec);
    if (ec) throw Error(target.string() + ": cannot write: " + ec.message());
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return path;
}

}  // namespace

AtomicOutput::AtomicOutput(std::filesystem::path target) : target_(std::move(target)), written_(written_path(target_)) {
  check_output_target(written_);
  const auto folder = written_.has_parent_path() ? written_.parent_path() : std::filesystem::path(".");
  std::string name = (folder / ("." + written_.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> buffer(name.begin(), name.end());
  buffer.push_back('\0');
  fd_ = ::mkstemp(buffer.data());
  if (fd_ < 0) throw Error(target_.string() + ": cannot write: " + std::strerror(errno));
  temporary_ = buffer.data();
  // mkstemp creates 0600. A file rewritten keeps its permissions (a 0600 result stays private); a
  // new one is an ordinary file of the user's, 0666 less the umask.
  struct stat existing {};
  if (::stat(written_.c_str(), &existing) == 0) {
    mode_ = existing.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode_ = 0666 & ~mask;
  }
  ::fchmod(fd_, mode_);
}

void check_writable_output(const std::filesystem::path& target) { const AtomicOutput probe(target); }

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicOutput::fail(const std::string& reason) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
  committed_ = true;  // nothing left to remove
  throw Error(target_.string() + ": cannot write: " + reason);
}

void AtomicOutput::write(std::string_view data) {
  if (fd_ < 0) fail("the file was already closed");
  while (!data.empty()) {
    const ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(std::strerror(errno));
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

void AtomicOutput::close_for_library() {
  if (fd_ >= 0 && ::close(fd_) != 0) {
    fd_ = -1;
    fail(std::strerror(errno));
  }
  fd_ = -1;
}

void AtomicOutput::commit() {
  if (fd_ >= 0) {
    if (::fsync(fd_) != 0 && errno != EINVAL) fail(std::strerror(errno));
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) fail(std::strerror(errno));
  }
  check_output_target(written_);  // it may have become something else meanwhile
  // A library writing by name may have made the file anew, with its own permissions.
  if (::chmod(temporary_.c_str(), mode_) != 0) fail(std::strerror(errno));
  std::error_code ec;
  std::filesystem::rename(temporary_, written_, ec);
  if (ec) fail(ec.message());
  committed_ = true;
}

}  // namespace slicewise
