// Paths and helpers shared by the trace tests.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test/test_util.hpp"

#include "traces/trace_reader.hpp"

namespace slicewise::traces::test {

inline std::string fixture(const std::string& name) { return std::string(SW_TEST_DATA_DIR) + "/traces/" + name; }

/// A public trace shipped zstd-compressed in examples/traces/ (NOTICE.md there): always present.
inline std::string shipped_trace(const std::string& name) {
  return std::string(SW_SOURCE_DIR) + "/examples/traces/" + name + ".zst";
}

/// A public trace from ../shared/traces; the calling test skips when it is absent.
inline std::string shared_trace(const std::string& name) { return std::string(SW_SHARED_DIR) + "/traces/" + name; }

#define SW_REQUIRE_FILE(path)                                                      \
  do {                                                                             \
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "not present: " << (path); \
  } while (0)

inline std::vector<TraceRow> read_all(TraceReader& reader) {
  std::vector<TraceRow> rows;
  TraceRow row;
  while (reader.next(row)) rows.push_back(row);
  return rows;
}

using slicewise::test::error_of;

}  // namespace slicewise::traces::test
