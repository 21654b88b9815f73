#include "app/plot/line_plot.h"
#include "app/gui/text_item.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plot {
namespace {

constexpr int kMaxXTicks = 10;
constexpr float kPointMarkerRadius = 4.5f;  // Units.
constexpr float kHoverRadius = 10.0f;  // Units: how near the mouse must be to a marker.

struct Axes {
  Range x;
  Range y;
  Scale y_scale = Scale::kLinear;
  float YFraction(double value) const { return static_cast<float>(Fraction(y_scale, y, value)); }
};

bool Plottable(const Point& p, Scale y_scale) {
  return p.x > 0.0 && std::isfinite(p.x) && std::isfinite(p.y) && (y_scale == Scale::kLinear || p.y > 0.0);
}

Axes ComputeAxes(const LinePlotData& data) {
  std::vector<double> xs;
  std::vector<double> ys;
  for (const Series& series : data.series) {
    for (const Point& p : series.points) {
      if (!Plottable(p, data.y_scale)) continue;
      xs.push_back(p.x);
      ys.push_back(p.y);
    }
  }
  for (const HorizontalLine& line : data.lines) ys.push_back(line.y);
  const Range y = data.y_scale == Scale::kLog ? LogAxisRange(Extent(ys, true))
                                               : LinearAxisRange(Extent(ys), true, kTargetYTicks);
  return {Log2AxisRange(Extent(xs, true)), y, data.y_scale};
}

ImVec2 ToScreen(const PlotFrame& frame, const Axes& axes, const Point& p) {
  return ImVec2(frame.XAt(Log2Fraction(axes.x, p.x)), frame.YAt(axes.YFraction(p.y)));
}

// The series' points where they are drawn, one polyline per series (one point: a lone marker).
std::vector<std::vector<ImVec2>> OnScreen(const PlotFrame& frame, const Axes& axes, const std::vector<Series>& series) {
  std::vector<std::vector<ImVec2>> drawn;
  for (const Series& s : series) {
    std::vector<ImVec2>& screen = drawn.emplace_back();
    for (const Point& p : s.points) {
      if (Plottable(p, axes.y_scale)) screen.push_back(ToScreen(frame, axes, p));
    }
  }
  return drawn;
}

// Each line's name at its end, clear of the series (the roofline's roofs cross cuBLAS's line).
void DrawReferenceLines(ImDrawList* list, const PlotFrame& frame, const Axes& axes,
                        const std::vector<HorizontalLine>& lines, const std::vector<std::vector<ImVec2>>& drawn) {
  for (const HorizontalLine& line : lines) {
    const float y = frame.YAt(axes.YFraction(line.y));
    const float thickness = line.style.thickness * Unit();
    if (line.dashed) {
      DrawDashedLine(list, ImVec2(frame.min.x, y), ImVec2(frame.max.x, y), line.style.colour, thickness);
    } else {
      list->AddLine(ImVec2(frame.min.x, y), ImVec2(frame.max.x, y), line.style.colour, thickness);
    }
    const ImVec2 text = ImGui::CalcTextSize(line.style.name.c_str());
    gui::DrawText(list, LineLabelAt(frame, y, text, drawn, kPointMarkerRadius * Unit()), line.style.colour,
                  line.style.name.c_str());
  }
}

void DrawSeries(ImDrawList* list, const Series& series, const std::vector<ImVec2>& screen) {
  if (screen.size() > 1) {
    list->AddPolyline(screen.data(), static_cast<int>(screen.size()), series.style.colour, ImDrawFlags_None,
                      series.style.thickness * Unit());
  }
  if (!series.markers) return;
  for (const ImVec2& c : screen) DrawMarker(list, series.style.marker, c, kPointMarkerRadius * Unit(), series.style.colour);
}

// The series and point nearest the mouse within the hover radius; returns false when none.
bool FindHovered(const PlotFrame& frame, const Axes& axes, const LinePlotData& data, const Series*& series,
                 const Point*& point) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  float best = kHoverRadius * Unit();
  best *= best;
  series = nullptr;
  point = nullptr;
  for (const Series& s : data.series) {
    if (!s.markers) continue;
    for (const Point& p : s.points) {
      if (!Plottable(p, axes.y_scale)) continue;
      const ImVec2 c = ToScreen(frame, axes, p);
      const float d = (c.x - mouse.x) * (c.x - mouse.x) + (c.y - mouse.y) * (c.y - mouse.y);
      if (d <= best) {
        best = d;
        series = &s;
        point = &p;
      }
    }
  }
  return point != nullptr;
}

