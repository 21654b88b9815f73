#include "app/panels/your_kernel_controls.h"

#include <imgui.h>

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

void DrawKernelChoice(const FrameContext& frame, const sim::KernelLesson& lesson) {
  const std::vector<std::string>& names = lesson.file.kernel_names;
  if (names.size() < 2) return;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kComboWidth);
  if (gui::BeginCombo("Kernel", lesson.file.kernel.name.c_str())) {
    for (const std::string& name : names) {
      if (gui::Selectable(name.c_str(), name == lesson.file.kernel.name) && name != lesson.file.kernel.name) {
        frame.actions.Push("kernel-name", name);
      }
    }
    ImGui::EndCombo();
  }
  Tooltip("Your file has several __global__ kernels: the one that runs (--kernel-name NAME picks it at the start)");
}

void DrawSchedulerChoice(const FrameContext& frame, sim::SchedulerKind current) {
  constexpr std::array<sim::SchedulerKind, 4> kSchedulers{sim::SchedulerKind::kRealistic, sim::SchedulerKind::kThreadOrder,
                                                          sim::SchedulerKind::kRandom, sim::SchedulerKind::kRaceExposing};
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kComboWidth);
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

}  // namespace

void DrawYourKernelSummary(const YourKernelView& view) {
  const sim::KernelLesson& lesson = *view.lesson;
  const sim::KernelLaunch& launch = lesson.run.launch;
  gui::TextWrapped("Your kernel %s in %s", lesson.file.kernel.name.c_str(), lesson.path.c_str());
  gui::TextWrapped("C(%d\u00D7%d) = A(%d\u00D7%d) \u00B7 B(%d\u00D7%d), launch %s, scheduler: %s", launch.m, launch.n, launch.m,
                   launch.k, launch.k, launch.n, sim::LaunchText(lesson).c_str(), sim::Name(launch.scheduler));
}

void DrawYourKernelFields(const FrameContext& frame, const YourKernelView& view) {
  DrawKernelChoice(frame, *view.lesson);
  DrawSchedulerChoice(frame, view.lesson->run.launch.scheduler);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  gui::TextWrapped("Sizes, block, grid and defines are the command line's (--sizes, --block, --grid, --define), as for "
                   "tilescope check. Edit the file in your own editor: each save is read again.");
  ImGui::PopStyleColor();
}

}  // namespace gui
