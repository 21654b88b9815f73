// lesson_barriers.h — a lesson's __syncthreads() and __syncwarp(): threads arrive and wait,
// a barrier releases when every live thread of its scope has arrived (an exited thread no
// longer counts), and the released lanes go on together. A release is told as an event after
// the lane whose arrival or exit completed it.
#pragma once
#include <cstdint>

#include "sim/model/lesson_step_part.h"

namespace sim {

class LessonBarriers : LessonStepPart {
 public:
  LessonBarriers(MachineCore& machine, const LessonTables& tables) : LessonStepPart(machine, tables) {}

  // `lanes` of a warp, all at one barrier, arrive at it.
  void Arrive(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  // The thread ran its program to the end.
  void Exit(Thread& thread);
  // Counts the block's threads that store to shared memory before its next __syncthreads()
  // release (the hazard detector keeps a block's reads only while a write may still come).
  void CountSharedWriters(Block& block);

 private:
  // `lane`: the lane whose arrival or exit may release it (its event follows that lane's).
  void TryReleaseBlock(int block, int lane);
  void TryReleaseWarp(int warp, int lane);
  // Wakes the warp's lanes waiting at a barrier of `kind`, counting them in `release`.
  void WakeWaiting(int warp, SyncKind kind, TraceEvent& release);
  void Emit(TraceEvent event, int lane);
};

}  // namespace sim
