#include "sim/program.h"

#include "sim/checked_math.h"

namespace sim {

Geometry MakeGeometry(const LessonConfig& config) {
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

Program::Program(const LessonConfig& config, const Geometry& geometry)
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

}  // namespace sim
