#include "core/json_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/atomic_output.hpp"
#include "core/error.hpp"

namespace slicewise {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_json_text(text, "s.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JsonFile, ParseErrorsCarryLineAndColumn) {
  EXPECT_EQ(
      error_of("{\n  \"a\": 1,\n  \"b\": ]\n}"),
      "s.json:3:8: parse error: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal");
  EXPECT_EQ(error_of("{\"a\": 1,}"),
            "s.json:1:9: parse error: syntax error while parsing object key - unexpected '}'; expected string literal");
}

TEST(JsonFile, AParseErrorQuotesTheInputItLastReadEscapedAndCut) {
  try {
    parse_json_text("{\"a\x7f\x01\": 1}", "f.json");
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "f.json:1:5: parse error: syntax error while parsing object key - invalid string: control character "
              "U+0001 (SOH) must be escaped to \\u0001; last read: '\"a\\x7f<U+0001>'; expected string literal");
  }
  try {
    parse_json_text("{\"" + std::string(100000, 'x') + "\x01\": 1}", "f.json");
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_LT(std::string(e.what()).size(), 450u);
  }
}

TEST(JsonFile, DuplicateKeysAreRejectedWithTheirPointer) {
  EXPECT_EQ(error_of(R"({"tenants": [{"name": "a"}, {"name": "b", "name": "c"}]})"),
            "s.json: /tenants/1/name: duplicate key (each key may appear once)");
  EXPECT_EQ(error_of(R"({"seed": 1, "x": {"y": [1, {"z": 2, "z": 3}]}, "seed": 2})"),
            "s.json: /x/y/1/z: duplicate key (each key may appear once)\n"
            "s.json: /seed: duplicate key (each key may appear once)");
}

TEST(JsonFile, NestingDeeperThan256LevelsIsAParseErrorNotAStackOverflow) {
  const std::string deep =
      "{\"a\": \"[[[ in a string\",\n \"b\": " + std::string(300, '[') + std::string(300, ']') + "}";
  EXPECT_EQ(error_of(deep),
            "s.json:2:262: parse error: nested more than 256 levels deep (objects and arrays inside each other)");
  const std::string ok = std::string(255, '[') + std::string(255, ']');
  EXPECT_NO_THROW(parse_json_text("{\"a\": " + ok + "}", "s.json"));
}

TEST(JsonFile, NumbersBeyondADoubleAreAParseErrorWithTheirPlace) {
  EXPECT_EQ(error_of("{\"a\": \"1e999 in a string\",\n  \"b\": [1, -2e400]}"),
            "s.json:2:12: parse error: number overflow parsing '-2e400' (a number must fit a double: at most about "
            "1.8e308 in magnitude)");
}

TEST(JsonFile, ValidTextParses) {
  const auto doc = parse_json_text(R"({"a": [1, 2, {"b": "c"}], "d": {"e": null}})", "s.json");
  EXPECT_EQ(doc["a"][2]["b"], "c");
}

TEST(JsonFile, MissingFileNamesTheFileAndReason) {
  try {
    read_json_file("/nonexistent/dir/s.json");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/dir/s.json: cannot open file: No such file or directory");
  }
}

TEST(JsonFile, AtomicWriteReplacesTheWholeFile) {
  const auto dir = std::filesystem::temp_directory_path() / "sw_core_test_atomic";
  std::filesystem::create_directories(dir);
  const auto path = dir / "out.json";
  write_file_atomically(path, "first version, long text");
  write_file_atomically(path, "second");
  EXPECT_EQ(read_text_file(path), "second");
  std::size_t num_files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++num_files;
  EXPECT_EQ(num_files, 1u);  // no temporary left behind
  std::filesystem::remove_all(dir);
}

