#include "app/pages/lesson_editor.h"

#include <climits>
#include <cstdlib>

#include "app/gui/browser_page.h"
#include "app/pages/trace_export.h"
#include "kernels/test_vector_lesson.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/validation.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/lesson_file.h"
#include "sim/io/number_text.h"

namespace gui {
namespace {

// A lesson too big for step back still opens, without it (sim::OpeningMode).
constexpr sim::ModelUse kOpens = sim::ModelUse::kLessonWithoutStepBack;

}  // namespace

bool SameLesson(const sim::LessonConfig& a, const sim::LessonConfig& b) {
  return sim::LessonToJson(a) == sim::LessonToJson(b);
}

LessonEditor::LessonEditor(std::function<void(const sim::LessonConfig&)> run,
                           std::function<const sim::LessonConfig&()> running)
    : run_(std::move(run)), running_(std::move(running)) {}

sim::LessonConfig LessonEditor::Initial(const std::string& option, const nlohmann::json& saved,
                                        Notifications& notifications) {
  sim::LessonConfig lesson = sim::DefaultLesson();
  if (option.empty() && !saved.is_null()) {
    const sim::LessonLoad load = sim::ParseLesson(saved.dump());
    if (load.lesson) {
      lesson = *load.lesson;
    } else {
      notifications.Add(Severity::kWarning,
                        "the last lesson could not be reopened (" + load.error + "): the default lesson is open");
    }
  } else {
    // The lesson runs at once; its tour is prepared on a worker (Poll takes it), so even a
    // tour of seconds of model work never holds the first frame back.
    const std::string name = option.empty() ? "default" : option;
    sim::LessonLoad load = sim::LoadLessonOrPreset(name, sim::TourCheck::kLater);
    for (const std::string& warning : load.warnings) notifications.Add(Severity::kWarning, name + ": " + warning);
    if (!load.lesson) {
      // Not told here: a scripted run stops at it, a user is told the default is open instead.
      start_error_ = "cannot open lesson: " + load.error;
      return Initial("default", saved, notifications);
    }
    lesson = *load.lesson;
    OpenLoaded(name, std::move(load), "", /*running=*/true);
  }
  draft_.lesson = lesson;
  ++draft_.generation;
  return lesson;
}

void LessonEditor::RegisterActions(ActionRegistry& registry) {
  registry.Add({"lesson-set",
                "Change the lesson",
                "Set lesson fields: m=8 n=8 tile=4 kernel=tiled barrier1=off scheduler=race fill_a=random:7 ...",
                {},
                [this](const std::string& text) -> std::optional<std::string> {
                  std::vector<sim::LessonEdit> edits;
                  if (auto unreadable = sim::ReadLessonEdits(text, edits)) return Refuse(*unreadable);
                  return Edit(edits);
                }});
  registry.Add({"lesson-preset",
                "Open a preset",
                "Open a built-in lesson by name (" + sim::PresetNames() + ").",
                {},
                [this](const std::string& name) { return Preset(name); }});
  registry.Add({"lesson-open",
                "Open lesson",
                "Open a lesson JSON file (its path as the argument).",
                {},
                [this](const std::string& path) { return Open(path); }});
  registry.Add({"lesson-save",
                "Save lesson",
                "Save the running lesson as a JSON file (its path as the argument).",
                {},
                [this](const std::string& path) { return Save(path); }});
  registry.Add({"lesson-vectors",
                "Fill from test vectors",
                "Take M, N, K, A and B from a test-vector file: PATH, or PATH#CASE (1-based).",
                {},
                [this](const std::string& argument) { return LoadVectors(argument); }});
  registry.Add({"lesson-export-trace",
                "Export trace as JSON",
                "Run the lesson to its end on a worker thread and write its trace as `tilescope trace --json` does "
                "(the path as the argument).",
                {},
                [this](const std::string& path) { return ExportTrace(path); }});
}

std::optional<std::string> LessonEditor::Edit(const std::vector<sim::LessonEdit>& edits) {
  sim::LessonConfig edited = draft_.lesson;
  for (const sim::LessonEdit& edit : edits) sim::Apply(edit, edited);
  sim::NoteEdited(edited, draft_.lesson);
  if (auto invalid = sim::Validate(edited, kOpens)) {
    draft_.lesson = edited;
    // The draft keeps a bad value until the user mends it, but a key pressed meanwhile (1 for
    // the first barrier) is not about that field: it changes the running lesson too, when the
    // running lesson so changed can run, so the key still acts. Both copies get the edit
    // because the draft is what the fields show and the running lesson is what the model runs.
    sim::LessonConfig running = running_();
    for (const sim::LessonEdit& edit : edits) sim::Apply(edit, running);
    if (!sim::Validate(running, kOpens) && !SameLesson(running, running_())) {
      sim::NoteEdited(running, running_());
      run_(running);
    }
    return Refuse(*invalid);
  }
  return Take(edited, "");
}

std::optional<std::string> LessonEditor::Take(const sim::LessonConfig& lesson, const std::string& status) {
  draft_.lesson = lesson;
  ++draft_.generation;
  if (auto invalid = sim::Validate(lesson, kOpens)) return Refuse(*invalid);
  draft_.error.reset();
  run_(lesson);
  if (!status.empty()) Report(status, false);
  return std::nullopt;
}

std::optional<std::string> LessonEditor::TakeWithTour(const sim::LessonConfig& lesson, Opened opened,
                                                      const std::string& status) {
  opened_ = std::move(opened);
  auto refused = Take(lesson, status);
  if (refused) opened_.reset();  // the lesson did not run, so neither does its tour
  return refused;
}

std::optional<std::string> LessonEditor::Refuse(const sim::ValidationError& error) {
  draft_.error = error;
  ++draft_.generation;
  return error.message + " (the last good lesson stays loaded)";
}

void LessonEditor::Report(const std::string& text, bool is_error) {
  draft_.status = text;
  draft_.status_is_error = is_error;
}

std::optional<std::string> LessonEditor::Preset(const std::string& name) {
  if (sim::FindPreset(name)) {
    sim::LessonLoad load = sim::LoadPreset(name, sim::TourCheck::kLater);
    if (load.lesson) return OpenLoaded(name, std::move(load), "opened the preset " + name, /*running=*/false);
    Report("preset " + name + " did not load: " + load.error, true);
    return draft_.status;
  }
  const std::string error = "unknown preset \"" + name + "\": the presets are " + sim::PresetNames();
  Report(error, true);
  return error;
}

std::optional<std::string> LessonEditor::Open(const std::string& path) {
  if (path.empty()) {
    Report("type the path of a lesson JSON file first", true);
    return draft_.status;
  }
  sim::LessonLoad load = sim::ReadLessonFile(path, sim::TourCheck::kLater);
  if (!load.lesson) {
    Report("not opened: " + load.error, true);
    return draft_.status;
  }
  std::string status = "opened " + path;
  for (const std::string& warning : load.warnings) status += "; " + warning;
  return OpenLoaded(path, std::move(load), status, /*running=*/false);
}

std::optional<std::string> LessonEditor::OpenLoaded(const std::string& source, sim::LessonLoad load,
                                                    const std::string& status, bool running) {
  if (load.tour.empty()) return TakeWithTour(*load.lesson, {source, {}, {}}, status);
  if (!running) {
    // A tour's stops step the lesson: it needs step back.
    if (auto invalid = sim::Validate(*load.lesson)) {
      Report(source + " did not open: " + invalid->message, true);
      return draft_.status;
    }
  }
  preparer_.Start({source, *load.lesson, std::move(load.tour), status, running});
  Report("preparing the tour of " + source + "\u2026", false);
  return std::nullopt;
}

void LessonEditor::FinishPreparation(TourPreparer::Finished finished, Notifications& notifications) {
  TourPreparer::Request& request = finished.request;
  sim::PreparedTour& prepared = finished.prepared;
  PreparationOutcome outcome;
  outcome.preparation = finished.preparation;
  outcome.result = "ready";
  if (prepared.ok()) {
    last_preparation_ = outcome;
    Opened opened{request.source, std::move(request.tour), std::move(prepared)};
    if (request.running && SameLesson(running_(), request.lesson)) {
      opened_ = std::move(opened);  // start-up: the lesson runs already; the page takes its guide
      return;
    }
    if (auto refused = TakeWithTour(request.lesson, std::move(opened), request.status)) {
      notifications.Add(Severity::kError, *refused);
    }
    return;
  }
  const bool cancelled = prepared.error == sim::kTourCancelled;
  outcome.result = cancelled ? "cancelled" : "failed";
  if (cancelled) {
    outcome.message = "the tour of " + request.source + " was cancelled: " +
                      (request.running ? "its lesson runs without the guide" : running_().name + " stays open");
  } else {
    outcome.message = "cannot open " + request.source + ": " + prepared.error + " (" + running_().name + " stays open)";
  }
  last_preparation_ = outcome;
  Report(outcome.message, !cancelled);
  notifications.Add(cancelled ? Severity::kInfo : Severity::kError, outcome.message);
  // At start-up the refused lesson is already on show: a lesson whose tour contradicts the
  // model does not stay, the default takes its place.
  if (!cancelled && request.running) Preset("default");
}

std::optional<std::string> LessonEditor::Save(const std::string& path) {
  if (path.empty()) {
    Report("type the path to save the lesson to first", true);
    return draft_.status;
  }
  if (const std::string error = sim::WriteLessonFile(path, running_()); !error.empty()) {
    Report("not saved: " + error, true);
    return draft_.status;
  }
  Report("saved the running lesson to " + path, false);
  return std::nullopt;
}

std::optional<std::string> LessonEditor::LoadVectors(const std::string& argument) {
  const std::size_t hash = argument.rfind('#');
  const std::string path = hash == std::string::npos ? argument : argument.substr(0, hash);
  long long number = 1;
  if (hash != std::string::npos) {
    const std::string text = argument.substr(hash + 1);
    std::string problem;
    const std::optional<long long> read = sim::ReadWhole(text, 1, INT_MAX, problem);
    if (!read) return Refuse({"fill_file", "case " + problem + " (cases count from 1)"});
    number = *read;
  }
  sim::LessonConfig lesson = draft_.lesson;
  if (auto error = kernels::ApplyTestVectorCase(path, number, lesson)) return Refuse(*error);
  return Take(lesson, "A and B from case " + std::to_string(number) + " of " + path);
}

std::optional<std::string> LessonEditor::ExportTrace(const std::string& path) {
  if (path.empty()) {
    Report("type the path of the trace JSON file first", true);
    return draft_.status;
  }
  const sim::LessonConfig lesson = running_();
  if (!export_.Start(
          [lesson, path](const std::atomic<bool>&, kernels::JobProgress&) { return ExportTraceJson(lesson, path); })) {
    Report("a trace export is already running", true);
    return draft_.status;
  }
  export_path_ = path;
  Report("exporting the trace to " + path + "\u2026", false);
  return std::nullopt;
}

void LessonEditor::Poll(double seconds, Notifications& notifications) {
  if (auto finished = preparer_.Poll(seconds)) FinishPreparation(std::move(*finished), notifications);
  if (export_path_.empty() || export_.Running()) return;
  const std::string error = export_.LastResult().value_or("");
  Report(error.empty() ? "wrote the trace to " + export_path_ : "trace not written: " + error, !error.empty());
  if (error.empty()) browser_page::OfferDownload(export_path_);
  export_path_.clear();
}

void LessonEditor::DumpState(nlohmann::json& state) const {
  nlohmann::json& editor = state["controls"];
  editor["draft"] = nlohmann::json::parse(sim::LessonToJson(draft_.lesson));
  editor["error"] = draft_.error ? nlohmann::json{{"field", draft_.error->field}, {"message", draft_.error->message}}
                                 : nlohmann::json(nullptr);
  editor["status"] = draft_.status;
}

void LessonEditor::SaveSettings(Settings& settings, std::uint64_t lesson_generation) const {
  if (saved_.generation == lesson_generation) return;
  saved_.generation = lesson_generation;
  ++saved_.serialisations;
  nlohmann::json lesson = nlohmann::json::parse(sim::LessonToJson(running_()));
  // A lesson made again but equal (a barrier switched off and on) is no change to write.
  if (lesson == settings.last_lesson) return;
  settings.last_lesson = std::move(lesson);
  ++settings.last_lesson_changes;
}

}  // namespace gui
