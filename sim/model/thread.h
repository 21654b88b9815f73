// thread.h — one CUDA thread of the model: its coordinates, registers and program counter.
#pragma once
#include <cstdint>

#include "sim/model/instruction.h"

namespace sim {

enum class ThreadState : std::uint8_t { kRunning, kWaitingBarrier1, kWaitingBarrier2, kDone };

// The kernel's named registers. The naive kernel has no t; its k is the loop index.
// a and b hold the value last loaded from global memory (the kernels' `const float a`/`b`).
struct Registers {
  std::int32_t row = 0;
  std::int32_t col = 0;
  float sum = 0.0f;
  std::int32_t t = 0;
  std::int32_t k = 0;
  float a = 0.0f;
  float b = 0.0f;
};

// One cache line, aligned to it: a warp-instruction reads and writes each of its lanes, and
// a large lesson's threads are far more than the caches hold (80 bytes unaligned touched
// two lines for most threads; 256³ TILE 16 full run, best CPU 1.58 → 1.48 s at load ~16,
// 2427bda). Widths hold the limits Validate sets: a block has at most 1024 threads, a
// kernel's source fewer than 32768 lines, a thread runs K-proportional instructions far
// below 2^31.
struct alignas(64) Thread {
  std::int32_t block = 0;           // linear block index: by * grid_x + bx
  std::int32_t warp = 0;            // global warp index
  std::int16_t tx = 0;              // threadIdx.x (along N)
  std::int16_t ty = 0;              // threadIdx.y (along M)
  std::int16_t index_in_block = 0;  // ty * blockDim.x + tx: the order warps are cut in
  std::int16_t lane = 0;
  std::int16_t last_line = 0;       // line of the instruction it ran last (0 before the first)
  ThreadState state = ThreadState::kRunning;
  std::int32_t instructions = 0;    // instructions it has run
  Registers regs{};
  ProgramCounter pc{};              // the instruction this thread runs next

  bool Runnable() const { return state == ThreadState::kRunning; }
  bool operator==(const Thread& o) const;
};
static_assert(sizeof(Thread) == 64, "a thread is one cache line");

}  // namespace sim
