// The progress bar's figures (cli/progress_meter.hpp) on a clock the test moves by hand.
#include "cli/progress_meter.hpp"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

namespace slicewise::cli {
namespace {

struct FakeClock {
  double now = 100.0;
  ProgressMeter::Clock clock() {
    return [this] { return now; };
  }
};

TEST(ProgressMeter, TimeLeftIsTheMeanRateExtrapolated) {
  FakeClock t;
  std::ostringstream err;
  ProgressMeter meter(ProgressMode::json, err, "simulating", t.clock());
  EXPECT_FALSE(meter.eta_s());  // nothing done yet
  t.now += 0.2;
  meter.update(0.5, "");
  EXPECT_FALSE(meter.eta_s());  // half done, but after 0.2 s: one early sample says nothing
  t.now += 7.8;
  meter.update(0.4, "");  // below what was shown: the meter keeps 50 %
  EXPECT_DOUBLE_EQ(meter.fraction(), 0.5);
  EXPECT_DOUBLE_EQ(meter.elapsed_s(), 8.0);
  ASSERT_TRUE(meter.eta_s());
  EXPECT_DOUBLE_EQ(*meter.eta_s(), 8.0);  // half in 8 s: 8 s more
  meter.update(0.8, "");                  // 80 % in 8 s: 2 s left
  EXPECT_DOUBLE_EQ(*meter.eta_s(), 2.0);
  meter.update(1.0, "");
  EXPECT_DOUBLE_EQ(*meter.eta_s(), 0.0);
  meter.update(1.7, "");  // clamped
  EXPECT_DOUBLE_EQ(meter.fraction(), 1.0);
  EXPECT_EQ(err.str(), "");  // json mode: the caller writes the lines; the meter draws no bar
}

TEST(ProgressMeter, WorkThatGrowsLowersTheFractionOnceAndTheTimeLeftWithIt) {
  // The advisor adds candidates after its baseline: 150 of 214 done used to read "about 0 s left",
  // the first 150's 100 % kept.
  FakeClock t;
  std::ostringstream err;
  ProgressMeter meter(ProgressMode::json, err, "advising", t.clock());
  t.now += 10.0;
  meter.update(1.0, "");
  EXPECT_DOUBLE_EQ(*meter.eta_s(), 0.0);
  meter.work_grew();
  meter.update(150.0 / 214.0, "");
  EXPECT_DOUBLE_EQ(meter.fraction(), 150.0 / 214.0);
  EXPECT_NEAR(*meter.eta_s(), 10.0 * 64.0 / 150.0, 1e-12);  // 4.27 s at the mean rate
  meter.update(0.5, "");                                    // below what is shown again: kept
  EXPECT_DOUBLE_EQ(meter.fraction(), 150.0 / 214.0);
  meter.update(0.9999, "");
  EXPECT_NE(meter.bar_text("").find(", under 1 s left"), std::string::npos) << meter.bar_text("");
}

TEST(ProgressMeter, AnnotatesJsonLinesWithTheWholeRunsFigures) {
  FakeClock t;
  std::ostringstream err;
  ProgressMeter meter(ProgressMode::json, err, "sweep", t.clock());
  nlohmann::json early;
  meter.annotate(early);
  EXPECT_EQ(early.dump(), R"({"elapsed_s":0.0,"eta_s":null,"total_fraction":0.0})");
  t.now += 3.0;
  meter.update(0.25, "");
  nlohmann::json line{{"event", "point_done"}};
  meter.annotate(line);
  EXPECT_EQ(line.dump(), R"({"elapsed_s":3.0,"eta_s":9.0,"event":"point_done","total_fraction":0.25})");
}

TEST(ProgressMeter, TheBarSaysElapsedAndLeftAndRedrawsAtMostTenTimesASecond) {
  FakeClock t;
  std::ostringstream err;
  ProgressMeter meter(ProgressMode::bar, err, "simulating", t.clock());
  t.now += 1.0;
  meter.update(0.1, "0/4 strategies");
  EXPECT_EQ(err.str(),
            "\rsimulating [###                           ]  10 %, 0/4 strategies, 1 s elapsed, about 9 s left");
  err.str("");
  t.now += 0.05;
  meter.update(0.2, "0/4 strategies");  // 50 ms after the last draw: not redrawn
  EXPECT_EQ(err.str(), "");
  t.now += 0.06;
  meter.update(0.2, "1/4 strategies");  // 110 ms after: redrawn, with the fraction kept meanwhile
  EXPECT_EQ(err.str(),
            "\rsimulating [######                        ]  20 %, 1/4 strategies, 1 s elapsed, about 4 s left");
  err.str("");
  meter.update(1.0, "4/4 strategies");  // the end is always drawn
  EXPECT_NE(err.str().find("100 %, 4/4 strategies, 1 s elapsed, about 0 s left"), std::string::npos) << err.str();
  meter.close();
  EXPECT_EQ(err.str().back(), '\n');
}

TEST(ProgressMeter, AShorterLineClearsTheLongerOneWithSpacesNotAnEscape) {
  FakeClock t;
  std::ostringstream err;
  ProgressMeter meter(ProgressMode::bar, err, "simulating", t.clock());
  t.now += 1.0;
  meter.update(0.1, "0/4 strategies, a long detail");
  const std::string longer = err.str();
  err.str("");
  t.now += 0.2;
  meter.update(0.2, "1/4");
  const std::string shorter = err.str();
  EXPECT_EQ(shorter.size(), longer.size());
  EXPECT_EQ(shorter.find('\x1b'), std::string::npos);
  EXPECT_EQ(shorter.substr(shorter.find_last_not_of(' ') + 1),
            std::string(longer.size() - 1 - shorter.find_last_not_of(' '), ' '));
}

TEST(ProgressMeter, ASearchOfUnknownLengthMovesForwardWithEveryRun) {
  EXPECT_DOUBLE_EQ(search_fraction(1, 0.0, 600.0), 0.0);
  EXPECT_DOUBLE_EQ(search_fraction(1, 300.0, 600.0), 1.0 - std::pow(0.75, 0.5));
  EXPECT_DOUBLE_EQ(search_fraction(2, 0.0, 600.0), 0.25);                        // one run done: 1 - 0.75
  EXPECT_DOUBLE_EQ(search_fraction(3, 900.0, 600.0), 1.0 - 0.75 * 0.75 * 0.75);  // the drain counts as the run's end
  EXPECT_DOUBLE_EQ(search_fraction(0, 600.0, 0.0), 0.25);  // before the first round, a run with no horizon is done
}

TEST(ProgressMeter, DurationsReadAsAPersonWouldSayThem) {
  EXPECT_EQ(duration_text(0.4), "0 s");
  EXPECT_EQ(duration_text(59.4), "59 s");
  EXPECT_EQ(duration_text(185.0), "3 min 05 s");
  EXPECT_EQ(duration_text(7440.0), "2 h 04 min");
  EXPECT_EQ(duration_text(-3.0), "0 s");
}

}  // namespace
}  // namespace slicewise::cli
