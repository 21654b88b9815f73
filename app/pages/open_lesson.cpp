#include "app/pages/open_lesson.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <utility>

#include "sim/lesson/lesson_file.h"
#include "sim/lesson/teaching.h"
#include "sim/lesson/validation.h"
#include "sim/io/number_text.h"

namespace gui {

namespace {

// The tour a restart resumes: the lesson it was on, when no --lesson names another.
std::string TourLesson(const nlohmann::json& saved_guide) {
  if (!saved_guide.is_object() || !saved_guide.contains("lesson") || !saved_guide["lesson"].is_string()) return "";
  return saved_guide["lesson"].get<std::string>();
}

}  // namespace

OpenLesson::OpenLesson(const std::string& lesson, const nlohmann::json& saved_lesson,
                       const nlohmann::json& saved_guide, Notifications& notifications, TourDisplay display)
    : editor_(
          [this](const sim::LessonConfig& config) {
            student_.Close();  // a lesson opened (a preset, a file, a tour's stop) replaces the student's kernel
            Rebuild(config);
            tour_.TakeOpened();  // at once: a script's next action already sees the new tour
          },
          [this]() -> const sim::LessonConfig& { return lesson_; }),
      race_lab_(editor_, [this]() -> const sim::Simulation& { return *simulation_; },
                [this](sim::SchedulerKind scheduler) { return SetStudentScheduler(scheduler); }),
      notifications_(notifications),
      tour_(saved_guide, editor_, [this]() -> sim::Simulation& { return *simulation_; },
            [this]() -> const sim::LessonConfig& { return lesson_; }, notifications, std::move(display)) {
  const std::string tour_lesson = TourLesson(saved_guide);
  Rebuild(editor_.Initial(lesson.empty() ? tour_lesson : lesson, tour_lesson.empty() ? saved_lesson : nlohmann::json(),
                          notifications));
  tour_.TakeOpened();
}

void OpenLesson::Rebuild(const sim::LessonConfig& config) {
  const std::int64_t step = simulation_ ? simulation_->step() : 0;
  const bool stepping = sim::OpeningMode(config) == sim::LessonMode::kStepping;
  stepping_off_ = stepping ? std::nullopt : std::optional<std::string>(sim::SteppingOffReason(config));
  simulation_.reset();  // before the next is made: a big lesson's two would not fit together
  // Without step back the lesson is never stepped: it stands at step 0 until its whole run,
  // made on the worker, takes its place; History keeps only the initial state.
  simulation_ = std::make_unique<sim::Simulation>(config, stepping ? sim::kDefaultHistoryBudget : 0);
  lesson_ = config;
  ++generation_;
  play_.playing = play_.playing && stepping;
  // The whole run is counted on a worker: a large lesson never freezes the window.
  whole_run_.Start(*simulation_, stepping ? WholeRunPass::Keep::kTimeline : WholeRunPass::Keep::kFinishedRun);
  if (stepping) simulation_->JumpTo(step);  // stops at the end if the new lesson is shorter
  comparison_.Request(*simulation_);
  occupancy_.Request(config);
}

const std::vector<float>* OpenLesson::Reference() const {
  if (stepping_off_ && !simulation_->KnownReference()) return nullptr;
  return &simulation_->reference();
}

void OpenLesson::RebuildStudent() {
  const sim::KernelLesson& lesson = student_.lesson();
  const std::int64_t step = simulation_ ? simulation_->step() : 0;
  simulation_ = std::make_unique<sim::Simulation>(lesson.run.launch, lesson.run.a, lesson.run.b);
  stepping_off_.reset();
  ++generation_;
  whole_run_.Start(*simulation_, WholeRunPass::Keep::kTimeline);
  simulation_->JumpTo(step);  // the same step where the new version's run is as long; else its end
  comparison_.Request(*simulation_);
}

void OpenLesson::SetKernelOptions(const sim::KernelLessonOptions& options) {
  kernel_options_ = options;
  kernel_options_.front.first_of_several = true;
}

std::optional<std::string> OpenLesson::OpenKernel(const std::string& path) {
  if (path.empty()) return std::string("kernel-open wants a .cu file's path");
  if (auto error = student_.Open(path, kernel_options_)) return error;
  kernel_options_.front.kernel.clear();  // --kernel-name named a kernel of the first file
  tour_.LeaveTour();  // the tour is the built-in lesson's; every panel shows the kernel
  simulation_.reset();  // a kernel opens at its start; only a save keeps the step
  RebuildStudent();
  const sim::cuda::KernelFile& file = student_.lesson().file;
  std::string others;
  if (file.kernel_names.size() > 1) {
    others = "; the file has " + std::to_string(file.kernel_names.size()) + " kernels: pick another in Controls";
  }
  notifications_.Add(Severity::kInfo, "opened " + path + ": " + file.kernel.name + " " + sim::LaunchText(student_.lesson()) +
                                          "; saves are read again as you make them" + others);
  return std::nullopt;
}

std::optional<std::string> OpenLesson::SetStudentScheduler(sim::SchedulerKind scheduler) {
  if (!student_.IsOpen()) return std::string(kNoKernelOpen);
  sim::KernelLessonOptions options = student_.options();
  options.check.scheduler = scheduler;
  if (auto error = student_.Rerun(options)) return error;
  kernel_options_.check.scheduler = scheduler;  // a file opened next runs under it too
  RebuildStudent();
  return std::nullopt;
}

std::optional<std::string> OpenLesson::PickStudentKernel(const std::string& name) {
  if (!student_.IsOpen()) return std::string(kNoKernelOpen);
  const std::vector<std::string>& names = student_.lesson().file.kernel_names;
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return "kernel-name wants a kernel of " + student_.lesson().path + " (" + list + "), got \"" + name + "\"";
  }
  sim::KernelLessonOptions options = student_.options();
  options.front.kernel = name;
  if (auto error = student_.Rerun(options)) return error;
  simulation_.reset();  // another kernel starts at its start
  RebuildStudent();
  return std::nullopt;
}

