// occupancy_panel.h — how many blocks of the lesson's kernel one SM holds, on each classroom
// GPU and the GPU here: threads and warps per block (and how full the warps are), shared
// memory and registers per block, and the blocks per SM each resource allows, the limiting
// one marked. Every figure comes from sim/model/occupancy.h; hovering a cell shows its arithmetic.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/model/occupancy.h"

namespace gui {

// What the panel shows, filled by the lesson page.
struct OccupancyView {
  std::string kernel;  // "tiled, TILE 16"
  struct Gpu {
    sim::GpuLimits limits;
    sim::Occupancy occupancy;
    std::string registers_from;  // "ptxas at build time" or "cudaFuncGetAttributes"
  };
  std::vector<Gpu> gpus;        // the classroom GPUs, then the present one when there is one
  std::string present;          // "asking the GPU…" or why there is none; empty once it is a column
};

struct OccupancyPanel {
  void Draw(const OccupancyView& view);
  static nlohmann::json Describe(const OccupancyView& view);

 private:
  void DrawBlock(const OccupancyView& view);
  void DrawLimits(const OccupancyView& view);
  void DrawResident(const OccupancyView::Gpu& gpu);
  void DrawLimit(const OccupancyView::Gpu& gpu, const sim::ResourceLimit& limit);
};

}  // namespace gui
