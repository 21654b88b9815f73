#include "app/panels/hazards_panel.h"

#include <imgui.h>

#include <array>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "sim/model/kernel_source.h"
#include "sim/lesson/narration.h"
#include "sim/lesson/teaching.h"

namespace gui {
namespace {

using palette::Colour;

ImU32 SeverityColour(sim::Severity severity) {
  return severity == sim::Severity::kError ? palette::kVermillion : palette::kOrange;
}

const char* SeverityGlyph(sim::Severity severity) {
  return severity == sim::Severity::kError ? palette::kGlyphCross : palette::kGlyphWarning;
}

const char* SeverityWhy(sim::Severity severity) {
  return severity == sim::Severity::kError ? "error: the two threads are in different warps"
                                           : "warning: both threads are lanes of one warp";
}

// What the missing barrier would have ordered, and what goes wrong without it.
const char* Explanation(sim::HazardKind kind) {
  switch (kind) {
    case sim::HazardKind::kRaw:
      return "RAW (read after write): the barrier should have kept this read after that write; without it the "
             "read may see the previous phase's value.";
    case sim::HazardKind::kWar:
      return "WAR (write after read): the barrier should have kept this write after that read; without it a fast "
             "thread overwrites a value a slow one still needs.";
    case sim::HazardKind::kWaw:
      return "WAW (write after write): two threads write the cell with no barrier between them; which value stays "
             "depends on timing.";
  }
  return "";
}

std::string ThreadName(const sim::Geometry& g, int index_in_block) {
  return sim::Coordinates(index_in_block % g.tn, index_in_block / g.tn);
}

std::string CellName(const sim::Geometry& g, const sim::Hazard& hazard) {
  return std::string(hazard.tile == sim::TileId::kAs ? "As" : "Bs") + "[" + std::to_string(hazard.row) + "][" +
         std::to_string(hazard.col) + "] of block " +
         sim::Coordinates(hazard.block % g.grid_x, hazard.block / g.grid_x);
}

std::string SideSentence(const sim::Snapshot& snapshot, const sim::HazardSide& side) {
  const sim::Geometry& g = snapshot.geometry();
  return "thread " + ThreadName(g, side.thread) + " (warp " + std::to_string(side.warp) + ") " +
         (side.write ? "wrote " : "read ") + sim::FormatValue(side.value) + " at line " +
         std::to_string(sim::LineOf(snapshot.config().kernel, side.op)) + " (" + sim::MarkerName(side.op) + ", phase " +
         std::to_string(side.phase + 1) + ")";
}

std::string HazardSentence(const sim::Snapshot& snapshot, const sim::Hazard& hazard) {
  std::string text = std::string(sim::Name(hazard.kind)) + " " + SeverityWhy(hazard.severity) + "\n" +
                     CellName(snapshot.geometry(), hazard) + ": first " + SideSentence(snapshot, hazard.first) +
                     ",\nthen " + SideSentence(snapshot, hazard.second) + ".\n" + Explanation(hazard.kind) + "\n";
  if (hazard.kind == sim::HazardKind::kWaw) {
    text += "The cell ended as " + sim::FormatValue(hazard.value_seen) + "; the barrier would have left " +
            sim::FormatValue(hazard.value_expected) + ".";
  } else {
    text += "The reader saw " + sim::FormatValue(hazard.value_seen) + "; with the barrier it would have seen " +
            sim::FormatValue(hazard.value_expected) + ".";
  }
  text += hazard.Corrupted() ? " This run witnessed the race: the value was wrong."
                             : (hazard.observed_in_program_order
                                    ? " This schedule happened to keep the order; another need not."
                                    : " The accesses ran the wrong way round, yet the values were equal.");
  return text + "\nClick to jump to step " + std::to_string(hazard.step) + ".";
}

struct Tally {
  std::array<std::size_t, 3> by_kind{};
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t corrupted = 0;
};

// The counters' totals, which go on counting past the list's limit: the one number of hazards
// the Guide, the Race lab and this panel all say.
Tally Count(const sim::Counters& counters) {
  Tally tally;
  tally.by_kind = {static_cast<std::size_t>(counters.hazards_raw), static_cast<std::size_t>(counters.hazards_war),
                   static_cast<std::size_t>(counters.hazards_waw)};
  tally.errors = static_cast<std::size_t>(counters.hazard_errors);
  tally.warnings = static_cast<std::size_t>(counters.hazard_warnings);
  tally.corrupted = static_cast<std::size_t>(counters.hazards_corrupting);
  return tally;
}

}  // namespace

std::string HazardsPanel::OneWarpBanner(const sim::Snapshot& snapshot) {
  const sim::Geometry& g = snapshot.geometry();
  const sim::KernelConfig& config = snapshot.config();
  const bool barrier_off = config.barrier1 == sim::SyncKind::kNone || config.barrier2 == sim::SyncKind::kNone;
  if (g.naive || g.warps_per_block != 1 || !barrier_off) return "";
  return sim::OneWarpRaceNote(config.scheduler);
}

void HazardsPanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot) {
  if (const std::string banner = OneWarpBanner(snapshot); !banner.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::kOrange));
    gui::TextWrapped("%s %s", palette::kGlyphWarning, banner.c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "The block's %d threads are lanes of a single warp, which runs them together, so C usually\n"
          "comes out right. The hazard is still real (compute-sanitizer racecheck reports it), and\n"
          "__syncwarp() is what makes it safe.",
          snapshot.geometry().block_threads);
    }
  }
  DrawSummary(snapshot, frame.presentation);
  DrawOutOfBounds(snapshot);
  // For a room the counts and what each kind means; the rows, to hover and click, stay in the
  // normal view.
  if (!frame.presentation) DrawTable(frame, snapshot);
}

