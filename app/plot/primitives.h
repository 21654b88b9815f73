// primitives.h — what the line plot and the bar chart draw alike: marker shapes, dashed
// lines, the frame with its ticks and axis labels, the legend, and the state both report.
//
// Every series has a colour from the Okabe–Ito palette AND a marker shape, so two kernels
// stay apart for a reader who cannot tell the colours apart (or a grey-scale projector).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "app/plot/axis.h"

namespace plot {

enum class Marker { kCircle, kSquare, kTriangleUp, kDiamond, kTriangleDown, kCross, kPlus };
constexpr int kMarkerCount = 7;

// A series' look; the same kernel keeps it in both views and in the legend.
struct SeriesStyle {
  std::string name;
  ImU32 colour = IM_COL32_WHITE;
  Marker marker = Marker::kCircle;
  float thickness = 2.0f;  // In font-relative units: × GetFontSize() / 16.
};

struct LegendEntry {
  SeriesStyle style;
  bool dashed = false;  // A reference line (the device's peak) rather than a measured series.
};

// What a plot drew in its last frame: for --dump-state, GUI tests and the PNG export crop.
struct PlotState {
  struct SeriesInfo {
    std::string name;
    int points = 0;
  };
  std::vector<SeriesInfo> series;
  std::vector<std::string> reference_lines;
  Range x_axis;
  Range y_axis;
  ImVec2 widget_min;  // The whole widget: frame, ticks, labels, legend.
  ImVec2 widget_max;
  ImVec2 legend_max;  // The legend's bottom-right corner: never below the data area.
  std::string hovered;  // The series and point under the mouse, "" when none.
};

// Screen rectangle of the data area and the maps from values to pixels in it.
struct PlotFrame {
  ImVec2 min;
  ImVec2 max;
  float Width() const { return max.x - min.x; }
  float Height() const { return max.y - min.y; }
  float XAt(double fraction) const { return min.x + static_cast<float>(fraction) * Width(); }
  float YAt(double fraction) const { return max.y - static_cast<float>(fraction) * Height(); }
};

// One unit of line width and marker size, scaled with the font so presentation mode's large
// text comes with thicker lines.
float Unit();

void DrawMarker(ImDrawList* list, Marker marker, ImVec2 centre, float radius, ImU32 colour);
void DrawDashedLine(ImDrawList* list, ImVec2 from, ImVec2 to, ImU32 colour, float thickness);

// Lays out a widget of `size` at the cursor: room on the left for the y tick labels, at the
// bottom for the x ticks and the x label, on the right for the legend. Returns the data area.
PlotFrame LayoutFrame(ImVec2 widget_min, ImVec2 size, const std::vector<Tick>& y_ticks,
                      const std::vector<LegendEntry>& legend);
// The x ticks of one axis and where they stand (0…1 across the data area).
struct XTicks {
  std::vector<Tick> ticks;
  std::vector<double> fractions;
  bool grid = true;  // Vertical grid lines; bar groups go without, a line would cut their bars.
};

// Grid lines, tick labels, the y label above the axis and the x label under it.
void DrawAxes(ImDrawList* list, const PlotFrame& frame, const XTicks& x_ticks, const std::vector<Tick>& y_ticks,
              Range y_axis, Scale y_scale, const std::string& x_label, const std::string& y_label);
// Where a horizontal line's label of size `text` goes (its top-left corner): at the line's right
// end just above it, or just below it when above would leave the data area (a peak that is also
// the axis' top tick) or cross what is drawn there; then at the left end, above or below. `drawn`
// holds the series as drawn on screen, each a polyline (one point: a marker); a label comes no
// nearer to them than `clearance`. Where every place is crossed, the first that fits the area.
ImVec2 LineLabelAt(const PlotFrame& frame, float line_y, ImVec2 text,
                   const std::vector<std::vector<ImVec2>>& drawn = {}, float clearance = 0.0f);

// Marker and name of each entry, in columns to the right of the data area, none below it.
// Returns its bottom-right corner.
ImVec2 DrawLegend(ImDrawList* list, const PlotFrame& frame, const std::vector<LegendEntry>& legend);

}  // namespace plot
