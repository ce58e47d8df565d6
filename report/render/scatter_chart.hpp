// Scatter charts (points, and a line through a chosen subset) drawn with Qt Charts offscreen: the
// advisor's Pareto front of monthly cost against SLA margin.
#pragma once

#include <string>
#include <vector>

namespace slicewise::render {

struct ScatterPoint {
  double x = 0.0;
  double y = 0.0;
};

struct ScatterSeries {
  std::string name;
  std::vector<ScatterPoint> points;
  bool line = false;  ///< joined by a line (in the order given) instead of dots
};

struct ScatterChartSpec {
  std::string title;
  std::string x_axis_title;  ///< with its unit
  std::string y_axis_title;
  std::vector<ScatterSeries> series;
  int width_px = 900;
  int height_px = 520;
};

/// The chart as SVG text (the caller writes it atomically). Creates an offscreen QApplication when
/// none exists yet.
std::string scatter_chart_svg(const ScatterChartSpec& spec);

}  // namespace slicewise::render
