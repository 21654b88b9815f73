// lesson_page.h — the lesson window: one sim::Simulation and the panels that show it.
// Panels read a snapshot and queue named actions; the actions change the model between
// frames, so a key, a button and an --actions script do exactly the same thing.
#pragma once
#include <memory>

#include "app/pages/comparison_counter.h"
#include "app/pages/guide_session.h"
#include "app/pages/lesson_editor.h"
#include "app/gui/play_clock.h"
#include "app/pages/lesson_layout.h"
#include "app/pages/occupancy_figures.h"
#include "app/pages/race_lab.h"
#include "app/pages/whole_run_pass.h"
#include "app/gui/page.h"
#include "app/panels/controls_panel.h"
#include "app/panels/counters_panel.h"
#include "app/panels/guide_panel.h"
#include "app/panels/matrices_panel.h"
#include "app/panels/narration_panel.h"
#include "app/panels/occupancy_panel.h"
#include "app/panels/hazards_panel.h"
#include "app/panels/kernel_source_panel.h"
#include "app/panels/race_lab_panel.h"
#include "app/panels/shared_tiles_panel.h"
#include "app/panels/thread_selection.h"
#include "app/panels/threads_panel.h"
#include "app/panels/timeline_panel.h"
#include "sim/lesson/lesson_config.h"
#include "sim/model/simulation.h"

namespace gui {

class LessonPage : public Page {
 public:
  // `lesson` is the --lesson value: a preset name or a lesson file; "" reopens the lesson whose
  // tour `saved_guide` (the settings' "guide" entry) was on, else `saved_lesson` (the settings'
  // last lesson), else the default.
  LessonPage(const std::string& lesson, const nlohmann::json& saved_lesson, const nlohmann::json& saved_guide,
             Notifications& notifications);
  // --stop N (1-based, 0: none) and --step S (-1: none): opens there, or says why it cannot
  // (the window is not open yet, so main() prints it and exits).
  std::optional<std::string> OpenAt(int stop, long long step);
  void RegisterActions(ActionRegistry& registry) override;
  void Update() override;
  void Draw(const FrameContext& frame) override;
  PanelTable& Panels() override { return panels_; }
  const PanelTable& Panels() const override { return panels_; }
  void DumpState(nlohmann::json& state) const override;
  bool Busy() const override;
  bool Opening() const override { return open_at_.has_value(); }
  bool HoldsScript(const std::string& action) const override;
  void SaveSettings(Settings& settings) const override;

 private:
  void AddStepAction(ActionRegistry& registry, const char* name, const char* label, const char* description,
                     std::vector<KeyChord> keys, std::int64_t (sim::Simulation::*move)());
  void Rebuild(const sim::LessonConfig& config);
  std::optional<std::string> ToggleBarrier(int which);
  // The thread picked in the Threads panel, or nullptr while the views follow the scheduler.
  const sim::Thread* PickedThread(const sim::Snapshot& snapshot) const;
  void RegisterViewActions(ActionRegistry& registry);
  void RegisterGuideActions(ActionRegistry& registry);
  // --stop and --step once the tour they name is ready.
  std::optional<std::string> GoToOpened(int stop, long long step);
  // Takes a lesson just opened with its tour, and goes to the tour's saved or first stop.
  void TakeOpenedLesson();
  std::optional<std::string> GoToStop(int index);
  // The stop on screen: the tour's own lesson at the stop's step, its block and thread
  // selected, and only its panels shown, laid out for it (GuidedLayout).
  void ShowStop();
  void ShowPanels(const std::vector<std::string>& ids);
  void LeaveTour();
  bool LessonIsTours() const;
  GuideView Guide() const;
  void SetCellPicking();
  std::optional<std::string> CopyCommand();
  std::vector<PanelRow> PanelRows();
  WholeRunView WholeRun() const;

  std::unique_ptr<sim::Simulation> simulation_;
  sim::LessonConfig lesson_;  // what simulation_ runs, under its name
  // Grows with every Simulation made: a step of the same lesson always holds the same state
  // (runs are exact), so views may keep what they read of it while this and the step stay.
  std::uint64_t lesson_generation_ = 0;
  WholeRunPass whole_run_;
  ComparisonCounter comparison_;
  PlayClock play_;
  LessonEditor editor_;
  RaceLab race_lab_;
  ControlsPanel controls_;
  SharedTilesPanel shared_tiles_;
  CountersPanel counters_;
  ThreadSelection selection_;
  MatricesPanel matrices_;
  ThreadsPanel threads_;
  NarrationPanel narration_;
  TimelinePanel timeline_;
  KernelSourcePanel kernel_source_;
  HazardsPanel hazards_;
  RaceLabPanel race_lab_panel_;
  OccupancyFigures occupancy_;
  bool source_side_by_side_ = false;  // the Numba transcription beside the CUDA (key L)
  OccupancyPanel occupancy_panel_;
  GuideSession guide_;
  // --stop/--step given while the tour was still being prepared: applied when it is ready.
  struct OpenAtLater {
    int stop = 0;
    long long step = -1;
  };
  std::optional<OpenAtLater> open_at_;
  Notifications& notifications_;
  GuidePanel guide_panel_;
  bool touring_ = false;  // the stop's panels only, laid out for it (guide-leave: every panel)
  PanelTable panels_;  // after the panels: its rows draw them
  std::vector<const PanelSlot*> default_slots_;  // each row's own slot, for leaving a tour
  std::vector<PanelSlot> stop_slots_;  // the stop's layout; rows point into it while touring
  bool relayout_ = false;              // place the panels at their slots in the next frame
  bool show_live_page_ = false;        // the stop ends on the Live GPU page
  std::string copied_command_;         // the last "Copy as command", for --dump-state
};

}  // namespace gui