std::optional<std::string> OpenLesson::StudentOwnsIt() const {
  if (!student_.IsOpen()) return std::nullopt;
  return "your kernel is on show: its barriers, guard and sizes are in " + student_.lesson().path +
         " (open a lesson from File → Lessons… to edit one here)";
}

std::optional<std::string> OpenLesson::Edit(const std::vector<sim::LessonEdit>& edits) {
  if (auto refused = StudentOwnsIt()) return refused;
  return editor_.Edit(edits);
}

void OpenLesson::RegisterKernelActions(ActionRegistry& registry) {
  registry.Add({"kernel-open", "Open kernel",
                "Open a CUDA file of your own (its path as the argument) as the lesson: its kernel steps on the model, "
                "its races and mistakes are named at their lines, and each save is read again.",
                {}, [this](const std::string& path) { return OpenKernel(path); }});
  registry.Add({"kernel-scheduler", "Your kernel's scheduler",
                "Run your kernel again under another scheduler (" + sim::SchedulerKindNames() +
                    "), to the same step: race exposes the races a missing barrier allows. Hazards is checked again under it.",
                {}, [this](const std::string& name) -> std::optional<std::string> {
                  const std::optional<sim::SchedulerKind> scheduler = sim::ParseSchedulerKind(name);
                  if (!scheduler) return "kernel-scheduler wants one of " + sim::SchedulerKindNames() + ", got \"" + name + "\"";
                  return SetStudentScheduler(*scheduler);
                }});
  registry.Add({"kernel-name", "Your kernel of the file",
                "Run another __global__ kernel of your file (its name), from its start: what the Kernel field in Controls picks.",
                {}, [this](const std::string& name) { return PickStudentKernel(name); }});
}

void OpenLesson::AddMoveAction(ActionRegistry& registry, Action action) {
  action.run = [this, run = std::move(action.run)](const std::string& argument) -> std::optional<std::string> {
    if (stepping_off_) return *stepping_off_;
    return run(argument);
  };
  registry.Add(std::move(action));
}

void OpenLesson::AddStepAction(ActionRegistry& registry, const char* name, const char* label,
                               const char* description, std::vector<KeyChord> keys,
                               std::int64_t (sim::Simulation::*move)()) {
  AddMoveAction(registry, {name, label, description, std::move(keys),
                           [this, move](const std::string&) -> std::optional<std::string> {
                             ((*simulation_).*move)();
                             return std::nullopt;
                           }});
}

