#include "app/panels/shared_tiles_panel.h"

#include <imgui.h>

#include "app/gui/palette.h"
#include "app/panels/panel_layout.h"

namespace gui {
namespace {

ImU32 FreshnessColour(sim::CellFreshness freshness) {
  switch (freshness) {
    case sim::CellFreshness::kFresh: return palette::kBluishGreen;
    case sim::CellFreshness::kStale: return palette::kOrange;
    case sim::CellFreshness::kNeverWritten: return palette::kGrey;
  }
  return palette::kGrey;
}

// Freshness in words too: colour is never the only carrier of state.
const char* FreshnessMark(sim::CellFreshness freshness) {
  switch (freshness) {
    case sim::CellFreshness::kFresh: return "\u2713";
    case sim::CellFreshness::kStale: return "old";
    case sim::CellFreshness::kNeverWritten: return "";
  }
  return "";
}

void DrawLegend() {
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kBluishGreen), "\u2713 this phase");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kOrange), "old: previous phase (stale)");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kGrey), "?: never written");
}

}  // namespace

void SharedTilesPanel::Draw(const FrameContext& frame, const sim::Snapshot& snapshot) {
  if (!open) return;
  PlacePanel(frame, kSharedTilesSlot);
  if (!ImGui::Begin("Shared tiles", &open)) {
    ImGui::End();
    return;
  }
  if (snapshot.geometry().naive) {
    ImGui::TextWrapped("The naive kernel uses no shared memory: every product reads A and B from global memory.");
    ImGui::End();
    return;
  }
  const int block = snapshot.current_block();
  const sim::Block& info = snapshot.blocks()[block];
  ImGui::Text("Block %s, phase %d", sim::Coordinates(info.bx, info.by).c_str(), snapshot.BlockPhase(block) + 1);
  DrawLegend();
  DrawTile("As", snapshot, block, sim::TileId::kAs);
  ImGui::SameLine();
  DrawTile("Bs", snapshot, block, sim::TileId::kBs);
  ImGui::End();
}

void SharedTilesPanel::DrawTile(const char* name, const sim::Snapshot& snapshot, int block, sim::TileId id) {
  const sim::SharedTile tile = snapshot.tile(block, id);
  ImGui::BeginGroup();
  ImGui::Text("%s[%d][%d]", name, tile.rows, tile.cols);
  ImGui::PushID(name);
  if (ImGui::BeginTable("##tile", tile.cols, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    for (int row = 0; row < tile.rows; ++row) {
      ImGui::TableNextRow();
      for (int col = 0; col < tile.cols; ++col) {
        ImGui::TableNextColumn();
        const sim::SharedCell& cell = tile.at(row, col);
        const sim::CellFreshness freshness = snapshot.Freshness(block, id, row, col);
        ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, (FreshnessColour(freshness) & 0x00FFFFFF) | 0x60000000);
        if (cell.written()) {
          ImGui::Text("%g %s", cell.value, FreshnessMark(freshness));
        } else {
          ImGui::TextUnformatted("?");
        }
        if (ImGui::IsItemHovered() && cell.written()) {
          ImGui::SetTooltip("%s[%d][%d] = %g\nwritten by thread %d of the block in phase %d", name, row, col, cell.value,
                            cell.writer, cell.phase + 1);
        }
      }
    }
    ImGui::EndTable();
  }
  ImGui::PopID();
  ImGui::EndGroup();
}

}  // namespace gui
