// panel_layout.h — the fixed default layout of each page: every panel has a named slot, a
// share of the area between the menu bar and the status bar, one for the normal view and
// one for presentation mode (larger fonts need the room to go to the panels a class looks
// at). The slots of a page tile its area, so no two panels overlap at any window size.
// ImGui keeps the user's moves until the layout is reset (View → Reset layout, a window
// resize, or switching presentation mode).
#pragma once
#include <imgui.h>

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
// Presentation: what a class reads from afar gets the room — Matrices, Shared tiles,
// Kernel source, Narration; Counters, Threads and the race panels share the rest.
inline constexpr float kStripTop = 0.84f;  // Normal view: where the bottom strip starts.
inline constexpr float kLeftColumn = 0.25f;
inline constexpr float kSourceColumn = 0.62f;
inline constexpr float kUpperRow = 0.5f;

inline constexpr PanelSlot kControlsSlot{{0.0f, 0.0f, kLeftColumn, 0.36f}, {0.0f, 0.0f, 0.26f, 0.3f}};
inline constexpr PanelSlot kCountersSlot{{0.0f, 0.36f, kLeftColumn, kStripTop - 0.36f}, {0.0f, 0.3f, 0.26f, 0.5f}};
inline constexpr PanelSlot kMatricesSlot{{kLeftColumn, 0.0f, kSourceColumn - kLeftColumn, kUpperRow},
                                         {0.26f, 0.0f, 0.38f, 0.55f}};
inline constexpr PanelSlot kSharedTilesSlot{{kLeftColumn, kUpperRow, 0.185f, kStripTop - kUpperRow},
                                            {0.26f, 0.55f, 0.38f, 0.25f}};
inline constexpr PanelSlot kThreadsSlot{{kLeftColumn + 0.185f, kUpperRow, kSourceColumn - kLeftColumn - 0.185f,
                                         kStripTop - kUpperRow},
                                        {0.64f, 0.55f, 0.18f, 0.25f}};
inline constexpr PanelSlot kKernelSourceSlot{{kSourceColumn, 0.0f, 1.0f - kSourceColumn, kUpperRow},
                                             {0.64f, 0.0f, 0.36f, 0.55f}};
inline constexpr PanelSlot kHazardsSlot{{kSourceColumn, kUpperRow, (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow},
                                        {0.82f, 0.55f, 0.18f, 0.125f}};
inline constexpr PanelSlot kRaceLabSlot{{kSourceColumn + (1.0f - kSourceColumn) / 2.0f, kUpperRow,
                                         (1.0f - kSourceColumn) / 2.0f, kStripTop - kUpperRow},
                                        {0.82f, 0.675f, 0.18f, 0.125f}};
inline constexpr PanelSlot kNarrationSlot{{0.0f, kStripTop, 0.5f, 1.0f - kStripTop}, {0.0f, 0.8f, 0.6f, 0.2f}};
inline constexpr PanelSlot kTimelineSlot{{0.5f, kStripTop, 0.5f, 1.0f - kStripTop}, {0.6f, 0.8f, 0.4f, 0.2f}};

// The live GPU page: its panel has the page to itself.
inline constexpr PanelSlot kLiveGpuSlot{{0.0f, 0.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 1.0f, 1.0f}};

inline void PlacePanel(const FrameContext& frame, const PanelRect& rect) {
  const ImVec2 size(frame.area_max.x - frame.area_min.x, frame.area_max.y - frame.area_min.y);
  const ImGuiCond cond = frame.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(frame.area_min.x + rect.x * size.x, frame.area_min.y + rect.y * size.y), cond);
  ImGui::SetNextWindowSize(ImVec2(rect.width * size.x, rect.height * size.y), cond);
}

inline void PlacePanel(const FrameContext& frame, const PanelSlot& slot) {
  PlacePanel(frame, slot.For(frame.presentation));
}

}  // namespace gui
