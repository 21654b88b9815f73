#include "app/panels/controls_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "sim/lesson/lesson_config.h"
#include "sim/lesson/lesson_edit.h"
#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "app/panels/your_kernel_controls.h"
#include "sim/lesson/lesson_file.h"
#include "sim/lesson/teaching.h"

namespace gui {
namespace {

constexpr float kNumberWidth = 4.5f;  // in font heights: fits "65536"

void Tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// A stepping button's tooltip: what it does and, while stepping is off (the button greyed out),
// why — a greyed button's tooltip is where a reader looks for the reason.
void StepTooltip(const char* text, const std::string& off) {
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text);
  if (!off.empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kOrange), "%s %s", palette::kGlyphWarning, off.c_str());
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// Buttons flow onto the next line when the panel is narrow.
void FlowButton(const FrameContext& frame, const char* label, const char* action, const char* tooltip,
                const std::string& off) {
  const float width = ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width < right) ImGui::SameLine();
  if (gui::Button(label)) frame.actions.Push(action);
  StepTooltip(tooltip, off);
}

// The problem with the draft, under the field it concerns.
void FieldMessage(const LessonDraft& draft, const char* field) {
  if (!draft.error || draft.error->field != field) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette::kOrange));
  gui::TextWrapped("%s %s (the last good lesson keeps running)", palette::kGlyphWarning,
                   draft.error->message.c_str());
  ImGui::PopStyleColor();
  // A problem scrolled out of a short panel would go unseen: it stays in view until fixed.
  if (!ImGui::IsItemVisible()) ImGui::SetScrollHereY(1.0f);
}

bool IsShownField(const std::string& field) {
  for (const char* shown : {"m", "n", "k", "tile", "tm", "tn", "tk", "fill_a", "fill_b", "fill_file", "seed"}) {
    if (field == shown) return true;
  }
  return false;
}

// The edit a choice of each combo makes.
sim::LessonEdit EditOf(sim::KernelKind kernel) { return sim::KernelEdit{kernel}; }
sim::LessonEdit EditOf(sim::SchedulerKind scheduler) { return sim::SchedulerEdit{scheduler}; }
sim::LessonEdit EditOf(sim::TileCount count) { return sim::TileCountEdit{count}; }

// An integer field that edits the lesson once the user is done typing (Enter or leaving the
// field), so a half-typed number never rebuilds the model.
bool IntField(const char* label, int& value, const char* tooltip) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * kNumberWidth);
  gui::Recorded(ImGui::InputInt(label, &value, 0, 0), label);
  const bool done = ImGui::IsItemDeactivatedAfterEdit();
  Tooltip(tooltip);
  return done;
}

void SizeField(std::vector<sim::LessonEdit>& edits, const char* label, sim::SizeField field, int& value,
               const char* tooltip) {
  if (IntField(label, value, tooltip)) edits.push_back(sim::SizeEdit{field, value});
}

template <typename Enum, std::size_t N>
void EnumCombo(std::vector<sim::LessonEdit>& edits, const char* label, Enum current,
               const std::array<Enum, N>& choices, const char* tooltip) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (gui::BeginCombo(label, sim::Name(current))) {
    for (Enum choice : choices) {
      if (gui::Selectable(sim::Name(choice), choice == current) && choice != current) edits.push_back(EditOf(choice));
    }
    ImGui::EndCombo();
  }
  Tooltip(tooltip);
}

void FillField(std::vector<sim::LessonEdit>& edits, const char* label, sim::FillTarget target,
               sim::MatrixFill& fill) {
  ImGui::PushID(label);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  const std::string current = fill.kind == sim::FillKind::kExplicit ? "values" : sim::Name(fill.kind);
  if (gui::BeginCombo(label, current.c_str())) {
    for (sim::FillKind choice : {sim::FillKind::kSequence, sim::FillKind::kRandom, sim::FillKind::kIdentity}) {
      if (gui::Selectable(sim::Name(choice), current == sim::Name(choice)) && current != sim::Name(choice)) {
        edits.push_back(sim::FillEdit{target, choice, std::nullopt});
      }
    }
    ImGui::EndCombo();
  }
  Tooltip(
      "sequence: 1, 2, 3, \u2026 row by row; random: seeded values in [-1, 1); identity: ones on the diagonal; "
      "values: explicit numbers (from a test-vector or lesson file)");
  if (fill.kind == sim::FillKind::kRandom) {
    ImGui::SameLine();
    int seed = static_cast<int>(fill.seed);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * kNumberWidth);
    gui::Recorded(ImGui::InputInt("seed", &seed, 0, 0), "seed");
    fill.seed = static_cast<std::uint64_t>(std::max(seed, 0));
    if (ImGui::IsItemDeactivatedAfterEdit()) edits.push_back(sim::FillEdit{target, sim::FillKind::kRandom, fill.seed});
    Tooltip("Seed of the random fill: the same seed gives the same matrix.");
  }
  ImGui::PopID();
}

