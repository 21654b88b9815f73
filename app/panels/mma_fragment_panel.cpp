#include "app/panels/mma_fragment_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace gui {
namespace {

// One colour per quad of lanes (the four lanes that share rows of A and C); the lane number
// is written in every cell, so no element is told by colour alone.
constexpr ImU32 kQuadColours[8] = {palette::kOrange, palette::kSkyBlue, palette::kBluishGreen, palette::kYellow,
                                   palette::kBlue,   palette::kVermillion, palette::kReddishPurple, palette::kGrey};
constexpr ImU32 kCellText = palette::Rgb(20, 20, 20);
constexpr ImU32 kPickedOutline = palette::Rgb(255, 255, 255);
// Cells across: A's 8, a gap, B's 8, a gap, C's 8; down, under a title line: A's or C's 16 rows.
constexpr float kCellsAcross = 8 * 3 + 2;
constexpr float kCellsDown = 16;

// Lanes 0…31 are written in cells as small as this still legibly, in a font of at most this
// share of the cell.
constexpr float kSmallestCell = 14.0f;
constexpr float kDigitsShare = 0.6f;

}  // namespace

void MmaFragmentPanel::Draw(const MmaFragmentView& view) {
  gui::TextWrapped(
      "One mma.sync.m16n8k8 (TF32) on one warp: D = A\u00b7B + C. Every element lives in a register of one "
      "lane; the colour is the lane's quad (lane / 4), the number its lane. Hover an element to follow its lane.");
  const int lane = hovered_lane_ >= 0 ? hovered_lane_ : view.picked_lane;
  hovered_lane_ = -1;
  DrawPickedLane(view, lane);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float cell = std::max(kSmallestCell, std::min(avail.x / kCellsAcross, (avail.y - line) / kCellsDown));
  const float height = line + kCellsDown * cell;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (std::size_t i = 0; i < view.operands.size(); ++i) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x + static_cast<float>(i) * 9.0f * cell, origin.y));
    DrawOperand(view.operands[i], lane, cell);
  }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(kCellsAcross * cell, height));
}

void MmaFragmentPanel::DrawPickedLane(const MmaFragmentView& view, int lane) {
  std::string holds;
  for (const sim::FragmentMap& map : view.operands) {
    for (int reg = 0; reg < sim::FragmentRegisters(map.operand); ++reg) {
      const sim::MatrixCell cell = sim::FragmentCell(map.operand, lane, reg);
      holds += std::string(holds.empty() ? "" : ", ") + sim::RegisterName(map.operand, reg) + " = " +
               sim::OperandName(map.operand) + "[" + std::to_string(cell.row) + "][" + std::to_string(cell.column) +
               "]";
    }
  }
  gui::TextWrapped("Lane %d (quad %d, thread %d of it): %s", lane, lane / 4, lane % 4, holds.c_str());
}

void MmaFragmentPanel::DrawOperand(const sim::FragmentMap& map, int lane, float cell) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  const std::string title = std::string(sim::OperandName(map.operand)) + " (" + std::to_string(map.rows) + "\u00d7" +
                            std::to_string(map.columns) + ")";
  draw->AddText(corner, ImGui::GetColorU32(ImGuiCol_Text), title.c_str());
  const ImVec2 top(corner.x, corner.y + ImGui::GetTextLineHeightWithSpacing());
  // Two digits with room between neighbours: "10" beside "11" must not read as "1011".
  ImFont* font = ImGui::GetFont();
  const float font_size = std::min(ImGui::GetFontSize(), cell * kDigitsShare);
  for (int row = 0; row < map.rows; ++row) {
    for (int column = 0; column < map.columns; ++column) {
      const sim::FragmentOwner& owner = map.At(row, column);
      const ImVec2 min(top.x + static_cast<float>(column) * cell, top.y + static_cast<float>(row) * cell);
      const ImVec2 max(min.x + cell - 1.0f, min.y + cell - 1.0f);
      draw->AddRectFilled(min, max, kQuadColours[owner.lane / 4]);
      const bool picked = owner.lane == lane;
      const std::string text = picked ? sim::RegisterName(map.operand, owner.reg) : std::to_string(owner.lane);
      const ImVec2 size = font->CalcTextSizeA(font_size, cell, 0.0f, text.c_str());
      draw->AddText(font, font_size, ImVec2(min.x + (cell - size.x) / 2.0f, min.y + (cell - size.y) / 2.0f), kCellText,
                    text.c_str());
      if (picked) draw->AddRect(min, max, kPickedOutline, 0.0f, 0, 2.0f);
      if (ImGui::IsMouseHoveringRect(min, max) && ImGui::IsWindowHovered()) {
        hovered_lane_ = owner.lane;
        ImGui::SetTooltip("%s[%d][%d]: lane %d, register %s", sim::OperandName(map.operand), row, column, owner.lane,
                          sim::RegisterName(map.operand, owner.reg));
      }
    }
  }
}

nlohmann::json MmaFragmentPanel::Describe(const MmaFragmentView& view) {
  nlohmann::json operands = nlohmann::json::object();
  for (const sim::FragmentMap& map : view.operands) {
    nlohmann::json lanes = nlohmann::json::array();
    for (int row = 0; row < map.rows; ++row) {
      nlohmann::json line = nlohmann::json::array();
      for (int column = 0; column < map.columns; ++column) line.push_back(map.At(row, column).lane);
      lanes.push_back(line);
    }
    operands[sim::OperandName(map.operand)] = lanes;
  }
  return {{"lanes", operands}, {"picked_lane", view.picked_lane}};
}

}  // namespace gui