std::optional<std::string> OpenLesson::ToggleBarrier(sim::BarrierSlot slot) {
  if (auto refused = StudentOwnsIt()) return refused;
  const sim::SyncKind kind = slot == sim::BarrierSlot::kFirst ? lesson_.barrier1 : lesson_.barrier2;
  return editor_.Edit(
      {sim::BarrierEdit{slot, kind == sim::SyncKind::kNone ? sim::SyncKind::kSyncthreads : sim::SyncKind::kNone}});
}

void OpenLesson::RegisterRunActions(ActionRegistry& registry) {
  AddStepAction(registry, "step", "Step", "Run one instruction of the scheduler's unit.", {{GLFW_KEY_RIGHT, 0}},
                &sim::Simulation::Step);
  AddStepAction(registry, "next-phase", "Next phase", "Run to the end of the current tile phase.",
                {{GLFW_KEY_RIGHT, GLFW_MOD_SHIFT}}, &sim::Simulation::RunToPhaseEnd);
  AddStepAction(registry, "to-barrier", "Run to barrier", "Run until a barrier releases its block.",
                {{GLFW_KEY_B, 0}}, &sim::Simulation::RunToBarrier);
  AddStepAction(registry, "run-to-end", "Run to end", "Run the whole lesson to its last step.", {{GLFW_KEY_END, 0}},
                &sim::Simulation::RunToEnd);
  AddMoveAction(registry, {"step-back", "Step back", "Undo one step, exactly (checkpoints and replay).", {{GLFW_KEY_LEFT, 0}},
                [this](const std::string&) -> std::optional<std::string> {
                  simulation_->StepBack();
                  return std::nullopt;
                }});
  AddMoveAction(registry, {"reset", "Reset", "Back to step 0.", {{GLFW_KEY_R, 0}},
                [this](const std::string&) -> std::optional<std::string> {
                  simulation_->Reset();
                  play_.playing = false;
                  return std::nullopt;
                }});
  AddMoveAction(registry, {"play", "Play / pause", "Step on at the chosen speed until the end.", {{GLFW_KEY_SPACE, 0}},
                [this](const std::string&) -> std::optional<std::string> {
                  play_.playing = !play_.playing;
                  return std::nullopt;
                }});
  registry.Add({"play-speed", "Play speed", "Steps per second while playing (the argument).", {},
                [this](const std::string& text) -> std::optional<std::string> {
                  std::string problem;
                  const float speed = sim::ReadFloat(text, problem).value_or(0.0f);
                  if (!(speed >= PlayClock::kMinSpeed && speed <= PlayClock::kMaxSpeed)) {
                    return "play speed \"" + text + "\" is not between 1 and 1000 steps per second";
                  }
                  play_.steps_per_second = speed;
                  return std::nullopt;
                }});
  AddStepAction(registry, "step-warp", "Step warp", "Run until every runnable lane of the next warp ran once.",
                {{GLFW_KEY_W, 0}}, &sim::Simulation::StepWarp);
  registry.Add({"toggle-guard", "Toggle bounds guard", "Switch the kernel's bounds guard off or on.", {{GLFW_KEY_3, 0}},
                [this](const std::string&) { return Edit({sim::GuardEdit{!lesson_.guard}}); }});
  editor_.RegisterActions(registry);
  race_lab_.RegisterActions(registry);
}

