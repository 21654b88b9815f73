#include "app/panels/ladder_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string_view>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "app/panels/live_text.h"
#include "kernels/kernel_files.h"
#include "kernels/line_diff.h"
#include "kernels/registry.h"

namespace panels {

void LadderView::StepRungSource(const std::vector<kernels::LadderRow>& rows) {
  if (!ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) return;
  const int step = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))  ? 1
                   : ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)) ? -1
                                                                                 : 0;
  if (step == 0) return;
  std::vector<const char*> rungs;
  for (const kernels::LadderRow& row : rows) {
    if (row.spec && row.spec->family == kernels::KernelFamily::kLadder) rungs.push_back(row.spec->name);
  }
  if (rungs.empty()) return;
  const auto open = std::find_if(rungs.begin(), rungs.end(), [&](const char* name) { return rung_source == name; });
  if (open == rungs.end()) {
    rung_source = step > 0 ? rungs.front() : rungs.back();
  } else {
    const auto index = std::clamp<std::ptrdiff_t>((open - rungs.begin()) + step, 0,
                                                  static_cast<std::ptrdiff_t>(rungs.size()) - 1);
    rung_source = rungs[static_cast<std::size_t>(index)];
  }
}

void LadderView::DrawRungSource(float height) const {
  const kernels::KernelSpec* spec = kernels::FindKernel(rung_source);
  const auto source = spec ? kernels::RungSourceOf(*spec) : std::nullopt;
  if (!source) return;
  gui::TextWrapped("%s", kernels::RungSourceHeader(*source).c_str());
  const float rest = std::max(height - ImGui::GetTextLineHeightWithSpacing(), ImGui::GetFrameHeight());
  gui::BeginChild("##rung_source", ImVec2(0.0f, rest), true, ImGuiWindowFlags_HorizontalScrollbar);
  // '+' marks a line new since the rung before, so the colour is never the only sign.
  const ImVec4 added = ImGui::ColorConvertU32ToFloat4(gui::palette::kBluishGreen);
  const std::vector<std::string_view> lines = kernels::SplitLines(source->file.text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    char prefix[32];  // room for any size_t: a short buffer was -Wformat-truncation's warning
    std::snprintf(prefix, sizeof prefix, "%c %3zu  ", source->changed[i] ? '+' : ' ', i + 1);
    const std::string line = prefix + std::string(lines[i]);
    if (source->changed[i]) {
      gui::TextColored(added, "%s", line.c_str());
    } else {
      gui::TextUnformatted(line.c_str());
    }
  }
  gui::EndChild();
}

void LadderView::Draw(const std::vector<kernels::BenchResult>& results, const kernels::Shape& shape, float height) {
  const std::vector<kernels::LadderRow> rows = kernels::LadderAt(results, shape);
  StepRungSource(rows);
  // The open source takes the lower part; the table keeps room for a few rows above it.
  const float source_height = rung_source.empty() ? 0.0f : height * 0.55f;
  height -= source_height;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  if (gui::BeginTable("##ladder", 6, kFlags, ImVec2(0.0f, height))) {
    DrawRows(rows);
    gui::EndTable();
  }
  if (!rung_source.empty()) DrawRungSource(source_height);
}

// A wrong C shows no bar: a kernel that computes the wrong answer is not fast.
void LadderView::DrawRows(const std::vector<kernels::LadderRow>& rows) {
  const float font = ImGui::GetFontSize();
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("kernel");
  ImGui::TableSetupColumn("TFLOPS, towards cuBLAS", ImGuiTableColumnFlags_WidthFixed, font * 14.0f);
  ImGui::TableSetupColumn("% of cuBLAS");
  ImGui::TableSetupColumn("FLOP/byte");
  ImGui::TableSetupColumn("blocks/SM");
  ImGui::TableSetupColumn("the idea");
  gui::TableHeadersRow();
  for (const kernels::LadderRow& row : rows) {
    const kernels::BenchResult& r = *row.result;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (row.spec && row.spec->family == kernels::KernelFamily::kLadder) {
      // A click on the label opens the rung's source below the table, a second click closes
      // it; the open one carries an arrow. Plain text, not a selectable: ImGui pads a
      // selectable past its cell's edge, which would count as cut off.
      const bool open = rung_source == row.spec->name;
      const std::string label = open ? std::string(gui::palette::kGlyphRight) + " " + r.label : r.label;
      gui::TextUnformatted(label.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
      if (ImGui::IsItemClicked()) rung_source = open ? "" : row.spec->name;
    } else {
      gui::TextUnformatted(r.label.c_str());
    }
    ImGui::TableNextColumn();
    if (!r.ok()) {
      MessageText("not measured: " + r.error, true);
    } else if (!r.verified) {
      MessageText(std::string(gui::palette::kGlyphCross) + " C wrong: not plotted", true);
    } else {
      // Towards cuBLAS of the row's own precision: a BF16 rung's bar is full at cuBLAS BF16.
      const double cublas = row.reference != nullptr && row.reference->ok() ? row.reference->gflops : 0.0;
      const float fraction = cublas > 0.0 ? static_cast<float>(std::min(1.0, r.gflops / cublas)) : 0.0f;
      char text[32];
      std::snprintf(text, sizeof text, "%.1f", r.gflops / 1000.0);
      gui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), text);
    }
    ImGui::TableNextColumn();
    if (r.ok() && r.verified && r.percent_of_cublas > 0.0) gui::Text("%.0f%%", r.percent_of_cublas);
    ImGui::TableNextColumn();
    if (row.intensity) gui::Text("%.2f", *row.intensity);
    ImGui::TableNextColumn();
    if (r.occupancy_blocks_per_sm > 0) gui::Text("%d", r.occupancy_blocks_per_sm);
    ImGui::TableNextColumn();
    gui::TextUnformatted(row.spec ? kernels::IdeaOf(*row.spec) : "");
  }
}

}  // namespace panels
