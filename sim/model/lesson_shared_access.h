// lesson_shared_access.h — a lesson's stores to As and Bs and the inner product's reads of
// them, each checked by the hazard detector where two threads' accesses of a cell can race,
// the hazards counted, noted in the step's record and logged while the log has room.
#pragma once
#include <cstdint>
#include <optional>

#include "sim/model/hazard_warp_reads.h"
#include "sim/model/lesson_step_part.h"

namespace sim {

class LessonSharedAccess : LessonStepPart {
 public:
  LessonSharedAccess(MachineCore& machine, const LessonTables& tables) : LessonStepPart(machine, tables) {}

  // Runs a store to As or Bs for its lanes, starting each, and moves them on.
  void StoreShared(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  // Checks the inner-product step's reads of As and Bs for hazards (before the step runs it).
  void CheckTileReads(Thread* warp_lanes, std::uint32_t lanes);

 private:
  // The words a shared store writes, a lane's ty · row_stride + tx + offset, and the register
  // it stores.
  struct StoreWords {
    int row_stride;
    int offset;
    float Registers::*source;
    int Of(const Thread& thread) const { return thread.ty * row_stride + thread.tx + offset; }
  };
  StoreWords StoreWordsAt(const ProgramCounter& pc) const;
  // StoreShared's parts: the hazard detector's look at each store, the stores (each lane
  // started and moved on to its next instruction, `next` where WarpNext gave one), and the
  // count of the block's threads that store before the next __syncthreads(), less the lanes'
  // last such stores.
  void CheckStores(const Thread* warp_lanes, std::uint32_t lanes, const StoreWords& words);
  void WriteCells(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, const StoreWords& words,
                  const std::optional<ProgramCounter>& next);
  void CountLastStores(const Thread* warp_lanes, std::uint32_t lanes, const std::optional<ProgramCounter>& next);
  // A lane's store, `write` (as the detector sees it), checked for hazards where they can race.
  void CheckStore(const Thread& thread, const SharedAccess& write, int block_epoch, PhaseCounters& phase);
  // Gathers the inner-product step's reads of a whole warp whose lane 0 is `first_thread` of its
  // block (As[ty][k] at a_column + ty · a_stride, Bs[k][tx] at b_row + tx).
  void GatherWarpReads(HazardDetector::WarpReads& reads, int first_thread, int a_column, int a_stride, int b_row) const;
  // One read, its hazards listed, counted and logged; how many. Out of line: most reads are
  // only counted.
  std::uint32_t ListReadHazards(HazardDetector::WarpReads& reads, const Thread& thread, SharedPlace cell, int word,
                                float value, PhaseCounters& phase);
};

}  // namespace sim
