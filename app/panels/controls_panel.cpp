#include "app/panels/controls_panel.h"

#include <imgui.h>

#include "app/panels/panel_layout.h"

namespace gui {
namespace {

void ActionButton(const FrameContext& frame, const char* label, const char* action, const char* tooltip) {
  if (ImGui::Button(label)) frame.actions.Push(action);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  ImGui::SameLine();
}

}  // namespace

void ControlsPanel::Draw(const FrameContext& frame, const sim::Simulation& simulation, bool playing) {
  if (!open) return;
  PlacePanel(frame, {0.0f, 0.0f, 0.48f, 0.22f});
  if (!ImGui::Begin("Controls", &open)) {
    ImGui::End();
    return;
  }
  DrawButtons(frame, playing);
  ImGui::NewLine();
  DrawPosition(simulation);
  ImGui::End();
}

void ControlsPanel::DrawButtons(const FrameContext& frame, bool playing) {
  ActionButton(frame, "\u2190 Back", "step-back", "Step back one instruction, exactly (\u2190)");
  ActionButton(frame, "Step \u2192", "step", "Run one instruction of the scheduler's unit (\u2192)");
  ActionButton(frame, "To barrier", "to-barrier", "Run until a __syncthreads() releases its block (B)");
  ActionButton(frame, "Next phase", "next-phase", "Run to the end of the current tile phase (Shift+\u2192)");
  ActionButton(frame, playing ? "Pause" : "Play", "play", "Step continuously (Space)");
  ActionButton(frame, "Reset", "reset", "Back to step 0 (R)");
}

void ControlsPanel::DrawPosition(const sim::Simulation& simulation) {
  const sim::Snapshot snapshot = simulation.snapshot();
  const sim::LessonConfig& config = simulation.config();
  const sim::Geometry& geometry = simulation.geometry();
  ImGui::Text("Step %lld of %lld   phase %d of %d", static_cast<long long>(simulation.step()),
              static_cast<long long>(simulation.TotalSteps()), snapshot.current_phase() + 1, geometry.phases);
  ImGui::ProgressBar(simulation.TotalSteps() == 0 ? 0.0f : float(simulation.step()) / float(simulation.TotalSteps()));
  ImGui::Text("C(%d\u00D7%d) = A(%d\u00D7%d) \u00B7 B(%d\u00D7%d), %s kernel, tile %d\u00D7%d\u00D7%d, scheduler: %s",
              config.m, config.n, config.m, config.k, config.k, config.n, sim::Name(config.kernel), geometry.tm,
              geometry.tn, geometry.tk, sim::Name(config.scheduler));
  ImGui::Text("1st barrier: %s (key 1)   2nd barrier: %s (key 2)", sim::Name(config.barrier1), sim::Name(config.barrier2));
  if (geometry.warps_per_block == 1 && geometry.block_threads < 32) {
    ImGui::TextWrapped("A block is one warp with %d of 32 lanes live (%d idle).", geometry.block_threads,
                       32 - geometry.block_threads);
  }
}

}  // namespace gui
