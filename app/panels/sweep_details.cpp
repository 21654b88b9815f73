#include "app/panels/sweep_details.h"

#include <imgui.h>

#include <cstdint>
#include <string>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"
#include "app/panels/live_text.h"
#include "app/plot/sweep_plots.h"
#include "kernels/registry.h"

namespace panels {
namespace {

constexpr float kSideBySideFonts = 90.0f;  // Table and model link side by side from this width (× font size).
constexpr float kTableShare = 0.56f;       // Of the width, when side by side.

// 33554432 → "33,554,432": counts a class reads from afar.
std::string Grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), ",");
  return digits;
}

void VerifiedMark(bool verified) {
  gui::TextColored(Colour(verified ? gui::palette::kBluishGreen : gui::palette::kVermillion), "%s",
                   verified ? gui::palette::kGlyphCheck : gui::palette::kGlyphCross);
}

void DrawTableRow(const kernels::BenchResult& r, const kernels::DeviceInfo& device) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  gui::TextUnformatted(r.label.empty() ? r.kernel.c_str() : r.label.c_str());
  ImGui::TableNextColumn();
  gui::TextUnformatted(kernels::ToString(r.shape).c_str());
  if (!r.ok()) {
    for (int column = 0; column < 6; ++column) ImGui::TableNextColumn();
    gui::TextColored(Colour(gui::palette::kOrange), "%s", gui::palette::kGlyphWarning);
    ImGui::TableNextColumn();
    const std::string note = "not measured: " + r.error;
    gui::TextUnformatted(note.c_str());
    // A worker's fault names the kernel, the shape and the restart at its end, past the
    // column's edge: the whole message on hover, wrapped (rows stay one line for the clipper).
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
      ImGui::TextUnformatted(note.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    return;
  }
  ImGui::TableNextColumn();
  gui::Text("%.4f", r.median_ms);
  // A wrong C's speed means nothing: its GFLOPS and percentages are not shown.
  ImGui::TableNextColumn();
  r.verified ? gui::Text("%.0f", r.gflops) : Dash();
  ImGui::TableNextColumn();
  r.verified && r.percent_of_cublas > 0.0
      ? gui::Text("%.1f of %s", r.percent_of_cublas, kernels::ReferenceLabel(r.percent_of).c_str())
      : Dash();
  ImGui::TableNextColumn();
  // Of the peak of the row's own precision: a TF32 rung against the TF32 tensor peak.
  const double peak = plot::PeakGflopsOf(r, device);
  r.verified && peak > 0.0 ? gui::Text("%.1f", 100.0 * r.gflops / peak) : Dash();
  ImGui::TableNextColumn();
  r.occupancy_blocks_per_sm > 0 ? gui::Text("%d", r.occupancy_blocks_per_sm) : Dash();
  ImGui::TableNextColumn();
  VerifiedMark(r.verified);
  ImGui::TableNextColumn();
  if (!r.verified) {
    gui::Text("wrong C: %lld elements off by more than %.3g", static_cast<long long>(r.wrong_elements), r.tolerance);
  }
}

void DrawTable(const LiveSweepView& sweep) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  if (!gui::BeginTable("##results", 9, flags, ImVec2(0.0f, ImGui::GetContentRegionAvail().y))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  // "% cuBLAS" is of cuBLAS in the kernel's own precision; each cell names which.
  for (const char* name : {"kernel", "n", "median ms", "GFLOPS", "% cuBLAS", "% peak", "blocks/SM", "C", "note"}) {
    ImGui::TableSetupColumn(name);
  }
  gui::TableHeadersRow();
  const std::vector<kernels::BenchResult>& results = sweep.sweep.results();
  const kernels::DeviceInfo& device = sweep.sweep.device();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(results.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) DrawTableRow(results[static_cast<size_t>(i)], device);
  }
  gui::EndTable();
}

