#include "app/panels/occupancy_panel.h"

#include <imgui.h>

#include "app/gui/palette.h"
#include "app/gui/panel_window.h"
#include "app/gui/text_item.h"

namespace gui {
namespace {

bool Limits(const sim::Occupancy& occupancy, sim::Resource resource) {
  for (sim::Resource limiting : occupancy.limiting) {
    if (limiting == resource) return true;
  }
  return false;
}

// The GPU's short name for a column head: "H100" of "H100 (cc 9.0)".
std::string ShortName(const sim::GpuLimits& gpu) {
  const std::size_t paren = gpu.name.find(" (");
  return gpu.key == "present" ? "here: " + gpu.name.substr(0, paren) : gpu.name.substr(0, paren);
}

// Short column heads, so five resources fit a narrow panel; the tooltips say them in full.
const char* ColumnHead(sim::Resource resource) {
  switch (resource) {
    case sim::Resource::kThreads: return "thr";
    case sim::Resource::kWarps: return "warps";
    case sim::Resource::kBlocks: return "blk";
    case sim::Resource::kRegisters: return "regs";
    case sim::Resource::kSharedMemory: return "smem";
  }
  return "?";
}

}  // namespace

void OccupancyPanel::Draw(const OccupancyView& view) {
  if (view.gpus.empty()) {
    gui::TextWrapped("%s", view.present.c_str());
    return;
  }
  DrawBlock(view);
  DrawLimits(view);
  if (!view.present.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    gui::TextWrapped("%s", view.present.c_str());
    ImGui::PopStyleColor();
  }
}

void OccupancyPanel::DrawBlock(const OccupancyView& view) {
  const sim::Occupancy& first = view.gpus.front().occupancy;
  const int warps = first.warps_per_block;
  const int last = first.live_lanes_in_last_warp;
  const std::string lanes = last == 32 ? "" : " (" + std::string(warps == 1 ? "" : "last ") + std::to_string(last) +
                                                 " of 32 lanes live)";
  gui::TextWrapped("%s: %d threads \u00b7 %d warp%s%s \u00b7 %d B shared", view.kernel.c_str(), first.demand.threads,
                     warps, warps == 1 ? "" : "s", lanes.c_str(), first.demand.shared_bytes);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s per block.\n"
                      "An SM schedules whole warps: a block of 4 threads still takes a warp slot.\n"
                      "1024 threads is the limit of one block, not of an SM: \"1024 // threads\" is not\n"
                      "the number of blocks an SM holds. Each resource allows some number of blocks\n"
                      "(the columns); the SM holds the smallest, in red. Hover a number for its arithmetic.",
                      sim::WarpFill(first).c_str());
  }
}

// A row per GPU: the blocks one SM holds, then the blocks each resource allows, the
// limiting ones in red; a panel too narrow for every column scrolls sideways.
void OccupancyPanel::DrawLimits(const OccupancyView& view) {
  const std::vector<sim::ResourceLimit>& resources = view.gpus.front().occupancy.limits;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  // As tall as its rows and a scrollbar: a scrolling table would otherwise take the panel's height.
  const float height = (static_cast<float>(view.gpus.size()) + 1.0f) * ImGui::GetTextLineHeightWithSpacing() +
                       ImGui::GetStyle().ScrollbarSize + 4.0f * ImGui::GetStyle().CellPadding.y;
  // Narrow cells: the whole table fits the left column of a 1366-pixel window.
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(3.0f, ImGui::GetStyle().CellPadding.y));
  const bool shown = gui::BeginTable("##occupancy", 2 + static_cast<int>(resources.size()), flags, ImVec2(0.0f, height));
  ImGui::PopStyleVar();
  if (!shown) return;
  ImGui::TableSetupColumn("GPU");
  ImGui::TableSetupColumn("blocks");
  for (const sim::ResourceLimit& limit : resources) ImGui::TableSetupColumn(ColumnHead(limit.resource));
  gui::TableHeadersRow();
  for (const OccupancyView::Gpu& gpu : view.gpus) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    gui::TextUnformatted(ShortName(gpu.limits).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", gpu.limits.name.c_str());
    ImGui::TableNextColumn();
    DrawResident(gpu);
    for (const sim::ResourceLimit& limit : gpu.occupancy.limits) {
      ImGui::TableNextColumn();
      if (!limit.known) {
        gui::TextDisabled("-");
      } else if (Limits(gpu.occupancy, limit.resource)) {
        gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kVermillion), "%d", limit.blocks);
      } else {
        gui::Text("%d", limit.blocks);
      }
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s, blocks by %s: %s", gpu.limits.name.c_str(), sim::Name(limit.resource),
                          limit.working.c_str());
      }
    }
  }
  gui::EndTable();
}

void OccupancyPanel::DrawResident(const OccupancyView::Gpu& gpu) {
  const sim::Occupancy& o = gpu.occupancy;
  gui::Text("%d", o.blocks_per_sm);
  if (!ImGui::IsItemHovered()) return;
  const std::string registers = o.demand.registers_per_thread > 0 ? std::to_string(o.demand.registers_per_thread) : "unknown";
  ImGui::SetTooltip("%s: %d blocks per SM = %d threads in %d of %d warp slots; limited by %s\n"
                    "registers per thread: %s (%s)",
                    gpu.limits.name.c_str(), o.blocks_per_sm, o.blocks_per_sm * o.demand.threads, o.active_warps,
                    gpu.limits.max_warps_per_sm, sim::LimitingText(o).c_str(), registers.c_str(),
                    gpu.registers_from.c_str());
}

nlohmann::json OccupancyPanel::Describe(const OccupancyView& view) {
  nlohmann::json out;
  out["kernel"] = view.kernel;
  if (!view.gpus.empty()) out["warp_fill"] = sim::WarpFill(view.gpus.front().occupancy);
  out["gpus"] = nlohmann::json::array();
  for (const OccupancyView::Gpu& gpu : view.gpus) {
    nlohmann::json one = sim::OccupancyJson(gpu.occupancy, gpu.limits);
    one["registers_from"] = gpu.registers_from;
    out["gpus"].push_back(one);
  }
  if (!view.present.empty()) out["present"] = view.present;
  return out;
}

}  // namespace gui
