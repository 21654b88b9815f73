#include "app/gui/theme.h"

#include <imgui.h>

namespace gui {
namespace {

constexpr float kReferenceFontSize = 16.0f;

void ApplyHighContrastColours(ImGuiStyle& style) {
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = ImVec4(1.00f, 1.00f, 1.00f, 1.00f);
  c[ImGuiCol_TextDisabled] = ImVec4(0.80f, 0.80f, 0.80f, 1.00f);
  c[ImGuiCol_WindowBg] = ImVec4(0.00f, 0.00f, 0.00f, 1.00f);
  c[ImGuiCol_ChildBg] = ImVec4(0.00f, 0.00f, 0.00f, 1.00f);
  c[ImGuiCol_PopupBg] = ImVec4(0.05f, 0.05f, 0.05f, 1.00f);
  c[ImGuiCol_Border] = ImVec4(1.00f, 1.00f, 1.00f, 0.80f);
  c[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1.00f);
  c[ImGuiCol_TitleBg] = ImVec4(0.00f, 0.20f, 0.35f, 1.00f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.00f, 0.45f, 0.70f, 1.00f);
  c[ImGuiCol_MenuBarBg] = ImVec4(0.10f, 0.10f, 0.10f, 1.00f);
  c[ImGuiCol_Button] = ImVec4(0.00f, 0.45f, 0.70f, 1.00f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.34f, 0.71f, 0.91f, 1.00f);
  c[ImGuiCol_CheckMark] = ImVec4(0.94f, 0.89f, 0.26f, 1.00f);
  c[ImGuiCol_Header] = ImVec4(0.00f, 0.45f, 0.70f, 0.80f);
  c[ImGuiCol_PlotLines] = ImVec4(0.90f, 0.62f, 0.00f, 1.00f);
}

}  // namespace

void ApplyTheme(ThemeKind kind, float font_size) {
  ImGuiStyle style;
  if (kind == ThemeKind::kHighContrast) {
    ImGui::StyleColorsDark(&style);
    ApplyHighContrastColours(style);
    style.FrameBorderSize = 1.0f;
  } else {
    ImGui::StyleColorsDark(&style);
  }
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  // ImGui's 0.6 left a refused button (stepping a lesson without step back) looking like any
  // other on the dark theme: a disabled control must read as off at a glance.
  style.DisabledAlpha = 0.35f;
  style.ScaleAllSizes(font_size / kReferenceFontSize);
  ImGui::GetStyle() = style;
}

}  // namespace gui
