#include "core/data_dir.hpp"

#include <gtest/gtest.h>

namespace slicewise {
namespace {

TEST(PathInDocument, RelativePathsAreTheDocumentsNotTheWorkingDirectorys) {
  EXPECT_EQ(path_in_document("examples/seed.json", "traces/a.csv.zst"), "examples/traces/a.csv.zst");
  EXPECT_EQ(path_in_document("examples/sweeps/s.json", "../seed.json"), "examples/seed.json");
  EXPECT_EQ(path_in_document("s.json", "t.csv"), "t.csv");
  EXPECT_EQ(path_in_document("/a/b/s.json", "./c/../t.csv"), "/a/b/t.csv");
  EXPECT_EQ(path_in_document("examples/s.json", "/data/x/../t.csv"), "/data/t.csv");
}

}  // namespace
}  // namespace slicewise
