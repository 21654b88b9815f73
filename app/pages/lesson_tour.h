// lesson_tour.h — the tour of an open lesson as a student follows it: the guide session (the
// stop, the answers, the lecturer switch), whether a stop is on show, and --stop/--step waiting
// for a tour still being prepared. Going to a stop runs the stop's own lesson through the
// editor and moves the model to the stop's step; the page is told (TourDisplay) so it shows
// the stop's panels. Nothing here draws.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "app/gui/actions.h"
#include "app/gui/notifications.h"
#include "app/gui/settings_store.h"
#include "app/pages/guide_session.h"
#include "app/pages/lesson_editor.h"
#include "app/panels/lesson_list_panel.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/tour.h"
#include "sim/model/simulation.h"

namespace gui {

// How the page shows the tour, told as it happens: a stop is on (the model already at its
// step), or the tour was left (every panel back).
struct TourDisplay {
  std::function<void(const sim::TourStop& stop)> show_stop;
  std::function<void()> leave;
};

// What reopens a view: a lesson by name, its tour's stop (1-based) and the step, each when needed.
struct ReopenedView {
  std::string lesson;
  std::optional<int> stop;
  std::optional<std::int64_t> step;
};
// As a command (`tilescope --lesson default --stop 4`) and as a page's link ("lesson=default&stop=4").
std::string ReopenCommand(const ReopenedView& view);
std::string ReopenLink(const ReopenedView& view);

class LessonTour {
 public:
  // `saved_guide` is the settings' "guide" entry; `simulation` and `running` are the open
  // lesson's model and the lesson it runs.
  LessonTour(const nlohmann::json& saved_guide, LessonEditor& editor, std::function<sim::Simulation&()> simulation,
             std::function<const sim::LessonConfig&()> running, Notifications& notifications, TourDisplay display);

  // --stop N (1-based, 0: none) and --step S (-1: none): opens there, or says why it cannot.
  std::optional<std::string> OpenAt(int stop, long long step);
  // True until the --stop/--step given while the tour was being prepared are applied.
  bool Opening() const { return open_at_.has_value(); }
  // Takes the lesson the editor just opened with its tour (or without one), and goes to the
  // tour's saved or first stop.
  void TakeOpened();
  // Once a frame, after the editor's poll (`was_preparing`: a tour was being prepared before it).
  void Update(bool was_preparing);

  // guide-next, guide-prev, guide-stop, guide-reveal, guide-cancel and guide-answer.
  void RegisterActions(ActionRegistry& registry);
  // Leaves the tour for every panel, also for lessons opened later (N or P return to it).
  void LeaveTour();
  void ToggleLecturer() { guide_.ToggleLecturer(); }

  bool HasTour() const { return guide_.Active(); }
  bool touring() const { return touring_; }
  GuideView Guide() const;
  // Where a click on a cell goes while a cells question waits for its answer; nullopt otherwise.
  std::optional<sim::CellSpace> AnswerSpace() const;
  // The view as the options that reopen it (lesson, tour stop, step), or why there are none.
  std::optional<std::string> ViewToReopen(ReopenedView& view) const;
  // The tour's part of the dump's "guide" entry.
  void DumpState(nlohmann::json& guide) const;
  void SaveSettings(Settings& settings) const;
  // The curriculum by name, each with the progress the settings keep (score, stop reached).
  LessonListView LessonList() const;

 private:
  // --stop and --step once the tour they name is ready.
  std::optional<std::string> GoToOpened(int stop, long long step);
  std::optional<std::string> GoToStop(int index);
  // The stop on screen: the tour's own lesson at the stop's step, then the page shows it.
  void ShowStop();
  void EndDisplay();
  bool LessonIsTours() const;
  std::string PastTheEnd(long long step) const;

  LessonEditor& editor_;
  std::function<sim::Simulation&()> simulation_;
  std::function<const sim::LessonConfig&()> running_;
  GuideSession guide_;
  // --stop/--step given while the tour was still being prepared: applied when it is ready.
  struct OpenAtLater {
    int stop = 0;
    long long step = -1;
  };
  std::optional<OpenAtLater> open_at_;
  Notifications& notifications_;
  TourDisplay display_;
  bool touring_ = false;  // a stop is shown (guide-leave: every panel)
};

}  // namespace gui