std::string read_error(const std::filesystem::path& path) {
  try {
    read_text_file(path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JsonFile, DevicesFoldersAndHugeFilesAreNotReadWhole) {
  EXPECT_EQ(read_error("/dev/zero"), "/dev/zero: cannot read file: not a regular file");  // would never end
  EXPECT_EQ(read_error("/tmp"), "/tmp: cannot read file: is a directory");
  const auto dir = std::filesystem::temp_directory_path() / "sw_core_test_huge";
  std::filesystem::create_directories(dir);
  const auto huge = dir / "huge.json";
  { std::ofstream(huge) << "{}"; }
  std::filesystem::resize_file(huge, kMaxTextFileBytes + 1);  // sparse: no disk used
  EXPECT_EQ(read_error(huge), huge.string() + ": file too large: 1073741825 bytes; at most 1073741824 (1 GiB)");
  std::filesystem::remove_all(dir);
}

TEST(JsonFile, AFailedAtomicWriteNamesTheTargetAndItsReasonAndKeepsTheOldFile) {
  const auto dir = std::filesystem::temp_directory_path() / "sw_core_test_atomic_fail";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "a_folder");
  const auto write_error = [](const std::filesystem::path& path) {
    try {
      write_file_atomically(path, "text");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(write_error(dir / "a_folder"),
            (dir / "a_folder").string() + ": cannot write: not a regular file (a folder)");
  EXPECT_EQ(write_error(dir / "missing" / "r.json"),
            (dir / "missing" / "r.json").string() + ": cannot write: No such file or directory");
  std::size_t num_files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++num_files;
  EXPECT_EQ(num_files, 1u);  // the folder, and no temporary left behind
  EXPECT_TRUE(std::filesystem::is_directory(dir / "a_folder"));
  std::filesystem::remove_all(dir);
}

TEST(AtomicOutput, ASpecialFileIsRefusedNeverReplaced) {
  // Every writer renamed a temporary file over its target, so `--out /dev/null` as root replaced the
  // device node with a regular file. A FIFO stands in for the device here.
  const auto dir = std::filesystem::temp_directory_path() / ("sw_atomic_special_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    write_file_atomically(fifo, "text");
    FAIL() << "wrote over a FIFO";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), fifo.string() + ": cannot write: not a regular file (a FIFO)");
  }
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);
  std::filesystem::remove_all(dir);
}

TEST(AtomicOutput, ConcurrentWritersOfOneTargetUseTheirOwnTemporaryFiles) {
  // A temporary name made of the process id was shared by two writers in one process (and by
  // threads): one's rename took the other's half-written file.
  const auto target = std::filesystem::temp_directory_path() / ("sw_atomic_twice_" + std::to_string(::getpid()));
  AtomicOutput first(target);
  AtomicOutput second(target);
  EXPECT_NE(first.temporary(), second.temporary());
  first.write("first");
  second.write("second");
  first.commit();
  second.commit();
  EXPECT_EQ(read_text_file(target), "second");
  std::filesystem::remove(target);
}

TEST(AtomicOutput, AWriteThatFailsHalfWayKeepsTheOldFileAndSaysWhy) {
  // A full disk, simulated by a file-size limit in a child process: the write fails with EFBIG, the
  // message names the target and the OS's reason, the old file stays and no temporary is left.
  const auto dir = std::filesystem::temp_directory_path() / ("sw_atomic_full_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto target = dir / "out.json";
  write_file_atomically(target, "old");
  const auto message_file = dir / "message";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1000, 1000};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::string message = "no error";
    try {
      write_file_atomically(target, std::string(5000, 'x'));
    } catch (const Error& e) {
      message = e.what();
    }
    const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
    ::setrlimit(RLIMIT_FSIZE, &unlimited);
    write_file_atomically(message_file, message);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(read_text_file(message_file), target.string() + ": cannot write: File too large");
  EXPECT_EQ(read_text_file(target), "old");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 2u);  // out.json and the message, no temporary
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace slicewise

