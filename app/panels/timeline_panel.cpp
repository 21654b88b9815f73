#include "app/panels/timeline_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/lesson/narration.h"

namespace gui {
namespace {

using MarkKind = sim::TimelineMark::Kind;

constexpr float kMarkHitPixels = 4.0f;
constexpr float kMarkRowFonts = 0.5f;  // the marks' row under the labels, in font heights

struct Choice {
  const char* label;
  const char* tooltip;
};

constexpr Choice kChoices[] = {
    {"a thread arrives at a barrier", "Stop after the next step in which any thread reaches __syncthreads()."},
    {"a barrier releases its block", "Stop after the next step in which a barrier lets its waiting threads go on."},
    {"phase N starts", "Stop after the first instruction any thread runs in the chosen tile phase."},
    {"the selected thread runs", "Stop after the next step in which the thread picked in the Threads panel runs."},
    {"a hazard is detected", "Stop after the next step with a read/write race on shared memory (a barrier is off)."},
};
constexpr int kPhaseChoice = 2;
constexpr int kThreadChoice = 3;

const char* MarkWords(MarkKind kind) {
  switch (kind) {
    case MarkKind::kPhaseStart: return "phase starts";
    case MarkKind::kBarrierRelease: return "barrier releases";
    case MarkKind::kFirstHazard: return "first hazard of the phase";
  }
  return "";
}

std::string Spec(int kind, int phase, ThreadRef thread) {
  switch (kind) {
    case 0: return "arrive";
    case 1: return "release";
    case kPhaseChoice: return "phase " + std::to_string(phase);
    case kThreadChoice: return "thread " + std::to_string(thread.block) + " " + std::to_string(thread.thread);
    default: return "hazard";
  }
}

}  // namespace

std::optional<std::string> ParseBreakpoint(const std::string& spec, const sim::Simulation& simulation,
                                           sim::Breakpoint& breakpoint) {
  using Kind = sim::Breakpoint::Kind;
  std::istringstream in(spec);
  std::string word;
  in >> word;
  const char* usage = "run-until wants arrive, release, \"phase P\", \"thread BLOCK THREAD\" or hazard; got \"";
  if (word == "arrive" || word == "release" || word == "hazard") {
    breakpoint.kind = word == "arrive" ? Kind::kBarrierArrive : (word == "release" ? Kind::kBarrierRelease : Kind::kHazard);
    return std::nullopt;
  }
  const sim::Geometry& g = simulation.geometry();
  if (word == "phase") {
    long long phase = 0;
    if (!(in >> phase)) return usage + spec + "\"";
    if (phase < 1 || phase > g.phases) {
      return "run-until: phase " + std::to_string(phase) + " does not exist (this lesson has phases 1 to " +
             std::to_string(g.phases) + ")";
    }
    breakpoint.kind = Kind::kPhase;
    breakpoint.phase = static_cast<int>(phase - 1);
    return std::nullopt;
  }
  if (word == "thread") {
    long long block = -1;
    long long thread = -1;
    if (!(in >> block >> thread)) return usage + spec + "\"";
    if (block < 0 || block >= g.blocks || thread < 0 || thread >= g.block_threads) {
      return "run-until: block " + std::to_string(block) + ", thread " + std::to_string(thread) +
             " does not exist (" + std::to_string(g.blocks) + " blocks of " + std::to_string(g.block_threads) +
             " threads)";
    }
    breakpoint.kind = Kind::kThread;
    breakpoint.block = static_cast<int>(block);
    breakpoint.thread = static_cast<int>(thread);
    return std::nullopt;
  }
  return usage + spec + "\"";
}

void TimelinePanel::NoteRun(const sim::Simulation& simulation, const std::string& spec, std::int64_t steps) {
  const sim::Snapshot snapshot = simulation.snapshot();
  outcome_step_ = simulation.step();
  if (steps == 0) {
    outcome_ = "Nothing left to run: the lesson is at its last step.";
  } else if (simulation.Finished()) {
    outcome_ = "Ran " + std::to_string(steps) + " steps to the end without meeting \"" + spec + "\".";
  } else {
    outcome_ = "Stopped at step " + std::to_string(simulation.step()) + " after " + std::to_string(steps) +
               " steps: " + sim::NarrateLastStep(snapshot);
  }
}

void TimelinePanel::Draw(const FrameContext& frame, const sim::Simulation& simulation, const WholeRunView& whole_run,
                         ThreadRef selected) {
  step_ = simulation.step();
  // Where the last run-until stopped, only while the lesson stands there: a step, a scrub or a
  // reset after it made "Stopped at step 12" stale beside "step 16 of 68".
  if (step_ != outcome_step_) outcome_.clear();
  const sim::Timeline* timeline = simulation.KnownTimeline();
  total_ = timeline ? timeline->total_steps : 0;
  marks_ = timeline ? timeline->marks.size() : 0;
  // Without step back the run is shown at its end: its marks stay, the slider and the
  // breakpoints are off (Controls says why).
  ImGui::BeginDisabled(!whole_run.stepping_off.empty());
  if (timeline) {
    DrawSlider(frame, *timeline);
  } else {
    ImGui::EndDisabled();
    DrawCounting(frame, whole_run);
    ImGui::BeginDisabled(!whole_run.stepping_off.empty());
  }
  DrawBreakpoints(frame, simulation, selected);
  ImGui::EndDisabled();
  if (!whole_run.stepping_off.empty() && ImGui::IsWindowHovered()) ImGui::SetTooltip("%s", whole_run.stepping_off.c_str());
}

// Until the whole run is counted its length is unknown: the step so far, the count's
// progress and a Cancel (a cancelled count leaves stepping as it is, only the slider goes).
void TimelinePanel::DrawCounting(const FrameContext& frame, const WholeRunView& whole_run) {
  if (whole_run.counting) {
    const std::string label = "step " + std::to_string(step_) + " \u00b7 counting the whole run " +
                              std::to_string(static_cast<int>(whole_run.fraction * 100.0)) + " %";
    gui::ProgressBar(static_cast<float>(whole_run.fraction), ImVec2(-ImGui::GetFontSize() * 6.0f, 0.0f),
                     label.c_str());
    ImGui::SameLine();
    if (gui::Button("Cancel##wholerun")) frame.actions.Push("whole-run-cancel");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("Stop counting the whole run: stepping goes on, the slider and whole-run figures stay unknown.");
    }
  } else if (!whole_run.stepping_off.empty()) {
    gui::TextWrapped("The whole run was not counted (cancelled): this lesson shows nothing more until it is "
                     "opened again.");
  } else {
    gui::TextWrapped("Step %lld. The whole run was not counted (cancelled): no slider or whole-run figures; "
                     "stepping works.", static_cast<long long>(step_));
  }
}

