// lesson_page.h — the lesson window: the panels that show one OpenLesson, laid out for the
// lesson or for the tour's stop on show. Panels draw what they are given and queue actions or
// edits; the page routes those to the open lesson between frames, so a key, a button and an
// --actions script do exactly the same thing.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/gui/page.h"
#include "app/pages/lesson_layout.h"
#include "app/pages/open_lesson.h"
#include "app/pages/your_kernel_views.h"
#include "app/panels/controls_panel.h"
#include "app/panels/counters_panel.h"
#include "app/panels/guide_panel.h"
#include "app/panels/hazards_panel.h"
#include "app/panels/kernel_source_panel.h"
#include "app/panels/lesson_list_panel.h"
#include "app/panels/matrices_panel.h"
#include "app/panels/milestones_view.h"
#include "app/panels/narration_panel.h"
#include "app/panels/occupancy_panel.h"
#include "app/panels/race_lab_panel.h"
#include "app/panels/shared_tiles_panel.h"
#include "app/panels/thread_selection.h"
#include "app/panels/threads_panel.h"
#include "app/panels/timeline_panel.h"

namespace gui {

class LessonPage : public Page {
 public:
  // Opens the lesson as OpenLesson's constructor says.
  LessonPage(const std::string& lesson, const nlohmann::json& saved_lesson, const nlohmann::json& saved_guide,
             Notifications& notifications);
  // --stop N (1-based, 0: none) and --step S (-1: none): opens there, or says why it cannot
  // (the window is not open yet, so main() prints it and exits).
  std::optional<std::string> OpenAt(int stop, long long step) { return lesson_.tour().OpenAt(stop, step); }
  // --kernel FILE.cu: the student's kernel as the lesson, run as `options` say (also for a file
  // opened later); or why it cannot open (main() prints it and exits).
  std::optional<std::string> OpenKernel(const std::string& path, const sim::KernelLessonOptions& options);
  // Why --lesson could not be opened (the default lesson is open instead), if it could not.
  const std::optional<std::string>& StartError() const { return lesson_.start_error(); }
  void RegisterActions(ActionRegistry& registry) override;
  void Update() override;
  void Draw(const FrameContext& frame) override;
  PanelTable& Panels() override { return panels_; }
  const PanelTable& Panels() const override { return panels_; }
  void DumpState(nlohmann::json& state) const override;
  bool Busy() const override { return lesson_.Busy(); }
  bool Opening() const override { return lesson_.tour().Opening(); }
  bool HoldsScript(const std::string& action) const override;
  void SaveSettings(Settings& settings) const override { lesson_.SaveSettings(settings); }
  // The lessons by name over the page (the first screen of a new install).
  void ShowLessonList();

 private:
  // The thread picked in the Threads panel, or nullptr while the views follow the scheduler.
  const sim::Thread* PickedThread(const sim::Snapshot& snapshot) const;
  void RegisterViewActions(ActionRegistry& registry);
  void RegisterGuideViewActions(ActionRegistry& registry);
  // A stop on show: its block and thread selected, its cells and lines marked, and only its
  // panels shown, laid out for it (GuidedLayout).
  void ShowStop(const sim::TourStop& stop);
  void ShowPanels(const std::vector<std::string>& ids);
  // Presentation: a panel the View menu opens or closes joins the layout (JoinedLayout).
  void FollowPresentedPanels(const FrameContext& frame);
  // A student's kernel opened or left: its presentation layout (YourKernelSlot), or the lesson's.
  void FollowStudentLayout();
  std::vector<std::string> PresentedKeys() const;
  // MatricesPanel::CharactersAcross of the open lesson (0 while its C is not yet known).
  int MatricesAcross() const;
  void LeaveTour();
  void SetCellPicking();
  std::optional<std::string> CopyView(std::string (*spell)(const ReopenedView&));
  // In a browser the address bar shows the view's link; a new tour stop is a new history entry.
  void ShowLinkInAddressBar();
  std::vector<PanelRow> PanelRows();

  Notifications& notifications_;
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
  bool source_side_by_side_ = false;  // the Numba transcription beside the CUDA (key L)
  OccupancyPanel occupancy_panel_;
  GuidePanel guide_panel_;
  LessonListPanel lesson_list_;
  LessonListView lesson_list_view_;  // filled when the list opens: the progress as it was then
  PanelTable panels_;  // after the panels: its rows draw them
  std::vector<const PanelSlot*> default_slots_;  // each row's own slot, for leaving a tour
  std::vector<PanelSlot> stop_slots_;  // the stop's layout; rows point into it while touring
  std::vector<PanelSlot> joined_slots_;  // presentation after the View menu changed its panels
  std::vector<std::string> presented_keys_;  // the panels presentation's layout was made for
  bool presenting_ = false;                  // the mode of the last frame drawn (panel-toggle)
  bool student_layout_ = false;              // the panels stand in a student's kernel's layout
  bool relayout_ = false;              // place the panels at their slots in the next frame
  bool show_live_page_ = false;        // the stop ends on the Live GPU page
  std::string copied_command_;         // the last "Copy as command" or "Copy link", for --dump-state
  std::optional<ReopenedView> shown_view_;  // the view the address bar shows its link of
  // Last: opening it may show a tour's stop, which lays out the panels above.
  OpenLesson lesson_;
  YourKernelViews your_kernel_;  // after the lesson it draws
};

}  // namespace gui
