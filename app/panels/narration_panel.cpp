#include "app/panels/narration_panel.h"
#include "app/gui/text_item.h"

#include <imgui.h>

#include "sim/lesson/narration.h"

namespace gui {

void NarrationPanel::Update(const sim::Snapshot& snapshot) {
  const std::int64_t step = snapshot.step();
  const void* lesson = &snapshot.state();
  if (lesson != seen_lesson_) {
    lines_.clear();
    seen_lesson_ = lesson;
    seen_step_ = -1;
  }
  if (step == seen_step_) return;
  while (!lines_.empty() && lines_.back().step >= step) lines_.pop_back();
  if (step > 0) {
    const std::int64_t from = lines_.empty() ? 0 : lines_.back().step;
    lines_.push_back({step, step - from, sim::NarrateLastStep(snapshot)});
    if (lines_.size() > kScrollback) lines_.pop_front();
  }
  seen_step_ = step;
  scroll_to_end_ = true;
}

void NarrationPanel::Draw(bool presentation, const WholeRunView& whole_run) {
  if (lines_.empty()) {
    gui::TextWrapped("%s", sim::NarrateBeforeFirstStep(whole_run.stepping_off).c_str());
    return;
  }
  const Line& now = lines_.back();
  gui::TextWrapped("Step %lld: %s", static_cast<long long>(now.step), now.text.c_str());
  if (now.steps_taken > 1) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::TextWrapped("(the last of %lld steps just run)", static_cast<long long>(now.steps_taken));
    ImGui::PopStyleColor();
  }
  if (presentation) return;
  ImGui::Separator();
  if (gui::BeginChild("##scrollback", ImVec2(0, 0), false)) {
    for (std::size_t i = 0; i + 1 < lines_.size(); ++i) {
      const Line& line = lines_[i];
      gui::TextDisabled("%lld%s", static_cast<long long>(line.step), line.steps_taken > 1 ? "*" : "");
      if (ImGui::IsItemHovered() && line.steps_taken > 1) {
        ImGui::SetTooltip("the last of %lld steps run at once", static_cast<long long>(line.steps_taken));
      }
      ImGui::SameLine();
      gui::TextWrapped("%s", line.text.c_str());
    }
    if (scroll_to_end_) ImGui::SetScrollHereY(1.0f);
    scroll_to_end_ = false;
  }
  gui::EndChild();
}

void NarrationPanel::DumpState(nlohmann::json& state) const {
  nlohmann::json& out = state["narration"];
  out["sentence"] = lines_.empty() ? "" : lines_.back().text;
  out["step"] = lines_.empty() ? 0 : lines_.back().step;
  out["scrollback"] = lines_.size();
}

}  // namespace gui
