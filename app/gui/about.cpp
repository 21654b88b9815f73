#include "app/gui/about.h"

#include <imgui.h>

#include "app/version.h"

namespace gui {

std::vector<AboutLine> CollectAboutLines(const Window& window) {
  return {
      {"TileScope", app::kVersion},
      {"Dear ImGui", IMGUI_VERSION},
      {"GLFW", Window::GlfwVersion()},
      {"OpenGL renderer", window.GlRenderer()},
      {"OpenGL version", window.GlVersion()},
  };
}

}  // namespace gui