std::string ShowTooltip(ImDrawList* list, const PlotFrame& frame, const Axes& axes, const LinePlotData& data) {
  const Series* series = nullptr;
  const Point* point = nullptr;
  if (!FindHovered(frame, axes, data, series, point)) return {};
  list->AddCircle(ToScreen(frame, axes, *point), (kPointMarkerRadius + 3.0f) * Unit(), ImGui::GetColorU32(ImGuiCol_Text),
                  0, 1.5f * Unit());
  ImGui::BeginTooltip();
  gui::TextColored(ImGui::ColorConvertU32ToFloat4(series->style.colour), "%s", series->style.name.c_str());
  gui::TextUnformatted(point->tooltip.c_str());
  ImGui::EndTooltip();
  char x_text[32];
  std::snprintf(x_text, sizeof x_text, "%g", point->x);
  return series->style.name + " @ " + x_text;
}

std::vector<LegendEntry> Legend(const LinePlotData& data) {
  std::vector<LegendEntry> legend;
  for (const Series& series : data.series) {
    if (series.in_legend) legend.push_back({series.style, false});
  }
  for (const HorizontalLine& line : data.lines) legend.push_back({line.style, line.dashed});
  return legend;
}

PlotState Describe(const LinePlotData& data, const Axes& axes, ImVec2 widget_min, ImVec2 size) {
  PlotState state;
  for (const Series& series : data.series) {
    int count = 0;
    for (const Point& p : series.points) count += Plottable(p, axes.y_scale) ? 1 : 0;
    state.series.push_back({series.style.name, count});
  }
  for (const HorizontalLine& line : data.lines) state.reference_lines.push_back(line.style.name);
  state.x_axis = axes.x;
  state.y_axis = axes.y;
  state.widget_min = widget_min;
  state.widget_max = ImVec2(widget_min.x + size.x, widget_min.y + size.y);
  return state;
}

}  // namespace

PlotState DrawLinePlot(const char* id, const LinePlotData& data, ImVec2 size) {
  size = ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f));  // InvisibleButton asserts on an empty size.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const Axes axes = ComputeAxes(data);
  XTicks x_ticks;
  x_ticks.ticks = Log2Ticks(axes.x, kMaxXTicks);
  for (const Tick& tick : x_ticks.ticks) x_ticks.fractions.push_back(Log2Fraction(axes.x, tick.value));
  const std::vector<Tick> y_ticks =
      axes.y_scale == Scale::kLog ? LogTicks(axes.y) : LinearTicks(axes.y, kTargetYTicks);
  const std::vector<LegendEntry> legend = Legend(data);
  const PlotFrame frame = LayoutFrame(origin, size, y_ticks, legend);

  ImDrawList* list = ImGui::GetWindowDrawList();
  DrawAxes(list, frame, x_ticks, y_ticks, axes.y, axes.y_scale, data.x_label, data.y_label);
  list->PushClipRect(frame.min, frame.max, true);
  const std::vector<std::vector<ImVec2>> drawn = OnScreen(frame, axes, data.series);
  DrawReferenceLines(list, frame, axes, data.lines, drawn);
  for (std::size_t i = 0; i < data.series.size(); ++i) DrawSeries(list, data.series[i], drawn[i]);
  list->PopClipRect();
  const ImVec2 legend_max = DrawLegend(list, frame, legend);

  // An invisible button rather than Dummy(): it claims the space the same way, and also keeps
  // a drag on the plot from moving the window, and reports hovering for the tooltip.
  ImGui::InvisibleButton(id, size);
  PlotState state = Describe(data, axes, origin, size);
  state.legend_max = legend_max;
  if (ImGui::IsItemHovered()) state.hovered = ShowTooltip(list, frame, axes, data);
  return state;
}

}  // namespace plot
