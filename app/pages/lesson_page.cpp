#include "app/pages/lesson_page.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_edit.h"
#include "sim/lesson/teaching.h"
#include "sim/model/snapshot.h"

namespace gui {

namespace {

// The tour a restart resumes: the lesson it was on, when no --lesson names another.
std::string TourLesson(const nlohmann::json& saved_guide) {
  if (!saved_guide.is_object() || !saved_guide.contains("lesson") || !saved_guide["lesson"].is_string()) return "";
  return saved_guide["lesson"].get<std::string>();
}

// Lessons compare by their file form: every field a lesson file keeps.
bool SameLesson(const sim::LessonConfig& a, const sim::LessonConfig& b) {
  return sim::LessonToJson(a) == sim::LessonToJson(b);
}

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

}  // namespace

LessonPage::LessonPage(const std::string& lesson, const nlohmann::json& saved_lesson,
                       const nlohmann::json& saved_guide, Notifications& notifications)
    : editor_(
          [this](const sim::LessonConfig& config) {
            Rebuild(config);
            TakeOpenedLesson();  // at once: a script's next action already sees the new tour
          },
          [this]() -> const sim::LessonConfig& { return lesson_; }),
      race_lab_(editor_, [this]() -> const sim::Simulation& { return *simulation_; }),
      guide_(saved_guide),
      notifications_(notifications),
      panels_(PanelRows()) {
  PanelRow& guide = panels_.Row("Guide");  // shown by a tour's stop, or from the View menu
  guide.open = guide.open_presenting = false;
  for (const PanelRow& row : panels_.Rows()) default_slots_.push_back(row.slot);
  const std::string tour_lesson = TourLesson(saved_guide);
  Rebuild(editor_.Initial(lesson.empty() ? tour_lesson : lesson, tour_lesson.empty() ? saved_lesson : nlohmann::json(),
                          notifications));
  TakeOpenedLesson();
}

std::optional<std::string> LessonPage::OpenAt(int stop, long long step) {
  // The tour may still be prepared on a worker: its length is known from the file already.
  const std::optional<LessonEditor::TourPreparation> preparing = editor_.Preparing();
  if (stop > 0) {
    const int stops = preparing ? preparing->stops : guide_.Active() ? guide_.stops() : 0;
    if (stops == 0) {
      return "--stop " + std::to_string(stop) + ": the lesson " + lesson_.name + " has no tour";
    }
    if (stop > stops) {
      return "--stop " + std::to_string(stop) + " is past the end: the tour of " +
             (preparing ? preparing->source : guide_.key()) + " has " + std::to_string(stops) + " stops";
    }
  }
  if (preparing) {
    if (step >= 0) {
      simulation_->JumpTo(step);  // refused now, before any window opens, when past the end
      if (simulation_->step() < step) {
        return "--step " + std::to_string(step) + " is past the end: the lesson " + lesson_.name +
               " ends at step " + std::to_string(simulation_->step());
      }
    }
    open_at_ = OpenAtLater{stop, step};
    return std::nullopt;
  }
  return GoToOpened(stop, step);
}

std::optional<std::string> LessonPage::GoToOpened(int stop, long long step) {
  if (stop > 0) {
    // Opening at a stop is where a lecturer or a shared command wants to be: earlier
    // questions do not hold it back.
    if (auto refused = guide_.GoTo(stop - 1, /*skip_questions=*/true)) return refused;
    guide_.SetFollow(true);
    ShowStop();
  }
  if (step >= 0) {
    simulation_->JumpTo(step);  // stops at the end
    if (simulation_->step() < step) {
      return "--step " + std::to_string(step) + " is past the end: the lesson " + lesson_.name +
             " ends at step " + std::to_string(simulation_->step());
    }
  }
  return std::nullopt;
}

void LessonPage::Rebuild(const sim::LessonConfig& config) {
  const std::int64_t step = simulation_ ? simulation_->step() : 0;
  simulation_ = std::make_unique<sim::Simulation>(config);
  lesson_ = config;
  ++lesson_generation_;
  // The whole run is counted on a worker: a large lesson never freezes the window.
  whole_run_.Start(*simulation_);
  simulation_->JumpTo(step);  // stops at the end if the new lesson is shorter
  comparison_.Request(*simulation_);
  occupancy_.Request(config);
}

void LessonPage::AddStepAction(ActionRegistry& registry, const char* name, const char* label,
                                    const char* description, std::vector<KeyChord> keys,
                                    std::int64_t (sim::Simulation::*move)()) {
  registry.Add({name, label, description, std::move(keys), [this, move](const std::string&) -> std::optional<std::string> {
                  ((*simulation_).*move)();
                  return std::nullopt;
                }});
}

std::optional<std::string> LessonPage::ToggleBarrier(int which) {
  const sim::KernelConfig& config = lesson_;
  const sim::SyncKind kind = which == 1 ? config.barrier1 : config.barrier2;
  return editor_.Edit({sim::BarrierEdit{which == 1 ? sim::BarrierSlot::kFirst : sim::BarrierSlot::kSecond,
                                        kind == sim::SyncKind::kNone ? sim::SyncKind::kSyncthreads : sim::SyncKind::kNone}});
}

const sim::Thread* LessonPage::PickedThread(const sim::Snapshot& snapshot) const {
  if (!selection_.picked) return nullptr;
  const ThreadRef picked = selection_.Resolve(snapshot);
  return &snapshot.thread(picked.block, picked.thread);
}

void LessonPage::RegisterActions(ActionRegistry& registry) {
  AddStepAction(registry, "step", "Step", "Run one instruction of the scheduler's unit.", {{GLFW_KEY_RIGHT, 0}},
                &sim::Simulation::Step);
  AddStepAction(registry, "next-phase", "Next phase", "Run to the end of the current tile phase.",
                {{GLFW_KEY_RIGHT, GLFW_MOD_SHIFT}}, &sim::Simulation::RunToPhaseEnd);
  AddStepAction(registry, "to-barrier", "Run to barrier", "Run until a barrier releases its block.",
                {{GLFW_KEY_B, 0}}, &sim::Simulation::RunToBarrier);
  AddStepAction(registry, "run-to-end", "Run to end", "Run the whole lesson to its last step.", {{GLFW_KEY_END, 0}},
                &sim::Simulation::RunToEnd);
  registry.Add({"step-back", "Step back", "Undo one step, exactly (checkpoints and replay).", {{GLFW_KEY_LEFT, 0}},
                [this](const std::string&) -> std::optional<std::string> {
                  simulation_->StepBack();
                  return std::nullopt;
                }});
  registry.Add({"reset", "Reset", "Back to step 0.", {{GLFW_KEY_R, 0}},
                [this](const std::string&) -> std::optional<std::string> {
                  simulation_->Reset();
                  play_.playing = false;
                  return std::nullopt;
                }});
  registry.Add({"play", "Play / pause", "Step on at the chosen speed until the end.", {{GLFW_KEY_SPACE, 0}},
                [this](const std::string&) -> std::optional<std::string> {
                  play_.playing = !play_.playing;
                  return std::nullopt;
                }});
  registry.Add({"play-speed", "Play speed", "Steps per second while playing (the argument).", {},
                [this](const std::string& text) -> std::optional<std::string> {
                  const float speed = std::strtof(text.c_str(), nullptr);
                  if (!(speed >= PlayClock::kMinSpeed && speed <= PlayClock::kMaxSpeed)) {
                    return "play speed \"" + text + "\" is not between 1 and 1000 steps per second";
                  }
                  play_.steps_per_second = speed;
                  return std::nullopt;
                }});
  AddStepAction(registry, "step-warp", "Step warp", "Run until every runnable lane of the next warp ran once.",
                {{GLFW_KEY_W, 0}}, &sim::Simulation::StepWarp);
  registry.Add({"toggle-guard", "Toggle bounds guard", "Switch the kernel's bounds guard off or on.", {{GLFW_KEY_3, 0}},
                [this](const std::string&) {
                  return editor_.Edit({sim::GuardEdit{!lesson_.guard}});
                }});
  editor_.RegisterActions(registry);
  race_lab_.RegisterActions(registry);
  registry.Add({"toggle-numba", "Numba beside the CUDA source",
                "Show seed 000's Numba transcription beside 02_tiled.cu, line by line, or the CUDA source alone.",
                {{GLFW_KEY_L, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  source_side_by_side_ = !source_side_by_side_;
                  return std::nullopt;
                }});
  registry.Add({"toggle-barrier1", "Toggle 1st barrier", "Switch the first __syncthreads() off or on.",
                {{GLFW_KEY_1, 0}}, [this](const std::string&) { return ToggleBarrier(1); }});
  registry.Add({"toggle-barrier2", "Toggle 2nd barrier", "Switch the second __syncthreads() off or on.",
                {{GLFW_KEY_2, 0}}, [this](const std::string&) { return ToggleBarrier(2); }});
  registry.Add({"whole-run-cancel", "Stop counting the whole run",
                "Stop the workers counting the lesson's whole run (its length, marks and whole-run figures) and the "
                "comparison kernel's; stepping goes on.",
                {}, [this](const std::string&) -> std::optional<std::string> {
                  if (whole_run_.state() != WholeRunPass::State::kCounting) return "the whole run is not being counted";
                  whole_run_.Cancel();
                  comparison_.Cancel();
                  return std::nullopt;
                }});
  registry.Add({"bench-step", "Benchmark step", "One step per frame, from the start again at the end (--bench-frames).",
                {}, [this](const std::string&) -> std::optional<std::string> {
                  if (simulation_->Step() == 0) simulation_->Reset();
                  return std::nullopt;
                }});
  RegisterViewActions(registry);
  RegisterGuideActions(registry);
}

// The tour's keys work in normal and presentation mode alike: N and P, and PageDown and
// PageUp, which presenter clickers send.
void LessonPage::RegisterGuideActions(ActionRegistry& registry) {
  registry.Add({"guide-next", "Next stop", "Go to the tour's next stop (held back until a question is answered).",
                {{GLFW_KEY_N, 0}, {GLFW_KEY_PAGE_DOWN, 0}},
                [this](const std::string&) { return GoToStop(guide_.stop() + (touring_ ? 1 : 0)); }});
  registry.Add({"guide-prev", "Previous stop", "Go back to the tour's previous stop.",
                {{GLFW_KEY_P, 0}, {GLFW_KEY_PAGE_UP, 0}},
                [this](const std::string&) { return GoToStop(guide_.stop() - (touring_ ? 1 : 0)); }});
  registry.Add({"guide-stop", "Go to stop", "Go to stop N of the tour (1-based; questions before it still count).", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  char* end = nullptr;
                  const long stop = std::strtol(argument.c_str(), &end, 10);
                  if (argument.empty() || *end != '\0' || stop < 1) {
                    return "guide-stop wants a stop number from 1, got \"" + argument + "\"";
                  }
                  return GoToStop(static_cast<int>(stop) - 1);
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
  registry.Add({"guide-pick-cell", "Pick a cell for the answer",
                "Add a cell (\"As[1][0]\") to the answer being typed, or take it out again: what a click on a cell "
                "of Matrices or Shared tiles does while a question asks for cells.",
                {}, [this](const std::string& cell) -> std::optional<std::string> {
                  if (!sim::ParseCellRef(cell)) return "guide-pick-cell wants a cell like As[1][0], got \"" + cell + "\"";
                  guide_panel_.ToggleCell(cell);
                  return std::nullopt;
                }});
  registry.Add({"guide-answer-field", "Type the answer", "Put the keys in the Guide panel's answer field.",
                {{GLFW_KEY_ENTER, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  if (!guide_.Active()) return std::string("this lesson has no tour");
                  guide_panel_.FocusAnswer();
                  return std::nullopt;
                }});
  registry.Add({"guide-lecturer", "Lecturer mode (questions off)",
                "Turn the tour's questions off for a demo, or on again: the stops go on without answers.",
                {{GLFW_KEY_T, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  guide_.ToggleLecturer();
                  return std::nullopt;
                }});
  registry.Add({"guide-leave", "Leave the tour",
                "Every panel back at its place and the Guide folded away, also for lessons opened later; N or P "
                "returns to the tour.",
                {{GLFW_KEY_G, 0}}, [this](const std::string&) -> std::optional<std::string> {
                  if (touring_) LeaveTour();  // off a tour every panel is back already
                  guide_.SetFollow(false);     // and lessons opened later show every panel too
                  return std::nullopt;
                }});
  registry.Add({"copy-command", "Copy as command",
                "Put the command that reopens this view (lesson, tour stop, step) on the clipboard.",
                {{GLFW_KEY_C, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT}}, [this](const std::string&) { return CopyCommand(); }});
}

void LessonPage::TakeOpenedLesson() {
  std::optional<LessonEditor::Opened> opened = editor_.TakeOpened();
  if (!opened) return;
  const std::optional<OpenAtLater> open_at = std::exchange(open_at_, std::nullopt);
  if (opened->tour.empty()) {
    guide_.End();
    if (touring_) LeaveTour();
    return;
  }
  guide_.Start(opened->source, std::move(opened->tour), std::move(opened->prepared));
  if (guide_.Active() && guide_.follow()) ShowStop();
  if (open_at) {
    if (auto refused = GoToOpened(open_at->stop, open_at->step)) notifications_.Add(Severity::kError, *refused);
  }
}

std::optional<std::string> LessonPage::GoToStop(int index) {
  if (auto refused = guide_.GoTo(index)) return refused;
  guide_.SetFollow(true);
  ShowStop();
  return std::nullopt;
}

bool LessonPage::LessonIsTours() const { return SameLesson(lesson_, guide_.Prepared().lesson); }

void LessonPage::ShowStop() {
  if (!LessonIsTours()) {
    // The stop runs its own lesson (the file's, or with the stop's edits such as
    // barrier2=off), and a student's edit is undone: the stop's figures are that lesson's.
    const sim::TourStop& wanted = guide_.Stop();
    const std::string why = wanted.edits.empty() ? "the tour's lesson" : "the tour's lesson with " + wanted.edits;
    if (editor_.Run(guide_.Prepared().lesson, why)) return;  // refused: the editor said why
  }
  const sim::TourStop& stop = guide_.Stop();
  simulation_->JumpTo(guide_.Prepared().step);
  const sim::Snapshot now = simulation_->snapshot();
  selection_.picked.reset();
  if (stop.block) {
    const sim::Geometry& g = now.geometry();
    for (std::size_t b = 0; b < now.blocks().size(); ++b) {
      if (now.blocks()[b].bx != stop.block->x || now.blocks()[b].by != stop.block->y) continue;
      const int thread = stop.thread ? stop.thread->y * g.tn + stop.thread->x : 0;
      selection_.picked = ThreadRef{static_cast<int>(b), thread};
    }
  }
  matrices_.tour_cells = shared_tiles_.tour_cells = stop.cells;
  kernel_source_.tour_lines = stop.lines;
  if (!stop.panels.empty()) ShowPanels(stop.panels);
  touring_ = true;
}

// The Guide and the stop's panels, nothing else; the View menu brings any other back.
void LessonPage::ShowPanels(const std::vector<std::string>& ids) {
  std::vector<PanelRow*> shown;
  // "live_gpu" is the Live GPU page: the stop ends there (the shell switches pages on its action).
  show_live_page_ = std::find(ids.begin(), ids.end(), "live_gpu") != ids.end();
  for (const std::string& id : ids) {
    for (PanelRow& row : panels_.Rows()) {
      if (row.Key() == id && row.Key() != "guide") shown.push_back(&row);
    }
  }
  // The matrices take the largest place when shown (the others keep the stop's order): they
  // are what most stops point at, and their cells shrink first.
  std::stable_partition(shown.begin(), shown.end(), [](const PanelRow* row) { return row->Key() == "matrices"; });
  std::vector<std::string> keys;
  for (const PanelRow* row : shown) keys.push_back(row->Key());
  const std::vector<PanelRect> normal = StopRects(keys, kGuideColumn, false);
  const std::vector<PanelRect> presenting = StopRects(keys, kShowGuideColumn, true);
  stop_slots_.clear();
  for (std::size_t i = 0; i < shown.size(); ++i) stop_slots_.emplace_back(normal[i], presenting[i]);
  for (PanelRow& row : panels_.Rows()) {
    row.open = row.open_presenting = row.Key() == "guide";
    row.slot = &kGuideSlot;
  }
  for (std::size_t i = 0; i < shown.size(); ++i) {
    shown[i]->open = shown[i]->open_presenting = true;
    shown[i]->slot = &stop_slots_[i];
  }
  relayout_ = true;
}

void LessonPage::LeaveTour() {
  std::vector<PanelRow>& rows = panels_.Rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].slot = default_slots_[i];
    rows[i].open = rows[i].Key() != "guide";
    rows[i].open_presenting = rows[i].slot->Presented() && rows[i].Key() != "guide";
  }
  matrices_.tour_cells.clear();
  shared_tiles_.tour_cells.clear();
  kernel_source_.tour_lines.clear();
  touring_ = false;
  relayout_ = true;
}

GuideView LessonPage::Guide() const {
  GuideView view = guide_.View();
  if (guide_.Active() && !LessonIsTours()) {
    view.edited = "You changed the lesson; this stop's figures are for " + guide_.key() +
                  (guide_.Stop().edits.empty() ? std::string(" as its file has it") : " with " + guide_.Stop().edits) +
                  ". N or P takes you back to it.";
  }
  return view;
}

// The command that reopens this view: the lesson as it was opened, the stop, and the step
// when it is not the stop's own. An edited lesson has no name to reopen it by: saying so beats
// a command that opens something else.
std::optional<std::string> LessonPage::CopyCommand() {
  std::string command = "tilescope";
  const bool tour_lesson = guide_.Active() && LessonIsTours();
  const std::string& name = lesson_.name;
  if (tour_lesson) {
    command += " --lesson " + ShellWord(guide_.key());
  } else if (sim::FindPreset(name) && SameLesson(*sim::FindPreset(name), lesson_)) {
    command += " --lesson " + ShellWord(name);
  } else {
    return "this lesson was edited (" + name + "): save it (lesson-save) and open that file to share it";
  }
  if (tour_lesson && touring_) command += " --stop " + std::to_string(guide_.stop() + 1);
  if (!(tour_lesson && touring_ && simulation_->step() == guide_.Prepared().step)) {
    command += " --step " + std::to_string(simulation_->step());
  }
  ImGui::SetClipboardText(command.c_str());  // GLFW's clipboard, through ImGui's backend
  copied_command_ = command;
  notifications_.Add(Severity::kInfo, "copied to the clipboard: " + command);
  return std::nullopt;
}

// The actions of the Matrices, Threads and Timeline panels.
void LessonPage::RegisterViewActions(ActionRegistry& registry) {
  registry.Add({"jump-to", "Jump to step", "Go to step N of the run, forward or back (the timeline's slider).", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  char* end = nullptr;
                  errno = 0;  // strtoll saturates a number past its range and says so only here
                  const long long step = std::strtoll(argument.c_str(), &end, 10);
                  if (argument.empty() || *end != '\0' || step < 0 || errno == ERANGE)
                    return "jump-to wants a step number, got \"" + argument + "\"";
                  simulation_->JumpTo(step);  // stops at the end
                  return std::nullopt;
                }});
  registry.Add({"run-until", "Run to breakpoint",
                "Run until: arrive, release, \"phase P\", \"thread BLOCK THREAD\" or hazard.", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  sim::Breakpoint breakpoint;
                  if (auto error = ParseBreakpoint(argument, *simulation_, breakpoint)) return error;
                  timeline_.NoteRun(*simulation_, argument, simulation_->RunUntil(breakpoint));
                  return std::nullopt;
                }});
  registry.Add({"select-thread", "Select thread",
                "Follow thread \"BLOCK THREAD\" in the Threads, Shared tiles and source views; no argument: the "
                "thread that ran last.", {},
                [this](const std::string& argument) { return selection_.Pick(argument, simulation_->snapshot()); }});
  registry.Add({"edit-cell", "Edit an element of A or B",
                "\"A|B ROW COL VALUE\": change one input value and re-run the lesson to the same step.", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  sim::LessonConfig config = lesson_;
                  if (auto error = sim::ApplyCellEdit(argument, simulation_->a(), simulation_->b(), config)) return error;
                  sim::NoteEdited(config, lesson_);
                  Rebuild(config);
                  return std::nullopt;
                }});
}

// The lesson page's panels, each once: its title, its slot, and what draws it.
std::vector<PanelRow> LessonPage::PanelRows() {
  const auto snapshot = [this] { return simulation_->snapshot(); };
  return {
      {"Controls", &kControlsSlot,
       [this](const FrameContext& frame) { controls_.Draw(frame, *simulation_, WholeRun(), play_, editor_.draft()); }},
      {"Counters", &kCountersSlot,
       [this](const FrameContext& frame) {
         counters_.Draw(*simulation_, WholeRun(), comparison_.Current(), frame.presentation);
       }},
      {"Matrices", &kMatricesSlot,
       [this, snapshot](const FrameContext& frame) {
         matrices_.Draw(frame, snapshot(), simulation_->reference(), lesson_generation_);
       }},
      {"Shared tiles", &kSharedTilesSlot,
       [this, snapshot](const FrameContext& frame) {
         const sim::Snapshot now = snapshot();
         shared_tiles_.Draw(frame, now, selection_.Resolve(now));
       }},
      {"Threads", &kThreadsSlot,
       [this, snapshot](const FrameContext& frame) { threads_.Draw(frame, snapshot(), selection_); }},
      {"Kernel source", &kKernelSourceSlot,
       [this, snapshot](const FrameContext& frame) {
         const sim::Snapshot now = snapshot();
         kernel_source_.Draw(frame, now, PickedThread(now), source_side_by_side_);
       }},
      {"Hazards", &kHazardsSlot, [this, snapshot](const FrameContext& frame) { hazards_.Draw(frame, snapshot()); }},
      {"Race lab", &kRaceLabSlot,
       [this](const FrameContext& frame) { race_lab_panel_.Draw(frame, *simulation_, race_lab_.View()); }},
      {"Occupancy", &kOccupancySlot, [this](const FrameContext&) { occupancy_panel_.Draw(occupancy_.View()); }},
      {"Narration", &kNarrationSlot, [this](const FrameContext& frame) { narration_.Draw(frame.presentation); }},
      {"Timeline", &kTimelineSlot,
       [this, snapshot](const FrameContext& frame) {
         timeline_.Draw(frame, *simulation_, WholeRun(), selection_.Resolve(snapshot()));
       }},
      {"Guide", &kGuideSlot, [this](const FrameContext& frame) { guide_panel_.Draw(frame, Guide()); }},
  };
}

void LessonPage::Update() {
  // The Controls fields' edits, applied between frames as a queued action is: the user acted,
  // so the message on show has been seen, and a refusal takes its place.
  for (const sim::LessonEdit& edit : controls_.TakeEdits()) {
    notifications_.Dismiss();
    if (auto refused = editor_.Edit({edit})) notifications_.Add(Severity::kError, *refused);
  }
  whole_run_.Poll(*simulation_, ImGui::GetIO().DeltaTime);
  race_lab_.Poll();
  const bool was_preparing = editor_.Preparing().has_value();
  editor_.Poll(ImGui::GetIO().DeltaTime, notifications_);
  TakeOpenedLesson();  // a start-up lesson's guide, once its tour is ready
  // A tour that failed or was cancelled leaves --stop/--step nothing to open (the message said why).
  if (was_preparing && editor_.LastPreparation() && editor_.LastPreparation()->result != "ready") open_at_.reset();
  comparison_.Poll();
  occupancy_.Poll();
}

// Clicks on cells answer a cells question while it waits; otherwise they do what they always do.
void LessonPage::SetCellPicking() {
  const GuideView view = guide_.View();
  std::optional<sim::CellSpace> space;
  if (touring_ && view.kind == GuideQuestionKind::kCells && !view.reveal && !view.lecturer) {
    const sim::QueryValue& right = guide_.Prepared().answer;
    space = right.cells.empty() ? sim::CellSpace::kC : right.cells.front().space;
  }
  matrices_.pick_space = shared_tiles_.pick_space = space;
}

void LessonPage::Draw(const FrameContext& frame) {
  if (show_live_page_) {
    frame.actions.Push("live-shipped");  // a Live GPU page action: the shell shows that page
    show_live_page_ = false;
  }
  SetCellPicking();
  for (int due = play_.StepsDue(ImGui::GetIO().DeltaTime); due > 0 && play_.playing; --due) {
    if (simulation_->Step() == 0) play_.playing = false;
  }
  // The narration follows the run whether or not its panel is open, so its scrollback has no gaps.
  narration_.Update(simulation_->snapshot());
  if (relayout_) {
    FrameContext placed = frame;  // a new stop lays its panels out afresh
    placed.reset_layout = true;
    relayout_ = false;
    panels_.Draw(placed);
  } else {
    panels_.Draw(frame);
  }
  if (const auto preparing = editor_.Preparing()) {
    GuidePanel::DrawPreparation(frame, {preparing->source, preparing->stops, preparing->done, preparing->cancelling});
  }
}

void LessonPage::DumpState(nlohmann::json& state) const {
  const sim::KernelConfig& config = lesson_;
  nlohmann::json& lesson = state["lesson"];
  lesson["m"] = config.m;
  lesson["n"] = config.n;
  lesson["k"] = config.k;
  lesson["tile"] = config.tile;
  lesson["barrier1"] = sim::Name(config.barrier1);
  lesson["barrier2"] = sim::Name(config.barrier2);
  lesson["step"] = simulation_->step();
  const sim::Timeline* whole = simulation_->KnownTimeline();
  lesson["total_steps"] = whole ? nlohmann::json(whole->total_steps) : nlohmann::json(nullptr);
  const WholeRunView run = WholeRun();
  lesson["whole_run"] = {{"state", run.counting ? "counting" : run.cancelled ? "cancelled" : "done"},
                         {"fraction", run.fraction},
                         {"frames_while_counting", whole_run_.frames_while_counting()},
                         {"seconds_counting", whole_run_.seconds_counting()}};
  lesson["finished"] = simulation_->Finished();
  lesson["c"] = simulation_->c();
  lesson["counters"] = CountersPanel::Figures(*simulation_, comparison_.Current());
  lesson["scheduler"] = sim::Name(config.scheduler);
  lesson["guard"] = config.guard;
  lesson["playing"] = play_.playing;
  lesson["play_speed"] = play_.steps_per_second;
  const sim::Snapshot snapshot = simulation_->snapshot();
  state["kernel_source"] = KernelSourcePanel::Describe(snapshot, PickedThread(snapshot), source_side_by_side_);
  state["kernel_source"].update(kernel_source_.DescribeTourLines(snapshot));
  state["hazards"] = HazardsPanel::Describe(snapshot);
  state["occupancy"] = OccupancyPanel::Describe(occupancy_.View());
  state["race_lab_case"] = {{"headline", sim::RaceCaseHeadline(config, simulation_->geometry())},
                            {"why", sim::RaceCaseStatement(config, simulation_->geometry())}};
  editor_.DumpState(state);
  race_lab_.DumpState(state);
  nlohmann::json& panels = state["lesson_panels"];
  shared_tiles_.DumpState(panels);
  matrices_.DumpState(panels);
  threads_.DumpState(panels);
  narration_.DumpState(panels);
  timeline_.DumpState(panels);
  nlohmann::json& guide = state["guide"];
  guide = guide_panel_.Describe(Guide());
  if (!guide_.Active()) guide["lesson"] = nullptr;
  guide["touring"] = touring_;
  guide["shown_panels"] = nlohmann::json::array();
  for (const PanelRow& row : panels_.Rows()) {
    if (row.open) guide["shown_panels"].push_back(row.Key());
  }
  guide["selected"] = selection_.picked ? nlohmann::json{{"block", selection_.picked->block},
                                                         {"thread", selection_.picked->thread}}
                                        : nlohmann::json(nullptr);
  guide["copied_command"] = copied_command_;
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

// While a tour is prepared, a script's next line waits for it (as a student waits for the
// guide), except the line that cancels it and those that only look (a screenshot, a dump).
bool LessonPage::HoldsScript(const std::string& action) const {
  return editor_.Preparing().has_value() && action != "guide-cancel" && action != "screenshot" &&
         action != "dump-state";
}

bool LessonPage::Busy() const {
  return whole_run_.state() == WholeRunPass::State::kCounting || race_lab_.Busy() || editor_.Busy() ||
         comparison_.Busy() || occupancy_.Busy();
}

WholeRunView LessonPage::WholeRun() const {
  const WholeRunPass::State state = whole_run_.state();
  return {state == WholeRunPass::State::kCounting, state == WholeRunPass::State::kCancelled, whole_run_.Fraction()};
}

void LessonPage::SaveSettings(Settings& settings) const {
  editor_.SaveSettings(settings);
  nlohmann::json guide = guide_.Saved();
  // An edited lesson is the one to reopen (the settings' last lesson), not the tour's.
  if (guide_.Active() && !LessonIsTours()) guide.erase("lesson");
  settings.panels["guide"] = guide;
}

}  // namespace gui
