// controls_panel.h — drive the lesson and change it: step by instruction, warp, barrier or
// phase, step back, play at a chosen speed, reset; then the lesson itself — presets, sizes,
// tiles, kernel, fills of A and B, scheduler and seed — with the problem shown beside the
// field it concerns (the last good lesson keeps running), and lesson files to open, save
// and export. Every control queues a named action or, for a lesson field, a typed edit the
// page takes after the frame (TakeEdits); the panel changes nothing itself. While a student's
// kernel is on show, its fields are theirs (your_kernel_controls.h).
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/play_clock.h"
#include "app/gui/frame_context.h"
#include "app/panels/whole_run_view.h"
#include "app/panels/your_kernel_view.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/model/simulation.h"

namespace gui {

// What the panel draws of the lesson being edited (LessonEditor owns it).
struct LessonDraft {
  sim::LessonConfig lesson;                   // what the fields show
  std::optional<sim::ValidationError> error;  // why `lesson` is not the one running
  std::uint64_t generation = 0;               // grows on every change, so fields re-read the draft
  std::string status;                         // outcome of the last open, save or load
  bool status_is_error = false;
};

struct ControlsPanel {
  // `student`: the student's kernel on show, or null for the built-in lesson.
  void Draw(const FrameContext& frame, const sim::Simulation& simulation, const WholeRunView& whole_run,
            const PlayClock& play, const LessonDraft& draft, const YourKernelView* student);
  // The lesson fields changed since the last call, in the order the user changed them.
  std::vector<sim::LessonEdit> TakeEdits() { return std::exchange(edits_, {}); }

 private:
  // `off`: why stepping is off (the buttons are drawn disabled), else empty.
  void DrawButtons(const FrameContext& frame, const PlayClock& play, const std::string& off);
  void DrawPosition(const sim::Simulation& simulation, const WholeRunView& whole_run, const YourKernelView* student);
  void DrawLesson(const FrameContext& frame, const LessonDraft& draft);
  void DrawShape(const LessonDraft& draft);
  void DrawFills(const FrameContext& frame, const LessonDraft& draft);
  void DrawRunFields(const FrameContext& frame, const LessonDraft& draft);
  void DrawFiles(const FrameContext& frame, const LessonDraft& draft);

  sim::LessonConfig edit_;  // the fields as typed; re-read when the draft changes
  std::vector<sim::LessonEdit> edits_;
  std::uint64_t seen_generation_ = 0;
  float speed_ = PlayClock::kDefaultSpeed;
  std::array<char, 512> lesson_path_{};
  std::array<char, 512> vector_path_{};
  std::array<char, 512> trace_path_{};
  int vector_case_ = 1;
};

}  // namespace gui
