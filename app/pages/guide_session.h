// guide_session.h — a student's way through a lesson's tour: the stop they are at, what they
// answered at each question stop, the score, and the lecturer switch that turns questions off
// for a demo. What is right comes from sim/lesson/tour.h (the tour prepared against the model); this
// keeps only what the student did, so it survives a restart in the settings file.
//
// In lecturer mode a question is the class's: asked on screen with no answer field, then
// revealed to everyone at once (RevealToClass), and no score is kept.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>

#include "app/panels/guide_panel.h"
#include "sim/lesson/tour.h"

namespace gui {

class GuideSession {
 public:
  // The saved progress of every lesson (the settings' "guide" entry; null when none yet).
  explicit GuideSession(const nlohmann::json& saved);

  // A lesson opened with its tour, prepared against the model. `key` names it in the settings
  // and in "Copy as command" (a preset's name or a file's path). Resumes at the saved stop.
  void Start(std::string key, sim::Tour tour, sim::PreparedTour prepared);
  // A lesson without a tour: the guide has nothing to show.
  void End();
  bool Active() const { return !tour_.empty(); }

  int stop() const { return stop_; }  // 0-based
  int stops() const { return static_cast<int>(tour_.stops.size()); }
  const sim::TourStop& Stop() const { return tour_.stops[static_cast<std::size_t>(stop_)]; }
  const sim::PreparedStop& Prepared() const { return prepared_.stops[static_cast<std::size_t>(stop_)]; }
  const std::string& key() const { return key_; }

  // Goes to stop `index` (0-based); the error says why not: past either end, or the student's
  // prediction is still owed at this question stop (going back is always allowed, and
  // `skip_questions` — opening at a stop from the command line — jumps over them).
  std::optional<std::string> GoTo(int index, bool skip_questions = false);
  // The student's answer at this stop, as typed: checked against the model's, once.
  std::optional<std::string> Answer(const std::string& text);
  void ToggleLecturer() { lecturer_ = !lecturer_; }
  // Lecturer mode: shows the class the model's answer and why at this question stop.
  std::optional<std::string> RevealToClass();
  bool lecturer() const { return lecturer_; }
  // Whether an opened tour lesson goes straight to its stop (its panels only): off once the
  // user left a tour (G) for every panel, on again at the next N, P or --stop.
  bool follow() const { return follow_; }
  void SetFollow(bool follow) { follow_ = follow; }

  GuideView View() const;
  // The settings' "guide" entry: the lecturer switch, the lesson on, and each lesson's stop and answers.
  nlohmann::json Saved() const;

 private:
  struct Given {
    std::string text;  // as the student typed it
    sim::Reveal reveal;
  };
  bool Held() const;
  // The stop's answer is not on screen yet (a student's to give, or the lecturer's to reveal).
  bool AnswerHidden() const;
  void Check(int index, const std::string& text);

  nlohmann::json saved_;  // every lesson's progress, this one's refreshed by Saved()
  std::string key_;
  sim::Tour tour_;
  sim::PreparedTour prepared_;
  int stop_ = 0;
  std::map<int, Given> answers_;  // by stop
  std::set<int> shown_to_class_;   // stops whose answer the lecturer revealed
  bool lecturer_ = false;
  bool follow_ = true;
};

}  // namespace gui
