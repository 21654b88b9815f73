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

void AboutBox::Draw(const Window& window) {
  if (open) ImGui::OpenPopup("About TileScope");
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                 viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal("About TileScope", &open, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted("Step through shared-memory tiled matrix multiplication on an exact model,");
  ImGui::TextUnformatted("then run the real CUDA kernels on the GPU.");
  ImGui::Separator();
  if (ImGui::BeginTable("##versions", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    for (const AboutLine& line : CollectAboutLines(window)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(line.name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(line.value.c_str());
    }
    ImGui::EndTable();
  }
  if (ImGui::Button("Close")) open = false;
  ImGui::EndPopup();
}

}  // namespace gui
