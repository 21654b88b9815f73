// The heat map's picture, pixel by pixel: at cells of several pixels it is what a rectangle per
// cell drew (gutter, half-filled partial sums, crossed wrong cells); at cells smaller than a
// pixel every cell still counts in the pixel that shows it, so one wrong element among
// thousands stays visible.
#include "app/plot/heat_map.h"

#include <gtest/gtest.h>

#include <cmath>

namespace plot {
namespace {

constexpr ImU32 kEmpty = IM_COL32(10, 20, 30, 255);
constexpr ImU32 kWrong = IM_COL32(213, 94, 0, 255);
constexpr ImU32 kCross = IM_COL32(0, 0, 0, 255);
constexpr HeatMapColours kColours{kEmpty, kWrong, kCross};

HeatMapGrid Grid(int rows, int cols, float cell, HeatCell fill) {
  HeatMapGrid grid;
  grid.rows = rows;
  grid.cols = cols;
  grid.cell_w = grid.cell_h = cell;
  grid.cells.assign(static_cast<std::size_t>(rows * cols), fill);
  return grid;
}

ImU32 At(const HeatMapImage& image, int x, int y) {
  return image.pixels[static_cast<std::size_t>(y * image.width + x)];
}

TEST(HeatMap, LargeCellsAreDrawnAsTheirRectanglesWere) {
  HeatMapGrid grid = Grid(2, 2, 6.0f, {HeatCell::State::kFull, 1.0f});
  grid.cells[1] = {HeatCell::State::kPartial, 0.0f};  // row 0, column 1
  grid.cells[2] = {HeatCell::State::kWrong, 0.5f};    // row 1, column 0
  grid.cells[3] = {HeatCell::State::kEmpty, 0.0f};
  HeatMapImage image;
  RasteriseHeatMap(grid, kColours, image);
  ASSERT_EQ(image.width, 12);
  ASSERT_EQ(image.height, 12);
  EXPECT_EQ(At(image, 2, 2), ViridisColour(1.0f));
  // The last pixel row and column of every cell are a transparent gutter.
  EXPECT_EQ(At(image, 5, 2), 0u);
  EXPECT_EQ(At(image, 2, 5), 0u);
  EXPECT_EQ(At(image, 11, 11), 0u);
  // A partial sum: the upper half of its cell empty, the lower half coloured.
  EXPECT_EQ(At(image, 8, 1), kEmpty);
  EXPECT_EQ(At(image, 8, 4), ViridisColour(0.0f));
  // A wrong cell: crossed on its diagonals, vermillion off them.
  EXPECT_EQ(At(image, 0, 6), kCross);
  EXPECT_EQ(At(image, 4, 6), kCross);
  EXPECT_EQ(At(image, 2, 6), kWrong);
  EXPECT_EQ(At(image, 8, 8), kEmpty);
}

TEST(HeatMap, APixelShowsEveryCellItCovers) {
  // 64 × 64 cells in 16 × 16 pixels: each pixel covers 4 × 4 cells.
  HeatMapGrid grid = Grid(64, 64, 0.25f, {HeatCell::State::kFull, 0.0f});
  grid.cells[static_cast<std::size_t>(10 * 64 + 21)] = {HeatCell::State::kWrong, 0.0f};  // pixel (5, 2)
  for (int row = 32; row < 36; ++row) {
    for (int col = 0; col < 4; ++col) grid.cells[static_cast<std::size_t>(row * 64 + col)] = {HeatCell::State::kFull, 1.0f};
  }
  for (int row = 48; row < 52; ++row) grid.cells[static_cast<std::size_t>(row * 64 + 60)] = {HeatCell::State::kPartial, 0.0f};
  for (int row = 60; row < 64; ++row) {
    for (int col = 0; col < 4; ++col) grid.cells[static_cast<std::size_t>(row * 64 + col)] = {HeatCell::State::kEmpty, 0.0f};
  }
  grid.cells[static_cast<std::size_t>(60 * 64 + 0)] = {HeatCell::State::kFull, 1.0f};
  HeatMapImage image;
  RasteriseHeatMap(grid, kColours, image);
  ASSERT_EQ(image.width, 16);
  ASSERT_EQ(image.height, 16);
  // One wrong element of the 16 a pixel covers makes the pixel wrong (no cross at this size).
  EXPECT_EQ(At(image, 5, 2), kWrong);
  EXPECT_EQ(At(image, 6, 2), ViridisColour(0.0f));
  EXPECT_EQ(At(image, 0, 8), ViridisColour(1.0f));
  // A partial sum among the cells stripes its pixel: the pixel row 12 is even, so left empty.
  EXPECT_EQ(At(image, 15, 12), kEmpty);
  // The colour is the mean of the cells begun: 1 of the 16 cells at level 1, the rest empty.
  EXPECT_EQ(At(image, 0, 15), ViridisColour(1.0f));
  EXPECT_EQ(At(image, 1, 15), ViridisColour(0.0f));
}

TEST(HeatMap, PartialSumsUnderTwoPixelsTallStripeEveryOtherRow) {
  const HeatMapGrid grid = Grid(4, 4, 1.5f, {HeatCell::State::kPartial, 1.0f});
  HeatMapImage image;
  RasteriseHeatMap(grid, kColours, image);
  ASSERT_EQ(image.height, 6);
  for (int y = 0; y < image.height; ++y) {
    EXPECT_EQ(At(image, 2, y), y % 2 == 0 ? kEmpty : ViridisColour(1.0f)) << "pixel row " << y;
  }
}

TEST(HeatMap, TheImageIsTheGridRoundedUpAndItsEdgePixelsShowTheCellsTheyMostlyCover) {
  HeatMapImage image;
  // 3 × 5 cells of 0.4 pixels: 1.2 × 2 pixels. The second pixel row has its centre past the
  // grid: transparent.
  RasteriseHeatMap(Grid(3, 5, 0.4f, {HeatCell::State::kEmpty, 0.0f}), kColours, image);
  ASSERT_EQ(image.width, 2);
  ASSERT_EQ(image.height, 2);
  EXPECT_EQ(At(image, 0, 0), kEmpty);
  EXPECT_EQ(At(image, 1, 0), kEmpty);
  EXPECT_EQ(At(image, 0, 1), 0u);
  // 5 cells of 0.95 pixels: 4.75 pixels. No cell starts in the last pixel, but its centre (4.5)
  // lies in the last cell, which it shows.
  RasteriseHeatMap(Grid(1, 5, 0.95f, {HeatCell::State::kFull, 1.0f}), kColours, image);
  ASSERT_EQ(image.width, 5);
  EXPECT_EQ(At(image, 4, 0), ViridisColour(1.0f));
}

TEST(HeatMap, ViridisRunsFromDarkPurpleToYellow) {
  EXPECT_EQ(ViridisColour(0.0f), IM_COL32(68, 1, 84, 255));
  EXPECT_EQ(ViridisColour(1.0f), IM_COL32(253, 231, 37, 255));
  EXPECT_EQ(ViridisColour(-3.0f), ViridisColour(0.0f));
  EXPECT_EQ(ViridisColour(std::nanf("")), ViridisColour(0.0f));
}

}  // namespace
}  // namespace plot
