// warp.h — 32 threads of a block by linear thread id (ty * blockDim.x + tx). A block of
// fewer than 32 threads is one partly filled warp: a 2×2 block is 4 live lanes of 32.
#pragma once
#include <cstdint>

#include "sim/model/barrier.h"

namespace sim {

constexpr int kWarpSize = 32;

struct Warp {
  std::int32_t block = 0;
  std::int32_t index_in_block = 0;
  std::int32_t first_thread = 0;  // global index of lane 0
  std::int32_t lane_count = 0;    // live lanes: 32 except in the last warp of a small block
  std::int32_t exited_lanes = 0;
  std::int32_t runnable_lanes = 0;
  // Lanes known to be runnable at one instruction (bit l: lane l): those that ran its last
  // warp-instruction, or that a barrier released together, when they all went on to the same
  // next one; 0 when unknown. When they are all its runnable lanes they issue next, as the
  // scan of every lane (MachineCore::EarliestLanes) would find.
  std::uint32_t next_lanes = 0;
  Barrier syncwarp{};             // __syncwarp(): orders only this warp's lanes

  bool operator==(const Warp& o) const;
};

}  // namespace sim
