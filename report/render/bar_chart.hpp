// Bar charts drawn with Qt Charts offscreen, so that the CLI and the GUI draw the same picture.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace slicewise::render {

struct BarSeries {
  std::string name;
  std::vector<double> values;  ///< one per category
};

struct BarChartSpec {
  std::string title;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  std::string value_axis_title;  ///< with its unit, e.g. "USD per month"
  int width_px = 800;
  int height_px = 480;
};

/// Writes the chart as an SVG file. Creates an offscreen QApplication when none exists yet (the
/// CLI), or uses the running one (the GUI). Throws slicewise::Error when the spec is inconsistent
/// or the file cannot be written.
void render_bar_chart_svg(const BarChartSpec& spec, const std::filesystem::path& out);

/// Makes sure a QApplication exists (offscreen platform when it has to create one).
void ensure_qt_application();

}  // namespace slicewise::render