namespace slicewise {
namespace {

/// A fresh folder under the temporary directory, removed by the test.
std::filesystem::path fresh_folder(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

mode_t mode_of(const std::filesystem::path& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

TEST(AtomicOutput, ARewrittenFileKeepsItsPermissions) {
  // A 0600 result rewritten became 0644: a private file made readable by every user.
  const auto dir = fresh_folder("sw_atomic_mode");
  const auto target = dir / "private.json";
  write_file_atomically(target, "old");
  ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
  write_file_atomically(target, "new");
  EXPECT_EQ(read_text_file(target), "new");
  EXPECT_EQ(mode_of(target), 0600u);
  // Also when a library rewrites the temporary file by name, with permissions of its own.
  ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
  AtomicOutput by_name(target);
  by_name.close_for_library();
  std::filesystem::remove(by_name.temporary());
  std::ofstream(by_name.temporary()) << "by name";
  ASSERT_EQ(::chmod(by_name.temporary().c_str(), 0644), 0);
  by_name.commit();
  EXPECT_EQ(read_text_file(target), "by name");
  EXPECT_EQ(mode_of(target), 0640u);
  // A new file: 0666 less the umask.
  const mode_t mask = ::umask(022);
  write_file_atomically(dir / "new.json", "x");
  ::umask(mask);
  EXPECT_EQ(mode_of(dir / "new.json"), 0644u);
  std::filesystem::remove_all(dir);
}

TEST(AtomicOutput, ASymlinkIsWrittenThroughAndKept) {
  // `--out latest.json`, a link to the dated file: the link was replaced by a regular file
  // without a word. The file it leads to is rewritten, and the link stays.
  const auto dir = fresh_folder("sw_atomic_link");
  std::filesystem::create_directories(dir / "runs");
  write_file_atomically(dir / "runs" / "2026-11-29.json", "old");
  std::filesystem::create_symlink("runs/2026-11-29.json", dir / "latest.json");
  write_file_atomically(dir / "latest.json", "new");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "latest.json"));
  EXPECT_EQ(read_text_file(dir / "runs" / "2026-11-29.json"), "new");
  // A link to a file not yet there makes the file.
  std::filesystem::create_symlink("runs/next.json", dir / "next.json");
  write_file_atomically(dir / "next.json", "first");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "next.json"));
  EXPECT_EQ(read_text_file(dir / "runs" / "next.json"), "first");
  // A link loop is an error naming the path and the reason.
  std::filesystem::create_symlink("loop.json", dir / "loop.json");
  try {
    write_file_atomically(dir / "loop.json", "x");
    FAIL() << "wrote through a link loop";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir / "loop.json").string() + ": cannot write: Too many levels of symbolic links");
  }
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "loop.json"));
  std::filesystem::remove_all(dir);
}

