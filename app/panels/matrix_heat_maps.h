// matrix_heat_maps.h — the Matrices panel's pictures of matrices too large for numbers: one
// texture per matrix (plot/heat_map.h), made again only when what it shows changed.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <vector>

#include "app/gui/image_texture.h"
#include "app/panels/matrix_layout.h"
#include "app/plot/heat_map.h"
#include "sim/model/snapshot.h"

namespace gui {

// Which lesson's step a matrix was read at.
struct MatrixRead {
  std::uint64_t lesson_generation = 0;
  std::int64_t step = -1;
  bool operator==(const MatrixRead& other) const {
    return lesson_generation == other.lesson_generation && step == other.step;
  }
};

class MatrixHeatMaps {
 public:
  // Draws matrix `id` at its place in `layout`: `values` are A's or B's elements or C's correct
  // ones (the colour scale), `c` is C as read at `read`.
  void Draw(const MatrixLayout& layout, sim::MatrixId id, const std::vector<float>& values,
            const std::vector<sim::CElement>& c, const MatrixRead& read);

 private:
  void Make(const MatrixLayout& layout, sim::MatrixId id, const std::vector<float>& values,
            const std::vector<sim::CElement>& c, const MatrixRead& read, ImU32 empty);

  // A heat map's cells and picture, kept between frames so their buffers are reused.
  plot::HeatMapGrid grid_;
  plot::HeatMapImage image_;
  // A matrix's picture on the GPU and what it was made from.
  struct Drawn {
    int rows = 0, cols = 0;
    float cell_w = 0.0f, cell_h = 0.0f;
    ImU32 empty = 0;
    MatrixRead read;  // the lesson it shows, and for C the step
    int width = 0, height = 0;  // pixels; 0 until made
    ImageTexture texture;
  };
  Drawn drawn_[3];  // A, B, C
};

}  // namespace gui
