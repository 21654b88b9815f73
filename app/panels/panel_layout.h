// panel_layout.h — the fixed default layout: each panel names its share of the area under
// the menu bar; ImGui keeps the user's moves unless the layout is reset.
#pragma once
#include <imgui.h>

#include "app/gui/workspace.h"

namespace gui {

struct PanelRect {
  float x, y, width, height;  // Fractions of the free area.
};

inline void PlacePanel(const FrameContext& frame, const PanelRect& rect) {
  const ImVec2 size(frame.area_max.x - frame.area_min.x, frame.area_max.y - frame.area_min.y);
  const ImGuiCond cond = frame.reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(frame.area_min.x + rect.x * size.x, frame.area_min.y + rect.y * size.y), cond);
  ImGui::SetNextWindowSize(ImVec2(rect.width * size.x, rect.height * size.y), cond);
}

}  // namespace gui
