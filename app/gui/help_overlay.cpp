#include "app/gui/help_overlay.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/browser_page.h"
#include "sim/lesson/glossary.h"

namespace gui {
namespace {

constexpr float kHelpWidthFonts = 60.0f;  // the list's width where the window allows, in font heights

}  // namespace

void HelpOverlay::Draw(const ActionRegistry& registry) {
  if (!open) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f, viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  // As wide as a line of descriptions reads well, never wider than the window: the descriptions
  // wrap in their column (at 1366 pixels they ran off the edge). The height fits the list (0:
  // ImGui fits that axis) up to the window's, then it scrolls (presentation fonts at 768 pixels).
  const float margin = ImGui::GetFontSize();
  const float width = std::min(viewport->WorkSize.x - 2.0f * margin, ImGui::GetFontSize() * kHelpWidthFonts);
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(width, viewport->WorkSize.y - 2.0f * margin));
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the panels behind must not show through the list
  if (ImGui::Begin("Keyboard shortcuts (F1 closes)", &open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    rect_ = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowPos().x + ImGui::GetWindowSize().x,
             ImGui::GetWindowPos().y + ImGui::GetWindowSize().y};
    keys_.clear();
    const TextRecordScope recording(text_, false);  // the list scrolls down; only sideways cuts count
    DrawBrowserKeys(registry);
    if (gui::BeginTable("##keys", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("what it does", ImGuiTableColumnFlags_WidthStretch);
      for (const Action& action : registry.All()) {
        if (action.keys.empty()) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        std::string keys;
        for (const KeyChord& chord : action.keys) keys += (keys.empty() ? "" : " / ") + ChordName(chord);
        gui::TextUnformatted(keys.c_str());
        keys_.push_back(keys);
        ImGui::TableNextColumn();
        gui::TextUnformatted(action.label.c_str());
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        gui::TextWrapped("%s", action.description.c_str());
        ImGui::PopStyleColor();
      }
      gui::EndTable();
    }
    DrawGlossary();
  }
  ImGui::End();
}

// Said once, above the list, which already shows the keys to press here.
void HelpOverlay::DrawBrowserKeys(const ActionRegistry& registry) {
  browser_keys_.clear();
  for (const browser_page::KeyClash& clash : browser_page::KeyClashes()) {
    const Action* action = registry.FindByKey(clash.instead.key, clash.instead.mods);
    if (!action) continue;
    if (browser_keys_.empty()) gui::TextUnformatted("In a browser some keys differ from the desktop's:");
    browser_keys_.push_back(ChordName(clash.desktop) + " " + clash.browser_use + ": press " + ChordName(clash.instead) +
                            " for " + action->label);
    gui::TextWrapped("\u2022 %s", browser_keys_.back().c_str());
  }
  if (!browser_keys_.empty()) ImGui::Separator();
}

// The words the panels use, as their tooltips say them.
void HelpOverlay::DrawGlossary() {
  terms_.clear();
  ImGui::Separator();
  gui::TextUnformatted("Glossary");
  if (!gui::BeginTable("##glossary", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return;
  ImGui::TableSetupColumn("term", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("meaning", ImGuiTableColumnFlags_WidthStretch);
  for (const sim::GlossaryEntry& entry : sim::Glossary()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    gui::TextUnformatted(entry.term);
    terms_.push_back(entry.term);
    ImGui::TableNextColumn();
    gui::TextWrapped("%s", entry.meaning);
  }
  gui::EndTable();
}

nlohmann::json HelpOverlay::Describe() const {
  nlohmann::json help = text_.ToJson();
  help["rect"] = rect_;
  help["keys"] = keys_;
  help["browser_keys"] = browser_keys_;
  help["glossary"] = terms_;
  return help;
}

}  // namespace gui
