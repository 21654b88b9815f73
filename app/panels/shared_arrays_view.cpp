#include "app/panels/shared_arrays_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>

#include "app/gui/displayable_text.h"
#include "app/gui/palette.h"
#include "app/gui/text_item.h"

namespace gui {
namespace {

constexpr int kBanks = 32;  // a 1-D array's row: one word per bank
constexpr int kMaxSideBySide = 3;

// Rows and columns of one 2-D slice, and how many slices.
struct Layout {
  int slices = 1, rows = 1, cols = 1;
};

Layout LayoutOf(const sim::cuda::SharedArray& a) {
  if (a.rank == 1) return {1, (a.dims[0] + kBanks - 1) / kBanks, std::min(a.dims[0], kBanks)};
  if (a.rank == 2) return {1, a.dims[0], a.dims[1]};
  return {a.dims[0], a.dims[1], a.dims[2]};
}

std::string Extents(const sim::cuda::SharedArray& a) {
  std::string text;
  for (int d = 0; d < a.rank; ++d) text += "[" + std::to_string(a.dims[static_cast<std::size_t>(d)]) + "]";
  return text;
}

std::string ValueText(const sim::cuda::SharedArray& a, const sim::SharedCell& cell) {
  if (!cell.written()) return "?";
  char text[32];
  if (a.type == sim::cuda::Type::kInt) {
    std::int32_t value = 0;
    std::memcpy(&value, &cell.value, sizeof value);
    std::snprintf(text, sizeof text, "%d", value);
  } else {
    std::snprintf(text, sizeof text, "%g", static_cast<double>(cell.value));
  }
  return text;
}

}  // namespace

void SharedArraysView::Draw(const sim::Snapshot& snapshot, ThreadRef selected) {
  const sim::cuda::CompiledKernel& kernel = *snapshot.kernel();
  block_ = selected.block;
  drawn_.clear();
  const sim::Block& block = snapshot.blocks()[static_cast<std::size_t>(block_)];
  gui::TextWrapped("Your kernel's __shared__ arrays in block %s", sim::Coordinates(block.bx, block.by).c_str());
  if (kernel.shared.empty()) {
    gui::TextWrapped("%s declares no __shared__ array: every value it uses comes from global memory or registers.",
                     kernel.name.c_str());
    return;
  }
  // Side by side where the panel is wider than tall (As beside Bs, as the lessons draw them),
  // else one under the other; either way each array's cells fit the room it gets.
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const int arrays = static_cast<int>(kernel.shared.size());
  const int columns = room.x > room.y ? std::min(arrays, kMaxSideBySide) : 1;
  const int rows = (arrays + columns - 1) / columns;
  const float header = ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("##arrays", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  if (gui::BeginTable("##array_grid", columns, ImGuiTableFlags_SizingStretchSame)) {
    for (int a = 0; a < arrays; ++a) {
      ImGui::TableNextColumn();
      ImGui::PushID(a);
      DrawArray(snapshot, a, block_, room.y / static_cast<float>(rows) - header);
      ImGui::PopID();
    }
    gui::EndTable();
  }
  ImGui::EndChild();
  caption_rows_ = 1;
  for (const Drawn& d : drawn_) caption_rows_ = std::max(caption_rows_, d.caption_lines.size());
}

void SharedArraysView::DrawArray(const sim::Snapshot& snapshot, int array, int block, float height_room) {
  const sim::cuda::SharedArray& a = snapshot.kernel()->shared[static_cast<std::size_t>(array)];
  const Layout layout = LayoutOf(a);
  Drawn drawn{a.name, layout.rows, layout.cols, layout.slices, 0, {}, {}, {}, {}};
  // "(line 9)" is one word (a no-break space): a caption broken between "(line" and "9)" reads badly.
  DrawCaption(drawn, std::string(a.type == sim::cuda::Type::kInt ? "int " : "float ") + a.name + Extents(a) +
                         " (line\u00A0" + std::to_string(a.pos.line) + ")");
  const std::size_t rows = std::max(caption_rows_, drawn.caption_lines.size());
  ImGui::Dummy(ImVec2(0.0f, ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(rows - drawn.caption_lines.size())));
  height_room -= ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(rows - 1);
  // Cells as large as the room allows, up to room for a short value; never smaller than a dot.
  const float room = ImGui::GetContentRegionAvail().x;
  const float value_width = ImGui::CalcTextSize("-0.000").x + 4.0f;
  const float rows_in_all = static_cast<float>(layout.rows * layout.slices) + (layout.slices > 1 ? layout.slices : 0);
  const float fit = std::min(room / static_cast<float>(layout.cols), height_room / rows_in_all);
  const float cell = std::clamp(fit, ImGui::GetFontSize() * 0.5f, value_width);
  const bool values = cell >= value_width * 0.9f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int slice = 0; slice < layout.slices; ++slice) {
    if (layout.slices > 1) gui::TextDisabled("%s[%d]", a.name.c_str(), slice);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float height = values ? ImGui::GetTextLineHeight() + 4.0f : cell;
    for (int r = 0; r < layout.rows; ++r) {
      for (int c = 0; c < layout.cols; ++c) {
        const int index = (slice * layout.rows + r) * layout.cols + c;
        if (index >= a.Words()) break;
        const sim::SharedCell& word = snapshot.SharedWord(block, array, index);
        drawn.written += word.written() ? 1 : 0;
        const ImVec2 min(origin.x + c * cell, origin.y + r * height);
        const ImVec2 max(min.x + cell - 1.0f, min.y + height - 1.0f);
        draw->AddRectFilled(min, max, word.written() ? (palette::kSkyBlue & 0x00FFFFFF) | 0x60000000
                                                     : ImGui::GetColorU32(ImGuiCol_FrameBg));
        if (values) {
          const std::string text = ValueText(a, word);
          draw->AddText(ImVec2(min.x + 2.0f, min.y + 2.0f), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
        }
        if (ImGui::IsMouseHoveringRect(min, max)) {
          const std::string at = a.rank == 1 ? "[" + std::to_string(index) + "]"
                                             : (layout.slices > 1 ? "[" + std::to_string(slice) + "]" : "") + "[" +
                                                   std::to_string(r) + "][" + std::to_string(c) + "]";
          ImGui::SetTooltip("%s%s = %s%s", a.name.c_str(), at.c_str(), ValueText(a, word).c_str(),
                            word.written() ? (", written by thread " + std::to_string(word.writer) + " of the block").c_str()
                                           : " (no thread of the block wrote it yet)");
        }
      }
    }
    ImGui::Dummy(ImVec2(cell * layout.cols, height * layout.rows));
  }
  drawn_.push_back(drawn);
  ImGui::Spacing();
}

void SharedArraysView::DrawCaption(Drawn& drawn, const std::string& caption) {
  drawn.caption = caption;
  const float width = ImGui::GetContentRegionAvail().x;
  drawn.caption_lines.clear();
  const std::string wrapped = WrapAtSpaces(drawn.caption, width);
  for (std::size_t start = 0; start <= wrapped.size();) {
    const std::size_t end = std::min(wrapped.find('\n', start), wrapped.size());
    drawn.caption_lines.push_back(ElideToWidth(wrapped.substr(start, end - start), width));
    start = end + 1;
  }
  drawn.caption_min = ImGui::GetCursorScreenPos();
  ImGui::BeginGroup();
  for (const std::string& line : drawn.caption_lines) gui::TextUnformatted(line.c_str());
  ImGui::EndGroup();
  drawn.caption_max = ImGui::GetItemRectMax();
  const bool short_of_room = drawn.caption_lines != std::vector<std::string>{drawn.caption};
  if (short_of_room && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", drawn.caption.c_str());
}

void SharedArraysView::DumpState(nlohmann::json& state) const {
  nlohmann::json arrays = nlohmann::json::array();
  for (const Drawn& d : drawn_) {
    arrays.push_back({{"name", d.name}, {"slices", d.slices}, {"rows", d.rows}, {"cols", d.cols}, {"written", d.written},
                      {"caption", d.caption}, {"caption_lines", d.caption_lines},
                      {"caption_rect", {d.caption_min.x, d.caption_min.y, d.caption_max.x, d.caption_max.y}}});
  }
  state["your_shared_arrays"] = {{"block", block_}, {"arrays", arrays}};
}

}  // namespace gui
