// Atomic, checked output files (see atomic_output.hpp).
#include "core/atomic_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <mutex>
#include <set>
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

/// The temporary files being written now, for a signal handler to remove: fixed slots of plain
/// characters, each with a lock-free flag, so that the handler only reads memory and unlinks.
constexpr std::size_t kMaxLiveTemporaries = 64;
constexpr std::size_t kMaxLivePathBytes = 4096;
struct LiveTemporary {
  std::atomic<bool> used{false};
  pid_t owner = 0;  ///< the process writing it: a forked child inherits the table, not the files
  std::array<char, kMaxLivePathBytes> path{};
};
std::array<LiveTemporary, kMaxLiveTemporaries> live_temporaries;
std::mutex live_mutex;  // between writers' threads; never taken by the handler
static_assert(std::atomic<bool>::is_always_lock_free);

/// The slot `path` is kept in while it is written; -1 when none is free (then only the next
/// writer's sweep of stale files removes it after a signal).
int register_live(const std::string& path) {
  if (path.size() >= kMaxLivePathBytes) return -1;
  const std::lock_guard lock(live_mutex);
  for (std::size_t i = 0; i < live_temporaries.size(); ++i) {
    auto& slot = live_temporaries[i];
    if (slot.used.load(std::memory_order_acquire)) continue;
    std::memcpy(slot.path.data(), path.c_str(), path.size() + 1);
    slot.owner = ::getpid();
    slot.used.store(true, std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_live(int slot) {
  if (slot >= 0) live_temporaries[static_cast<std::size_t>(slot)].used.store(false, std::memory_order_release);
}

extern "C" void remove_then_reraise(int signal_number) {
  remove_live_temporaries();
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

/// How long a temporary file must have been left untouched before another writer removes it.
constexpr auto kStaleAfter = std::chrono::seconds(10);

/// Removes what earlier writers of the same file left when they died (SIGKILL, a power cut):
/// "<prefix>XXXXXX" beside it that no live process holds its lock on, untouched for kStaleAfter.
/// Once per file and process: what a killed process left predates this one, and a file rewritten
/// often (a sweep's state after every point) must not list its folder every time.
void remove_stale_temporaries(const std::filesystem::path& folder, const std::string& prefix) {
  static std::set<std::string> swept;  // guarded by live_mutex
  {
    const std::lock_guard lock(live_mutex);
    if (!swept.insert((folder / prefix).string()).second) return;
  }
  std::error_code ec;
  std::filesystem::directory_iterator it(folder, ec);
  const auto now = std::filesystem::file_time_type::clock::now();
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + 6 || !name.starts_with(prefix)) continue;
    std::error_code entry_ec;
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(it->path(), entry_ec))) continue;
    const auto modified = std::filesystem::last_write_time(it->path(), entry_ec);
    if (entry_ec || now - modified < kStaleAfter) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(it->path().c_str());  // its writer is gone
    ::close(fd);
  }
}

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

void remove_live_temporaries() noexcept {
  const pid_t self = ::getpid();
  for (auto& slot : live_temporaries) {
    if (slot.used.load(std::memory_order_acquire) && slot.owner == self) ::unlink(slot.path.data());
  }
}

void remove_temporaries_on_signals() {
  struct sigaction action {};
  action.sa_handler = remove_then_reraise;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal_number, &action, nullptr);
}

AtomicOutput::AtomicOutput(std::filesystem::path target) : target_(std::move(target)), written_(written_path(target_)) {
  check_output_target(written_);
  const auto folder = written_.has_parent_path() ? written_.parent_path() : std::filesystem::path(".");
  const std::string prefix = "." + written_.filename().string() + ".tmp-";
  remove_stale_temporaries(folder, prefix);
  std::string name = (folder / (prefix + "XXXXXX")).string();
  std::vector<char> buffer(name.begin(), name.end());
  buffer.push_back('\0');
  fd_ = ::mkostemp(buffer.data(), O_CLOEXEC);
  if (fd_ < 0) throw Error(target_.string() + ": cannot write: " + std::strerror(errno));
  temporary_ = buffer.data();
  live_slot_ = register_live(temporary_.string());
  // Held while this writer lives (a second descriptor: a library may close the first), so that no
  // other writer's sweep takes the file for a dead one's.
  lock_fd_ = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
  if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_EX | LOCK_NB);
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
  unregister_live(live_slot_);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void AtomicOutput::fail(const std::string& reason) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
  unregister_live(live_slot_);
  live_slot_ = -1;
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

void AtomicOutput::finish() {
  if (fd_ >= 0) {
    if (::fsync(fd_) != 0 && errno != EINVAL) fail(std::strerror(errno));
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) fail(std::strerror(errno));
  }
  check_output_target(written_);  // it may have become something else meanwhile
  // A library writing by name may have made the file anew, with its own permissions.
  if (::chmod(temporary_.c_str(), mode_) != 0) fail(std::strerror(errno));
}

void AtomicOutput::commit() {
  finish();
  std::error_code ec;
  std::filesystem::rename(temporary_, written_, ec);
  if (ec) fail(ec.message());
  committed_ = true;
  unregister_live(live_slot_);  // the name is the target's now: a signal must not remove it
  live_slot_ = -1;
}

}  // namespace slicewise
