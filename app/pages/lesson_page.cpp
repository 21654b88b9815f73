#include "app/pages/lesson_page.h"

#include <GLFW/glfw3.h>

#include <cerrno>
#include <cstdlib>
#include <utility>

#include "sim/lesson_edit.h"
#include "sim/teaching.h"
#include "sim/snapshot.h"

namespace gui {

LessonPage::LessonPage(const std::string& lesson, const nlohmann::json& saved_lesson,
                                 Notifications& notifications)
    : editor_([this](const sim::LessonConfig& config) { Rebuild(config); },
              [this]() -> const sim::LessonConfig& { return simulation_->config(); }),
      race_lab_(editor_, [this]() -> const sim::Simulation& { return *simulation_; }),
      panels_(PanelRows()) {
  Rebuild(editor_.Initial(lesson, saved_lesson, notifications));
}

void LessonPage::Rebuild(const sim::LessonConfig& config) {
  const std::int64_t step = simulation_ ? simulation_->step() : 0;
  simulation_ = std::make_unique<sim::Simulation>(config);
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
  const sim::LessonConfig& config = simulation_->config();
  const sim::SyncKind kind = which == 1 ? config.barrier1 : config.barrier2;
  return editor_.Edit("barrier" + std::to_string(which) + "=" + (kind == sim::SyncKind::kNone ? "syncthreads" : "off"));
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
                  return editor_.Edit(simulation_->config().guard ? "guard=off" : "guard=on");
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
                  sim::LessonConfig config = simulation_->config();
                  if (auto error = sim::ApplyCellEdit(argument, simulation_->a(), simulation_->b(), config)) return error;
                  sim::NoteEdited(config, simulation_->config());
                  Rebuild(config);
                  return std::nullopt;
                }});
}

// The lesson page's panels, each once: its title, its slot, and what draws it.
std::vector<PanelRow> LessonPage::PanelRows() {
  const auto snapshot = [this] { return simulation_->snapshot(); };
  return {
      {"Controls", &kControlsSlot,
       [this](const FrameContext& frame) { controls_.Draw(frame, *simulation_, play_, editor_.draft()); }},
      {"Counters", &kCountersSlot,
       [this](const FrameContext&) { counters_.Draw(*simulation_, comparison_.Current()); }},
      {"Matrices", &kMatricesSlot,
       [this, snapshot](const FrameContext& frame) {
         matrices_.Draw(frame, snapshot(), simulation_->reference());
       }},
      {"Shared tiles", &kSharedTilesSlot,
       [this, snapshot](const FrameContext& frame) {
         const sim::Snapshot now = snapshot();
         shared_tiles_.Draw(now, selection_.Resolve(now), frame.presentation);
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
  };
}

void LessonPage::Update() {
  whole_run_.Poll(*simulation_, ImGui::GetIO().DeltaTime);
  race_lab_.Poll();
  editor_.Poll();
  comparison_.Poll();
  occupancy_.Poll();
}

void LessonPage::Draw(const FrameContext& frame) {
  for (int due = play_.StepsDue(ImGui::GetIO().DeltaTime); due > 0 && play_.playing; --due) {
    if (simulation_->Step() == 0) play_.playing = false;
  }
  // The narration follows the run whether or not its panel is open, so its scrollback has no gaps.
  narration_.Update(simulation_->snapshot());
  panels_.Draw(frame);
}

void LessonPage::DumpState(nlohmann::json& state) const {
  const sim::LessonConfig& config = simulation_->config();
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
  state["hazards"] = HazardsPanel::Describe(snapshot);
  state["occupancy"] = OccupancyPanel::Describe(occupancy_.View());
  state["race_lab_case"] = {{"headline", sim::RaceCaseHeadline(simulation_->geometry())},
                            {"why", sim::RaceCaseStatement(config, simulation_->geometry())}};
  editor_.DumpState(state);
  race_lab_.DumpState(state);
  nlohmann::json& panels = state["lesson_panels"];
  shared_tiles_.DumpState(panels);
  matrices_.DumpState(panels);
  threads_.DumpState(panels);
  narration_.DumpState(panels);
  timeline_.DumpState(panels);
}

bool LessonPage::Busy() const {
  return whole_run_.state() == WholeRunPass::State::kCounting || race_lab_.Busy() || editor_.Busy() ||
         comparison_.Busy() || occupancy_.Busy();
}

WholeRunView LessonPage::WholeRun() const {
  const WholeRunPass::State state = whole_run_.state();
  return {state == WholeRunPass::State::kCounting, state == WholeRunPass::State::kCancelled, whole_run_.Fraction()};
}

void LessonPage::SaveSettings(Settings& settings) const { editor_.SaveSettings(settings); }

}  // namespace gui
