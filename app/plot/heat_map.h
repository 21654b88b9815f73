// heat_map.h — a matrix too large for numbers, drawn as one image: each cell coloured by its
// value on the viridis scale, at the size the panel gives it, however small.
//
// The image is made pixel by pixel on the CPU and drawn as one textured quad: a rectangle per
// cell cost three 512² heat maps 786,432 rectangles a frame, and the window ~1 frame/s under
// llvmpipe. Where cells are smaller than a pixel, a pixel shows every cell it covers — a wrong
// one wins, a partial sum stripes it, the colour is the cells' mean — so sampling loses
// nothing the cells say; the panel's hover still reads each cell exactly. Where cells are a
// pixel or more, the image is what a rectangle per cell drew: a partial sum fills the lower
// half of its cell, and cells of 4 pixels or more keep a 1-pixel gutter and cross a wrong one.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <vector>

namespace plot {

// Viridis at t in 0..1 (clamped; NaN counts as 0): perceptually ordered and readable with
// colour-vision deficiencies.
ImU32 ViridisColour(float t);

struct HeatCell {
  enum class State : std::uint8_t {
    kEmpty,    // nothing there yet (an element of C not started)
    kPartial,  // a partial sum: the lower half of the cell
    kFull,     // a value: the whole cell
    kWrong,    // a final value that is wrong: the `wrong` colour, crossed where the cell is large
  };
  State state = State::kEmpty;
  float level = 0.0f;  // the value, 0..1 on the colour scale
};

struct HeatMapGrid {
  int rows = 0;
  int cols = 0;
  float cell_w = 1.0f;  // pixels a cell takes across and down; below 1 where cells outnumber pixels
  float cell_h = 1.0f;
  std::vector<HeatCell> cells;  // rows × cols, row by row
};

struct HeatMapColours {
  ImU32 empty = 0;  // an empty cell, and a partial one's upper half
  ImU32 wrong = 0;
  ImU32 cross = 0;  // the cross over a wrong cell
};

struct HeatMapImage {
  int width = 0;   // ceil(cols × cell_w) pixels
  int height = 0;  // ceil(rows × cell_h)
  std::vector<ImU32> pixels;  // rows top first; 0 (transparent) in gutters and past the last cell
};

// Cells from 4 pixels up keep a 1-pixel gutter between them, as the value grids do, and a wrong
// one is crossed; below that a cross would blacken the whole cell.
constexpr float kHeatMapDetailMinCell = 4.0f;

void RasteriseHeatMap(const HeatMapGrid& grid, const HeatMapColours& colours, HeatMapImage& image);

}  // namespace plot
