// race_lab_panel.h — switch a barrier off and watch C go wrong: which case the lesson is
// in (one warp or several) and why, the barrier kinds (__syncthreads, __syncwarp, off),
// the scheduler that decides whether the race corrupts C (key S: race-exposing), how many
// elements of C are wrong, "run 100 seeds", and the same variants on the GPU beside the
// model. Draws what RaceLab holds and queues actions; it changes nothing itself.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "app/gui/race_lab.h"
#include "app/gui/workspace.h"
#include "app/panels/panel_layout.h"
#include "sim/simulation.h"

namespace gui {

struct RaceLabPanel {
  bool open = true;
  DrawnRect drawn;
  // Where the panel was drawn, for --dump-state.
  void DumpPlacement(nlohmann::json& state) const { state["race_lab"] = drawn.ToJson(); }
  void Draw(const FrameContext& frame, const sim::Simulation& simulation, const RaceLab& lab);
  // Which case the lesson is in, in one line, and the plain statement of why (also in --dump-state).
  static std::string CaseHeadline(const sim::Geometry& geometry);
  static std::string CaseStatement(const sim::LessonConfig& lesson, const sim::Geometry& geometry);
  static const char* SchedulerSentence(sim::SchedulerKind scheduler);

 private:
  void DrawBarriers(const FrameContext& frame, const sim::LessonConfig& lesson);
  void DrawScheduler(const FrameContext& frame, const sim::LessonConfig& lesson);
  void DrawThisRun(const FrameContext& frame, const sim::Simulation& simulation, const RaceLab& lab);
  void DrawSeeds(const FrameContext& frame, const RaceLab& lab);
  void DrawGpu(const FrameContext& frame, const sim::Simulation& simulation, const RaceLab& lab);
  void DrawGpuTable(const RaceLab& lab);
  static void DrawGpuResult(const kernels::RaceResult& result);

  int seeds_field_ = 100;
  int large_size_field_ = 0;  // 0: not yet read from the lab
  int trials_field_ = 0;
  bool gpu_was_busy_ = false;  // a GPU race run (or its model runs) was in flight last frame
};

}  // namespace gui
