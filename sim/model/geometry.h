// geometry.h — the launch a lesson makes: grid, block and tile sizes, warps, phases.
#pragma once
#include "sim/model/kernel_config.h"

namespace sim {

struct Geometry {
  int m = 0, n = 0, k = 0;
  int tm = 0, tn = 0, tk = 0;  // block: tn threads wide, tm tall; K walked in slices of tk
  int grid_x = 0;              // blocks along N: ceil(N / tn)
  int grid_y = 0;              // blocks along M: ceil(M / tm)
  int blocks = 0;
  int block_threads = 0;
  int warps_per_block = 0;
  int phases = 0;              // tile phases; the naive kernel counts as one phase
  bool naive = false;

  int threads() const { return blocks * block_threads; }
  int warps() const { return blocks * warps_per_block; }
};

// For a lesson Validate() accepts: its block and thread counts then fit an int by far (the
// 1 GiB model limit keeps threads below 2^24). Closed forms for sizes no lesson could run
// (sim::Expected) use 64-bit sizes of their own.
Geometry MakeGeometry(const KernelConfig& config);

}  // namespace sim