void HazardsPanel::DrawSummary(const sim::Snapshot& snapshot, bool presentation) {
  const std::vector<sim::Hazard>& hazards = snapshot.hazards();
  const sim::KernelConfig& config = snapshot.config();
  if (hazards.empty()) {
    const bool barriers_on =
        config.barrier1 == sim::SyncKind::kSyncthreads && config.barrier2 == sim::SyncKind::kSyncthreads;
    if (snapshot.geometry().naive) {
      gui::TextWrapped("%s", sim::RaceCaseHeadline(config, snapshot.geometry()).c_str());
      return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::kBluishGreen));
    gui::TextWrapped("%s No hazard so far%s", palette::kGlyphCheck,
                     barriers_on ? ": the barriers order every shared access."
                                 : " (step on: hazards appear as the accesses run).");
    ImGui::PopStyleColor();
    return;
  }
  const Tally tally = Count(snapshot.counters());
  const std::uint64_t total = snapshot.counters().hazards;
  gui::TextWrapped("%s: %zu RAW, %zu WAR, %zu WAW; %zu changed a value", sim::CountOf(total, "hazard", "hazards").c_str(),
              tally.by_kind[0], tally.by_kind[1], tally.by_kind[2], tally.corrupted);
  gui::TextColored(Colour(palette::kVermillion), "%s %s", palette::kGlyphCross,
                   sim::CountOf(tally.errors, "error", "errors").c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Errors: the two threads are in different warps (as racecheck grades them)");
  const std::string warnings =
      std::string(palette::kGlyphWarning) + " " + sim::CountOf(tally.warnings, "warning", "warnings");
  SameLineIfFits(warnings.c_str());
  gui::TextColored(Colour(palette::kOrange), "%s", warnings.c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Warnings: both threads are lanes of one warp (as racecheck grades them)");
  if (total > hazards.size()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::TextWrapped("%zu of %llu shown in the list (it keeps the first)", hazards.size(),
                     static_cast<unsigned long long>(total));
    ImGui::PopStyleColor();
  }
  for (std::size_t kind = 0; kind < tally.by_kind.size(); ++kind) {
    if (tally.by_kind[kind] > 0) gui::TextWrapped("%s", Explanation(static_cast<sim::HazardKind>(kind)));
  }
  if (presentation) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  gui::TextWrapped("Hover a row for the whole story; click it to jump to its step.");
  ImGui::PopStyleColor();
}

void HazardsPanel::DrawOutOfBounds(const sim::Snapshot& snapshot) {
  const std::vector<sim::OutOfBoundsAccess>& accesses = snapshot.out_of_bounds();
  if (accesses.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::kVermillion));
  gui::TextWrapped("%s %llu global accesses outside A, B or C (bounds guard off)", palette::kGlyphCross,
                   static_cast<unsigned long long>(snapshot.counters().out_of_bounds));
  ImGui::PopStyleColor();
}

