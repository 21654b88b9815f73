// line_plot.h — y against x on a log2 x axis: one polyline with markers per series,
// horizontal reference lines (dashed or solid), a legend, and a tooltip with the exact
// figures of the point under the mouse. It draws data it does not own (like imgui_club's
// memory editor): the caller builds LinePlotData each frame from its results.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "app/plot/primitives.h"

namespace plot {

struct Point {
  double x = 0.0;
  double y = 0.0;
  std::string tooltip;  // Shown on hover under the series name: the exact figures.
};

struct Series {
  SeriesStyle style;
  std::vector<Point> points;  // In x order; points with x ≤ 0 or non-finite y are skipped.
  bool markers = true;        // false: a bare line (a roof), neither marked nor hovered
  bool in_legend = true;      // false: named by another series' legend entry (roofs that share one)
};

struct HorizontalLine {
  SeriesStyle style;  // Name shown in the legend and at the line's right end.
  double y = 0.0;
  bool dashed = true;
};

struct LinePlotData {
  std::string x_label;  // With units: "matrix size n (n × n × n, log2)".
  std::string y_label;  // With units: "GFLOPS".
  std::vector<Series> series;
  std::vector<HorizontalLine> lines;
  Scale y_scale = Scale::kLinear;  // Log when the series span decades (FP32 kernels beside TF32).
};

// Draws into a `size` area at the cursor and claims it with Dummy(). `id` keeps two plots
// in one window apart. Returns what was drawn.
PlotState DrawLinePlot(const char* id, const LinePlotData& data, ImVec2 size);

}  // namespace plot
