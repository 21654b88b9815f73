#include "app/plot/primitives.h"
#include "app/gui/text_item.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace plot {
namespace {

constexpr float kReferenceFontSize = 16.0f;
constexpr float kDashLength = 6.0f;  // Units; the gap is as long as the dash.
constexpr float kLegendSwatch = 22.0f;
constexpr float kPadding = 6.0f;

ImU32 TextColour() { return ImGui::GetColorU32(ImGuiCol_Text); }
ImU32 GridColour() { return ImGui::GetColorU32(ImGuiCol_Border); }

// The legend's entries a column holds: as many as stand beside the data area, so a long legend
// beside a short plot takes a second column rather than running over the x axis' label.
std::size_t LegendRows(float frame_height) {
  const float room = frame_height - kPadding * Unit();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  return room < 2.0f * line ? 1 : static_cast<std::size_t>(room / line);
}

// Each column as wide as its own widest name: one long name (the roofs') widens one column only.
std::vector<float> LegendColumnWidths(const std::vector<LegendEntry>& legend, std::size_t rows) {
  std::vector<float> widths((legend.size() + rows - 1) / rows, 0.0f);
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const float name = ImGui::CalcTextSize(legend[i].style.name.c_str()).x;
    widths[i / rows] = std::max(widths[i / rows], name + (kLegendSwatch + 3.0f * kPadding) * Unit());
  }
  return widths;
}

float LegendWidth(const std::vector<LegendEntry>& legend, float frame_height) {
  const std::vector<float> widths = LegendColumnWidths(legend, LegendRows(frame_height));
  float total = 0.0f;
  for (float width : widths) total += width;
  return total;
}

bool Inside(ImVec2 p, ImVec2 min, ImVec2 max) { return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y; }

// Whether the segment a→b passes through the rectangle: Liang–Barsky clipping, which narrows the
// segment's parameter range [0, 1] to the part inside each pair of edges in turn.
bool SegmentCrosses(ImVec2 a, ImVec2 b, ImVec2 min, ImVec2 max) {
  const float d[2] = {b.x - a.x, b.y - a.y};
  const float from[2] = {a.x, a.y};
  const float lo[2] = {min.x, min.y};
  const float hi[2] = {max.x, max.y};
  float t0 = 0.0f, t1 = 1.0f;
  for (int axis = 0; axis < 2; ++axis) {
    if (d[axis] == 0.0f) {
      if (from[axis] < lo[axis] || from[axis] > hi[axis]) return false;
      continue;
    }
    float enter = (lo[axis] - from[axis]) / d[axis];
    float leave = (hi[axis] - from[axis]) / d[axis];
    if (enter > leave) std::swap(enter, leave);
    t0 = std::max(t0, enter);
    t1 = std::min(t1, leave);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace

float Unit() { return ImGui::GetFontSize() / kReferenceFontSize; }

void DrawMarker(ImDrawList* list, Marker marker, ImVec2 c, float r, ImU32 colour) {
  const float t = 2.0f * Unit();
  switch (marker) {
    case Marker::kCircle:
      list->AddCircleFilled(c, r, colour);
      break;
    case Marker::kSquare:
      list->AddRectFilled(ImVec2(c.x - r * 0.85f, c.y - r * 0.85f), ImVec2(c.x + r * 0.85f, c.y + r * 0.85f), colour);
      break;
    case Marker::kTriangleUp:
      list->AddTriangleFilled(ImVec2(c.x, c.y - r * 1.15f), ImVec2(c.x + r, c.y + r * 0.75f),
                              ImVec2(c.x - r, c.y + r * 0.75f), colour);
      break;
    case Marker::kDiamond:
      list->AddQuadFilled(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x + r, c.y), ImVec2(c.x, c.y + r * 1.2f),
                          ImVec2(c.x - r, c.y), colour);
      break;
    case Marker::kTriangleDown:
      list->AddTriangleFilled(ImVec2(c.x - r, c.y - r * 0.75f), ImVec2(c.x + r, c.y - r * 0.75f),
                              ImVec2(c.x, c.y + r * 1.15f), colour);
      break;
    case Marker::kCross:
      list->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), colour, t);
      list->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x + r, c.y - r), colour, t);
      break;
    case Marker::kPlus:
      list->AddLine(ImVec2(c.x - r * 1.2f, c.y), ImVec2(c.x + r * 1.2f, c.y), colour, t);
      list->AddLine(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x, c.y + r * 1.2f), colour, t);
      break;
  }
}

void DrawDashedLine(ImDrawList* list, ImVec2 from, ImVec2 to, ImU32 colour, float thickness) {
  const float dx = to.x - from.x;
  const float dy = to.y - from.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  const float dash = kDashLength * Unit();
  if (length <= 0.0f) return;
  for (float s = 0.0f; s < length; s += 2.0f * dash) {
    const float e = std::min(s + dash, length);
    list->AddLine(ImVec2(from.x + dx * s / length, from.y + dy * s / length),
                  ImVec2(from.x + dx * e / length, from.y + dy * e / length), colour, thickness);
  }
}

PlotFrame LayoutFrame(ImVec2 widget_min, ImVec2 size, const std::vector<Tick>& y_ticks,
                      const std::vector<LegendEntry>& legend) {
  float label_width = 0.0f;
  for (const Tick& tick : y_ticks) label_width = std::max(label_width, ImGui::CalcTextSize(tick.label.c_str()).x);
  const float line = ImGui::GetTextLineHeight();
  const float pad = kPadding * Unit();
  PlotFrame frame;
  frame.min = ImVec2(widget_min.x + label_width + 2.0f * pad, widget_min.y + line + 2.0f * pad);
  frame.max.y = widget_min.y + size.y - 2.0f * line - 2.0f * pad;
  frame.max.x = widget_min.x + size.x - LegendWidth(legend, frame.max.y - frame.min.y) - pad;
  frame.max.x = std::max(frame.max.x, frame.min.x + 1.0f);
  frame.max.y = std::max(frame.max.y, frame.min.y + 1.0f);
  return frame;
}