void TimelinePanel::DrawSlider(const FrameContext& frame, const sim::Timeline& timeline) {
  std::int64_t value = step_;
  const std::int64_t low = 0;
  const std::int64_t high = total_;
  // "step N of M" beside the slider, not on it: the grab, dragged to the middle, sat on its digits.
  // Its width is that of the widest step, so the slider does not shift as the number grows.
  const std::string of_total = " of " + std::to_string(total_);
  const std::string label = "step " + std::to_string(step_) + of_total;
  const float label_width = ImGui::CalcTextSize(("step " + std::to_string(total_) + of_total).c_str()).x;
  ImGui::AlignTextToFramePadding();
  const float label_x = ImGui::GetCursorPosX();
  gui::TextUnformatted(label.c_str());
  ImGui::SameLine(label_x + label_width + ImGui::GetStyle().ItemSpacing.x);
  ImGui::SetNextItemWidth(-1.0f);
  // No text on the slider ("" format); Ctrl+click still types a step.
  if (gui::Recorded(ImGui::SliderScalar("##step", ImGuiDataType_S64, &value, &low, &high, ""), "##step")) {
    frame.actions.Push("jump-to", std::to_string(value));
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("Drag to scrub through the run (exact: checkpoints and replay); Ctrl+click to type a step.");
  }
  const ImVec2 slider_min = ImGui::GetItemRectMin();
  const ImVec2 slider_max = ImGui::GetItemRectMax();
  // The grab's centre runs from half a grab in from each end (ImGui's slider geometry).
  const float width = slider_max.x - slider_min.x - 2.0f * ImGui::GetStyle().FramePadding.x;
  const float grab = std::max(ImGui::GetStyle().GrabMinSize, width / static_cast<float>(total_ + 1));
  const float inset = ImGui::GetStyle().FramePadding.x + grab * 0.5f;
  // Two rows: the phase labels above, the release lines and hazard triangles below, so a
  // hazard just after a phase starts never covers its "pN" (it did in one shared row).
  const float strip = ImGui::GetFontSize() * (1.0f + kMarkRowFonts);
  // Right under the slider, not a row's spacing below, so the panel keeps its height.
  const ImVec2 min(slider_min.x + inset, slider_max.y + 1.0f);
  const ImVec2 max(slider_max.x - inset, min.y + strip);
  DrawMarks(frame, timeline, min, max);
  ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, min.y));
  ImGui::Dummy(ImVec2(slider_max.x - slider_min.x, strip));
}

