#include "app/gui/page_set.h"

#include <GLFW/glfw3.h>

#include <algorithm>

namespace gui {

void PageSet::Add(std::string slug, std::string title, std::unique_ptr<Page> page) {
  pages_.push_back({std::move(slug), std::move(title), std::move(page)});
}

void PageSet::RegisterActions(ActionRegistry& registry) {
  for (size_t page = 0; page < pages_.size(); ++page) {
    const size_t first = registry.All().size();
    pages_[page].page->RegisterActions(registry);
    for (size_t i = first; i < registry.All().size(); ++i) page_of_action_[registry.All()[i].name] = page;
  }
  for (size_t page = 0; page < pages_.size(); ++page) {
    std::vector<KeyChord> keys;
    if (page < 9) keys.push_back({GLFW_KEY_1 + static_cast<int>(page), GLFW_MOD_CONTROL});
    registry.Add({"page-" + pages_[page].slug, "Show the " + pages_[page].title + " page",
                  "Switch the window to the " + pages_[page].title + " page (its own panels and layout).",
                  std::move(keys), [this, page](const std::string&) -> std::optional<std::string> {
                    Show(page);
                    return std::nullopt;
                  }});
  }
  RestoreShown();
}

void PageSet::ShowOwnerOf(const std::string& action) {
  if (auto owner = page_of_action_.find(action); owner != page_of_action_.end()) Show(owner->second);
}

void PageSet::Show(size_t page) {
  shown_ = page;
  settings_.panels["page"] = pages_[page].slug;
}

void PageSet::RestoreShown() {
  const nlohmann::json& saved = settings_.panels;
  if (!saved.is_object() || !saved.contains("page") || !saved["page"].is_string()) return;
  for (size_t page = 0; page < pages_.size(); ++page) {
    if (pages_[page].slug == saved["page"].get<std::string>()) shown_ = page;
  }
}

void PageSet::Update() {
  for (Entry& page : pages_) page.page->Update();
}

void PageSet::DrawShown(const FrameContext& frame) {
  if (!pages_.empty()) pages_[shown_].page->Draw(frame);
}

// The active tab is highlighted and underlined (not by colour alone), each with its Ctrl+digit
// key in the tooltip.
void PageSet::DrawTabs(ActionQueue& queue) const {
  ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
  ImGui::TextDisabled("|");
  for (size_t page = 0; page < pages_.size(); ++page) {
    const bool active = page == shown_;
    const std::string label = pages_[page].title + "##page";
    const ImVec2 text = ImGui::CalcTextSize(pages_[page].title.c_str());
    if (ImGui::Selectable(label.c_str(), active, 0, text)) queue.Push("page-" + pages_[page].slug);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Show the %s page (Ctrl+%zu)", pages_[page].title.c_str(), page + 1);
    }
    if (active) {
      const ImVec2 min = ImGui::GetItemRectMin();
      const ImVec2 max = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddLine(ImVec2(min.x, max.y - 1.0f), ImVec2(max.x, max.y - 1.0f),
                                          ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
    }
  }
}

void PageSet::DrawPanelMenuItems(bool presentation) {
  if (pages_.empty()) return;
  ImGui::Separator();
  pages_[shown_].page->Panels().DrawMenuItems(presentation);
}

bool PageSet::ZoomFocusedPanel(float factor) {
  return !pages_.empty() && pages_[shown_].page->Panels().ZoomFocused(factor);
}

bool PageSet::HoldsScript(const std::string& action) const {
  return std::any_of(pages_.begin(), pages_.end(), [&](const Entry& p) { return p.page->HoldsScript(action); });
}

bool PageSet::Busy() const {
  return std::any_of(pages_.begin(), pages_.end(), [](const Entry& p) { return p.page->Busy(); });
}

bool PageSet::Opening() const {
  return std::any_of(pages_.begin(), pages_.end(), [](const Entry& p) { return p.page->Opening(); });
}

void PageSet::DumpState(nlohmann::json& state, ImVec2 area_min, ImVec2 area_size, bool presentation) const {
  nlohmann::json& layout = state["layout"];
  state["pages"] = nlohmann::json::array();
  for (const Entry& page : pages_) {
    state["pages"].push_back(page.slug);
    layout[page.slug + "_slots"] = page.page->Panels().Slots(area_min, area_size, presentation);
    // Where each panel was drawn; the page adds what its panels show to the same entries.
    state[page.slug + "_panels"] = page.page->Panels().Placement(presentation);
    page.page->DumpState(state);
  }
  if (!pages_.empty()) state["page"] = pages_[shown_].slug;
}

void PageSet::SaveSettings(Settings& settings) const {
  for (const Entry& page : pages_) page.page->SaveSettings(settings);
}

}  // namespace gui