bool TextField(const char* label, std::array<char, 512>& buffer, const char* hint, const char* tooltip) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  const bool changed = gui::Recorded(ImGui::InputTextWithHint(label, hint, buffer.data(), buffer.size()), label);
  Tooltip(tooltip);
  return changed;
}

}  // namespace

void ControlsPanel::Draw(const FrameContext& frame, const sim::Simulation& simulation, const WholeRunView& whole_run,
                         const PlayClock& play, const LessonDraft& draft, const YourKernelView* student) {
  // For a room: where the run is and what the lesson is; the keys step it, the buttons and
  // the lesson's fields stay in the normal view. A student's kernel keeps its two pickers.
  if (frame.presentation) {
    DrawPosition(simulation, whole_run, student);
    if (student != nullptr) DrawYourKernelFields(frame, *student);
    return;
  }
  ImGui::BeginDisabled(!whole_run.stepping_off.empty());
  DrawButtons(frame, play, whole_run.stepping_off);
  ImGui::EndDisabled();
  DrawPosition(simulation, whole_run, student);
  // Their pickers next, then what runs: at 1366×768 the pickers are in view without scrolling.
  if (student != nullptr) return DrawYourKernelFields(frame, *student);
  if (gui::CollapsingHeader("Lesson", ImGuiTreeNodeFlags_DefaultOpen)) DrawLesson(frame, draft);
}

void ControlsPanel::DrawButtons(const FrameContext& frame, const PlayClock& play, const std::string& off) {
  if (gui::Button("\u2190 Back")) frame.actions.Push("step-back");
  StepTooltip("Step back one step, exactly (\u2190)", off);
  FlowButton(frame, "Step \u2192", "step",
             "Run one instruction of the scheduler's unit: a warp, or one thread (\u2192)", off);
  FlowButton(frame, "Step warp", "step-warp", "Run until every runnable lane of the next warp has run once (W)", off);
  FlowButton(frame, "To barrier", "to-barrier", "Run until a __syncthreads() releases its block (B)", off);
  FlowButton(frame, "Next phase", "next-phase", "Run to the end of the current tile phase (Shift+\u2192)", off);
  FlowButton(frame, "To end", "run-to-end", "Run the whole lesson to its last step (End)", off);
  FlowButton(frame, play.playing ? "Pause" : "Play", "play", "Step continuously at the speed below (Space)", off);
  FlowButton(frame, "Reset", "reset", "Back to step 0 (R)", off);
  if (!ImGui::IsAnyItemActive()) speed_ = play.steps_per_second;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  if (gui::Recorded(ImGui::SliderFloat("steps/s", &speed_, PlayClock::kMinSpeed, PlayClock::kMaxSpeed, "%.0f",
                         ImGuiSliderFlags_Logarithmic), "steps/s")) {
    frame.actions.Push("play-speed", std::to_string(static_cast<int>(speed_)));
  }
  StepTooltip("How fast Play steps: steps per second", off);
}

