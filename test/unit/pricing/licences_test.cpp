// The licence table: the shipped vGPU licence, and strict loading.
#include "pricing/licences.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::pricing {
namespace {

TEST(Licences, TheShippedTableHasTheNvidiaAiEnterpriseListPrice) {
  const auto* licence = shipped_licences().find("nvidia-ai-enterprise");
  ASSERT_NE(licence, nullptr);
  EXPECT_DOUBLE_EQ(licence->usd_per_gpu_year, 4500.0);
  EXPECT_EQ(licence->as_of, "2023-11");
  EXPECT_NE(licence->source.find("earnings call"), std::string::npos);
  // 4,500 a year is 375 a month: per GPU-hour of the 730-hour month, 375 / 730.
  EXPECT_DOUBLE_EQ(licence->usd_per_gpu_hour() * 730.0, 375.0);
  EXPECT_EQ(shipped_licences().find("vmware"), nullptr);
}

TEST(Licences, EveryProblemOfAFileIsReportedWithItsPointer) {
  const auto file = std::filesystem::temp_directory_path() / "sw_licences_test.json";
  std::ofstream(file) << R"({"schema_version": 1, "currency": "USD", "source": "s", "as_of": "2026-13",
    "licences": [{"id": "a", "name": "A", "usd_per_gpu_year": 0, "source": "s", "as_of": "2026-01"},
                 {"id": "a", "name": "A", "usd_per_gpu_year": 10, "source": "s", "as_of": "2026-01", "seats": 2}]})";
  try {
    LicenceTable::load(file);
    FAIL() << "loaded";
  } catch (const ConfigError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("/as_of: expected a date YYYY-MM or YYYY-MM-DD (got \"2026-13\")"), std::string::npos) << text;
    EXPECT_NE(text.find("/licences/0/usd_per_gpu_year"), std::string::npos) << text;
    EXPECT_NE(text.find("/licences/1/id: licence \"a\" is listed twice"), std::string::npos) << text;
    EXPECT_NE(text.find("/licences/1/seats"), std::string::npos) << text;
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace slicewise::pricing
