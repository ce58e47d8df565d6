#include "report/render/bar_chart.hpp"

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

}  // namespace
}  // namespace slicewise::render
