// ChildPool: jobs N at a time, lines and exit statuses delivered, and SIGTERM stopping the pool.
#include "cli/child_pool.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace slicewise::cli {
namespace {

void write_text(int fd, const std::string& text) {
  [[maybe_unused]] const auto written = ::write(fd, text.data(), text.size());
}

/// Alive and not a zombie (a zombie's parent may be a PID 1 that never reaps).
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string ignored, state;
  return stat >> ignored >> ignored >> state && state != "Z";
}

TEST(ChildPool, RunsEveryJobAtMostMaxRunningAtATimeWithItsLinesAndStatus) {
  std::map<std::size_t, std::vector<std::string>> lines;
  std::map<std::size_t, int> codes;
  int running = 0, most_running = 0;
  ChildPool::Jobs jobs;
  jobs.num_jobs = 5;
  jobs.max_running = 2;
  jobs.work = [](std::size_t index, int fd) {
    write_text(fd, "first " + std::to_string(index) + "\nsec");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    write_text(fd, "ond\nunfinished");
    ::_exit(static_cast<int>(index));
  };
  jobs.on_start = [&](std::size_t) { most_running = std::max(most_running, ++running); };
  jobs.on_line = [&](std::size_t index, const std::string& line) { lines[index].push_back(line); };
  jobs.on_exit = [&](std::size_t index, int status) {
    --running;
    codes[index] = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  ChildPool pool;
  EXPECT_EQ(pool.run(jobs), 0);
  EXPECT_EQ(most_running, 2);
  ASSERT_EQ(lines.size(), 5u);
  ASSERT_EQ(codes.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(lines[i], (std::vector<std::string>{"first " + std::to_string(i), "second"}));
    EXPECT_EQ(codes[i], static_cast<int>(i));
  }
}

TEST(ChildPool, SigtermKillsTheRunningGroupsStartsNoMoreAndRestoresTheHandler) {
  std::vector<pid_t> grandchildren;
  int num_started = 0, num_exited = 0;
  ChildPool::Jobs jobs;
  jobs.num_jobs = 4;
  jobs.max_running = 2;
  jobs.own_process_group = true;
  jobs.work = [](std::size_t, int fd) {
    const pid_t grandchild = ::fork();
    if (grandchild == 0) ::pause();
    write_text(fd, std::to_string(grandchild) + "\n");
    ::pause();
    ::_exit(0);
  };
  jobs.on_start = [&](std::size_t) { ++num_started; };
  jobs.on_line = [&](std::size_t, const std::string& line) {
    grandchildren.push_back(std::stoi(line));
    if (grandchildren.size() == 2) std::raise(SIGTERM);  // as if the parent got it
  };
  jobs.on_exit = [&](std::size_t, int) { ++num_exited; };
  struct sigaction before {};
  ::sigaction(SIGTERM, nullptr, &before);
  {
    ChildPool pool;
    EXPECT_EQ(pool.run(jobs), SIGTERM);
    EXPECT_EQ(pool.interrupted(), SIGTERM);
  }
  EXPECT_EQ(num_started, 2);
  EXPECT_EQ(num_exited, 0);
  ASSERT_EQ(grandchildren.size(), 2u);
  for (const pid_t pid : grandchildren) {
    for (int i = 0; i < 100 && alive(pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_FALSE(alive(pid)) << pid;
  }
  struct sigaction now {};
  ::sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, before.sa_handler);
  EXPECT_STREQ(Interrupted(SIGTERM).what(), "interrupted by SIGTERM");
  EXPECT_STREQ(Interrupted(SIGINT).what(), "interrupted by SIGINT");
}

}  // namespace
}  // namespace slicewise::cli
