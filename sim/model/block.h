// block.h — one thread block: a TM×TN (rows × columns) grid of threads, cut into warps,
// with its own shared tiles and its own __syncthreads() barrier.
#pragma once
#include <cstdint>

#include "sim/model/barrier.h"

namespace sim {

struct Block {
  std::int32_t bx = 0;  // blockIdx.x (along N)
  std::int32_t by = 0;  // blockIdx.y (along M)
  std::int32_t first_thread = 0;
  std::int32_t thread_count = 0;
  std::int32_t first_warp = 0;
  std::int32_t warp_count = 0;
  std::int32_t exited_threads = 0;
  // Threads that may store to shared memory before the block's next __syncthreads() release
  // (Program::StoresSharedBeforeSyncthreads), counted where shared accesses can race: at 0 no
  // read until then can race with a later write, so the hazard detector need not remember it
  // (256³ TILE 16 without the 1st barrier: 5,542 → 5,172 M instructions under callgrind, best
  // CPU 0.648 → 0.573 s, sim_bench's peak 190.1 → 175.2 MiB; 6758e69).
  std::int32_t shared_writers = 0;
  Barrier syncthreads{};

  int LiveThreads() const { return thread_count - exited_threads; }
  bool operator==(const Block& o) const;
};

}  // namespace sim
