#include "app/panels/race_lab_panel.h"

#include <imgui.h>

#include <algorithm>
#include <array>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/model/run_check.h"
#include "sim/lesson/lesson_config.h"
#include "sim/lesson/teaching.h"

namespace gui {
namespace {

using palette::Colour;

void Tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

constexpr std::array<sim::SyncKind, 3> kSyncKinds{sim::SyncKind::kSyncthreads, sim::SyncKind::kSyncwarp,
                                                  sim::SyncKind::kNone};
constexpr std::array<sim::SchedulerKind, 4> kSchedulers{sim::SchedulerKind::kRealistic, sim::SchedulerKind::kRandom,
                                                        sim::SchedulerKind::kRaceExposing,
                                                        sim::SchedulerKind::kThreadOrder};

const char* SchedulerLabel(sim::SchedulerKind kind) {
  switch (kind) {
    case sim::SchedulerKind::kRealistic:
      return "realistic";
    case sim::SchedulerKind::kRandom:
      return "random interleaving";
    case sim::SchedulerKind::kRaceExposing:
      return "race-exposing";
    case sim::SchedulerKind::kThreadOrder:
      return "one thread at a time";
  }
  return "?";
}

std::string Percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "0%";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * double(part) / double(whole));
  return text;
}

void DrawHistogram(const sim::SeedSweepResult& result, std::uint64_t elements) {
  if (result.wrong_elements_histogram.empty()) return;
  int most = 1;
  for (const auto& entry : result.wrong_elements_histogram) most = std::max(most, entry.second);
  gui::TextUnformatted("wrong elements of C \u2192 runs");
  for (const auto& [wrong, runs] : result.wrong_elements_histogram) {
    gui::Text("%6llu of %llu", static_cast<unsigned long long>(wrong), static_cast<unsigned long long>(elements));
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, Colour(wrong == 0 ? palette::kBluishGreen : palette::kVermillion));
    const std::string label = std::to_string(runs) + (wrong == 0 ? " \u2713" : " \u2717");
    gui::ProgressBar(float(runs) / float(most), ImVec2(-1.0f, 0.0f), label.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace


void RaceLabPanel::Draw(const FrameContext& frame, const sim::Simulation& simulation, const RaceLabView& lab) {
  const sim::KernelConfig& lesson = simulation.config();
  const sim::Geometry& geometry = simulation.geometry();
  ImGui::PushStyleColor(ImGuiCol_Text, Colour(geometry.warps_per_block > 1 ? palette::kVermillion : palette::kSkyBlue));
  gui::TextWrapped("%s", sim::RaceCaseHeadline(lesson, geometry).c_str());
  ImGui::PopStyleColor();
  if (frame.presentation) {
    DrawPresentation(simulation, lab);
    return;
  }
  if (gui::TreeNode("Why?")) {
    gui::TextWrapped("%s", sim::RaceCaseStatement(lesson, geometry).c_str());
    ImGui::TreePop();
  }
  if (!geometry.naive) DrawBarriers(frame, lesson);
  DrawScheduler(frame, lesson);
  ImGui::Separator();
  DrawThisRun(simulation, lab);
  if (!simulation.Finished()) {
    ImGui::BeginDisabled(!lab.stepping_off.empty());
    if (gui::Button("Run to end")) frame.actions.Push("run-to-end");
    ImGui::EndDisabled();
    // Greyed for a lesson without step back: the tooltip says why, as Controls' buttons do.
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
      ImGui::TextUnformatted("Run the lesson to its last step and compare every element of C with the correct product (End).");
      if (!lab.stepping_off.empty()) ImGui::TextColored(Colour(palette::kOrange), "%s", lab.stepping_off.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  if (gui::CollapsingHeader("Run many seeds", ImGuiTreeNodeFlags_DefaultOpen)) DrawSeeds(frame, lab);
  const bool gpu_busy = lab.gpu_running || lab.model_runs.Running();
  const bool gpu_started = gpu_busy && !gpu_was_busy_;
  gpu_was_busy_ = gpu_busy;
  if (gui::CollapsingHeader("On the GPU", ImGuiTreeNodeFlags_DefaultOpen)) {
    // The panel is short: a run that starts brings its progress, then its table, into view.
    if (gpu_started) ImGui::SetScrollHereY(0.0f);
    DrawGpu(frame, simulation, lab);
  }
}

// For a room: what stands at each sync point, the scheduler, and what came of it — the
// model's run, its seeds and the GPU's runs where there are any. The keys (1, 2, S, End)
// change the lesson; the fields and buttons stay in the normal view.
void RaceLabPanel::DrawPresentation(const sim::Simulation& simulation, const RaceLabView& lab) {
  const sim::KernelConfig& lesson = simulation.config();
  if (!simulation.geometry().naive) {
    gui::TextWrapped("1st: %s   2nd: %s", sim::SourceText(lesson.barrier1), sim::SourceText(lesson.barrier2));
  }
  gui::TextWrapped("Scheduler: %s", SchedulerLabel(lesson.scheduler));
  ImGui::Separator();
  DrawThisRun(simulation, lab);
  if (const std::optional<SweepOutcome> outcome = lab.seeds.LastResult()) {
    gui::TextWrapped("C wrong in %d of %d seeded runs", outcome->result.runs_wrong, outcome->result.runs);
  }
  DrawGpuTable(lab);
}

void RaceLabPanel::DrawBarriers(const FrameContext& frame, const sim::KernelConfig& lesson) {
  for (int which = 1; which <= 2; ++which) {
    const sim::SyncKind current = which == 1 ? lesson.barrier1 : lesson.barrier2;
    ImGui::PushID(which);
    // Each combo as wide as its longest choice, the second beside the first where both fit.
    const ImGuiStyle& style = ImGui::GetStyle();
    float widest = 0.0f;
    for (sim::SyncKind kind : kSyncKinds) widest = std::max(widest, ImGui::CalcTextSize(sim::SourceText(kind)).x);
    const float combo = widest + 2.0f * style.FramePadding.x + ImGui::GetFrameHeight();
    const float label = ImGui::CalcTextSize("1st").x + style.ItemInnerSpacing.x;
    if (which == 2) {
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + combo + label <= right) ImGui::SameLine();
    }
    ImGui::SetNextItemWidth(std::min(combo, ImGui::GetContentRegionAvail().x - label));
    if (gui::BeginCombo(which == 1 ? "1st" : "2nd", sim::SourceText(current))) {
      for (sim::SyncKind kind : kSyncKinds) {
        if (gui::Selectable(sim::SourceText(kind), current == kind) && current != kind) {
          frame.actions.Push("lesson-set", "barrier" + std::to_string(which) + "=" + sim::Name(kind));
        }
        Tooltip(kind == sim::SyncKind::kSyncthreads ? "Wait for every thread of the block: the correct kernel."
                : kind == sim::SyncKind::kSyncwarp  ? "Wait for the lanes of this warp only: enough for a one-warp "
                                                      "block, not for several warps."
                                                    : "No barrier: the race lab's broken kernel.");
      }
      ImGui::EndCombo();
    }
    Tooltip(which == 1 ? "What stands at the 1st sync point (key 1 switches it off and on): it keeps every read of "
                         "As/Bs after every thread's store"
                       : "What stands at the 2nd sync point (key 2): it keeps the next phase's stores after every "
                         "read of this one");
    ImGui::PopID();
  }
}

void RaceLabPanel::DrawScheduler(const FrameContext& frame, const sim::KernelConfig& lesson) {
  const bool racing = lesson.scheduler == sim::SchedulerKind::kRaceExposing;
  const char* button = racing ? "S: realistic" : "S: race";
  const ImGuiStyle& style = ImGui::GetStyle();
  float widest = 0.0f;
  for (sim::SchedulerKind kind : kSchedulers) widest = std::max(widest, ImGui::CalcTextSize(SchedulerLabel(kind)).x);
  ImGui::SetNextItemWidth(std::min(widest + 2.0f * style.FramePadding.x + ImGui::GetFrameHeight(),
                                   ImGui::GetContentRegionAvail().x));
  if (gui::BeginCombo("##scheduler", SchedulerLabel(lesson.scheduler))) {
    for (sim::SchedulerKind kind : kSchedulers) {
      if (gui::Selectable(SchedulerLabel(kind), kind == lesson.scheduler) && kind != lesson.scheduler) {
        frame.actions.Push("lesson-set", std::string("scheduler=") + sim::Name(kind));
      }
      Tooltip(sim::SchedulerSentence(kind));
    }
    ImGui::EndCombo();
  }
  Tooltip("Which order the model runs threads in: it decides whether a missing barrier corrupts C.");
  SameLineIfFits(button);
  if (gui::Button(button)) frame.actions.Push("race-scheduler");
  Tooltip("Key S: switch between the race-exposing and the realistic scheduler.");
  ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::kSkyBlue));
  gui::TextWrapped("Running: %s", sim::SchedulerSentence(lesson.scheduler));
  ImGui::PopStyleColor();
}

void RaceLabPanel::DrawThisRun(const sim::Simulation& simulation, const RaceLabView& lab) {
  const sim::StoredCheck& check = lab.c;
  // The counted total: the list of hazards stops at its limit, the count does not.
  const std::uint64_t hazards = simulation.counters().hazards;
  if (check.wrong > 0) {
    gui::TextWrappedColored(Colour(palette::kVermillion), "%s %llu of %llu elements of C wrong", palette::kGlyphCross,
                       static_cast<unsigned long long>(check.wrong), static_cast<unsigned long long>(check.elements));
  } else if (check.stored == check.elements && check.elements > 0) {
    gui::TextWrappedColored(Colour(palette::kBluishGreen), "%s C is right: all %llu elements equal the correct product",
                       palette::kGlyphCheck, static_cast<unsigned long long>(check.elements));
  } else {
    gui::TextWrapped("No element of C wrong so far (%llu of %llu stored)",
                     static_cast<unsigned long long>(check.stored), static_cast<unsigned long long>(check.elements));
  }
  if (check.wrong > 0 && check.stored < check.elements) {
    ImGui::SameLine();
    gui::TextDisabled("(%llu stored so far)", static_cast<unsigned long long>(check.stored));
  }
  if (hazards > 0 && check.stored == check.elements && check.wrong == 0) {
    gui::TextWrapped("%s, yet C is right: this schedule (or equal values) hid the race.",
                     sim::CountOf(hazards, "hazard", "hazards").c_str());
  } else {
    gui::Text("%s so far", sim::CountOf(hazards, "hazard", "hazards").c_str());
  }
}

void RaceLabPanel::DrawSeeds(const FrameContext& frame, const RaceLabView& lab) {
  const auto& job = lab.seeds;
  if (job.Running()) {
    const int total = std::max(job.Total(), 1);
    const std::string label = std::to_string(job.Done()) + " of " + std::to_string(job.Total()) + " seeds";
    gui::ProgressBar(float(job.Done()) / float(total), ImVec2(ImGui::GetFontSize() * 14.0f, 0.0f), label.c_str());
    ImGui::SameLine();
    if (gui::Button(job.Cancelling() ? "Cancelling\u2026" : "Cancel")) frame.actions.Push("seeds-cancel");
    Tooltip("Stop after the run in progress; what was counted stays.");
  } else {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    gui::Recorded(ImGui::InputInt("##seeds", &seeds_field_, 0, 0), "##seeds");
    Tooltip("How many scheduler seeds to run (1 to 100000).");
    ImGui::SameLine();
    const std::string label = "Run " + std::to_string(seeds_field_) + " seeds";
    if (gui::Button(label.c_str())) frame.actions.Push("seeds-run", std::to_string(seeds_field_));
    Tooltip(
        "Run this lesson to the end under that many scheduler seeds (on a worker thread) and count how often "
        "C comes out wrong: a race is about chance, not certainty.");
  }
  const std::optional<SweepOutcome> outcome = job.LastResult();
  if (!outcome) return;
  const sim::SeedSweepResult& result = outcome->result;
  gui::TextWrapped(
      "%s: C wrong in %d of %d runs (%s)%s; wrong elements min %llu, mean %.1f, max %llu of %llu.",
      outcome->lesson.c_str(), result.runs_wrong, result.runs,
      Percent(static_cast<std::uint64_t>(result.runs_wrong), static_cast<std::uint64_t>(result.runs)).c_str(),
      result.cancelled ? ", cancelled" : "", static_cast<unsigned long long>(result.min_wrong), result.mean_wrong,
      static_cast<unsigned long long>(result.max_wrong), static_cast<unsigned long long>(outcome->elements));
  if (result.runs_with_hazards > 0 && result.runs_wrong < result.runs) {
    gui::TextWrapped("Every run had hazards (%d of %d); %d raced the wrong way yet C was right.",
                     result.runs_with_hazards, result.runs, result.runs_witnessed_coincided);
  }
  DrawHistogram(result, outcome->elements);
}

void RaceLabPanel::DrawGpu(const FrameContext& frame, const sim::Simulation& simulation, const RaceLabView& lab) {
  if (large_size_field_ == 0) large_size_field_ = static_cast<int>(lab.large_size);
  if (trials_field_ == 0) trials_field_ = lab.trials;
  const sim::KernelConfig& lesson = simulation.config();
  gui::TextWrapped(
      "The barrier-removed kernels for this tile, run at the lesson's size (%d\u00D7%d\u00D7%d) and a "
      "large one, each against the kernel with both barriers; the model runs the same variants at the "
      "lesson's size.",
      lesson.m, lesson.n, lesson.k);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (gui::Recorded(ImGui::InputInt("large n", &large_size_field_, 0, 0), "large n") || ImGui::IsItemDeactivatedAfterEdit()) {
    if (!ImGui::IsItemActive()) frame.actions.Push("race-gpu-size", std::to_string(large_size_field_));
  }
  Tooltip("The square size n of the large GPU case (n\u00D7n\u00D7n).");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4.0f);
  if (gui::Recorded(ImGui::InputInt("trials", &trials_field_, 0, 0), "trials") || ImGui::IsItemDeactivatedAfterEdit()) {
    if (!ImGui::IsItemActive()) frame.actions.Push("race-trials", std::to_string(trials_field_));
  }
  Tooltip("Launches per variant and size on the GPU; seeds per variant in the model.");
  const bool running = lab.gpu_running || lab.model_runs.Running();
  if (running) {
    const kernels::Progress& progress = lab.gpu_progress;
    gui::Text("%s", lab.gpu_running ? progress.Describe().c_str() : "model runs\u2026");
    ImGui::SameLine();
    if (gui::Button("Cancel##gpu")) frame.actions.Push("race-gpu-cancel");
    Tooltip("Stop after the current launch (and the current model run).");
  } else if (!simulation.geometry().naive) {
    if (gui::Button("Run the race on the GPU")) frame.actions.Push("race-gpu-run");
    Tooltip("On a worker thread: each barrier-removed variant on the GPU (wrong elements per trial) and in the model.");
  }
  const std::string reason = lab.gpu_unavailable;
  if (!reason.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::kOrange));
    gui::TextWrapped("%s %s", palette::kGlyphWarning, reason.c_str());
    ImGui::PopStyleColor();
  }
  if (!lab.gpu_status.empty()) gui::TextWrapped("%s", lab.gpu_status.c_str());
  DrawGpuTable(lab);
}

