#include "app/panels/student_sweep_row.h"

#include <imgui.h>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "app/panels/file_chooser.h"
#include "app/panels/live_text.h"

namespace panels {
namespace {

constexpr float kTooltipWidthFonts = 30.0f;

void WrappedTooltip(const std::string& text) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * kTooltipWidthFonts);
  gui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

std::string FolderOf(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

}  // namespace

StudentRowState StudentRowFor(const kernels::GpuStatus& gpu, const SweepProgress& progress) {
  if (!gpu.available) {
    return {false, "Your kernel joins a sweep on a GPU, and there is none here: " + gpu.reason +
                       ". tilescope check FILE still checks it on the model."};
  }
  if (progress.running) return {false, "A sweep is running: your kernel can be added or removed after it"};
  return {true,
          "Time your kernel file at every size beside the chosen kernels: compiled with NVRTC as check --time-size compiles "
          "it, launched as check launches it, its C checked against cuBLAS FP32's (a wrong C is marked, never plotted)"};
}

void StudentSweepRow::Draw(const gui::FrameContext& frame, const LiveSweepView& sweep) const {
  const StudentRowState state = StudentRowFor(sweep.gpu, sweep.progress);
  ImGui::AlignTextToFramePadding();
  gui::TextUnformatted("Your kernel:");
  ImGui::SameLine();
  ImGui::BeginDisabled(!state.enabled);
  bool on = included;
  const std::string text = included ? label : path.empty() ? "add a kernel file of yours" : "add " + path;
  if (gui::Checkbox((text + "###your-kernel").c_str(), &on)) {
    // Without a file yet, ticking it opens the dialog.
    if (on && path.empty()) {
      frame.actions.Push("live-student-choose", "");
    } else {
      frame.actions.Push("live-student", on ? path : "none");
    }
  }
  ImGui::EndDisabled();
  WrappedTooltip(state.tooltip);
  ImGui::SameLine();
  ImGui::BeginDisabled(!state.enabled);
  if (gui::Button("Choose .cu\u2026")) frame.actions.Push("live-student-choose", FolderOf(path));
  ImGui::EndDisabled();
  WrappedTooltip(state.enabled ? "Choose a kernel file (.cu) of yours, folder by folder, and add it to the sweep" : state.tooltip);
  MessageText(problem, true);
}

void StudentSweepRow::DrawChooser(const gui::FrameContext& frame) const {
  if (choosing) DrawFileChooser(frame, choice, {"live-student-choose", "live-student"});
}

void StudentSweepRow::DumpState(nlohmann::json& state) const {
  nlohmann::json entries = nlohmann::json::array();
  for (const sim::FolderEntry& entry : choice.entries) entries.push_back(entry.is_folder ? entry.name + "/" : entry.name);
  state = {{"path", path},
           {"label", label},
           {"included", included},
           {"problem", problem},
           {"chooser", {{"open", choosing}, {"folder", choice.folder}, {"entries", entries}, {"error", choice.error}}}};
}

}  // namespace panels
