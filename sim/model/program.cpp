#include "sim/model/program.h"

#include "sim/model/checked_math.h"

namespace sim {

Geometry MakeGeometry(const KernelConfig& config) {
  Geometry g;
  g.m = config.m;
  g.n = config.n;
  g.k = config.k;
  const TileShape tiles = config.Tiles();
  g.tm = tiles.tm;
  g.tn = tiles.tn;
  g.tk = tiles.tk;
  g.grid_x = CeilDiv(g.n, g.tn);
  g.grid_y = CeilDiv(g.m, g.tm);
  g.blocks = g.grid_x * g.grid_y;
  g.block_threads = g.tm * g.tn;
  g.warps_per_block = (g.block_threads + 31) / 32;
  g.naive = config.kernel == KernelKind::kNaive;
  if (g.naive) {
    g.phases = 1;
  } else {
    g.phases = config.tile_count == TileCount::kCeil ? CeilDiv(g.k, g.tk) : g.k / g.tk;
  }
  return g;
}

Program::Program(const KernelConfig& config, const Geometry& geometry)
    : geometry_(geometry), barrier1_(config.barrier1), barrier2_(config.barrier2), guard_(config.guard) {}

ProgramCounter Program::First(const Thread& thread) const {
  if (geometry_.naive) {
    // `if (kGuarded && (row >= M || col >= N)) return;`
    if (GuardFails(thread)) return {Op::kDone, 0, 0};
    return {Op::kLoadA, 0, 0};
  }
  if (geometry_.phases == 0) return {Op::kStoreC, 0, 0};
  return StartPhase(thread, 0);
}

Program::Corners Program::CornersOf(int first, int last) const {
  const int tn = geometry_.tn;
  const bool one_row = first / tn == last / tn;
  Corners corners;
  corners.low.tx = static_cast<std::int16_t>(one_row ? first % tn : 0);
  corners.low.ty = static_cast<std::int16_t>(first / tn);
  corners.high.tx = static_cast<std::int16_t>(one_row ? last % tn : tn - 1);
  corners.high.ty = static_cast<std::int16_t>(last / tn);
  return corners;
}

long long Program::Length(const Thread& thread) const {
  long long length = 0;
  for (ProgramCounter pc = First(thread); pc.op != Op::kDone; pc = Next(thread, pc)) ++length;
  return length;
}

int BarriersOn(const KernelConfig& config) {
  if (config.kernel == KernelKind::kNaive) return 0;
  return (config.barrier1 != SyncKind::kNone) + (config.barrier2 != SyncKind::kNone);
}

namespace {

using U64 = std::uint64_t;

// Iterations of `for (i = start; i < tk; i += stride)`.
U64 StridedCount(int start, int tk, int stride) { return start < tk ? U64((tk - start + stride - 1) / stride) : 0; }

// A size below 1 launches nothing; read as unsigned it would count as 2^64 - |size|.
U64 Size(int size) { return size > 0 ? U64(size) : 0; }

}  // namespace

std::int64_t StepsPerThread(const KernelConfig& config, int bx, int by, int tx, int ty) {
  const Geometry g = MakeGeometry(config);
  if (g.naive) {
    // `if (kGuarded && (row >= M || col >= N)) return;` before any instruction.
    if (config.guard && (by * g.tm + ty >= g.m || bx * g.tn + tx >= g.n)) return 0;
    return 3 * std::int64_t(g.k) + 1;
  }
  const U64 loads = 2 * StridedCount(tx, g.tk, g.tn) + 2 * StridedCount(ty, g.tk, g.tm);
  return std::int64_t(U64(g.phases) * (loads + U64(g.tk) + U64(BarriersOn(config))) + 1);
}

std::uint64_t ThreadInstructions(const KernelConfig& config) {
  const TileShape tiles = config.Tiles();
  const U64 m = Size(config.m), n = Size(config.n), k = Size(config.k);
  const U64 tm = Size(tiles.tm), tn = Size(tiles.tn), tk = Size(tiles.tk);
  const U64 block_threads = SaturatingMul(tm, tn);
  const U64 blocks = SaturatingMul(CeilDiv(n, tn), CeilDiv(m, tm));
  if (config.kernel == KernelKind::kNaive) {
    // Guarded threads outside C return before their first instruction.
    const U64 active = config.guard ? SaturatingMul(m, n) : SaturatingMul(blocks, block_threads);
    return SaturatingMul(active, SaturatingAdd(SaturatingMul(3, k), 1));
  }
  const U64 phases = config.tile_count == TileCount::kCeil ? CeilDiv(k, tk) : k / tk;
  // Across a block's threads the strided loads cover each tile element once: TM·TK of A and
  // TK·TN of B per phase, two instructions each (load, store).
  const U64 loads = SaturatingMul(2, SaturatingAdd(SaturatingMul(tm, tk), SaturatingMul(tk, tn)));
  const U64 per_phase = SaturatingAdd(loads, SaturatingMul(block_threads, tk + U64(BarriersOn(config))));
  return SaturatingMul(blocks, SaturatingAdd(SaturatingMul(phases, per_phase), block_threads));
}

}  // namespace sim
