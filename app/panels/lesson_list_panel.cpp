#include "app/panels/lesson_list_panel.h"

#include <imgui.h>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace gui {

void LessonListPanel::Open(const LessonListView& view) {
  open = true;
  highlighted_ = 0;
  for (int i = 0; i < static_cast<int>(view.entries.size()); ++i) {
    if (view.entries[static_cast<std::size_t>(i)].current) highlighted_ = i;
  }
}

void LessonListPanel::Choose(const FrameContext& frame, const LessonListView& view, int index) {
  frame.actions.Push("lesson-preset", view.entries[static_cast<std::size_t>(index)].name);
  open = false;
}

// Keys no lesson action uses (↑/↓), and Enter, whose action only readies the answer field.
void LessonListPanel::MoveWithKeys(const FrameContext& frame, const LessonListView& view) {
  const int count = static_cast<int>(view.entries.size());
  if (count == 0) return;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) highlighted_ = (highlighted_ + count - 1) % count;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) highlighted_ = (highlighted_ + 1) % count;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter))) {
    Choose(frame, view, highlighted_);
  }
}

void LessonListPanel::Draw(const FrameContext& frame, const LessonListView& view) {
  if (!open) return;
  const ImVec2 centre((frame.area_min.x + frame.area_max.x) * 0.5f, (frame.area_min.y + frame.area_max.y) * 0.5f);
  ImGui::SetNextWindowPos(centre, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowFocus();
  const ImVec2 area(frame.area_max.x - frame.area_min.x, frame.area_max.y - frame.area_min.y);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(area.x * 0.9f, area.y * 0.9f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove;
  if (!ImGui::Begin("Lessons", &open, flags)) {
    ImGui::End();
    return;
  }
  MoveWithKeys(frame, view);
  ImGui::PushFont(frame.fonts.large);
  for (int i = 0; open && i < static_cast<int>(view.entries.size()); ++i) {
    const LessonListView::Entry& entry = view.entries[static_cast<std::size_t>(i)];
    ImGui::PushID(i);
    if (gui::Selectable(entry.heading.c_str(), i == highlighted_)) Choose(frame, view, i);
    ImGui::PopID();
    ImGui::PushFont(frame.fonts.text);
    ImGui::Indent();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::Text("%s%s", entry.progress.c_str(), entry.current ? " \u00B7 on show" : "");
    ImGui::PopStyleColor();
    ImGui::Unindent();
    ImGui::PopFont();
  }
  ImGui::PopFont();
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  gui::Text("\u2191/\u2193 then Enter, or a click \u00B7 Esc closes \u00B7 Ctrl+O opens this list again");
  ImGui::PopStyleColor();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) open = false;
  ImGui::End();
}

nlohmann::json LessonListPanel::Describe(const LessonListView& view) const {
  nlohmann::json entries = nlohmann::json::array();
  for (const LessonListView::Entry& entry : view.entries) {
    entries.push_back({{"name", entry.name}, {"heading", entry.heading}, {"progress", entry.progress},
                       {"current", entry.current}});
  }
  return {{"open", open}, {"highlighted", highlighted_ + 1}, {"lessons", entries}};
}

}  // namespace gui
