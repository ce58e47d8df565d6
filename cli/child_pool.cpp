// ChildPool: fork one child per job, N at a time, read their lines, reap them; stop on SIGINT/SIGTERM.
#include "cli/child_pool.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace slicewise::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
int g_depth = 0;  ///< InterruptScopes alive in this process
extern "C" void on_interrupt(int signal_number) { g_interrupted = signal_number; }

std::string signal_name(int signal_number) {
  if (signal_number == SIGINT) return "SIGINT";
  if (signal_number == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal_number);
}

/// waitpid, retried when a signal interrupts it.
int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

Interrupted::Interrupted(int signal_number)
    : Error("interrupted by " + signal_name(signal_number)), signal_number_(signal_number) {}

InterruptScope::InterruptScope() {
  if (g_depth++ > 0) return;
  outermost_ = true;
  g_interrupted = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &old_int_);
  ::sigaction(SIGTERM, &action, &old_term_);
}

InterruptScope::~InterruptScope() {
  --g_depth;
  if (!outermost_) return;
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
}

int InterruptScope::received() { return g_interrupted; }

void InterruptScope::throw_if_received() {
  if (g_interrupted != 0) throw Interrupted(g_interrupted);
}

void InterruptScope::forget_in_child() {
  g_depth = 0;
  g_interrupted = 0;
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
}

ChildPool::~ChildPool() { kill_running(); }

int ChildPool::run(const Jobs& jobs) {
  own_process_group_ = jobs.own_process_group;
  std::size_t next = 0;
  while ((next < jobs.num_jobs || !running_.empty()) && !g_interrupted) {
    while (next < jobs.num_jobs && static_cast<int>(running_.size()) < jobs.max_running && !g_interrupted) {
      start(jobs, next++);
    }
    if (jobs.on_wait) jobs.on_wait();
    std::vector<pollfd> polls;
    for (const auto& child : running_) polls.push_back({child.fd, POLLIN, 0});
    if (::poll(polls.data(), polls.size(), 1000) < 0) {
      if (errno == EINTR) continue;  // a signal: the loop condition looks at it
      throw Error(std::string("poll: ") + std::strerror(errno));
    }
    for (std::size_t i = 0, p = 0; i < running_.size(); ++p) {
      if (!(polls[p].revents & (POLLIN | POLLHUP | POLLERR)) || read_from(i, jobs)) {
        ++i;
        continue;
      }
      reap(i, jobs);  // erases running_[i]
    }
  }
  if (g_interrupted) kill_running();
  return g_interrupted;
}

void ChildPool::start(const Jobs& jobs, std::size_t index) {
  int fds[2];
  if (::pipe(fds) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // or the child would inherit, and maybe write, the parent's buffered output
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw Error(std::string("fork: ") + std::strerror(error));
  }
  if (pid == 0) {
    if (jobs.own_process_group) ::setpgid(0, 0);
    InterruptScope::forget_in_child();
    // A parent killed outright (SIGKILL, a crash) cannot stop its children: the kernel sends them
    // SIGTERM instead, so that a child that is itself a pool stops its own children and removes
    // its temporary files rather than running on as an orphan. The parent may be gone already.
    // Its pipe's reader is gone then too: a write to the pipe must fail (EPIPE), not kill the
    // child with SIGPIPE before it has cleaned up.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    ::signal(SIGPIPE, SIG_IGN);
    if (::getppid() != parent) ::_exit(128 + SIGTERM);
    ::close(fds[0]);
    for (const auto& child : running_) ::close(child.fd);
    try {
      jobs.work(index, fds[1]);
    } catch (...) {  // never unwind into the parent's code in the child
    }
    ::_exit(127);
  }
  if (jobs.own_process_group) ::setpgid(pid, pid);  // also here: no race with kill_running
  ::close(fds[1]);
  running_.push_back({pid, fds[0], index, {}});
  if (jobs.on_start) jobs.on_start(index);
}

bool ChildPool::read_from(std::size_t position, const Jobs& jobs) {
  auto& child = running_[position];
  char chunk[1024];
  ssize_t n;
  while ((n = ::read(child.fd, chunk, sizeof chunk)) < 0 && errno == EINTR) {
  }
  if (n <= 0) return false;
  child.buffer.append(chunk, static_cast<std::size_t>(n));
  std::size_t end;
  while ((end = child.buffer.find('\n')) != std::string::npos) {
    const std::string line = child.buffer.substr(0, end);
    child.buffer.erase(0, end + 1);
    jobs.on_line(child.index, line);
  }
  return true;
}

void ChildPool::reap(std::size_t position, const Jobs& jobs) {
  const Child child = std::move(running_[position]);
  running_.erase(running_.begin() + static_cast<long>(position));
  ::close(child.fd);
  jobs.on_exit(child.index, wait_for(child.pid));
}

void ChildPool::kill_running() {
  for (const auto& child : running_) ::kill(own_process_group_ ? -child.pid : child.pid, SIGTERM);
  for (const auto& child : running_) {
    ::close(child.fd);
    wait_for(child.pid);
  }
  running_.clear();
}

}  // namespace slicewise::cli
