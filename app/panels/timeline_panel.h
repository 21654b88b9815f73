// timeline_panel.h — the whole run as a slider, "step N of M", with the phase starts,
// barrier releases and first hazards of sim::Timeline marked under it; dragging scrubs
// (the `jump-to` action), a click on a mark jumps to it. Below it, breakpoints: run until
// a barrier, the start of a phase, a chosen thread runs, or a hazard (`run-until`).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "app/gui/frame_context.h"
#include "app/panels/thread_selection.h"
#include "app/panels/whole_run_view.h"
#include "sim/model/simulation.h"

namespace gui {

// "arrive", "release", "phase P" (1-based), "thread BLOCK THREAD", "hazard": what
// `run-until` takes. Returns what is wrong with the text.
std::optional<std::string> ParseBreakpoint(const std::string& spec, const sim::Simulation& simulation,
                                           sim::Breakpoint& breakpoint);

struct TimelinePanel {
  void Draw(const FrameContext& frame, const sim::Simulation& simulation, const WholeRunView& whole_run,
            ThreadRef selected);
  // After `run-until`: where it stopped, shown under the breakpoint controls.
  void NoteRun(const sim::Simulation& simulation, const std::string& spec, std::int64_t steps);
  void DumpState(nlohmann::json& state) const;

 private:
  void DrawSlider(const FrameContext& frame, const sim::Timeline& timeline);
  void DrawCounting(const FrameContext& frame, const WholeRunView& whole_run);
  void DrawMarks(const FrameContext& frame, const sim::Timeline& timeline, ImVec2 min, ImVec2 max);
  void DrawBreakpoints(const FrameContext& frame, const sim::Simulation& simulation, ThreadRef selected);

  int kind_ = 0;    // index into the breakpoint choices
  int phase_ = 1;   // 1-based, for "start of phase"
  std::string outcome_;
  std::int64_t outcome_step_ = 0;  // the step outcome_ speaks of
  std::int64_t step_ = 0;
  std::int64_t total_ = 0;
  std::size_t marks_ = 0;
  int labels_under_marks_ = 0;  // phase labels a mark covers (drawn in rows of their own: 0)
};

}  // namespace gui