void TimelinePanel::DrawMarks(const FrameContext& frame, const sim::Timeline& timeline, ImVec2 min, ImVec2 max) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float span = std::max(1.0f, max.x - min.x);
  auto x_of = [&](std::int64_t step) {
    return min.x + span * static_cast<float>(step) / static_cast<float>(std::max<std::int64_t>(1, total_));
  };
  const ImVec2 mouse = ImGui::GetMousePos();
  const bool hover_strip = ImGui::IsWindowHovered() && mouse.y >= min.y && mouse.y <= max.y;
  const sim::TimelineMark* nearest = nullptr;
  float nearest_distance = kMarkHitPixels;
  float label_end = -INFINITY;
  const float row_top = min.y + ImGui::GetFontSize();  // the marks' row, under the labels' row
  const float row = max.y - row_top;
  std::vector<ImVec4> labels;  // (min x, min y, max x, max y) of each "pN"
  std::vector<ImVec4> shapes;  // the same for each release line and hazard triangle
  for (const sim::TimelineMark& mark : timeline.marks) {
    const float x = x_of(mark.step);
    switch (mark.kind) {
      case MarkKind::kPhaseStart:
        draw->AddLine(ImVec2(x, min.y), ImVec2(x, max.y), palette::kSkyBlue, 2.0f);
        if (x > label_end) {
          const std::string label = "p" + std::to_string(mark.phase + 1);
          const ImVec2 size = ImGui::CalcTextSize(label.c_str());
          gui::DrawText(draw, ImVec2(x + 2.0f, min.y), palette::kSkyBlue, label.c_str());
          labels.emplace_back(x + 2.0f, min.y, x + 2.0f + size.x, min.y + size.y);
          label_end = x + size.x + 4.0f;
        }
        break;
      case MarkKind::kBarrierRelease:
        draw->AddLine(ImVec2(x, row_top + row * 0.4f), ImVec2(x, max.y), palette::kOrange, 1.0f);
        shapes.emplace_back(x, row_top + row * 0.4f, x + 1.0f, max.y);
        break;
      case MarkKind::kFirstHazard:
        draw->AddTriangleFilled(ImVec2(x, row_top), ImVec2(x - row * 0.45f, max.y), ImVec2(x + row * 0.45f, max.y),
                                palette::kVermillion);
        shapes.emplace_back(x - row * 0.45f, row_top, x + row * 0.45f, max.y);
        break;
    }
    const float distance = std::fabs(mouse.x - x);
    if (hover_strip && distance <= nearest_distance) {
      nearest = &mark;
      nearest_distance = distance;
    }
  }
  labels_under_marks_ = 0;
  for (const ImVec4& label : labels) {
    labels_under_marks_ += static_cast<int>(std::count_if(shapes.begin(), shapes.end(), [&](const ImVec4& shape) {
      return shape.x < label.z && label.x < shape.z && shape.y < label.w && label.y < shape.w;
    }));
  }
  draw->AddLine(ImVec2(x_of(step_), min.y), ImVec2(x_of(step_), max.y), ImGui::GetColorU32(ImGuiCol_Text), 1.0f);
  if (hover_strip && !nearest && mouse.x >= min.x - kMarkHitPixels && mouse.x <= max.x + kMarkHitPixels) {
    ImGui::SetTooltip("Marks: tall blue line = a phase starts (pN), short orange line = a barrier releases,\n"
                      "red triangle %s = the first hazard of a phase. Click a mark to jump to it.",
                      palette::kGlyphWarning);
  }
  if (!nearest) return;
  ImGui::SetTooltip("step %lld: %s (phase %d, block %d)\nclick to jump there", static_cast<long long>(nearest->step),
                    MarkWords(nearest->kind), nearest->phase + 1, nearest->block);
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) frame.actions.Push("jump-to", std::to_string(nearest->step));
}

void TimelinePanel::DrawBreakpoints(const FrameContext& frame, const sim::Simulation& simulation, ThreadRef selected) {
  ImGui::AlignTextToFramePadding();
  gui::TextUnformatted("Run until");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (gui::BeginCombo("##breakpoint", kChoices[kind_].label)) {
    for (int i = 0; i < static_cast<int>(std::size(kChoices)); ++i) {
      if (gui::Selectable(kChoices[i].label, i == kind_)) kind_ = i;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kChoices[i].tooltip);
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kChoices[kind_].tooltip);
  const int phases = simulation.geometry().phases;
  if (kind_ == kPhaseChoice) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    gui::Recorded(ImGui::InputInt("##phase", &phase_), "##phase");
    phase_ = std::clamp(phase_, 1, std::max(1, phases));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The tile phase to stop at, 1 to %d.", phases);
  }
  if (kind_ == kThreadChoice) {
    const sim::Snapshot snapshot = simulation.snapshot();
    const sim::Thread& t = snapshot.thread(selected.block, selected.thread);
    const sim::Block& b = snapshot.blocks()[static_cast<std::size_t>(selected.block)];
    ImGui::SameLine();
    gui::Text("thread %s of block %s", sim::Coordinates(t.tx, t.ty).c_str(), sim::Coordinates(b.bx, b.by).c_str());
  }
  ImGui::SameLine();
  if (gui::Button("Run")) frame.actions.Push("run-until", Spec(kind_, phase_, selected));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Run forward until the breakpoint is met (or the lesson ends).");
  if (!outcome_.empty()) gui::TextWrapped("%s", outcome_.c_str());
}

void TimelinePanel::DumpState(nlohmann::json& state) const {
  nlohmann::json& out = state["timeline"];
  out["step"] = step_;
  out["total_steps"] = total_;
  out["marks"] = marks_;
  out["labels_under_marks"] = labels_under_marks_;
  out["breakpoint_outcome"] = outcome_;
}

}  // namespace gui
