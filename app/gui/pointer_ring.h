// pointer_ring.h — a projector shows no mouse cursor a room can follow: in presentation a big
// ring follows the pointer, drawn over everything (ImGui's foreground list) so no panel hides it.
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>

namespace gui {

struct PointerRing {
  // The ring is this many times the text's size across: it reads from the back of a room.
  static constexpr float kRadiusInFonts = 1.5f;

  // Once a frame in presentation, after the panels; nothing when the pointer is off the window.
  void Draw(float font_size);
  // Not drawn this frame (normal view, or the pointer away).
  void Hide() { drawn_ = false; }
  nlohmann::json Describe() const;

 private:
  bool drawn_ = false;
  ImVec2 centre_{0.0f, 0.0f};
  float radius_ = 0.0f;
};

}  // namespace gui
