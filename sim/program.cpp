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

bool Program::GuardFails(const Thread& thread) const {
  return guard_ && (thread.regs.row >= geometry_.m || thread.regs.col >= geometry_.n);
}

ProgramCounter Program::First(const Thread& thread) const {
  if (geometry_.naive) {
    // `if (kGuarded && (row >= M || col >= N)) return;`
    if (GuardFails(thread)) return {Op::kDone, 0, 0};
    return {Op::kLoadA, 0, 0};
  }
  if (geometry_.phases == 0) return {Op::kStoreC, 0, 0};
  return StartPhase(thread, 0);
}

ProgramCounter Program::StartPhase(const Thread& thread, int t) const {
  // `for (int i = tx; i < TK; i += TN)`: a thread right of TK loads no A at all.
  if (AColumn(thread, 0) < geometry_.tk) return {Op::kLoadA, t, 0};
  return StartB(thread, t);
}

ProgramCounter Program::StartB(const Thread& thread, int t) const {
  if (BRow(thread, 0) < geometry_.tk) return {Op::kLoadB, t, 0};
  return AfterLoads(t);
}

ProgramCounter Program::AfterLoads(int t) const {
  if (barrier1_ != SyncKind::kNone) return {Op::kBarrier1, t, 0};
  return {Op::kFma, t, 0};
}

ProgramCounter Program::Next(const Thread& thread, const ProgramCounter& pc) const {
  if (geometry_.naive) {
    switch (pc.op) {
      case Op::kLoadA:
        return {Op::kLoadB, pc.t, 0};
      case Op::kLoadB:
        return {Op::kFma, pc.t, 0};
      case Op::kFma:
        return pc.t + 1 < geometry_.k ? ProgramCounter{Op::kLoadA, pc.t + 1, 0} : ProgramCounter{Op::kStoreC, pc.t + 1, 0};
      default:
        return {Op::kDone, pc.t, 0};
    }
  }
  switch (pc.op) {
    case Op::kLoadA:
      return {Op::kStoreAs, pc.t, pc.j};
    case Op::kStoreAs:
      if (AColumn(thread, pc.j + 1) < geometry_.tk) return {Op::kLoadA, pc.t, pc.j + 1};
      return StartB(thread, pc.t);
    case Op::kLoadB:
      return {Op::kStoreBs, pc.t, pc.j};
    case Op::kStoreBs:
      if (BRow(thread, pc.j + 1) < geometry_.tk) return {Op::kLoadB, pc.t, pc.j + 1};
      return AfterLoads(pc.t);
    case Op::kBarrier1:
      return {Op::kFma, pc.t, 0};
    case Op::kFma:
      if (pc.j + 1 < geometry_.tk) return {Op::kFma, pc.t, pc.j + 1};
      if (barrier2_ != SyncKind::kNone) return {Op::kBarrier2, pc.t, 0};
      [[fallthrough]];
    case Op::kBarrier2:
      if (pc.t + 1 < geometry_.phases) return StartPhase(thread, pc.t + 1);
      return {Op::kStoreC, geometry_.phases, 0};
    default:
      return {Op::kDone, pc.t, 0};
  }
}

bool Program::Contains(const Thread& thread, const ProgramCounter& pc) const {
  if (geometry_.naive) return !GuardFails(thread);
  switch (pc.op) {
    case Op::kLoadA:
    case Op::kStoreAs:
      return AColumn(thread, pc.j) < geometry_.tk;
    case Op::kLoadB:
    case Op::kStoreBs:
      return BRow(thread, pc.j) < geometry_.tk;
    default:
      return true;
  }
}

long long Program::Length(const Thread& thread) const {
  long long length = 0;
  for (ProgramCounter pc = First(thread); pc.op != Op::kDone; pc = Next(thread, pc)) ++length;
  return length;
}

}  // namespace sim
