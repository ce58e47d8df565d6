// LineReader streaming a file and reading one keep_decoded() holds: the same lines, line numbers
// and errors either way.
#include "traces/line_reader.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "test/unit/traces/trace_test_util.hpp"

namespace slicewise::traces::test {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  LineReader reader(path);
  std::vector<std::string> lines;
  std::string_view line;
  while (reader.next(line)) {
    lines.emplace_back(line);
    EXPECT_EQ(reader.line_number(), static_cast<long>(lines.size()));
  }
  return lines;
}

/// Each test's files in a folder of its own, removed after it.
class LineReaderTest : public ::testing::Test {
 protected:
  void SetUp() override { std::filesystem::create_directories(folder_); }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  /// `name` in the folder, holding `text`.
  std::string write_text(const std::string& name, const std::string& text) const {
    const auto path = (folder_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::filesystem::path folder_ =
      std::filesystem::temp_directory_path() / ("sw-line-reader-test-" + std::to_string(::getpid()));
};

TEST_F(LineReaderTest, AHeldFileGivesTheLinesTheStreamedOneGives) {
  // Plain, gzip and zstd, each read streamed first, then held, then streamed again by a new reader.
  for (const auto& name : {"azure2024.csv", "azure-synthetic.csv.gz", "azure-synthetic.csv.zst"}) {
    const std::string path = fixture(name);
    const auto streamed = lines_of(path);
    ASSERT_GT(streamed.size(), 2U) << name;
    ASSERT_TRUE(keep_decoded(path)) << name;
    EXPECT_TRUE(keep_decoded(path)) << name << " (held already)";
    EXPECT_EQ(lines_of(path), streamed) << name;
  }
  // The gzip and zstd copies of one trace decode to the same lines.
  EXPECT_EQ(lines_of(fixture("azure-synthetic.csv.gz")), lines_of(fixture("azure-synthetic.csv.zst")));
}

TEST_F(LineReaderTest, AHeldFileKeepsItsLineEndingsByteOrderMarkAndLastLine) {
  const std::string text = "\xEF\xBB\xBFheader\r\nrow 1\n\nrow 3\r\nlast without newline";
  const std::vector<std::string> expected = {"header", "row 1", "", "row 3", "last without newline"};
  const auto streamed = write_text("endings-streamed.csv", text);
  EXPECT_EQ(lines_of(streamed), expected);
  const auto held = write_text("endings-held.csv", text);
  ASSERT_TRUE(keep_decoded(held));
  EXPECT_EQ(lines_of(held), expected);
  // Held means read once: the bytes stay what they were when the file was kept.
  write_text("endings-held.csv", "changed\n");
  EXPECT_EQ(lines_of(held), expected);
  // An empty file is held too, and has no line.
  const auto empty = write_text("empty.csv", "");
  ASSERT_TRUE(keep_decoded(empty));
  EXPECT_TRUE(lines_of(empty).empty());
}

TEST_F(LineReaderTest, AFileThatCannotBeDecodedIsNotHeldAndItsReaderSaysWhy) {
  // A zstd frame cut short: nothing is held, and the reader reports it as it always has.
  std::ifstream in(fixture("azure-synthetic.csv.zst"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto cut = write_text("cut.csv.zst", bytes.substr(0, bytes.size() / 2));
  EXPECT_FALSE(keep_decoded(cut));
  EXPECT_NE(error_of([&] { lines_of(cut); }).find("truncated zstd stream"), std::string::npos)
      << error_of([&] { lines_of(cut); });
  EXPECT_FALSE(keep_decoded((folder_ / "absent.csv").string()));
  EXPECT_NE(error_of([&] { LineReader reader(fixture("no-such-trace.csv")); }).find("cannot open"), std::string::npos);
}

TEST_F(LineReaderTest, AFileOverThirtyTwoMebibytesDecodedStreams) {
  // 33 MiB of short lines: too large to hold, read streamed, to the same last line.
  std::string text;
  text.reserve((33u << 20) + 64);
  long count = 0;
  while (text.size() < (33u << 20)) text += "row " + std::to_string(++count) + "\n";
  const auto path = write_text("large.csv", text);
  EXPECT_FALSE(keep_decoded(path));
  LineReader reader(path);
  std::string_view line;
  std::string last;
  while (reader.next(line)) last = line;
  EXPECT_EQ(reader.line_number(), count);
  EXPECT_EQ(last, "row " + std::to_string(count));
}

}  // namespace
}  // namespace slicewise::traces::test