void OpenLesson::RegisterEditActions(ActionRegistry& registry) {
  registry.Add({"toggle-barrier1", "Toggle 1st barrier", "Switch the first __syncthreads() off or on.",
                {{GLFW_KEY_1, 0}}, [this](const std::string&) { return ToggleBarrier(sim::BarrierSlot::kFirst); }});
  registry.Add({"toggle-barrier2", "Toggle 2nd barrier", "Switch the second __syncthreads() off or on.",
                {{GLFW_KEY_2, 0}}, [this](const std::string&) { return ToggleBarrier(sim::BarrierSlot::kSecond); }});
  registry.Add({"whole-run-cancel", "Stop counting the whole run",
                "Stop the workers counting the lesson's whole run (its length, marks and whole-run figures) and the "
                "comparison kernel's; stepping goes on.",
                {}, [this](const std::string&) -> std::optional<std::string> {
                  if (whole_run_.state() != WholeRunPass::State::kCounting) return "the whole run is not being counted";
                  whole_run_.Cancel();
                  comparison_.Cancel();
                  return std::nullopt;
                }});
  AddMoveAction(registry, {"bench-step", "Benchmark step", "One step per frame, from the start again at the end (--bench-frames).",
                {}, [this](const std::string&) -> std::optional<std::string> {
                  if (simulation_->Step() == 0) simulation_->Reset();
                  return std::nullopt;
                }});
  AddMoveAction(registry, {"jump-to", "Jump to step", "Go to step N of the run, forward or back (the timeline's slider).", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  std::string problem;
                  const std::optional<long long> step =
                      sim::ReadWhole(argument, 0, LLONG_MAX, sim::kStepRangeWords, problem);
                  if (!step) return "jump-to wants a step number: " + problem;
                  simulation_->JumpTo(*step);  // stops at the end
                  return std::nullopt;
                }});
  registry.Add({"edit-cell", "Edit an element of A or B",
                "\"A|B ROW COL VALUE\": change one input value and re-run the lesson to the same step.", {},
                [this](const std::string& argument) { return EditCell(argument); }});
}

std::optional<std::string> OpenLesson::EditCell(const std::string& argument) {
  if (auto refused = StudentOwnsIt()) return refused;
  sim::LessonConfig config = lesson_;
  if (auto error = sim::ApplyCellEdit(argument, simulation_->a(), simulation_->b(), config)) return error;
  sim::NoteEdited(config, lesson_);
  Rebuild(config);
  return std::nullopt;
}

void OpenLesson::Update(double seconds) {
  if (student_.Poll(seconds)) RebuildStudent();
  whole_run_.Poll(*simulation_, seconds);
  race_lab_.Poll();
  const bool was_preparing = editor_.Preparing().has_value();
  editor_.Poll(seconds, notifications_);
  tour_.Update(was_preparing);
  comparison_.Poll();
  occupancy_.Poll();
}

void OpenLesson::Play(double seconds) {
  for (int due = play_.StepsDue(seconds); due > 0 && play_.playing; --due) {
    if (simulation_->Step() == 0) play_.playing = false;
  }
}

void OpenLesson::DumpState(nlohmann::json& state) const {
  // A student's kernel: its sizes and scheduler, which the machine's config holds.
  const sim::KernelConfig& config = student_.IsOpen() ? simulation_->config() : lesson_;
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
  lesson["stepping"] = !stepping_off_;
  lesson["stepping_off"] = stepping_off_ ? nlohmann::json(*stepping_off_) : nlohmann::json(nullptr);
  lesson["c"] = simulation_->c();
  lesson["scheduler"] = sim::Name(config.scheduler);
  lesson["guard"] = config.guard;
  lesson["playing"] = play_.playing;
  lesson["play_speed"] = play_.steps_per_second;
  if (!student_.IsOpen()) {
    state["race_lab_case"] = {{"headline", sim::RaceCaseHeadline(config, simulation_->geometry())},
                              {"why", sim::RaceCaseStatement(config, simulation_->geometry())}};
  }
  editor_.DumpState(state);
  state["controls"]["settings_serialisations"] = editor_.settings_serialisations();
  race_lab_.DumpState(state);
  student_.DumpState(state);
}

bool OpenLesson::Busy() const {
  return whole_run_.state() == WholeRunPass::State::kCounting || race_lab_.Busy() || editor_.Busy() ||
         comparison_.Busy() || occupancy_.Busy() || student_.Busy();
}

RaceLabView OpenLesson::race_lab() const {
  RaceLabView view = race_lab_.View();
  view.stepping_off = stepping_off_.value_or("");
  return view;
}

WholeRunView OpenLesson::WholeRun() const {
  const WholeRunPass::State state = whole_run_.state();
  return {state == WholeRunPass::State::kCounting, state == WholeRunPass::State::kCancelled, whole_run_.Fraction(),
          stepping_off_.value_or("")};
}

void OpenLesson::SaveSettings(Settings& settings) const {
  editor_.SaveSettings(settings, generation_);
  tour_.SaveSettings(settings);
}

}  // namespace gui
