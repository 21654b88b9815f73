// open_lesson.h — one open lesson: the LessonConfig (or a student's kernel file, StudentKernel)
// and the sim::Simulation that runs it, the
// workers that count it (the whole run, the comparison kernel, the occupancy figures), the
// editor that changes it, the race lab, the play clock, and the tour a student follows
// through it (LessonTour). The lesson page gives panels views of it and routes actions to its
// verbs, which run between frames; nothing here draws.
//
// It lives in app/pages, not sim/lesson: the editor, the race lab and the guide register
// actions, report to the status bar and save to the settings file, all of them the shell's.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "app/gui/notifications.h"
#include "app/gui/play_clock.h"
#include "app/gui/settings_store.h"
#include "app/pages/comparison_counter.h"
#include "app/pages/lesson_editor.h"
#include "app/pages/lesson_tour.h"
#include "app/pages/occupancy_figures.h"
#include "app/pages/race_lab.h"
#include "app/pages/student_kernel.h"
#include "app/pages/whole_run_pass.h"
#include "app/panels/whole_run_view.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/model/simulation.h"

namespace gui {

class OpenLesson {
 public:
  // `lesson` is the --lesson value: a preset name or a lesson file; "" reopens the lesson whose
  // tour `saved_guide` (the settings' "guide" entry) was on, else `saved_lesson` (the settings'
  // last lesson), else the default.
  OpenLesson(const std::string& lesson, const nlohmann::json& saved_lesson, const nlohmann::json& saved_guide,
             Notifications& notifications, TourDisplay display);

  // The actions in groups, so the page keeps F1's order with its own between them (the
  // tour's are tour().RegisterActions): stepping, playing, the guard, the editor's and the
  // race lab's;
  void RegisterRunActions(ActionRegistry& registry);
  // and the barriers, the whole-run pass, jumping and editing a cell.
  void RegisterEditActions(ActionRegistry& registry);
  // kernel-open: a student's kernel file as the lesson. The lesson on show stays when it fails.
  void RegisterKernelActions(ActionRegistry& registry);
  // How a student's kernel runs (--kernel-name, --block, --grid, --sizes, --define): for every
  // file opened (the kernel's name for the first only). A file with several kernels opens on
  // the first unless one is named; Controls offers the others.
  void SetKernelOptions(const sim::KernelLessonOptions& options);
  std::optional<std::string> OpenKernel(const std::string& path);
  // kernel-scheduler and kernel-name: the open kernel again under another scheduler (at the
  // same step) or another kernel of its file (from its start); the Hazards panel's findings
  // are checked again under it.
  std::optional<std::string> SetStudentScheduler(sim::SchedulerKind scheduler);
  std::optional<std::string> PickStudentKernel(const std::string& name);
  // The student's kernel when one is open as the lesson (its file, its findings), else nullptr.
  const StudentKernel* Student() const { return student_.IsOpen() ? &student_ : nullptr; }

  // Once a frame, shown or not: takes what the workers finished and a lesson whose tour is ready.
  void Update(double seconds);
  // The shown frame only: steps while playing.
  void Play(double seconds);
  std::optional<std::string> Edit(const std::vector<sim::LessonEdit>& edits);
  // Nothing when stepping is off (SteppingOff says why).
  std::int64_t RunUntil(const sim::Breakpoint& breakpoint) {
    return SteppingOff() ? 0 : simulation_->RunUntil(breakpoint);
  }
  // Why stepping and step back are off: a lesson too big for step back is shown at the end
  // of its whole run (sim::OpeningMode), else nothing.
  const std::optional<std::string>& SteppingOff() const { return stepping_off_; }
  // The correct product of the lesson's A and B, or nullptr while a lesson without step back
  // still counts its whole run (the worker makes it: at 1024³ it takes seconds).
  const std::vector<float>* Reference() const;
  LessonTour& tour() { return tour_; }
  const LessonTour& tour() const { return tour_; }
  const std::optional<std::string>& start_error() const { return editor_.start_error(); }

  const sim::Simulation& simulation() const { return *simulation_; }
  const sim::LessonConfig& lesson() const { return lesson_; }
  // Grows with every Simulation made: a step of the same lesson always holds the same state
  // (runs are exact), so views may keep what they read of it while this and the step stay.
  std::uint64_t generation() const { return generation_; }
  WholeRunView WholeRun() const;
  const PlayClock& play() const { return play_; }
  const LessonDraft& draft() const { return editor_.draft(); }
  const ComparisonCounter& comparison() const { return comparison_; }
  RaceLabView race_lab() const;
  const OccupancyView& Occupancy() const { return occupancy_.View(); }
  std::optional<LessonEditor::TourPreparation> Preparing() const { return editor_.Preparing(); }

  bool Busy() const;
  void DumpState(nlohmann::json& state) const;
  void SaveSettings(Settings& settings) const;

 private:
  void AddStepAction(ActionRegistry& registry, const char* name, const char* label, const char* description,
                     std::vector<KeyChord> keys, std::int64_t (sim::Simulation::*move)());
  // Adds an action that moves through the run: refused with SteppingOff()'s reason when off.
  void AddMoveAction(ActionRegistry& registry, Action action);
  void Rebuild(const sim::LessonConfig& config);
  // The student's kernel, new or saved again: run from the step on show where the run is as long.
  void RebuildStudent();
  // Why an edit of the built-in lesson does not apply while a student's kernel is on show.
  std::optional<std::string> StudentOwnsIt() const;
  std::optional<std::string> ToggleBarrier(sim::BarrierSlot slot);
  std::optional<std::string> EditCell(const std::string& argument);

  std::unique_ptr<sim::Simulation> simulation_;
  sim::LessonConfig lesson_;  // what simulation_ runs, under its name
  std::uint64_t generation_ = 0;
  std::optional<std::string> stepping_off_;
  WholeRunPass whole_run_;
  ComparisonCounter comparison_;
  PlayClock play_;
  LessonEditor editor_;
  RaceLab race_lab_;
  OccupancyFigures occupancy_;
  StudentKernel student_;
  sim::KernelLessonOptions kernel_options_;
  Notifications& notifications_;
  LessonTour tour_;
};

}  // namespace gui
