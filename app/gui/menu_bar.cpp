#include "app/gui/menu_bar.h"

#include <imgui.h>

#include <string>

namespace gui {

void MenuBar::Draw(const ActionRegistry& registry, ActionQueue& queue, PageSet& pages, bool presentation) {
  if (!ImGui::BeginMainMenuBar()) return;
  height_ = ImGui::GetWindowHeight();
  auto item = [&](const char* name) {
    const Action* action = registry.Find(name);
    if (!action) return;
    const std::string shortcut = action->keys.empty() ? "" : ChordName(action->keys.front());
    if (ImGui::MenuItem(action->label.c_str(), shortcut.c_str())) queue.Push(action->name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", action->description.c_str());
  };
  if (ImGui::BeginMenu("File")) {
    item("lesson-list");
    item("open-file");
    item("kernel-open-dialog");
    item("screenshot");
    item("copy-command");
    item("copy-link");
    ImGui::Separator();
    item("quit");
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Presentation mode", "F11", presentation)) queue.Push("presentation");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", registry.Find("presentation")->description.c_str());
    item("zoom-in");
    item("zoom-out");
    item("reset-layout");
    pages.DrawPanelMenuItems(presentation);
    ImGui::EndMenu();
  }
  // A page's tour, when it has one (the lesson page): the same actions as its keys.
  if (registry.Find("guide-next") && ImGui::BeginMenu("Guide")) {
    for (const char* name : {"lesson-list", "guide-next", "guide-prev", "guide-answer-field", "guide-lecturer",
                             "guide-reveal", "guide-leave"}) {
      item(name);
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    item("help");
    item("about");
    ImGui::EndMenu();
  }
  pages.DrawTabs(queue);
  ImGui::EndMainMenuBar();
}

}  // namespace gui