void DrawAxes(ImDrawList* list, const PlotFrame& frame, const XTicks& x_ticks, const std::vector<Tick>& y_ticks,
              Range y_axis, Scale y_scale, const std::string& x_label, const std::string& y_label) {
  const float pad = kPadding * Unit();
  const float line = ImGui::GetTextLineHeight();
  list->AddRectFilled(frame.min, frame.max, ImGui::GetColorU32(ImGuiCol_FrameBg));
  for (const Tick& tick : y_ticks) {
    const float y = frame.YAt(Fraction(y_scale, y_axis, tick.value));
    list->AddLine(ImVec2(frame.min.x, y), ImVec2(frame.max.x, y), GridColour());
    const ImVec2 text = ImGui::CalcTextSize(tick.label.c_str());
    gui::DrawText(list, ImVec2(frame.min.x - pad - text.x, y - text.y * 0.5f), TextColour(), tick.label.c_str());
  }
  for (size_t i = 0; i < x_ticks.ticks.size() && i < x_ticks.fractions.size(); ++i) {
    const float x = frame.XAt(x_ticks.fractions[i]);
    if (x_ticks.grid) list->AddLine(ImVec2(x, frame.min.y), ImVec2(x, frame.max.y), GridColour());
    const char* label = x_ticks.ticks[i].label.c_str();
    const ImVec2 text = ImGui::CalcTextSize(label);
    gui::DrawText(list, ImVec2(x - text.x * 0.5f, frame.max.y + pad * 0.5f), TextColour(), label);
  }
  list->AddRect(frame.min, frame.max, TextColour());
  const ImVec2 x_text = ImGui::CalcTextSize(x_label.c_str());
  // Centred under the data area; one wider than it starts at its left edge, not left of the widget.
  gui::DrawText(list, ImVec2(std::max(frame.min.x, (frame.min.x + frame.max.x - x_text.x) * 0.5f), frame.max.y + line + pad),
                TextColour(), x_label.c_str());
  // ImGui draws no rotated text: the y label stands above the axis, where readers look first.
  gui::DrawText(list, ImVec2(frame.min.x, frame.min.y - line - pad), TextColour(), y_label.c_str());
}

ImVec2 LineLabelAt(const PlotFrame& frame, float line_y, ImVec2 text, const std::vector<std::vector<ImVec2>>& drawn,
                   float clearance) {
  const float gap = 2.0f * Unit();
  const float above = line_y - text.y - gap;
  const float below = line_y + gap;
  const float right = frame.max.x - text.x - 4.0f * Unit();
  const float left = frame.min.x + 4.0f * Unit();
  const auto clear = [&](ImVec2 at) {
    const ImVec2 min(at.x - clearance, at.y - clearance);
    const ImVec2 max(at.x + text.x + clearance, at.y + text.y + clearance);
    for (const std::vector<ImVec2>& line : drawn) {
      if (line.size() == 1 && Inside(line[0], min, max)) return false;
      for (std::size_t i = 1; i < line.size(); ++i) {
        if (SegmentCrosses(line[i - 1], line[i], min, max)) return false;
      }
    }
    return true;
  };
  std::vector<ImVec2> places;
  for (float x : {right, left}) {
    for (float y : {above, below}) {
      if (y >= frame.min.y && y + text.y <= frame.max.y) places.push_back(ImVec2(x, y));
    }
  }
  for (const ImVec2& at : places) {
    if (clear(at)) return at;
  }
  return places.empty() ? ImVec2(right, above >= frame.min.y ? above : below) : places.front();
}

ImVec2 DrawLegend(ImDrawList* list, const PlotFrame& frame, const std::vector<LegendEntry>& legend) {
  const float pad = kPadding * Unit();
  const float swatch = kLegendSwatch * Unit();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const std::size_t rows = LegendRows(frame.max.y - frame.min.y);
  const std::vector<float> widths = LegendColumnWidths(legend, rows);
  ImVec2 corner = frame.max;
  float x = frame.max.x + 2.0f * pad;
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const LegendEntry& entry = legend[i];
    if (i > 0 && i % rows == 0) x += widths[i / rows - 1];
    const float y = frame.min.y + pad + static_cast<float>(i % rows) * line;
    const float mid = y + ImGui::GetTextLineHeight() * 0.5f;
    const float thickness = entry.style.thickness * Unit();
    if (entry.dashed) {
      DrawDashedLine(list, ImVec2(x, mid), ImVec2(x + swatch, mid), entry.style.colour, thickness);
    } else {
      list->AddLine(ImVec2(x, mid), ImVec2(x + swatch, mid), entry.style.colour, thickness);
      DrawMarker(list, entry.style.marker, ImVec2(x + swatch * 0.5f, mid), 4.0f * Unit(), entry.style.colour);
    }
    gui::DrawText(list, ImVec2(x + swatch + pad, y), TextColour(), entry.style.name.c_str());
    corner = ImVec2(std::max(corner.x, x + widths[i / rows] - 2.0f * pad), std::max(corner.y, y + ImGui::GetTextLineHeight()));
  }
  return corner;
}

}  // namespace plot
