#include "app/pages/lesson_tour.h"

#include <GLFW/glfw3.h>

#include <cctype>
#include <climits>
#include <cstdlib>
#include <utility>

#include "sim/lesson/lesson_file.h"
#include "sim/lesson/validation.h"
#include "sim/io/number_text.h"

namespace gui {

namespace {

// A word of a shell command, quoted when it holds anything a shell would read.
std::string ShellWord(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") ==
                           std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

constexpr char kHex[] = "0123456789ABCDEF";

// A value in a link, percent-encoded but for the characters a URL's fragment keeps as they are.
std::string LinkWord(const std::string& word) {
  std::string encoded;
  for (unsigned char c : word) {
    if (std::isalnum(c) || c == '_' || c == '-' || c == '.') {
      encoded += static_cast<char>(c);
    } else {
      encoded += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return encoded;
}

}  // namespace

LessonTour::LessonTour(const nlohmann::json& saved_guide, LessonEditor& editor,
                       std::function<sim::Simulation&()> simulation,
                       std::function<const sim::LessonConfig&()> running, Notifications& notifications,
                       TourDisplay display)
    : editor_(editor),
      simulation_(std::move(simulation)),
      running_(std::move(running)),
      guide_(saved_guide),
      notifications_(notifications),
      display_(std::move(display)) {}

std::string LessonTour::PastTheEnd(long long step) const {
  return "--step " + std::to_string(step) + " is past the end: the lesson " + running_().name + " ends at step " +
         std::to_string(simulation_().step());
}

std::optional<std::string> LessonTour::OpenAt(int stop, long long step) {
  // The tour may still be prepared on a worker: its length is known from the file already.
  const std::optional<LessonEditor::TourPreparation> preparing = editor_.Preparing();
  if (stop > 0) {
    const int stops = preparing ? preparing->stops : guide_.Active() ? guide_.stops() : 0;
    if (stops == 0) {
      return "--stop " + std::to_string(stop) + ": the lesson " + running_().name + " has no tour";
    }
    if (stop > stops) {
      return "--stop " + std::to_string(stop) + " is past the end: the tour of " +
             (preparing ? preparing->source : guide_.key()) + " has " + std::to_string(stops) + " stops";
    }
  }
  if (step > 0 && sim::OpeningMode(running_()) == sim::LessonMode::kWithoutStepBack) {
    return "--step " + std::to_string(step) + ": " + sim::SteppingOffReason(running_());
  }
  if (preparing) {
    if (step >= 0) {
      simulation_().JumpTo(step);  // refused now, before any window opens, when past the end
      if (simulation_().step() < step) return PastTheEnd(step);
    }
    open_at_ = OpenAtLater{stop, step};
    return std::nullopt;
  }
  return GoToOpened(stop, step);
}

std::optional<std::string> LessonTour::GoToOpened(int stop, long long step) {
  if (stop > 0) {
    // Opening at a stop is where a lecturer or a shared command wants to be: earlier
    // questions do not hold it back.
    if (auto refused = guide_.GoTo(stop - 1, /*skip_questions=*/true)) return refused;
    guide_.SetFollow(true);
    ShowStop();
  }
  if (step >= 0) {
    simulation_().JumpTo(step);  // stops at the end
    if (simulation_().step() < step) return PastTheEnd(step);
  }
  return std::nullopt;
}

void LessonTour::TakeOpened() {
  std::optional<LessonEditor::Opened> opened = editor_.TakeOpened();
  if (!opened) return;
  const std::optional<OpenAtLater> open_at = std::exchange(open_at_, std::nullopt);
  if (opened->tour.empty()) {
    guide_.End();
    EndDisplay();
    return;
  }
  guide_.Start(opened->source, std::move(opened->tour), std::move(opened->prepared));
  if (guide_.Active() && guide_.follow()) ShowStop();
  if (open_at) {
    if (auto refused = GoToOpened(open_at->stop, open_at->step)) notifications_.Add(Severity::kError, *refused);
  }
}

void LessonTour::Update(bool was_preparing) {
  TakeOpened();  // a start-up lesson's guide, once its tour is ready
  // A tour that failed or was cancelled leaves --stop/--step nothing to open (the message said why).
  if (was_preparing && editor_.LastPreparation() && editor_.LastPreparation()->result != "ready") open_at_.reset();
}

// The tour's keys work in normal and presentation mode alike: N and P, and PageDown and
// PageUp, which presenter clickers send.
void LessonTour::RegisterActions(ActionRegistry& registry) {
  registry.Add({"guide-next", "Next stop", "Go to the tour's next stop (held back until a question is answered).",
                {{GLFW_KEY_N, 0}, {GLFW_KEY_PAGE_DOWN, 0}},
                [this](const std::string&) { return GoToStop(guide_.stop() + (touring_ ? 1 : 0)); }});
  registry.Add({"guide-reveal", "Reveal the answer",
                "Lecturer mode: show the class the model's answer to this stop's question, and why.",
                {{GLFW_KEY_V, 0}}, [this](const std::string&) { return guide_.RevealToClass(); }});
  registry.Add({"guide-prev", "Previous stop", "Go back to the tour's previous stop.",
                {{GLFW_KEY_P, 0}, {GLFW_KEY_PAGE_UP, 0}},
                [this](const std::string&) { return GoToStop(guide_.stop() - (touring_ ? 1 : 0)); }});
  registry.Add({"guide-stop", "Go to stop", "Go to stop N of the tour (1-based; questions before it still count).", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  std::string problem;
                  const std::optional<long long> stop = sim::ReadWhole(argument, 1, INT_MAX, problem);
                  if (!stop) return "guide-stop wants a stop number from 1: " + problem;
                  return GoToStop(static_cast<int>(*stop - 1));
                }});
  registry.Add({"guide-cancel", "Cancel preparing the tour",
                "Stop preparing the tour of the lesson being opened (the model's work for its stops): the lesson on "
                "show stays. Nothing to do when no tour is being prepared.",
                {{GLFW_KEY_ESCAPE, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  editor_.CancelTour();
                  return std::nullopt;
                }});
  registry.Add({"guide-answer", "Answer", "Answer the stop's question: a number, a choice's number, or cells.", {},
                [this](const std::string& answer) { return guide_.Answer(answer); }});
}

std::optional<std::string> LessonTour::GoToStop(int index) {
  if (auto refused = guide_.GoTo(index)) return refused;
  guide_.SetFollow(true);
  ShowStop();
  return std::nullopt;
}

bool LessonTour::LessonIsTours() const { return SameLesson(running_(), guide_.Prepared().lesson); }

void LessonTour::ShowStop() {
  if (!LessonIsTours()) {
    // The stop runs its own lesson (the file's, or with the stop's edits such as
    // barrier2=off), and a student's edit is undone: the stop's figures are that lesson's.
    const sim::TourStop& wanted = guide_.Stop();
    const std::string why = wanted.edits.empty() ? "the tour's lesson" : "the tour's lesson with " + wanted.edits;
    if (editor_.Run(guide_.Prepared().lesson, why)) return;  // refused: the editor said why
  }
  simulation_().JumpTo(guide_.Prepared().step);
  touring_ = true;
  display_.show_stop(guide_.Stop());
}

void LessonTour::EndDisplay() {
  if (!touring_) return;  // off a tour every panel is back already
  touring_ = false;
  display_.leave();
}

void LessonTour::LeaveTour() {
  EndDisplay();
  guide_.SetFollow(false);  // and lessons opened later show every panel too
}

GuideView LessonTour::Guide() const {
  GuideView view = guide_.View();
  if (guide_.Active() && !LessonIsTours()) {
    view.edited = "You changed the lesson; this stop's figures are for " + guide_.key() +
                  (guide_.Stop().edits.empty() ? std::string(" as its file has it") : " with " + guide_.Stop().edits) +
                  ". N or P takes you back to it.";
  }
  return view;
}

std::optional<sim::CellSpace> LessonTour::AnswerSpace() const {
  const GuideView view = guide_.View();
  if (!touring_ || view.kind != GuideQuestionKind::kCells || view.reveal || view.lecturer) return std::nullopt;
  const sim::QueryValue& right = guide_.Prepared().answer;
  return right.cells.empty() ? sim::CellSpace::kC : right.cells.front().space;
}

// The lesson as it was opened, the stop, and the step when it is not the stop's own. An edited
// lesson has no name to reopen it by: saying so beats a command that opens something else.
std::optional<std::string> LessonTour::ViewToReopen(ReopenedView& view) const {
  view = {};
  const bool tour_lesson = guide_.Active() && LessonIsTours();
  const std::string& name = running_().name;
  if (tour_lesson) {
    view.lesson = guide_.key();
  } else if (sim::FindPreset(name) && SameLesson(*sim::FindPreset(name), running_())) {
    view.lesson = name;
  } else {
    return "this lesson was edited (" + name + "): save it (lesson-save) and open that file to share it";
  }
  const std::int64_t step = simulation_().step();
  if (tour_lesson && touring_) view.stop = guide_.stop() + 1;
  if (!(tour_lesson && touring_ && step == guide_.Prepared().step)) view.step = step;
  return std::nullopt;
}

std::string ReopenCommand(const ReopenedView& view) {
  std::string command = "tilescope --lesson " + ShellWord(view.lesson);
  if (view.stop) command += " --stop " + std::to_string(*view.stop);
  if (view.step) command += " --step " + std::to_string(*view.step);
  return command;
}

std::string ReopenLink(const ReopenedView& view) {
  std::string link = "lesson=" + LinkWord(view.lesson);
  if (view.stop) link += "&stop=" + std::to_string(*view.stop);
  if (view.step) link += "&step=" + std::to_string(*view.step);
  return link;
}

void LessonTour::DumpState(nlohmann::json& guide) const {
  if (!guide_.Active()) guide["lesson"] = nullptr;
  guide["touring"] = touring_;
  const auto preparation = [](const LessonEditor::TourPreparation& p) {
    return nlohmann::json{{"lesson", p.source}, {"stops", p.stops},     {"done", p.done},
                          {"frames", p.frames}, {"seconds", p.seconds}, {"cancelling", p.cancelling}};
  };
  const std::optional<LessonEditor::TourPreparation> preparing = editor_.Preparing();
  guide["preparing"] = preparing ? preparation(*preparing) : nlohmann::json(nullptr);
  const auto& last = editor_.LastPreparation();
  guide["last_preparation"] = nlohmann::json(nullptr);
  if (last) {
    guide["last_preparation"] = preparation(last->preparation);
    guide["last_preparation"]["result"] = last->result;
    guide["last_preparation"]["message"] = last->message;
  }
}

namespace {

// "score 3 of 4 · stopped at stop 5 of 8" from a lesson's saved progress; "not started" without.
std::string Progress(const nlohmann::json& saved) {
  if (!saved.is_object() || !saved.contains("stop") || !saved["stop"].is_number_integer()) return "not started";
  std::string text;
  const std::size_t answered = saved.contains("answers") && saved["answers"].is_object() ? saved["answers"].size() : 0;
  if (answered > 0 && saved.contains("right") && saved["right"].is_number_integer()) {
    text = "score " + std::to_string(saved["right"].get<int>()) + " of " + std::to_string(answered) + " \u00B7 ";
  }
  text += "stopped at stop " + std::to_string(saved["stop"].get<int>());
  if (saved.contains("stops") && saved["stops"].is_number_integer()) text += " of " + std::to_string(saved["stops"].get<int>());
  return text;
}

}  // namespace

LessonListView LessonTour::LessonList() const {
  const nlohmann::json saved = guide_.Saved();
  const nlohmann::json* lessons = saved.contains("lessons") && saved["lessons"].is_object() ? &saved["lessons"] : nullptr;
  LessonListView view;
  for (const std::string& name : sim::CurriculumNames()) {
    const std::optional<sim::LessonConfig> preset = sim::FindPreset(name);
    if (!preset) continue;
    const nlohmann::json mine = lessons && lessons->contains(name) ? lessons->at(name) : nlohmann::json();
    view.entries.push_back({name, sim::LessonHeading(*preset), Progress(mine), running_().name == name});
  }
  return view;
}

void LessonTour::SaveSettings(Settings& settings) const {
  nlohmann::json guide = guide_.Saved();
  // An edited lesson is the one to reopen (the settings' last lesson), not the tour's.
  if (guide_.Active() && !LessonIsTours()) guide.erase("lesson");
  settings.panels["guide"] = guide;
}

}  // namespace gui