void ControlsPanel::DrawPosition(const sim::Simulation& simulation, const WholeRunView& whole_run,
                                 const YourKernelView* student) {
  const sim::Snapshot snapshot = simulation.snapshot();
  const sim::KernelConfig& config = simulation.config();
  const sim::Geometry& geometry = simulation.geometry();
  const sim::Timeline* whole = simulation.KnownTimeline();
  const std::string total = whole                ? std::to_string(whole->total_steps)
                            : whole_run.cancelled ? "\u2026 (not counted: stopped)"
                                                  : "\u2026 (counting)";
  // A student's kernel has no tile phases the model knows of: its loop is theirs.
  if (student != nullptr) {
    gui::TextWrapped("Step %lld of %s", static_cast<long long>(simulation.step()), total.c_str());
  } else {
    gui::TextWrapped("Step %lld of %s   phase %d of %d", static_cast<long long>(simulation.step()), total.c_str(),
                     snapshot.current_phase() + 1, geometry.phases);
  }
  if (!whole_run.stepping_off.empty()) {
    gui::TextWrappedColored(ImGui::ColorConvertU32ToFloat4(palette::kOrange), "%s %s", palette::kGlyphWarning,
                            whole_run.stepping_off.c_str());
  }
  // How far the run is needs its length: until the whole-run pass has counted it, the bar says
  // why there is no figure instead of showing 0 %.
  if (!whole) {
    gui::ProgressBar(0.0f, ImVec2(-FLT_MIN, 0.0f), whole_run.cancelled ? "cancelled" : "counting\u2026");
  } else {
    gui::ProgressBar(whole->total_steps == 0 ? 0.0f : float(simulation.step()) / float(whole->total_steps));
  }
  if (student != nullptr) return;
  gui::TextWrapped(
      "C(%d\u00D7%d) = A(%d\u00D7%d) \u00B7 B(%d\u00D7%d), %s kernel, tile %d\u00D7%d\u00D7%d, scheduler: %s", config.m,
      config.n, config.m, config.k, config.k, config.n, sim::Name(config.kernel), geometry.tm, geometry.tn, geometry.tk,
      sim::Name(config.scheduler));
  if (!geometry.naive) {
    const std::string second = std::string("2nd barrier: ") + sim::Name(config.barrier2) + " (key 2)";
    gui::Text("1st barrier: %s (key 1)", sim::Name(config.barrier1));
    SameLineIfFits(second.c_str());
    gui::TextUnformatted(second.c_str());
  }
  if (geometry.warps_per_block == 1 && geometry.block_threads < 32) {
    gui::TextWrapped("Each block is %s.", sim::WarpsOfBlock(geometry).c_str());
  }
}

void ControlsPanel::DrawLesson(const FrameContext& frame, const LessonDraft& draft) {
  if (draft.generation != seen_generation_) {
    edit_ = draft.lesson;
    seen_generation_ = draft.generation;
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  if (gui::BeginCombo("Preset", edit_.name.c_str())) {
    for (const sim::LessonConfig& preset : sim::Presets()) {
      if (gui::Selectable(preset.name.c_str(), preset.name == edit_.name)) {
        frame.actions.Push("lesson-preset", preset.name);
      }
      Tooltip(preset.description.c_str());
    }
    ImGui::EndCombo();
  }
  Tooltip(
      "Built-in lessons: the default 4\u00D74 with TILE 2, larger and padded sizes, rectangular tiles, the naive "
      "kernel, the TILE 16 race");
  if (draft.error && !IsShownField(draft.error->field)) FieldMessage(draft, draft.error->field.c_str());
  DrawShape(draft);
  DrawFills(frame, draft);
  DrawRunFields(frame, draft);
  DrawFiles(frame, draft);
}

void ControlsPanel::DrawShape(const LessonDraft& draft) {
  constexpr std::array<sim::KernelKind, 3> kKernels{sim::KernelKind::kTiled, sim::KernelKind::kTiledRect,
                                                    sim::KernelKind::kNaive};
  EnumCombo(edits_, "Kernel", edit_.kernel, kKernels,
            "tiled: square TILE\u00D7TILE tiles (02_tiled.cu); rect: TM\u00D7TN tiles stepping K by TK "
            "(03_tiled_rect.cu); naive: no shared memory (01_naive.cu)");
  SizeField(edits_, "M", sim::SizeField::kM, edit_.m, "Rows of A and C");
  ImGui::SameLine();
  SizeField(edits_, "N", sim::SizeField::kN, edit_.n, "Columns of B and C");
  ImGui::SameLine();
  SizeField(edits_, "K", sim::SizeField::kK, edit_.k, "Columns of A, rows of B: the inner dimension the phases walk");
  for (const char* field : {"m", "n", "k"}) FieldMessage(draft, field);
  if (edit_.kernel == sim::KernelKind::kTiledRect) {
    SizeField(edits_, "TM", sim::SizeField::kTm, edit_.rect.tm, "Rows of C per block (the block is TN wide, TM tall)");
    ImGui::SameLine();
    SizeField(edits_, "TN", sim::SizeField::kTn, edit_.rect.tn, "Columns of C per block");
    ImGui::SameLine();
    SizeField(edits_, "TK", sim::SizeField::kTk, edit_.rect.tk, "The slice of K each phase loads into As and Bs");
    for (const char* field : {"tm", "tn", "tk"}) FieldMessage(draft, field);
  } else {
    SizeField(edits_, "Tile", sim::SizeField::kTile, edit_.tile,
             edit_.kernel == sim::KernelKind::kNaive
                 ? "The naive kernel's block is TILE\u00D7TILE threads"
                 : "TILE: the block is TILE\u00D7TILE threads, As and Bs TILE\u00D7TILE");
    FieldMessage(draft, "tile");
  }
}

void ControlsPanel::DrawFills(const FrameContext& frame, const LessonDraft& draft) {
  FillField(edits_, "Fill A", sim::FillTarget::kA, edit_.fill_a);
  FieldMessage(draft, "fill_a");
  FillField(edits_, "Fill B", sim::FillTarget::kB, edit_.fill_b);
  FieldMessage(draft, "fill_b");
  TextField("##vectors", vector_path_, "test-vector file",
            "A binary test-vector file in the test-vector harness's format: M, N, K, A, B, C per case");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 3.0f);
  gui::Recorded(ImGui::InputInt("case", &vector_case_, 0, 0), "case");
  Tooltip("Which case of the file (1 = the first)");
  ImGui::SameLine();
  if (gui::Button("Load A, B")) {
    frame.actions.Push("lesson-vectors", std::string(vector_path_.data()) + "#" + std::to_string(vector_case_));
  }
  Tooltip("Take M, N, K, A and B from that case of the file");
  FieldMessage(draft, "fill_file");
}

