#include "app/gui/about.h"

#include <imgui.h>

#include "app/cli/asset_paths.h"
#include "app/version.h"
#include "kernels/device.h"

namespace gui {
namespace {

std::string OrNone(const std::string& value, const kernels::GpuStatus& gpu) {
  if (!value.empty()) return value;
  return "none (" + gpu.Explained() + ")";
}

}  // namespace

std::vector<AboutLine> CollectAboutLines(const Window& window) {
  const kernels::GpuStatus& gpu = kernels::ProbeGpu();
  return {
      {"TileScope", app::kVersion},
      {"Assets", cli::FindAssetFolder().Describe()},
      {"Dear ImGui", IMGUI_VERSION},
      {"GLFW", Window::GlfwVersion()},
      {"OpenGL renderer", window.GlRenderer()},
      {"OpenGL version", window.GlVersion()},
      {"CUDA runtime", OrNone(gpu.runtime_version, gpu)},
      {"CUDA driver", OrNone(gpu.driver_version, gpu)},
      {"GPU", gpu.available ? gpu.device.name : "none (" + gpu.Explained() + ")"},
  };
}

}  // namespace gui