void DrawModelLinkRow(const ModelLinkRow& row, double bandwidth) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  gui::TextUnformatted(row.label.c_str());
  ImGui::TableNextColumn();
  if (row.reads) {
    const bool model = row.reads->source == kernels::ReadsSource::kModel;
    gui::Text("%s (%s)", Grouped(row.reads->reads).c_str(), model ? "model" : "formula");
  } else {
    gui::TextDisabled("the model is counting\u2026");
  }
  const std::optional<kernels::BenchResult>& r = row.result;
  ImGui::TableNextColumn();
  if (!r || !r->ok()) {
    gui::TextDisabled("not measured");
    return;
  }
  if (!r->verified) {
    gui::TextColored(Colour(gui::palette::kVermillion), "%s wrong C", gui::palette::kGlyphCross);
    return;
  }
  gui::Text("%.4f", r->median_ms);
  if (!row.reads) return;
  const double requested = kernels::RequestedGBs(row.reads->reads, r->median_ms);
  ImGui::TableNextColumn();
  gui::Text("%.0f GB/s", requested);
  ImGui::TableNextColumn();
  bandwidth > 0.0 ? gui::Text("%.2f\u00d7", requested / bandwidth) : Dash();
}

void DrawModelLink(const gui::FrameContext& frame, const LiveSweepView& sweep) {
  const ModelLink& link = sweep.model_link;
  ImGui::AlignTextToFramePadding();
  gui::TextUnformatted("Global reads of A and B at n =");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  const std::string shown = link.size ? kernels::ToString(*link.size) : std::string("\u2014");
  if (gui::BeginCombo("##model_size", shown.c_str())) {
    for (const kernels::Shape& shape : link.sizes) {
      const std::string name = kernels::ToString(shape);
      if (gui::Selectable(name.c_str(), link.size && *link.size == shape)) frame.actions.Push("live-model-size", name);
    }
    ImGui::EndCombo();
  }
  if (link.rows.empty()) {
    gui::TextWrapped("Run or load a sweep with the naive or tiled kernels to see what the model counts at its sizes.");
    return;
  }
  const double bandwidth = sweep.sweep.device().memory_bandwidth_gbs;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (gui::BeginTable("##model_link", 5, flags)) {
    for (const char* name : {"kernel", "global reads", "median ms", "requested load", "of memory bandwidth"}) {
      ImGui::TableSetupColumn(name);
    }
    gui::TableHeadersRow();
    for (const ModelLinkRow& row : link.rows) DrawModelLinkRow(row, bandwidth);
    gui::EndTable();
  }
  ImGui::PushTextWrapPos(0.0f);
  gui::TextDisabled("global reads: elements of A and B loaded; (model): %s, every dimension \u2264 %lld; "
                    "(formula): %s.",
                    kernels::Describe(kernels::ReadsSource::kModel).c_str(), static_cast<long long>(kernels::kModelCountLimit),
                    kernels::Describe(kernels::ReadsSource::kFormula).c_str());
  gui::TextDisabled("requested load = global reads \u00d7 4 B / median time: what the kernel asks of the memory "
                    "system, not DRAM traffic (L1 and L2 serve most of it).");
  if (bandwidth > 0.0) {
    gui::TextDisabled("Device memory bandwidth: %.0f GB/s (2 \u00d7 memory clock \u00d7 bus width).", bandwidth);
  } else {
    gui::TextDisabled("Device memory bandwidth: not recorded with these results.");
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

void DrawSweepDetails(const gui::FrameContext& frame, const LiveSweepView& sweep) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x >= kSideBySideFonts * ImGui::GetFontSize()) {
    const float table_width = avail.x * kTableShare;
    gui::BeginChild("##table", ImVec2(table_width, avail.y));
    DrawTable(sweep);
    gui::EndChild();
    ImGui::SameLine();
    gui::BeginChild("##model", ImVec2(0.0f, avail.y));
    DrawModelLink(frame, sweep);
    gui::EndChild();
    return;
  }
  if (!ImGui::BeginTabBar("##details")) return;
  if (gui::Recorded(ImGui::BeginTabItem("Results"), "Results")) {
    DrawTable(sweep);
    ImGui::EndTabItem();
  }
  if (gui::Recorded(ImGui::BeginTabItem("Model link: global reads"), "Model link: global reads")) {
    DrawModelLink(frame, sweep);
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

}  // namespace panels
