#include "app/panels/your_kernel_controls.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <string>

#include "app/gui/text_item.h"
#include "sim/lesson/teaching.h"

namespace gui {
namespace {

constexpr float kComboWidth = 8.0f;  // in font heights: fits the longest scheduler's name

void Tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// A combo as wide as the longest scheduler's name, or narrower where its label would not fit
// beside it (presentation's larger text in a narrow panel).
void SetComboWidth(const char* label) {
  const float beside = ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * kComboWidth, ImGui::GetContentRegionAvail().x - beside));
}

// Whether it drew one: only a file with several kernels has a choice.
bool DrawKernelChoice(const FrameContext& frame, const sim::KernelLesson& lesson) {
  const std::vector<std::string>& names = lesson.file.kernel_names;
  if (names.size() < 2) return false;
  SetComboWidth("Kernel");
  if (gui::BeginCombo("Kernel", lesson.file.kernel.name.c_str())) {
    for (const std::string& name : names) {
      if (gui::Selectable(name.c_str(), name == lesson.file.kernel.name) && name != lesson.file.kernel.name) {
        frame.actions.Push("kernel-name", name);
      }
    }
    ImGui::EndCombo();
  }
  Tooltip("Your file has several __global__ kernels: the one that runs (--kernel-name NAME picks it at the start)");
  return true;
}

void DrawSchedulerChoice(const FrameContext& frame, sim::SchedulerKind current) {
  constexpr std::array<sim::SchedulerKind, 4> kSchedulers{sim::SchedulerKind::kRealistic, sim::SchedulerKind::kThreadOrder,
                                                          sim::SchedulerKind::kRandom, sim::SchedulerKind::kRaceExposing};
  SetComboWidth("Scheduler");
  if (gui::BeginCombo("Scheduler", sim::Name(current))) {
    for (sim::SchedulerKind choice : kSchedulers) {
      if (gui::Selectable(sim::Name(choice), choice == current) && choice != current) {
        frame.actions.Push("kernel-scheduler", sim::Name(choice));
      }
    }
    ImGui::EndCombo();
  }
  std::string tooltip;
  for (sim::SchedulerKind kind : kSchedulers) tooltip += std::string(sim::SchedulerSummary(kind)) + "\n";
  tooltip += "Your kernel runs again under it, to the same step, and Hazards is checked again (key S: race)";
  Tooltip(tooltip.c_str());
}

// What runs, in a few lines.
void DrawYourKernelSummary(const YourKernelView& view) {
  const sim::KernelLesson& lesson = *view.lesson;
  const sim::KernelLaunch& launch = lesson.run.launch;
  gui::TextWrapped("Your kernel %s in %s", lesson.file.kernel.name.c_str(), lesson.path.c_str());
  gui::TextWrapped("C(%d\u00D7%d) = A(%d\u00D7%d) \u00B7 B(%d\u00D7%d), launch %s, scheduler: %s", launch.m, launch.n, launch.m,
                   launch.k, launch.k, launch.n, sim::LaunchText(lesson).c_str(), sim::Name(launch.scheduler));
}

}  // namespace

void DrawYourKernelFields(const FrameContext& frame, const YourKernelView& view) {
  if (DrawKernelChoice(frame, *view.lesson)) SameLineIfFits("Scheduler", ImGui::GetFontSize() * kComboWidth);
  DrawSchedulerChoice(frame, view.lesson->run.launch.scheduler);
  DrawYourKernelSummary(view);
  if (frame.presentation) return;  // a room reads the summary; the flags are for the one at the keyboard
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  gui::TextWrapped("Sizes, block, grid and defines are the command line's (--sizes, --block, --grid, --define), as for "
                   "tilescope check. Edit the file in your own editor: each save is read again.");
  ImGui::PopStyleColor();
}

}  // namespace gui
