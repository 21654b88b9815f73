// lesson_workspace.h — the lesson window: one sim::Simulation and the panels that show it.
// Panels read a snapshot and queue named actions; the actions change the model between
// frames, so a key, a button and an --actions script do exactly the same thing.
#pragma once
#include <memory>

#include "app/gui/workspace.h"
#include "app/panels/controls_panel.h"
#include "app/panels/counters_panel.h"
#include "app/panels/matrices_panel.h"
#include "app/panels/narration_panel.h"
#include "app/panels/shared_tiles_panel.h"
#include "app/panels/thread_selection.h"
#include "app/panels/threads_panel.h"
#include "app/panels/timeline_panel.h"
#include "sim/simulation.h"

namespace gui {

class LessonWorkspace : public Workspace {
 public:
  // `lesson` is the --lesson value: "" or "default" open the default lesson.
  LessonWorkspace(const std::string& lesson, Notifications& notifications);
  void RegisterActions(ActionRegistry& registry) override;
  void DrawViewMenu() override;
  void Draw(const FrameContext& frame) override;
  void DumpState(nlohmann::json& state) const override;

 private:
  void AddStepAction(ActionRegistry& registry, const char* name, const char* label, const char* description,
                     std::vector<KeyChord> keys, std::int64_t (sim::Simulation::*move)());
  void Rebuild(const sim::LessonConfig& config);
  std::optional<std::string> ToggleBarrier(int which);
  void RegisterViewActions(ActionRegistry& registry);

  std::unique_ptr<sim::Simulation> simulation_;
  bool playing_ = false;
  ControlsPanel controls_;
  SharedTilesPanel shared_tiles_;
  CountersPanel counters_;
  ThreadSelection selection_;
  MatricesPanel matrices_;
  ThreadsPanel threads_;
  NarrationPanel narration_;
  TimelinePanel timeline_;
};

}  // namespace gui
