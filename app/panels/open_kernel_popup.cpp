#include "app/panels/open_kernel_popup.h"

#include <imgui.h>

#include "app/gui/text_item.h"

namespace gui {

void OpenKernelPopup::Draw(const FrameContext& frame) {
  if (!open) {
    focus_ = true;
    return;
  }
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::Begin("Open kernel", &open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  gui::TextWrapped("A .cu file of your own: its __global__ kernel runs on the model, and every save is read again.");
  if (focus_) ImGui::SetKeyboardFocusHere();
  focus_ = false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30.0f);
  const bool entered = ImGui::InputTextWithHint("##kernel_path", "my_kernel.cu", path_.data(), path_.size(),
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (gui::Button("Open") || entered) {
    frame.actions.Push("kernel-open", path_.data());
    open = false;
  }
  ImGui::End();
}

}  // namespace gui
