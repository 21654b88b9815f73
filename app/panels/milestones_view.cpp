#include "app/panels/milestones_view.h"

#include <imgui.h>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace gui {

void MilestonesView::Draw(const std::optional<std::vector<sim::MilestoneState>>& milestones) {
  gui::TextWrapped("Exercise: write the tiled kernel (tilescope exercise tiled DIR writes its starter).");
  if (!milestones) {
    gui::TextDisabled("checking your file's milestones\u2026");
    return;
  }
  int reached = 0;
  for (const sim::MilestoneState& m : *milestones) reached += m.reached;
  gui::Text("%d of %zu milestones", reached, milestones->size());
  ImGui::Separator();
  for (const sim::MilestoneState& m : *milestones) {
    const ImU32 colour = m.reached ? palette::kBluishGreen : palette::kGrey;
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(colour), "%s %s", m.reached ? palette::kGlyphCheck : "\u25CB",
                     sim::Describe(m.milestone));
    ImGui::Indent();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::TextWrapped("%s", m.why.c_str());
    ImGui::PopStyleColor();
    ImGui::Unindent();
  }
  ImGui::Separator();
  gui::TextDisabled("Each save is checked again (the same list as tilescope exercise tiled --check FILE).");
}

}  // namespace gui
