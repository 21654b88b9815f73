#include "app/gui/pointer_ring.h"

#include "app/gui/palette.h"

namespace gui {

void PointerRing::Draw(float font_size) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 display = io.DisplaySize;
  drawn_ = ImGui::IsMousePosValid(&io.MousePos) && io.MousePos.x >= 0.0f && io.MousePos.y >= 0.0f &&
           io.MousePos.x < display.x && io.MousePos.y < display.y;
  if (!drawn_) return;
  centre_ = io.MousePos;
  radius_ = font_size * kRadiusInFonts;
  ImDrawList* list = ImGui::GetForegroundDrawList();
  const float thickness = font_size * 0.2f;
  // A dark halo under the colour, so the ring shows on light cells and dark backgrounds alike.
  list->AddCircle(centre_, radius_, IM_COL32(0, 0, 0, 200), 0, thickness * 2.0f);
  list->AddCircle(centre_, radius_, palette::kOrange, 0, thickness);
}

nlohmann::json PointerRing::Describe() const {
  if (!drawn_) return {{"drawn", false}};
  return {{"drawn", true}, {"centre", {centre_.x, centre_.y}}, {"radius", radius_}};
}

}  // namespace gui
