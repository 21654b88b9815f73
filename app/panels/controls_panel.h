// controls_panel.h — drive the lesson and change it: step by instruction, warp, barrier or
// phase, step back, play at a chosen speed, reset; then the lesson itself — presets, sizes,
// tiles, kernel, fills of A and B, scheduler and seed — with the problem shown beside the
// field it concerns (the last good lesson keeps running), and lesson files to open, save
// and export. Every control queues a named action; the panel changes nothing itself.
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>

#include "app/gui/lesson_editor.h"
#include "app/gui/play_clock.h"
#include "app/gui/workspace.h"
#include "app/panels/panel_layout.h"
#include "sim/simulation.h"

namespace gui {

struct ControlsPanel {
  bool open = true;
  DrawnRect drawn;
  // Where the panel was drawn, for --dump-state.
  void DumpPlacement(nlohmann::json& state) const { state["controls"] = drawn.ToJson(); }
  void Draw(const FrameContext& frame, const sim::Simulation& simulation, const PlayClock& play,
            const LessonDraft& draft);

 private:
  void DrawButtons(const FrameContext& frame, const PlayClock& play);
  void DrawPosition(const sim::Simulation& simulation);
  void DrawLesson(const FrameContext& frame, const LessonDraft& draft);
  void DrawShape(const FrameContext& frame, const LessonDraft& draft);
  void DrawFills(const FrameContext& frame, const LessonDraft& draft);
  void DrawRunFields(const FrameContext& frame, const LessonDraft& draft);
  void DrawFiles(const FrameContext& frame, const LessonDraft& draft);

  sim::LessonConfig edit_;  // the fields as typed; re-read when the draft changes
  std::uint64_t seen_generation_ = 0;
  float speed_ = PlayClock::kDefaultSpeed;
  std::array<char, 512> lesson_path_{};
  std::array<char, 512> vector_path_{};
  std::array<char, 512> trace_path_{};
  int vector_case_ = 1;
};

}  // namespace gui