TEST(AtomicOutput, ASignalRemovesTheTemporaryFileBeingWritten) {
  // A trace conversion stopped by Ctrl-C left a hidden ".NAME.tmp-" file (155 MB after 2 s).
  const auto dir = fresh_folder("sw_atomic_signal");
  const pid_t pid = ::fork();
  if (pid == 0) {
    remove_temporaries_on_signals();
    AtomicOutput out(dir / "converted.csv");
    out.write("half of a trace");
    ::raise(SIGTERM);
    ::_exit(0);  // not reached: the signal ends the process
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

TEST(AtomicOutput, AForkedChildRemovesOnlyItsOwnTemporaryFiles) {
  // A child inherits the table of files being written, not the writing: a signal in a sweep's
  // child must not remove the parent's half-written file.
  const auto dir = fresh_folder("sw_atomic_fork");
  AtomicOutput parent(dir / "parent.json");
  parent.write("parent's");
  const pid_t pid = ::fork();
  if (pid == 0) {
    remove_live_temporaries();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_TRUE(std::filesystem::exists(parent.temporary()));
  parent.commit();
  EXPECT_EQ(read_text_file(dir / "parent.json"), "parent's");
  std::filesystem::remove_all(dir);
}

TEST(AtomicOutput, TheNextWriterRemovesWhatAKilledOneLeft) {
  // SIGKILL cannot be caught: the file's next writer removes the temporary files that no live
  // writer holds, once untouched for 10 s; a live writer's file and a fresh one stay.
  const auto dir = fresh_folder("sw_atomic_stale");
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::seconds(60);
  for (const char* name :
       {".out.json.tmp-AAAAAA", ".out.json.tmp-BBBBBB", ".out.json.tmp-CCCCCC", ".other.json.tmp-DDDDDD"}) {
    std::ofstream(dir / name) << "left";
  }
  for (const char* name : {".out.json.tmp-AAAAAA", ".out.json.tmp-BBBBBB", ".other.json.tmp-DDDDDD"}) {
    std::filesystem::last_write_time(dir / name, old);
  }
  const int held = ::open((dir / ".out.json.tmp-BBBBBB").c_str(), O_RDONLY);  // a live writer's lock
  ASSERT_GE(held, 0);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  write_file_atomically(dir / "out.json", "new");
  ::close(held);
  EXPECT_FALSE(std::filesystem::exists(dir / ".out.json.tmp-AAAAAA"));   // dead and old: removed
  EXPECT_TRUE(std::filesystem::exists(dir / ".out.json.tmp-BBBBBB"));    // locked: a writer lives
  EXPECT_TRUE(std::filesystem::exists(dir / ".out.json.tmp-CCCCCC"));    // fresh: maybe just made
  EXPECT_TRUE(std::filesystem::exists(dir / ".other.json.tmp-DDDDDD"));  // another file's
  EXPECT_EQ(read_text_file(dir / "out.json"), "new");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace slicewise

namespace slicewise {
namespace {

/// The names in `dir`, sorted, folders with a trailing "/".
std::vector<std::string> listing(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    names.push_back(std::filesystem::relative(entry.path(), dir).string() + (entry.is_directory() ? "/" : ""));
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OutputSet, AFailureWritingOneFileOfASetReplacesNoneAndLeavesNoFolderItMade) {
  // export-config, advise, sweep results and a report with figures were written file by file: a
  // failure part-way left old and new files mixed, and an empty figures folder behind.
  const auto dir = fresh_folder("sw_output_set");
  write_file_atomically(dir / "a.txt", "old a");
  write_file_atomically(dir / "b.txt", "old b");
  std::filesystem::create_directory(dir / "c.txt");  // a folder where the last file goes: refused
  const std::vector<OutputFile> set = {{dir / "a.txt", "new a"},
                                       {dir / "report-figures" / "cost.svg", "<svg/>"},
                                       {dir / "b.txt", "new b"},
                                       {dir / "c.txt", "new c"}};
  try {
    write_files_atomically(set);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "c.txt").string() + ": cannot write: not a regular file (a folder)");
  }
  EXPECT_EQ(read_text_file(dir / "a.txt"), "old a");
  EXPECT_EQ(read_text_file(dir / "b.txt"), "old b");
  EXPECT_EQ(listing(dir), (std::vector<std::string>{"a.txt", "b.txt", "c.txt/"}));  // no figures folder, no temporary
  // Once it can be written, every file is new, scripts executable.
  std::filesystem::remove(dir / "c.txt");
  auto whole = set;
  whole[3].executable = true;
  write_files_atomically(whole);
  EXPECT_EQ(read_text_file(dir / "a.txt"), "new a");
  EXPECT_EQ(read_text_file(dir / "report-figures" / "cost.svg"), "<svg/>");
  EXPECT_EQ(read_text_file(dir / "c.txt"), "new c");
  EXPECT_EQ(mode_of(dir / "c.txt") & 0111, 0111u);
  EXPECT_EQ(mode_of(dir / "a.txt") & 0111, 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace slicewise
