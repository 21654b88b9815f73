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

// The GPU's name for a column head, on two lines where it has two words: "RTX\n4090" of
// "RTX 4090 (cc 8.9)", "here:\nH100" for the GPU in this PC.
std::string ColumnName(const sim::GpuLimits& gpu) {
  std::string name = gpu.name.substr(0, gpu.name.find(" ("));
  if (gpu.key == "present") name = "here: " + name;
  const std::size_t space = name.find(' ');
  if (space != std::string::npos) name[space] = '\n';
  return name;
}

// Short row heads, so the table fits a narrow panel; the tooltips say them in full.
const char* RowHead(sim::Resource resource) {
  switch (resource) {
    case sim::Resource::kThreads: return "threads";
    case sim::Resource::kWarps: return "warps";
    case sim::Resource::kBlocks: return "blocks";
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

// A column per GPU (their names wrap onto two lines), a row per figure: the blocks one SM holds
// and the share of its warp slots they fill, then the blocks each resource allows, the limiting
// ones in red. Four GPUs and the one here fit the left column of a 1366-pixel window this way
// round (a row per GPU scrolled sideways and hid its last columns below the panel's fold).
void OccupancyPanel::DrawLimits(const OccupancyView& view) {
  const std::vector<sim::ResourceLimit>& resources = view.gpus.front().occupancy.limits;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit;
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(3.0f, ImGui::GetStyle().CellPadding.y));
  const bool shown = gui::BeginTable("##occupancy", 1 + static_cast<int>(view.gpus.size()), flags);
  ImGui::PopStyleVar();
  if (!shown) return;
  std::vector<std::string> heads;
  for (const OccupancyView::Gpu& gpu : view.gpus) heads.push_back(ColumnName(gpu.limits));
  ImGui::TableSetupColumn("SM holds", ImGuiTableColumnFlags_WidthStretch);
  for (const std::string& head : heads) ImGui::TableSetupColumn(head.c_str());
  gui::TableHeadersRow();
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  gui::TextUnformatted("blocks");
  for (const OccupancyView::Gpu& gpu : view.gpus) {
    ImGui::TableNextColumn();
    DrawResident(gpu);
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  gui::TextUnformatted("warp slots");
  for (const OccupancyView::Gpu& gpu : view.gpus) {
    ImGui::TableNextColumn();
    gui::Text("%.0f%%", 100.0 * gpu.occupancy.warp_occupancy);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s: %d of its %d warp slots per SM hold a warp of this kernel", gpu.limits.name.c_str(),
                        gpu.occupancy.active_warps, gpu.limits.max_warps_per_sm);
    }
  }
  for (std::size_t r = 0; r < resources.size(); ++r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    gui::Text("by %s", RowHead(resources[r].resource));
    for (const OccupancyView::Gpu& gpu : view.gpus) {
      ImGui::TableNextColumn();
      DrawLimit(gpu, gpu.occupancy.limits[r]);
    }
  }
  gui::EndTable();
}

void OccupancyPanel::DrawLimit(const OccupancyView::Gpu& gpu, const sim::ResourceLimit& limit) {
  if (!limit.known) {
    gui::TextDisabled("-");
  } else if (Limits(gpu.occupancy, limit.resource)) {
    gui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kVermillion), "%d", limit.blocks);
  } else {
    gui::Text("%d", limit.blocks);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s, blocks by %s: %s", gpu.limits.name.c_str(), sim::Name(limit.resource), limit.working.c_str());
  }
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
