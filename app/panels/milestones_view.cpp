#include "app/panels/milestones_view.h"

#include <imgui.h>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace gui {

// The count and the list first: at 1366×768 the Guide's slot shows them whole; what the
// exercise is comes after them.
void MilestonesView::Draw(const std::optional<std::vector<sim::MilestoneState>>& milestones) {
  if (!milestones) {
    gui::TextDisabled("checking your file's milestones\u2026");
  } else {
    int reached = 0;
    for (const sim::MilestoneState& m : *milestones) reached += m.reached;
    gui::Text("%d of %zu milestones", reached, milestones->size());
    ImGui::Separator();
    for (const sim::MilestoneState& m : *milestones) DrawMilestone(m);
    ImGui::Separator();
  }
  gui::TextWrapped("Exercise: write the tiled kernel (tilescope exercise tiled DIR writes its starter).");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  gui::TextWrapped("Each save is checked again (the same list as tilescope exercise tiled --check FILE).");
  ImGui::PopStyleColor();
}

// "✓ compiles  kernel matmul": what it saw beside the milestone where it fits, else under it.
void MilestonesView::DrawMilestone(const sim::MilestoneState& m) {
  const ImU32 colour = m.reached ? palette::kBluishGreen : palette::kGrey;
  gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(colour), "%s %s", m.reached ? palette::kGlyphCheck : "\u25CB",
                          sim::Describe(m.milestone));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (FitsBeside(m.why.c_str())) {
    ImGui::SameLine();
    gui::TextUnformatted(m.why.c_str());
  } else {
    ImGui::Indent();
    gui::TextWrapped("%s", m.why.c_str());
    ImGui::Unindent();
  }
  ImGui::PopStyleColor();
}

}  // namespace gui
