// panel_layout.h — the fixed default layout of each page: every panel has a named slot, a
// share of the area between the menu bar and the status bar, one for the normal view and
// one for presentation mode (larger fonts need the room to go to the panels a class looks
// at). The slots of a page tile its area, so no two panels overlap at any window size.
// ImGui keeps the user's moves until the layout is reset (View → Reset layout, a window
// resize, or switching presentation mode).
#pragma once
#include <imgui.h>

#include <cmath>

#include "app/gui/workspace.h"

namespace gui {

struct PanelRect {
  float x, y, width, height;  // Fractions of the free area.
};

// Where one panel goes in the normal and in the presentation layout.
class PanelSlot {
 public:
  constexpr PanelSlot(PanelRect normal, PanelRect presentation) : normal_(normal), presentation_(presentation) {}
  constexpr const PanelRect& For(bool presentation) const { return presentation ? presentation_ : normal_; }

 private:
  PanelRect normal_;
  PanelRect presentation_;
};

// The lesson page. Normal: three columns over a bottom strip —
//   Controls / Counters | Matrices over Shared tiles + Threads | Kernel source over Hazards + Race lab
//   Narration | Timeline (the strip).
// Presentation (30-pixel text): what a class reads from afar gets the upper 58% — Controls,
// Matrices, Kernel source — and the rest share a middle row, narration and timeline below.
inline constexpr float kStripTop = 0.84f;  // Both views: where the bottom strip starts.
inline constexpr float kLeftColumn = 0.25f;
inline constexpr float kSourceColumn = 0.62f;
inline constexpr float kUpperRow = 0.5f;          // Normal view.
inline constexpr float kPresentationRow = 0.58f;  // Presentation: where the middle row starts.
inline constexpr float kMiddleHeight = kStripTop - kPresentationRow;

inline constexpr PanelSlot kControlsSlot{{0.0f, 0.0f, kLeftColumn, 0.36f}, {0.0f, 0.0f, kLeftColumn, kPresentationRow}};
inline constexpr PanelSlot kCountersSlot{{0.0f, 0.36f, kLeftColumn, kStripTop - 0.36f},
                                         {0.3f, kPresentationRow, 0.3f, kMiddleHeight}};
inline constexpr PanelSlot kMatricesSlot{{kLeftColumn, 0.0f, kSourceColumn - kLeftColumn, kUpperRow},
                                         {kLeftColumn, 0.0f, kSourceColumn - kLeftColumn, kPresentationRow}};
inline constexpr PanelSlot kSharedTilesSlot{{kLeftColumn, kUpperRow, 0.185f, kStripTop - kUpperRow},
                                            {0.0f, kPresentationRow, 0.3f, kMiddleHeight}};
inline constexpr PanelSlot kThreadsSlot{{kLeftColumn + 0.185f, kUpperRow, kSourceColumn - kLeftColumn - 0.185f,
                                         kStripTop - kUpperRow},
                                        {0.6f, kPresentationRow, 0.2f, kMiddleHeight}};
inline constexpr PanelSlot kKernelSourceSlot{{kSourceColumn, 0.0f, 1.0f - kSourceColumn, kUpperRow},
                                             {kSourceColumn, 0.0f, 1.0f - kSourceColumn, kPresentationRow}};
inline constexpr PanelSlot kHazardsSlot{{kSourceColumn, kUpperRow, (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow},
                                        {0.8f, kPresentationRow, 0.2f, kMiddleHeight / 2.0f}};
inline constexpr PanelSlot kRaceLabSlot{{kSourceColumn + (1.0f - kSourceColumn) / 2.0f, kUpperRow,
                                         (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow},
                                        {0.8f, kPresentationRow + kMiddleHeight / 2.0f, 0.2f, kMiddleHeight / 2.0f}};
inline constexpr PanelSlot kNarrationSlot{{0.0f, kStripTop, 0.5f, 1.0f - kStripTop}, {0.0f, kStripTop, 0.6f, 1.0f - kStripTop}};
inline constexpr PanelSlot kTimelineSlot{{0.5f, kStripTop, 0.5f, 1.0f - kStripTop}, {0.6f, kStripTop, 0.4f, 1.0f - kStripTop}};

struct NamedSlot {
  const char* panel;  // its window title
  const PanelSlot* slot;
};
// Every lesson panel's slot, for --dump-state: tests check that no two overlap.
inline constexpr NamedSlot kLessonSlots[] = {
    {"Controls", &kControlsSlot},         {"Counters", &kCountersSlot},   {"Matrices", &kMatricesSlot},
    {"Shared tiles", &kSharedTilesSlot},  {"Threads", &kThreadsSlot},     {"Kernel source", &kKernelSourceSlot},
    {"Hazards", &kHazardsSlot},           {"Race lab", &kRaceLabSlot},    {"Narration", &kNarrationSlot},
    {"Timeline", &kTimelineSlot}};

// The live GPU page: its panel has the page to itself.
inline constexpr PanelSlot kLiveGpuSlot{{0.0f, 0.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 1.0f, 1.0f}};

// Where a panel was drawn in the last frame: what --dump-state reports, so GUI tests can
// find each panel in the screenshot's pixels. Record() inside the panel's Begin/End.
struct DrawnRect {
  int frame = -1;  // ImGui's frame count when drawn
  ImVec2 min{0.0f, 0.0f};
  ImVec2 max{0.0f, 0.0f};

  void Record() {
    frame = ImGui::GetFrameCount();
    min = ImGui::GetWindowPos();
    max = ImVec2(min.x + ImGui::GetWindowWidth(), min.y + ImGui::GetWindowHeight());
  }
  // Closed panels, collapsed ones and those of another page were not drawn last frame.
  bool Visible() const { return frame == ImGui::GetFrameCount(); }
  nlohmann::json ToJson() const {
    return {{"visible", Visible()}, {"rect", {min.x, min.y, max.x, max.y}}};
  }
};

// A slot's corner and size in pixels, in the free area from `area_min` spanning `area_size`.
inline ImVec2 SlotMin(ImVec2 area_min, ImVec2 area_size, const PanelRect& rect) {
  return ImVec2(area_min.x + rect.x * area_size.x, area_min.y + rect.y * area_size.y);
}
inline ImVec2 SlotSize(ImVec2 area_size, const PanelRect& rect) {
  return ImVec2(rect.width * area_size.x, rect.height * area_size.y);
}

// Places a panel at its slot (on first use, or when the layout is reset) and returns the
// flags for its Begin(). A panel that lay exactly at its slot last frame overlaps no other
// (the slots tile the area), so it draws no background of its own: the frame is cleared to
// the window background colour (window.cpp), and that shows through. A window background is
// a blended fill of the whole panel; on a software renderer (Mesa llvmpipe, a classroom PC
// without a GPU) leaving them out draws the lesson page about half as fast again. A panel the
// user moved or resized draws its background again, so it can lie over another.
inline ImGuiWindowFlags PlacePanel(const FrameContext& frame, const PanelSlot& slot, const DrawnRect& drawn) {
  const PanelRect& rect = slot.For(frame.presentation);
  const ImVec2 area_size(frame.area_max.x - frame.area_min.x, frame.area_max.y - frame.area_min.y);
  const ImVec2 min = SlotMin(frame.area_min, area_size, rect);
  const ImVec2 size = SlotSize(area_size, rect);
  const ImGuiCond cond = frame.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(min, cond);
  ImGui::SetNextWindowSize(size, cond);
  // ImGui places windows at whole pixels.
  constexpr float kRounding = 2.0f;
  const auto near = [](ImVec2 a, ImVec2 b) { return std::fabs(a.x - b.x) <= kRounding && std::fabs(a.y - b.y) <= kRounding; };
  const bool in_slot_last_frame = drawn.frame == ImGui::GetFrameCount() - 1 && near(drawn.min, min) &&
                                  near(drawn.max, ImVec2(min.x + size.x, min.y + size.y));
  return in_slot_last_frame && !frame.reset_layout ? ImGuiWindowFlags_NoBackground : ImGuiWindowFlags_None;
}

}  // namespace gui
