#include "app/panels/matrix_heat_maps.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/gui/palette.h"
#include "sim/model/bits.h"

namespace gui {
namespace {

using sim::MatrixId;

struct Range {
  float low = 0.0f;
  float high = 0.0f;
  float Normalise(float v) const { return high > low ? (v - low) / (high - low) : 0.5f; }
};

Range RangeOf(const std::vector<float>& values) {
  Range range{0.0f, 0.0f};
  bool first = true;
  for (float v : values) {
    if (!std::isfinite(v)) continue;
    range.low = first ? v : std::min(range.low, v);
    range.high = first ? v : std::max(range.high, v);
    first = false;
  }
  return range;
}

// An element of C not started yet, as the value grids show it: the frame colour laid twice
// (once as the cell's ground, once as its fill).
ImU32 EmptyCellColour() {
  const ImVec4 frame = ImGui::GetStyleColorVec4(ImGuiCol_FrameBg);
  const float once = 1.0f - frame.w;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(frame.x, frame.y, frame.z, 1.0f - once * once));
}

}  // namespace

// One picture per matrix (plot/heat_map.h): a partial sum fills the lower half of its cell, a
// final one the whole, a wrong one is vermillion; the colour scale is the correct values'.
void MatrixHeatMaps::Draw(const MatrixLayout& layout, MatrixId id, const std::vector<float>& values,
                          const std::vector<sim::CElement>& c, const MatrixRead& read) {
  const int index = MatrixLayout::Index(id);
  Drawn& drawn = drawn_[index];
  const ImU32 empty = EmptyCellColour();
  // A's and B's pictures change only with the lesson, the panel's size or the theme; C's also
  // with the step.
  const bool same = drawn.rows == layout.real_rows[index] && drawn.cols == layout.real_cols[index] &&
                    drawn.cell_w == layout.col_w[index] && drawn.cell_h == layout.cell && drawn.empty == empty &&
                    drawn.read.lesson_generation == read.lesson_generation &&
                    (id != MatrixId::kC || drawn.read.step == read.step);
  if (!same) Make(layout, id, values, c, read, empty);
  if (drawn.width == 0 || drawn.height == 0) return;
  const ImVec2 min = layout.origin[index];
  ImGui::GetWindowDrawList()->AddImage(
      drawn.texture.id(), min, ImVec2(min.x + static_cast<float>(drawn.width), min.y + static_cast<float>(drawn.height)));
}

void MatrixHeatMaps::Make(const MatrixLayout& layout, MatrixId id, const std::vector<float>& values,
                          const std::vector<sim::CElement>& c, const MatrixRead& read, ImU32 empty) {
  const int index = MatrixLayout::Index(id);
  const Range range = RangeOf(values);
  plot::HeatMapGrid& grid = grid_;
  grid.rows = layout.real_rows[index];
  grid.cols = layout.real_cols[index];
  grid.cell_w = layout.col_w[index];
  grid.cell_h = layout.cell;
  grid.cells.resize(values.size());
  for (int row = 0; row < grid.rows; ++row) {
    for (int col = 0; col < grid.cols; ++col) {
      const std::size_t at = static_cast<std::size_t>(row) * static_cast<std::size_t>(grid.cols) + col;
      plot::HeatCell& cell = grid.cells[at];
      if (id != MatrixId::kC) {
        cell = {plot::HeatCell::State::kFull, range.Normalise(values[at])};
        continue;
      }
      const sim::CElement& e = c[at];
      cell.level = range.Normalise(e.value);
      switch (e.progress) {
        case sim::CProgress::kNotStarted: cell.state = plot::HeatCell::State::kEmpty; break;
        case sim::CProgress::kPartial: cell.state = plot::HeatCell::State::kPartial; break;
        case sim::CProgress::kFinal:
          cell.state = sim::SameBits(e.value, values[at]) ? plot::HeatCell::State::kFull : plot::HeatCell::State::kWrong;
          break;
      }
    }
  }
  plot::RasteriseHeatMap(grid, {empty, palette::kVermillion, palette::kBlack}, image_);
  Drawn& drawn = drawn_[index];
  drawn.rows = grid.rows;
  drawn.cols = grid.cols;
  drawn.cell_w = grid.cell_w;
  drawn.cell_h = grid.cell_h;
  drawn.empty = empty;
  drawn.read = read;
  drawn.width = image_.width;
  drawn.height = image_.height;
  if (!image_.pixels.empty()) drawn.texture.Upload(drawn.width, drawn.height, image_.pixels);
}

}  // namespace gui
