// program.h — the order in which a thread runs the model's instructions, per kernel.
//
// This is the kernels' control flow (loops, guards, switched-off barriers) without their
// index arithmetic: given where a thread is, what it runs next. Pure functions of the
// lesson and the thread's coordinates, so a warp's participating lanes can be known
// without running them.
#pragma once
#include "sim/geometry.h"
#include "sim/instruction.h"
#include "sim/lesson_config.h"
#include "sim/thread.h"

namespace sim {

class Program {
 public:
  Program() = default;
  Program(const LessonConfig& config, const Geometry& geometry);

  // The first instruction of a thread (Op::kDone when the naive guard returns at once).
  ProgramCounter First(const Thread& thread) const;
  ProgramCounter Next(const Thread& thread, const ProgramCounter& pc) const;
  // Whether this thread's program contains the instruction at `pc` (its warp-instruction).
  bool Contains(const Thread& thread, const ProgramCounter& pc) const;
  // The rect kernel's strided loops: the As column / Bs row the j-th iteration stores.
  int AColumn(const Thread& thread, int j) const { return thread.tx + j * geometry_.tn; }
  int BRow(const Thread& thread, int j) const { return thread.ty + j * geometry_.tm; }
  // Instructions in this thread's whole program (the closed form the tests check).
  long long Length(const Thread& thread) const;
  SyncKind BarrierKind(Op op) const { return op == Op::kBarrier1 ? barrier1_ : barrier2_; }

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

}  // namespace sim
