#include "app/plot/heat_map.h"

#include <algorithm>
#include <cmath>

namespace plot {
namespace {

// The cells one pixel shows along an axis: those that start inside it, or where none does
// (cells of a pixel or more, the grid's last pixel) the one under its centre; [first, end)
// within 0..count, empty past the grid.
struct Span {
  int first = 0;
  int end = 0;
  bool Single() const { return end == first + 1; }
};

Span SpanOf(int pixel, float cell, int count) {
  const auto p = static_cast<float>(pixel);
  const int first = std::min(static_cast<int>(std::ceil(p / cell)), count);
  const int end = std::min(static_cast<int>(std::ceil((p + 1.0f) / cell)), count);
  if (first < end) return {first, end};
  const int centre = std::min(static_cast<int>(std::floor((p + 0.5f) / cell)), count);
  return {centre, std::min(centre + 1, count)};
}

// Where a pixel's centre lies in its cell, in pixels from the cell's corner.
float Within(int pixel, int cell_index, float cell) {
  return static_cast<float>(pixel) + 0.5f - static_cast<float>(cell_index) * cell;
}

// A wrong cell's cross, as the value grids draw it: both diagonals, 12% of the cell thick.
bool OnCross(float x, float y, float w, float h) {
  const float half_thickness = 0.5f * std::max(1.0f, 0.12f * std::min(w, h));
  const float length = std::sqrt(w * w + h * h);
  return std::fabs(x * h - y * w) / length <= half_thickness || std::fabs(x * h + y * w - w * h) / length <= half_thickness;
}

struct Covered {
  bool wrong = false;
  bool partial = false;
  int started = 0;
  float level_sum = 0.0f;
};

Covered Gather(const HeatMapGrid& grid, Span rows, Span cols) {
  Covered covered;
  for (int r = rows.first; r < rows.end; ++r) {
    const HeatCell* row = grid.cells.data() + static_cast<std::size_t>(r) * grid.cols;
    for (int c = cols.first; c < cols.end; ++c) {
      const HeatCell& cell = row[c];
      covered.wrong |= cell.state == HeatCell::State::kWrong;
      covered.partial |= cell.state == HeatCell::State::kPartial;
      if (cell.state != HeatCell::State::kEmpty) {
        ++covered.started;
        covered.level_sum += cell.level;
      }
    }
  }
  return covered;
}

}  // namespace

ImU32 ViridisColour(float t) {
  static constexpr float kStops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(static_cast<int>(t), 3);
  const float f = t - static_cast<float>(i);
  auto mix = [&](int c) { return static_cast<unsigned>(kStops[i][c] + (kStops[i + 1][c] - kStops[i][c]) * f); };
  return IM_COL32(mix(0), mix(1), mix(2), 255);
}

void RasteriseHeatMap(const HeatMapGrid& grid, const HeatMapColours& colours, HeatMapImage& image) {
  image.width = static_cast<int>(std::ceil(static_cast<float>(grid.cols) * grid.cell_w));
  image.height = static_cast<int>(std::ceil(static_cast<float>(grid.rows) * grid.cell_h));
  image.pixels.assign(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height), 0);
  const bool detail = std::min(grid.cell_w, grid.cell_h) >= kHeatMapDetailMinCell;
  std::vector<Span> col_spans(static_cast<std::size_t>(image.width));
  for (int x = 0; x < image.width; ++x) col_spans[static_cast<std::size_t>(x)] = SpanOf(x, grid.cell_w, grid.cols);
  for (int y = 0; y < image.height; ++y) {
    const Span rows = SpanOf(y, grid.cell_h, grid.rows);
    if (rows.first >= rows.end) continue;
    const float in_y = Within(y, rows.first, grid.cell_h);
    if (detail && in_y > grid.cell_h - 1.0f) continue;
    ImU32* out = image.pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width);
    for (int x = 0; x < image.width; ++x) {
      const Span cols = col_spans[static_cast<std::size_t>(x)];
      if (cols.first >= cols.end) continue;
      const float in_x = Within(x, cols.first, grid.cell_w);
      if (detail && in_x > grid.cell_w - 1.0f) continue;
      const Covered covered = Gather(grid, rows, cols);
      const bool one_cell = rows.Single() && cols.Single();
      if (covered.wrong) {
        // The cross spans what the gutter leaves of the cell.
        const bool cross = detail && one_cell && OnCross(in_x, in_y, grid.cell_w - 1.0f, grid.cell_h - 1.0f);
        out[x] = cross ? colours.cross : colours.wrong;
      } else if (covered.started == 0) {
        out[x] = colours.empty;
      } else if (covered.partial && (one_cell && grid.cell_h >= 2.0f ? in_y < 0.5f * grid.cell_h : y % 2 == 0)) {
        // A partial sum fills the lower half of its cell; where a cell is under 2 pixels tall
        // (or a pixel covers several), every other pixel row is left empty: a striped fill.
        out[x] = colours.empty;
      } else {
        out[x] = ViridisColour(covered.level_sum / static_cast<float>(covered.started));
      }
    }
  }
}

}  // namespace plot
