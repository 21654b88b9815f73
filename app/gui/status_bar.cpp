#include "app/gui/status_bar.h"

#include <imgui.h>

#include <vector>

#include "app/gui/palette.h"

namespace gui {
namespace {

void DrawMessage(const Notification& message) {
  const bool problem = message.severity != Severity::kInfo;
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(problem ? palette::kOrange : palette::kSkyBlue), "%s %s",
                     problem ? palette::kGlyphWarning : "\u2139", message.text.c_str());
}

void DrawMessageLog(const Notifications& notifications) {
  constexpr std::size_t kShown = 12;
  const std::vector<Notification>& all = notifications.All();
  if (all.empty()) return;
  ImGui::BeginTooltip();
  for (std::size_t i = all.size(); i > 0 && all.size() - i < kShown; --i) DrawMessage(all[i - 1]);
  ImGui::EndTooltip();
}

}  // namespace

void DrawStatusBar(const Notifications& notifications) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float height = ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x, viewport->WorkPos.y + viewport->WorkSize.y - height));
  ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0.0f));
  if (ImGui::Begin("##status", nullptr, flags)) {
    ImGui::AlignTextToFramePadding();
    if (const Notification* latest = notifications.Current(Notifications::Now())) {
      DrawMessage(*latest);
    } else {
      ImGui::TextDisabled("F1: keyboard shortcuts%s", notifications.All().empty() ? "" : " \u00b7 hover here: messages");
    }
    if (ImGui::IsWindowHovered()) DrawMessageLog(notifications);
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace gui
