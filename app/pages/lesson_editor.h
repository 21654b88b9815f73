// lesson_editor.h — which lesson runs, and the one being edited.
//
// The Controls fields show a draft. An edit that passes sim::Validate() (a lesson too big for
// step back opens without it: sim::OpeningMode) runs at once; one
// that does not stays in the draft with the message beside its field, and the model keeps
// the last good lesson. Keys (1, 2, 3, S) edit through here too, so a field, a key and an
// --actions line change a lesson the same way. Opening and saving lesson files, presets,
// test-vector fills and the lesson that survives a restart live here; a tour is prepared by
// the TourPreparer before its lesson is taken.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/actions.h"
#include "app/panels/controls_panel.h"
#include "kernels/background_job.h"
#include "app/gui/notifications.h"
#include "app/gui/settings_store.h"
#include "app/pages/tour_preparer.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"

namespace gui {

// Lessons compare by their file form: every field a lesson file keeps.
bool SameLesson(const sim::LessonConfig& a, const sim::LessonConfig& b);

class LessonEditor {
 public:
  // `run` rebuilds the model on a lesson that passed Validate(); `running` is what it runs now.
  LessonEditor(std::function<void(const sim::LessonConfig&)> run, std::function<const sim::LessonConfig&()> running);

  // The lesson to start on: --lesson (a preset name or a lesson file), else the lesson saved
  // at the last exit, else the default. Problems are reported and the default opens.
  sim::LessonConfig Initial(const std::string& option, const nlohmann::json& saved, Notifications& notifications);
  // lesson-set, lesson-preset, lesson-open, lesson-save, lesson-vectors, lesson-export-trace.
  void RegisterActions(ActionRegistry& registry);
  // Applies `edits` to the draft (and, when the draft is bad, to the running lesson if that
  // alone is good, so keys act even while a field holds a bad value).
  std::optional<std::string> Edit(const std::vector<sim::LessonEdit>& edits);

  // Runs `lesson` as it is (a tour going back to its own lesson), `status` saying why.
  std::optional<std::string> Run(const sim::LessonConfig& lesson, const std::string& status) {
    return Take(lesson, status);
  }

  // Once a frame (`seconds` since the last): reports a finished trace export, and takes a
  // lesson whose tour is ready — or, when the tour failed or was cancelled, says so in
  // `notifications` and leaves the lesson on show as it is.
  void Poll(double seconds, Notifications& notifications);
  bool Busy() const { return export_.Running() || !export_path_.empty() || preparer_.Preparing(); }

  // A preset or file with a tour opens in two parts: the file is read at once, its tour is
  // prepared on a worker (TourPreparer), and only when that passes does the lesson replace the
  // one on show. Meanwhile the window draws on.
  using TourPreparation = gui::TourPreparation;
  std::optional<TourPreparation> Preparing() const { return preparer_.Progress(); }
  // Stops the preparation (at once, mid-run): the lesson on show stays.
  void CancelTour() { preparer_.Cancel(); }
  using PreparationOutcome = gui::PreparationOutcome;
  const std::optional<PreparationOutcome>& LastPreparation() const { return last_preparation_; }

  // The lesson a preset or a file opened, with its tour (a field edit has none): `source` is
  // the preset's name or the file's path. The page takes it once, after the lesson runs.
  struct Opened {
    std::string source;
    sim::Tour tour;
    sim::PreparedTour prepared;
  };
  std::optional<Opened> TakeOpened() { return std::exchange(opened_, std::nullopt); }

  const LessonDraft& draft() const { return draft_; }
  // Why the lesson asked for at start-up could not be opened (the default is open instead).
  // Not yet told to anyone: a scripted run stops at it, a user is told by the caller.
  const std::optional<std::string>& start_error() const { return start_error_; }
  void DumpState(nlohmann::json& state) const;
  // The running lesson into `settings`, made again only when `lesson_generation` (grows with
  // every change of the running lesson) moved: autosave asks four times a second, and a
  // lesson of megabytes of values would cost frames each time.
  void SaveSettings(Settings& settings, std::uint64_t lesson_generation) const;
  // How many times SaveSettings made the lesson's JSON.
  std::uint64_t settings_serialisations() const { return saved_.serialisations; }

 private:
  std::optional<std::string> Take(const sim::LessonConfig& lesson, const std::string& status);
  std::optional<std::string> TakeWithTour(const sim::LessonConfig& lesson, Opened opened, const std::string& status);
  // The lesson `load` read, opened now when it has no tour, else once its tour is prepared.
  // `running`: start-up, where the lesson already runs and only its guide waits.
  std::optional<std::string> OpenLoaded(const std::string& source, sim::LessonLoad load, const std::string& status,
                                        bool running);
  void FinishPreparation(TourPreparer::Finished finished, Notifications& notifications);
  std::optional<std::string> Refuse(const sim::ValidationError& error);
  std::optional<std::string> Preset(const std::string& name);
  std::optional<std::string> Open(const std::string& path);
  std::optional<std::string> Save(const std::string& path);
  std::optional<std::string> LoadVectors(const std::string& argument);
  std::optional<std::string> ExportTrace(const std::string& path);
  void Report(const std::string& text, bool is_error);

  std::function<void(const sim::LessonConfig&)> run_;
  std::function<const sim::LessonConfig&()> running_;
  LessonDraft draft_;
  kernels::BackgroundJob<std::string> export_;  // the error, or "" once the file is written
  std::string export_path_;
  std::optional<Opened> opened_;
  std::optional<std::string> start_error_;
  std::optional<PreparationOutcome> last_preparation_;
  struct SavedLesson {
    std::optional<std::uint64_t> generation;  // of the lesson last put into the settings
    std::uint64_t serialisations = 0;
  };
  mutable SavedLesson saved_;  // a cache: SaveSettings is a const view of the editor
  TourPreparer preparer_;  // last: destroyed first, it stops the worker
};

}  // namespace gui
