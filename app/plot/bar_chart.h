// bar_chart.h — grouped bars: one group per category (a matrix size), one bar per series (a
// kernel) in the series' colour with its marker on top, a horizontal reference line (the
// 100 % of cuBLAS), a legend, and a tooltip with the exact figure of the bar under the mouse.
#pragma once
#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "app/plot/primitives.h"

namespace plot {

struct Bar {
  double value = 0.0;
  std::string tooltip;
};

struct BarSeries {
  SeriesStyle style;
  std::vector<std::optional<Bar>> bars;  // One per category; nullopt: not measured there.
  // Left out of the axis range (a lower-precision result many times the others would squash
  // them to slivers): a bar past the top is cut there and carries its value as a label.
  bool off_scale = false;
};

struct BarChartData {
  std::string x_label;
  std::string y_label;
  std::vector<std::string> categories;  // Group labels under the axis, left to right.
  std::vector<BarSeries> series;
  std::optional<double> reference;      // A dashed line across the groups at this value.
  std::string reference_label;
};

// Draws into a `size` area at the cursor and claims it; returns what was drawn (points =
// bars per series). The x axis range is the category index range.
PlotState DrawBarChart(const char* id, const BarChartData& data, ImVec2 size);

}  // namespace plot
