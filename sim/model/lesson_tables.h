// lesson_tables.h — what a lesson's step looks up instead of computing: each instruction's
// source line, each warp's corner lanes (whose next instructions stand for the whole warp's),
// and each shared instruction's bank conflicts and wavefronts. Made once per machine from the
// lesson; never changed by a step.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/model/geometry.h"
#include "sim/model/instruction.h"
#include "sim/model/kernel_config.h"
#include "sim/model/program.h"
#include "sim/model/thread.h"
#include "sim/model/warp.h"

namespace sim {

// What a warp's shared instruction costs: its bank conflicts' extra wavefronts, and all its
// wavefronts at the SM's shared-memory pipe (an access each, As and Bs for an inner-product
// step, plus the conflicts).
struct SharedCost {
  std::uint8_t conflicts = 0;
  std::uint8_t wavefronts = 0;
};

struct LessonTables {
  std::array<int, kOpCount> lines{};            // each op's line in the kernel source
  std::vector<Program::Corners> warp_corners;   // of each warp of a block's lanes
  std::vector<SharedCost> shared_costs;         // per warp of a block and shared instruction
  int tk = 0;

  static LessonTables For(const KernelConfig& config, const Geometry& geometry, const Program& program);

  // The instruction after `pc` of every lane of the warp whose lane 0 is `lane0`, where
  // Program::Next gives them all the same one (its corners agree); else nullopt. Two asked
  // instead of 32 (256³ TILE 16 under callgrind: WakeWaiting with AtOneInstruction 172 → 101 M
  // instructions, StoreShared 112 → 82 M; d439ff6).
  std::optional<ProgramCounter> WarpNext(const Program& program, const Thread& lane0, const ProgramCounter& pc) const {
    const Program::Corners& corners = CornersOf(lane0);
    const ProgramCounter next = program.Next(corners.low, pc);
    if (next != program.Next(corners.high, pc)) return std::nullopt;
    return next;
  }
  const Program::Corners& CornersOf(const Thread& thread) const {
    return warp_corners[static_cast<std::size_t>(thread.index_in_block / kWarpSize)];
  }
  // The cost of the shared instruction (a store or an inner-product step) at `pc` for warp
  // `warp_in_block` of any block: one look-up a step, where the conflicts and the wavefronts
  // were looked up apart (256³ TILE 16, bare: 1,529.0 → 1,497.1 M instructions; d3e75b2).
  const SharedCost& SharedCostOf(int warp_in_block, const ProgramCounter& pc) const {
    return shared_costs[SharedCostSlot(warp_in_block, pc)];
  }
  std::size_t SharedCostSlot(int warp_in_block, const ProgramCounter& pc) const {
    // Per warp of a block: store_as by j, store_bs by j, then fma by k.
    constexpr std::array<int, kOpCount + 1> kSection{0, 0, 0, 1, 0, 2, 0, 0, 0};
    return static_cast<std::size_t>((warp_in_block * 3 + kSection[static_cast<std::size_t>(pc.op)]) * tk + pc.j);
  }
};

}  // namespace sim
