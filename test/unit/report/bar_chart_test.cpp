#include "report/render/bar_chart.hpp"
#include "report/render/scatter_chart.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace slicewise::render {
namespace {

TEST(BarChart, RendersAnSvgWithItsTitleAndCategories) {
  const auto path = std::filesystem::temp_directory_path() / "sw_bar_chart_test.svg";
  BarChartSpec spec;
  spec.title = "Monthly cost";
  spec.categories = {"dedicated", "time_slicing"};
  spec.series = {{"USD", {3273.44, 1758.19}}};
  spec.value_axis_title = "USD per month";
  render_bar_chart_svg(spec, path);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string svg = text.str();
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Monthly cost"), std::string::npos);
  EXPECT_NE(svg.find("time_slicing"), std::string::npos);
  EXPECT_EQ(svg.find("..."), std::string::npos);  // no label elided for lack of layout
  EXPECT_GT(svg.size(), 2000u);
  std::filesystem::remove(path);
}

TEST(BarChart, ASeriesWithTheWrongLengthIsAnError) {
  BarChartSpec spec;
  spec.title = "t";
  spec.categories = {"a", "b"};
  spec.series = {{"s", {1.0}}};
  try {
    render_bar_chart_svg(spec, std::filesystem::temp_directory_path() / "never.svg");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "chart \"t\": series \"s\" has 1 values for 2 categories");
  }
}

TEST(ScatterChart, AxesTickAtNiceNumbersWithThousandsGrouped) {
  // The advisor's Pareto front: Qt split the padded range in equal parts, ticks at 3240, 7836, 12431.
  ScatterChartSpec spec;
  spec.title = "Pareto front";
  spec.x_axis_title = "USD per month";
  spec.y_axis_title = "SLA margin %";
  spec.series = {{"candidates", {{3700.0, -12.0}, {8100.0, 4.0}, {11980.0, 31.0}}, false}};
  const std::string svg = scatter_chart_svg(spec);
  // x: 3,286..12,394 padded, at most 6 ticks: steps of 5,000 from 0 to 15,000; y: -20 to 40 by 20.
  for (const char* tick : {">0<", ">5,000<", ">10,000<", ">15,000<", ">-20<", ">20<", ">40<"}) {
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  }
  for (const char* odd : {"3240", "7836", "12431", "3,240"}) EXPECT_EQ(svg.find(odd), std::string::npos) << odd;
}

}  // namespace
}  // namespace slicewise::render
