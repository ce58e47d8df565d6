#include "core/json_file.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

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
  EXPECT_EQ(error_of("{\n  \"a\": 1,\n  \"b\": ]\n}"),
            "s.json:3:8: parse error: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal");
  EXPECT_EQ(error_of("{\"a\": 1,}"),
            "s.json:1:9: parse error: syntax error while parsing object key - unexpected '}'; expected string literal");
}

TEST(JsonFile, DuplicateKeysAreRejectedWithTheirPointer) {
  EXPECT_EQ(error_of(R"({"tenants": [{"name": "a"}, {"name": "b", "name": "c"}]})"),
            "s.json: /tenants/1/name: duplicate key (each key may appear once)");
  EXPECT_EQ(error_of(R"({"seed": 1, "x": {"y": [1, {"z": 2, "z": 3}]}, "seed": 2})"),
            "s.json: /x/y/1/z: duplicate key (each key may appear once)\n"
            "s.json: /seed: duplicate key (each key may appear once)");
}

TEST(JsonFile, NestingDeeperThan256LevelsIsAParseErrorNotAStackOverflow) {
  const std::string deep = "{\"a\": \"[[[ in a string\",\n \"b\": " + std::string(300, '[') + std::string(300, ']') + "}";
  EXPECT_EQ(error_of(deep), "s.json:2:262: parse error: nested more than 256 levels deep (objects and arrays inside each other)");
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
  EXPECT_EQ(write_error(dir / "a_folder"), (dir / "a_folder").string() + ": cannot write: Is a directory");
  EXPECT_EQ(write_error(dir / "missing" / "r.json"),
            (dir / "missing" / "r.json").string() + ": cannot write: No such file or directory");
  std::size_t num_files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++num_files;
  EXPECT_EQ(num_files, 1u);  // the folder, and no temporary left behind
  EXPECT_TRUE(std::filesystem::is_directory(dir / "a_folder"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace slicewise