// One variant a block: the model's runs, then each GPU size's wrong elements per trial. A list
// rather than a table: the panel is narrow, and the GPU lines are long.
void RaceLabPanel::DrawGpuTable(const RaceLabView& lab) {
  if (lab.variants.empty()) return;
  const std::optional<ModelVariantRuns> model = lab.model_runs.LastResult();
  for (const RaceVariantRow& row : lab.variants) {
    ImGui::Separator();
    gui::TextUnformatted(row.label.c_str());
    ImGui::Indent();
    if (model && model->by_label.count(row.label)) {
      const sim::SeedSweepResult& runs = model->by_label.at(row.label);
      gui::TextWrapped("%s model (%s): C wrong in %d of %d runs, at most %llu of %llu elements",
                       runs.runs_wrong > 0 ? palette::kGlyphCross : palette::kGlyphCheck, model->scheduler.c_str(),
                       runs.runs_wrong, runs.runs, static_cast<unsigned long long>(runs.max_wrong),
                       static_cast<unsigned long long>(model->elements));
      const auto caveat = model->caveat_by_label.find(row.label);
      if (caveat != model->caveat_by_label.end() && !caveat->second.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::kOrange));
        gui::TextWrapped("%s %s", palette::kGlyphWarning, caveat->second.c_str());
        ImGui::PopStyleColor();
      }
    } else {
      gui::TextDisabled("model: %s", lab.model_runs.Running() ? "running\u2026" : "\u2014");
    }
    if (row.gpu.empty()) gui::TextDisabled("GPU: \u2014");
    for (const kernels::RaceResult& result : row.gpu) DrawGpuResult(result);
    ImGui::Unindent();
  }
}

// "GPU n=1024: 913012, 912877, 913100 of 1048576 wrong (87.1%)": counts per trial, then their
// mean as a share of C.
void RaceLabPanel::DrawGpuResult(const kernels::RaceResult& result) {
  const std::string shape = kernels::ToString(result.shape);
  if (!result.ok()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::kOrange));
    gui::TextWrapped("GPU n=%s: %s", shape.c_str(), result.error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  std::string trials;
  std::uint64_t total = 0;
  for (std::int64_t wrong : result.differing_per_trial) {
    trials += (trials.empty() ? "" : ", ") + std::to_string(wrong);
    total += static_cast<std::uint64_t>(wrong);
  }
  const std::uint64_t launches = std::max<std::uint64_t>(1, result.differing_per_trial.size());
  const auto elements = static_cast<std::uint64_t>(result.elements());
  gui::TextWrapped("%s GPU n=%s: %s of %llu wrong (%s)", total > 0 ? palette::kGlyphCross : palette::kGlyphCheck,
                   shape.c_str(), trials.c_str(), static_cast<unsigned long long>(elements),
                   Percent(total, launches * elements).c_str());
}

}  // namespace gui