void HazardsPanel::DrawTable(const FrameContext& frame, const sim::Snapshot& snapshot) {
  const std::vector<sim::Hazard>& hazards = snapshot.hazards();
  if (hazards.empty()) {
    shown_count_ = 0;
    return;
  }
  const sim::Geometry& g = snapshot.geometry();
  // Columns keep their width and the table scrolls sideways: squashed to a letter they say nothing.
  // Not resizable, so each column follows its widest cell: widths latched for one lesson's short
  // cells (As[0][0]) would cut the next lesson's longer ones (Bs[15][14]).
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingFixedFit;
  if (!gui::BeginTable("##hazards", 7, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* name : {"hazard", "step", "cell", "threads", "lines", "phase", "saw / should"}) {
    ImGui::TableSetupColumn(name);
  }
  gui::TableHeadersRow();
  std::int64_t jump = -1;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(hazards.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const sim::Hazard& hazard = hazards[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      ImGui::PushStyleColor(ImGuiCol_Text, Colour(SeverityColour(hazard.severity)));
      const std::string label =
          std::string(SeverityGlyph(hazard.severity)) + " " + sim::Name(hazard.kind) + " " + sim::Name(hazard.severity);
      if (gui::Selectable(label.c_str(), hazard.step == snapshot.step(), ImGuiSelectableFlags_SpanAllColumns)) {
        jump = hazard.step;
      }
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", HazardSentence(snapshot, hazard).c_str());
      ImGui::PopID();
      ImGui::TableNextColumn();
      gui::Text("%lld", static_cast<long long>(hazard.step));
      ImGui::TableNextColumn();
      gui::Text("%s[%d][%d]", hazard.tile == sim::TileId::kAs ? "As" : "Bs", hazard.row, hazard.col);
      ImGui::TableNextColumn();
      gui::Text("%s %s %s", ThreadName(g, hazard.first.thread).c_str(), palette::kGlyphRight,
                ThreadName(g, hazard.second.thread).c_str());
      ImGui::TableNextColumn();
      gui::Text("%d %s %d", sim::LineOf(snapshot.config().kernel, hazard.first.op), palette::kGlyphRight,
                sim::LineOf(snapshot.config().kernel, hazard.second.op));
      ImGui::TableNextColumn();
      gui::Text("%d", hazard.phase + 1);
      ImGui::TableNextColumn();
      gui::Text("%s / %s%s", sim::FormatValue(hazard.value_seen).c_str(),
                sim::FormatValue(hazard.value_expected).c_str(), hazard.Corrupted() ? "  \u2717 wrong" : "");
    }
  }
  if (hazards.size() > shown_count_) ImGui::SetScrollHereY(1.0f);
  shown_count_ = hazards.size();
  gui::EndTable();
  if (jump >= 0) frame.actions.Push("jump-to", std::to_string(jump));
}

nlohmann::json HazardsPanel::Describe(const sim::Snapshot& snapshot, std::size_t limit) {
  const std::vector<sim::Hazard>& hazards = snapshot.hazards();
  const Tally tally = Count(snapshot.counters());
  const sim::Geometry& g = snapshot.geometry();
  nlohmann::json out;
  out["banner"] = OneWarpBanner(snapshot);
  out["count"] = hazards.size();
  out["detected"] = snapshot.counters().hazards;
  out["raw"] = tally.by_kind[0];
  out["war"] = tally.by_kind[1];
  out["waw"] = tally.by_kind[2];
  out["errors"] = tally.errors;
  out["warnings"] = tally.warnings;
  out["out_of_bounds"] = snapshot.counters().out_of_bounds;
  out["out_of_bounds_listed"] = snapshot.out_of_bounds().size();
  out["listed"] = nlohmann::json::array();
  for (std::size_t i = 0; i < hazards.size() && i < limit; ++i) {
    const sim::Hazard& hazard = hazards[i];
    out["listed"].push_back({{"step", hazard.step},
                             {"kind", sim::Name(hazard.kind)},
                             {"severity", sim::Name(hazard.severity)},
                             {"cell", CellName(g, hazard)},
                             {"threads", {ThreadName(g, hazard.first.thread), ThreadName(g, hazard.second.thread)}},
                             {"lines",
                              {sim::LineOf(snapshot.config().kernel, hazard.first.op),
                               sim::LineOf(snapshot.config().kernel, hazard.second.op)}},
                             {"phase", hazard.phase + 1},
                             {"seen", hazard.value_seen},
                             {"expected", hazard.value_expected}});
  }
  return out;
}

}  // namespace gui
