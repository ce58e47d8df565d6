// ChildPool: the fork/pipe/poll/waitpid loop that `simulate` (one child per strategy) and `sweep`
// (one child per point) share. Each job runs in a forked child that writes lines to a pipe; the
// parent hands every complete line and the exit status to callbacks. SIGINT or SIGTERM stops the
// pool: nothing more is started, the running children are killed and reaped, and run() returns
// the signal so that the caller can clean up and exit 128 + signal. A pool's process killed outright
// (SIGKILL) takes its children with it: each child gets SIGTERM when its parent dies.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace slicewise::cli {

/// What a caller throws (after cleaning up) when SIGINT or SIGTERM stopped its ChildPool;
/// what() is "interrupted by SIGTERM" (or SIGINT).
class Interrupted : public Error {
 public:
  explicit Interrupted(int signal_number);
  int signal_number() const { return signal_number_; }

 private:
  int signal_number_;
};

/// Catches SIGINT and SIGTERM from construction to destruction; the previous handlers come back
/// afterwards. Scopes nest: an inner scope (a ChildPool inside a command's scope) shares the
/// outermost one's record, so a signal that arrives between two pools is seen by the next.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  /// The signal caught since the outermost scope began, or 0.
  static int received();
  /// Throws Interrupted when a signal was caught.
  static void throw_if_received();
  /// In a forked child: forgets the parent's scopes (the child starts with default handlers).
  static void forget_in_child();

 private:
  bool outermost_ = false;
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

/// Runs jobs 0..num_jobs-1 in forked children, at most max_running at a time. From construction
/// to destruction SIGINT and SIGTERM are caught (an InterruptScope); one pool per process at a
/// time. The destructor kills and reaps any child still running (when a callback threw).
class ChildPool {
 public:
  struct Jobs {
    std::size_t num_jobs = 0;
    int max_running = 1;
    /// Each child leads its own process group, and an interrupt kills the whole group (the
    /// child's own children included); otherwise only the child is killed.
    bool own_process_group = false;
    /// In the child (SIGINT and SIGTERM back to their defaults, its pipe's write end open as
    /// `fd`): does job `index`. Must end the process with _exit; if it returns, the child exits 127.
    std::function<void(std::size_t index, int fd)> work;
    /// Optional; in the parent, just after job `index` was forked.
    std::function<void(std::size_t index)> on_start;
    /// Each complete line (without its '\n') the child wrote; a last line without '\n' is dropped.
    std::function<void(std::size_t index, const std::string& line)> on_line;
    /// Once per job, after its pipe closed and it was reaped; `status` as waitpid gives it. Not
    /// called for children killed by an interrupt.
    std::function<void(std::size_t index, int status)> on_exit;
    /// Optional; before each wait for output, which lasts at most a second.
    std::function<void()> on_wait;
  };

  ChildPool() = default;
  ~ChildPool();
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;

  /// Runs every job; returns 0 when all ran, or the signal (SIGINT, SIGTERM) that stopped the
  /// pool, in which case every running child was killed and reaped. Throws Error when pipe or fork
  /// fails.
  int run(const Jobs& jobs);

  /// The signal received since the outermost InterruptScope began, or 0: a caller checks it again
  /// after its own post-processing, which an interrupt does not stop.
  int interrupted() const { return InterruptScope::received(); }

 private:
  struct Child {
    pid_t pid = -1;
    int fd = -1;  ///< read end of the child's pipe
    std::size_t index = 0;
    std::string buffer;  ///< output not yet ended by '\n'
  };

  void start(const Jobs& jobs, std::size_t index);
  /// Reads what child `position` wrote; false at end of file.
  bool read_from(std::size_t position, const Jobs& jobs);
  void reap(std::size_t position, const Jobs& jobs);
  void kill_running();

  InterruptScope interrupts_;
  std::vector<Child> running_;
  bool own_process_group_ = false;
};

}  // namespace slicewise::cli
