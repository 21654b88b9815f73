// program.h — the order in which a thread runs the model's instructions, per kernel.
//
// This is the kernels' control flow (loops, guards, switched-off barriers) without their
// index arithmetic: given where a thread is, what it runs next. Pure functions of the
// lesson and the thread's coordinates, so a warp's participating lanes can be known
// without running them.
#pragma once
#include <cstdint>

#include "sim/model/geometry.h"
#include "sim/model/instruction.h"
#include "sim/model/kernel_config.h"
#include "sim/model/thread.h"

namespace sim {

class Program {
 public:
  Program() = default;
  Program(const KernelConfig& config, const Geometry& geometry);

  // The first instruction of a thread (Op::kDone when the naive guard returns at once).
  ProgramCounter First(const Thread& thread) const;
  ProgramCounter Next(const Thread& thread, const ProgramCounter& pc) const;
  // Whether this thread's program contains the instruction at `pc` (its warp-instruction).
  bool Contains(const Thread& thread, const ProgramCounter& pc) const;
  // The rect kernel's strided loops: the As column / Bs row the j-th iteration stores.
  int AColumn(const Thread& thread, int j) const { return thread.tx + AColumnOffset(j); }
  int BRow(const Thread& thread, int j) const { return thread.ty + BRowOffset(j); }
  int AColumnOffset(int j) const { return j * geometry_.tn; }
  int BRowOffset(int j) const { return j * geometry_.tm; }
  // Whether a thread at `pc` stores to shared memory (at `pc` or later) before it next waits at
  // a __syncthreads(): once no thread of a block does, the block's shared reads until its
  // next __syncthreads() can race with no write.
  bool StoresSharedBeforeSyncthreads(const Thread& thread, const ProgramCounter& pc) const;
  // Instructions in this thread's whole program (the closed form the tests check).
  long long Length(const Thread& thread) const;
  SyncKind BarrierKind(Op op) const { return op == Op::kBarrier1 ? barrier1_ : barrier2_; }
  // Stand-ins for a group of threads (a warp's lanes): `low` at the group's lowest tx and ty,
  // `high` at its highest. Next and StoresSharedBeforeSyncthreads look at a thread only
  // through conditions that hold up to some tx or ty and fail past it (`tx + j·TN < TK`,
  // `ty + j·TM < TK`): every thread of the group, between the two, decides each condition as
  // they do where they agree, so where they give the same answer each thread of it does.
  struct Corners {
    Thread low;
    Thread high;
  };
  // The corners of the threads of a block with indices first..last (ty · TN + tx).
  Corners CornersOf(int first, int last) const;

 private:
  ProgramCounter StartPhase(const Thread& thread, int t) const;
  ProgramCounter StartB(const Thread& thread, int t) const;
  ProgramCounter AfterLoads(int t) const;
  bool GuardFails(const Thread& thread) const;

  Geometry geometry_{};
  SyncKind barrier1_ = SyncKind::kSyncthreads;
  SyncKind barrier2_ = SyncKind::kSyncthreads;
  bool guard_ = true;
};

// Inline: the machine asks for the next instruction after every step of every thread.

inline bool Program::GuardFails(const Thread& thread) const {
  return guard_ && (thread.regs.row >= geometry_.m || thread.regs.col >= geometry_.n);
}

inline ProgramCounter Program::StartPhase(const Thread& thread, int t) const {
  // `for (int i = tx; i < TK; i += TN)`: a thread right of TK loads no A at all.
  if (AColumn(thread, 0) < geometry_.tk) return {Op::kLoadA, t, 0};
  return StartB(thread, t);
}

inline ProgramCounter Program::StartB(const Thread& thread, int t) const {
  if (BRow(thread, 0) < geometry_.tk) return {Op::kLoadB, t, 0};
  return AfterLoads(t);
}

inline ProgramCounter Program::AfterLoads(int t) const {
  if (barrier1_ != SyncKind::kNone) return {Op::kBarrier1, t, 0};
  return {Op::kFma, t, 0};
}

inline ProgramCounter Program::Next(const Thread& thread, const ProgramCounter& pc) const {
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

inline bool Program::StoresSharedBeforeSyncthreads(const Thread& thread, const ProgramCounter& pc) const {
  if (geometry_.naive) return false;
  switch (pc.op) {
    case Op::kLoadA:
    case Op::kStoreAs:
    case Op::kLoadB:
    case Op::kStoreBs:
      return true;  // a load is followed by its store
    case Op::kBarrier1:
      if (barrier1_ == SyncKind::kSyncthreads) return false;
      [[fallthrough]];
    case Op::kFma:
    case Op::kBarrier2: {
      if (barrier2_ == SyncKind::kSyncthreads) return false;
      // On into the next phase, whose loads (and stores) come first where the thread has any:
      // a thread without them has none in any phase.
      if (pc.t + 1 >= geometry_.phases) return false;
      const Op first = StartPhase(thread, pc.t + 1).op;
      return first == Op::kLoadA || first == Op::kLoadB;
    }
    default:
      return false;
  }
}

inline bool Program::Contains(const Thread& thread, const ProgramCounter& pc) const {
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

// Barriers switched on (0, 1 or 2) in a tiled kernel.
int BarriersOn(const KernelConfig& config);

// Instructions of one thread's program: phases·(2·loads of A + 2·loads of B + TK + barriers
// on) + 1 for the tiled kernels (square: phases·(4 + T + barriers on) + 1); 3K + 1 naive.
// The thread is (tx, ty) of block (bx, by).
std::int64_t StepsPerThread(const KernelConfig& config, int bx, int by, int tx, int ty);

// Thread-instructions of a whole run, the sum of StepsPerThread over every thread: what a
// run's progress is measured against. Any sizes with tiles of at least 1; past 2^64 - 1 it
// stays there.
std::uint64_t ThreadInstructions(const KernelConfig& config);

}  // namespace sim