void ControlsPanel::DrawRunFields(const FrameContext& frame, const LessonDraft& draft) {
  constexpr std::array<sim::SchedulerKind, 4> kSchedulers{sim::SchedulerKind::kRealistic,
                                                          sim::SchedulerKind::kThreadOrder, sim::SchedulerKind::kRandom,
                                                          sim::SchedulerKind::kRaceExposing};
  std::string schedulers;
  for (sim::SchedulerKind kind : kSchedulers) schedulers += std::string(sim::SchedulerSummary(kind)) + "\n";
  EnumCombo(edits_, "Scheduler", edit_.scheduler, kSchedulers, (schedulers + "(key S: race)").c_str());
  ImGui::SameLine();
  int seed = static_cast<int>(edit_.seed);
  // A seed is never negative: the field reads a typed -5 as 0, as the fill's seed field does.
  const bool seed_done = IntField("Seed", seed, "The scheduler's seed: the same seed gives the same run");
  edit_.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  if (seed_done) edits_.push_back(sim::SeedEdit{edit_.seed});
  FieldMessage(draft, "seed");
  if (edit_.kernel != sim::KernelKind::kNaive) {
    bool guard = edit_.guard;
    if (gui::Checkbox("Bounds guard", &guard)) frame.actions.Push("toggle-guard");
    Tooltip(
        "Key 3. Off: loads and the store of C skip their bounds test, as the Exercise 05 handout's kernel; edge "
        "threads read outside A and B");
    ImGui::SameLine();
    constexpr std::array<sim::TileCount, 2> kCounts{sim::TileCount::kCeil, sim::TileCount::kFloor};
    EnumCombo(edits_, "phases", edit_.tile_count, kCounts,
              "ceil: ceil(K/T) phases with a padded tail tile; floor: K/T rounded down, as the Exercise 05 "
              "handout's hint code, which skips the tail");
  }
}

void ControlsPanel::DrawFiles(const FrameContext& frame, const LessonDraft& draft) {
  TextField("##lessonfile", lesson_path_, "lesson.json", "A lesson JSON file to open, or to save the lesson to");
  ImGui::SameLine();
  if (gui::Button("Open")) frame.actions.Push("lesson-open", lesson_path_.data());
  Tooltip("Open the lesson file named on the left (unknown keys are warned about, bad values named)");
  ImGui::SameLine();
  if (gui::Button("Save")) frame.actions.Push("lesson-save", lesson_path_.data());
  Tooltip("Save the running lesson as JSON to the file named on the left");
  TextField("##tracefile", trace_path_, "trace.json", "Where to write the lesson's trace as JSON");
  ImGui::SameLine();
  if (gui::Button("Export trace")) frame.actions.Push("lesson-export-trace", trace_path_.data());
  Tooltip("Run the lesson to its end on a worker thread and write its trace (counters, hazards, C) as JSON");
  if (!draft.status.empty()) {
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(draft.status_is_error ? palette::kOrange : palette::kSkyBlue),
                     "%s %s", draft.status_is_error ? palette::kGlyphWarning : "\u2139", draft.status.c_str());
  }
}

}  // namespace gui
