#include "app/plot/bar_chart.h"
#include "app/gui/text_item.h"

#include <algorithm>
#include <cstdio>

namespace plot {
namespace {

constexpr float kGroupFill = 0.8f;     // Share of a group's width the bars take; the rest separates groups.
constexpr float kBarMarkerRadius = 4.0f;  // Units.

struct BarRect {
  ImVec2 min;
  ImVec2 max;
};

Range ValueRange(const BarChartData& data) {
  std::vector<double> values;
  for (const BarSeries& series : data.series) {
    if (series.off_scale) continue;
    for (const auto& bar : series.bars) {
      if (bar) values.push_back(bar->value);
    }
  }
  if (data.reference) values.push_back(*data.reference);
  return LinearAxisRange(Extent(values), true, kTargetYTicks);
}

XTicks CategoryTicks(const BarChartData& data) {
  XTicks ticks;
  ticks.grid = false;
  const double count = static_cast<double>(data.categories.size());
  for (size_t i = 0; i < data.categories.size(); ++i) {
    ticks.ticks.push_back({static_cast<double>(i), data.categories[i]});
    ticks.fractions.push_back((static_cast<double>(i) + 0.5) / count);
  }
  return ticks;
}

BarRect BarAt(const PlotFrame& frame, Range y_axis, size_t category, size_t categories, size_t series,
              size_t series_count, double value) {
  const float group = frame.Width() / static_cast<float>(std::max<size_t>(1, categories));
  const float width = group * kGroupFill / static_cast<float>(std::max<size_t>(1, series_count));
  const float left = frame.min.x + group * (static_cast<float>(category) + 0.5f * (1.0f - kGroupFill)) +
                     width * static_cast<float>(series);
  const float top = frame.YAt(LinearFraction(y_axis, value));
  return {ImVec2(left, std::min(top, frame.max.y)), ImVec2(left + width, frame.max.y)};
}

bool Contains(const BarRect& r, ImVec2 p) { return p.x >= r.min.x && p.x < r.max.x && p.y >= r.min.y && p.y <= r.max.y; }

// Draws the bars; returns the hovered bar's series and bar (null when none).
std::pair<const BarSeries*, const Bar*> DrawBars(ImDrawList* list, const PlotFrame& frame, Range y_axis,
                                                 const BarChartData& data, bool hovering) {
  std::pair<const BarSeries*, const Bar*> hovered{nullptr, nullptr};
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (size_t s = 0; s < data.series.size(); ++s) {
    const BarSeries& series = data.series[s];
    for (size_t c = 0; c < series.bars.size() && c < data.categories.size(); ++c) {
      if (!series.bars[c]) continue;
      const BarRect r = BarAt(frame, y_axis, c, data.categories.size(), s, data.series.size(), series.bars[c]->value);
      list->AddRectFilled(r.min, r.max, series.style.colour);
      if (series.bars[c]->value > y_axis.hi) {
        // Cut at the top: its value in words, inside the frame where it can be read.
        char label[32];
        std::snprintf(label, sizeof label, "%.0f\u2191", series.bars[c]->value);
        gui::DrawText(list, ImVec2(r.min.x, frame.min.y + 2.0f * Unit()), ImGui::GetColorU32(ImGuiCol_Text), label);
      }
      // The marker above the bar names the series without relying on its colour.
      DrawMarker(list, series.style.marker, ImVec2((r.min.x + r.max.x) * 0.5f, r.min.y - 6.0f * Unit()),
                 kBarMarkerRadius * Unit(), series.style.colour);
      if (hovering && Contains(r, mouse)) hovered = {&series, &*series.bars[c]};
    }
  }
  return hovered;
}

void DrawReference(ImDrawList* list, const PlotFrame& frame, Range y_axis, const BarChartData& data) {
  if (!data.reference) return;
  const float y = frame.YAt(LinearFraction(y_axis, *data.reference));
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
  DrawDashedLine(list, ImVec2(frame.min.x, y), ImVec2(frame.max.x, y), colour, 1.5f * Unit());
  const ImVec2 text = ImGui::CalcTextSize(data.reference_label.c_str());
  gui::DrawText(list, LineLabelAt(frame, y, text), colour, data.reference_label.c_str());
}

PlotState Describe(const BarChartData& data, Range y_axis, ImVec2 origin, ImVec2 size) {
  PlotState state;
  for (const BarSeries& series : data.series) {
    const auto count = std::count_if(series.bars.begin(), series.bars.end(), [](const auto& b) { return b.has_value(); });
    state.series.push_back({series.style.name, static_cast<int>(count)});
  }
  if (data.reference) state.reference_lines.push_back(data.reference_label);
  if (!data.categories.empty()) state.x_axis = Range::Of(0.0, static_cast<double>(data.categories.size() - 1));
  state.y_axis = y_axis;
  state.widget_min = origin;
  state.widget_max = ImVec2(origin.x + size.x, origin.y + size.y);
  return state;
}

}  // namespace

PlotState DrawBarChart(const char* id, const BarChartData& data, ImVec2 size) {
  size = ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f));  // InvisibleButton asserts on an empty size.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const Range y_axis = ValueRange(data);
  const std::vector<Tick> y_ticks = LinearTicks(y_axis, kTargetYTicks);
  std::vector<LegendEntry> legend;
  for (const BarSeries& series : data.series) legend.push_back({series.style, false});
  const PlotFrame frame = LayoutFrame(origin, size, y_ticks, legend);

  ImDrawList* list = ImGui::GetWindowDrawList();
  DrawAxes(list, frame, CategoryTicks(data), y_ticks, y_axis, Scale::kLinear, data.x_label, data.y_label);
  // Hovering is known only once the button is laid out, so ask the mouse directly: the
  // rectangle test below is the same one the button would make.
  const bool hovering = ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(frame.min, frame.max);
  list->PushClipRect(frame.min, frame.max, true);
  const auto [series, bar] = DrawBars(list, frame, y_axis, data, hovering);
  DrawReference(list, frame, y_axis, data);
  list->PopClipRect();
  const ImVec2 legend_max = DrawLegend(list, frame, legend);
  ImGui::InvisibleButton(id, size);  // Claims the space and keeps drags from moving the window.

  PlotState state = Describe(data, y_axis, origin, size);
  state.legend_max = legend_max;
  if (bar) {
    ImGui::BeginTooltip();
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(series->style.colour), "%s", series->style.name.c_str());
    gui::TextUnformatted(bar->tooltip.c_str());
    ImGui::EndTooltip();
    state.hovered = series->style.name;
  }
  return state;
}

}  // namespace plot
