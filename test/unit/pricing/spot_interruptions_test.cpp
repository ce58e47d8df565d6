// The spot interruption table: the shipped readings, the fallback, and strict loading.
#include "pricing/spot_interruptions.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::pricing {
namespace {

TEST(SpotInterruptions, TheShippedTableGivesTheAdvisorsBandsUpperEdgeAndTheProvidersNotice) {
  const auto& table = shipped_spot_interruptions();
  // p5.48xlarge read 15-20 % on 2026-02-24: 0.2 per instance-month; p4d.24xlarge and g6f 5-10 %.
  const auto h100 = table.rate("aws", "H100-SXM-80GB");
  EXPECT_DOUBLE_EQ(h100.per_month, 0.20);
  EXPECT_EQ(h100.band, "15-20 %");
  EXPECT_FALSE(h100.assumed);
  EXPECT_NE(h100.source.find("p5.48xlarge on 2026-02-24"), std::string::npos) << h100.source;
  EXPECT_DOUBLE_EQ(table.rate("aws", "A100-40GB").per_month, 0.10);
  EXPECT_DOUBLE_EQ(table.rate("aws", "L4").per_month, 0.10);
  // No reading for the L40S, nor for any GPU on GCP: the stated default, marked assumed.
  const auto l40s = table.rate("aws", "L40S");
  EXPECT_TRUE(l40s.assumed);
  EXPECT_DOUBLE_EQ(l40s.per_month, 0.20);
  EXPECT_TRUE(table.rate("gcp", "H100-SXM-80GB").assumed);
  bool assumed = true;
  EXPECT_DOUBLE_EQ(table.notice_s("aws", &assumed), 120.0);
  EXPECT_FALSE(assumed);
  EXPECT_DOUBLE_EQ(table.notice_s("gcp"), 30.0);
  // A table of the user's own: the shortest notice listed.
  EXPECT_DOUBLE_EQ(table.notice_s("my-cloud", &assumed), 30.0);
  EXPECT_TRUE(assumed);
  EXPECT_DOUBLE_EQ(table.replacement_s, 300.0);
}

TEST(SpotInterruptions, EveryProblemOfAFileIsReportedWithItsPointer) {
  const auto file = std::filesystem::temp_directory_path() / "sw_spot_interruptions_test.json";
  std::ofstream(file) << R"({"schema_version": 1, "source": "s", "as_of": "2026-02", "reading": "r",
    "replacement_s": -1, "replacement_source": "x",
    "providers": [{"table": "aws", "notice_s": 120, "source": "s"}, {"table": "aws", "notice_s": 30, "source": "s"}],
    "rates": [{"table": "aws", "gpu": "L4", "band": "5-10 %", "per_month": 1.5, "instance": "g6", "as_of": "2026-02"},
              {"table": "aws", "gpu": "L4", "band": "5-10 %", "per_month": 0.1, "instance": "g6", "as_of": "2026-02",
               "zone": "a"}],
    "default": {"band": ">20 %", "per_month": 0.2}})";
  try {
    SpotInterruptionTable::load(file);
    FAIL() << "loaded";
  } catch (const ConfigError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("/replacement_s"), std::string::npos) << text;
    EXPECT_NE(text.find("/providers/1/table: provider \"aws\" is listed twice"), std::string::npos) << text;
    EXPECT_NE(text.find("/rates/0/per_month"), std::string::npos) << text;
    EXPECT_NE(text.find("/rates/1: the rate of L4 on \"aws\" is listed twice"), std::string::npos) << text;
    EXPECT_NE(text.find("/rates/1/zone"), std::string::npos) << text;
    EXPECT_NE(text.find("/default: missing required key \"source\""), std::string::npos) << text;
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace slicewise::pricing
