#include "app/gui/lesson_workspace.h"

#include <GLFW/glfw3.h>

#include <cstdlib>

#include "sim/snapshot.h"

namespace gui {

LessonWorkspace::LessonWorkspace(const std::string& lesson, Notifications& notifications) {
  if (!lesson.empty() && lesson != "default") {
    notifications.Add(Severity::kError, "cannot open lesson \"" + lesson +
                                            "\": this version opens only the default lesson (--lesson default)");
  }
  Rebuild(sim::LessonConfig{});
}

void LessonWorkspace::Rebuild(const sim::LessonConfig& config) {
  const std::int64_t step = simulation_ ? simulation_->step() : 0;
  simulation_ = std::make_unique<sim::Simulation>(config);
  simulation_->JumpTo(std::min(step, simulation_->TotalSteps()));
}

void LessonWorkspace::AddStepAction(ActionRegistry& registry, const char* name, const char* label,
                                    const char* description, std::vector<KeyChord> keys,
                                    std::int64_t (sim::Simulation::*move)()) {
  registry.Add({name, label, description, std::move(keys), [this, move](const std::string&) -> std::optional<std::string> {
                  ((*simulation_).*move)();
                  return std::nullopt;
                }});
}

std::optional<std::string> LessonWorkspace::ToggleBarrier(int which) {
  sim::LessonConfig config = simulation_->config();
  sim::SyncKind& kind = which == 1 ? config.barrier1 : config.barrier2;
  kind = kind == sim::SyncKind::kNone ? sim::SyncKind::kSyncthreads : sim::SyncKind::kNone;
  Rebuild(config);
  return std::nullopt;
}

void LessonWorkspace::RegisterActions(ActionRegistry& registry) {
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
                  playing_ = false;
                  return std::nullopt;
                }});
  registry.Add({"play", "Play / pause", "Step once per frame until the end.", {{GLFW_KEY_SPACE, 0}},
                [this](const std::string&) -> std::optional<std::string> {
                  playing_ = !playing_;
                  return std::nullopt;
                }});
  registry.Add({"toggle-barrier1", "Toggle 1st barrier", "Switch the first __syncthreads() off or on.",
                {{GLFW_KEY_1, 0}}, [this](const std::string&) { return ToggleBarrier(1); }});
  registry.Add({"toggle-barrier2", "Toggle 2nd barrier", "Switch the second __syncthreads() off or on.",
                {{GLFW_KEY_2, 0}}, [this](const std::string&) { return ToggleBarrier(2); }});
  registry.Add({"bench-step", "Benchmark step", "One step per frame, from the start again at the end (--bench-frames).",
                {}, [this](const std::string&) -> std::optional<std::string> {
                  if (simulation_->Step() == 0) simulation_->Reset();
                  return std::nullopt;
                }});
  RegisterViewActions(registry);
}

// The actions of the Matrices, Threads and Timeline panels.
void LessonWorkspace::RegisterViewActions(ActionRegistry& registry) {
  registry.Add({"jump-to", "Jump to step", "Go to step N of the run, forward or back (the timeline's slider).", {},
                [this](const std::string& argument) -> std::optional<std::string> {
                  char* end = nullptr;
                  const long long step = std::strtoll(argument.c_str(), &end, 10);
                  if (argument.empty() || *end != '\0' || step < 0) return "jump-to wants a step number, got \"" + argument + "\"";
                  simulation_->JumpTo(std::min<std::int64_t>(step, simulation_->TotalSteps()));
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
                  if (auto error = ApplyCellEdit(argument, simulation_->a(), simulation_->b(), config)) return error;
                  Rebuild(config);
                  return std::nullopt;
                }});
}

void LessonWorkspace::DrawViewMenu() {
  ImGui::Separator();
  ImGui::MenuItem("Controls", nullptr, &controls_.open);
  ImGui::MenuItem("Shared tiles", nullptr, &shared_tiles_.open);
  ImGui::MenuItem("Counters", nullptr, &counters_.open);
  ImGui::MenuItem("Matrices", nullptr, &matrices_.open);
  ImGui::MenuItem("Threads", nullptr, &threads_.open);
  ImGui::MenuItem("Narration", nullptr, &narration_.open);
  ImGui::MenuItem("Timeline", nullptr, &timeline_.open);
}

void LessonWorkspace::Draw(const FrameContext& frame) {
  if (playing_ && simulation_->Step() == 0) playing_ = false;
  const sim::Snapshot snapshot = simulation_->snapshot();
  controls_.Draw(frame, *simulation_, playing_);
  shared_tiles_.Draw(frame, snapshot, selection_.Resolve(snapshot));
  counters_.Draw(frame, *simulation_);
  matrices_.Draw(frame, snapshot, simulation_->a(), simulation_->b());
  threads_.Draw(frame, snapshot, selection_);
  narration_.Update(snapshot);
  narration_.Draw(frame);
  timeline_.Draw(frame, *simulation_, selection_.Resolve(snapshot));
}

void LessonWorkspace::DumpState(nlohmann::json& state) const {
  const sim::LessonConfig& config = simulation_->config();
  nlohmann::json& lesson = state["lesson"];
  lesson["m"] = config.m;
  lesson["n"] = config.n;
  lesson["k"] = config.k;
  lesson["tile"] = config.tile;
  lesson["barrier1"] = sim::Name(config.barrier1);
  lesson["barrier2"] = sim::Name(config.barrier2);
  lesson["step"] = simulation_->step();
  lesson["total_steps"] = simulation_->TotalSteps();
  lesson["finished"] = simulation_->Finished();
  lesson["c"] = simulation_->c();
  lesson["counters"] = CountersPanel::Figures(*simulation_);
  nlohmann::json& panels = state["lesson_panels"];
  shared_tiles_.DumpState(panels);
  counters_.DumpState(panels);
  matrices_.DumpState(panels);
  threads_.DumpState(panels);
  narration_.DumpState(panels);
  timeline_.DumpState(panels);
}

}  // namespace gui
