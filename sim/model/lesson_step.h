// lesson_step.h — one step of a lesson's program: the scheduler's unit (a warp or a thread)
// runs its next instruction on the lanes at the warp's earliest one.
//
// This is the model's hot path. A step is made for each Machine::Step and runs the lanes
// through one loop per instruction kind, what they share looked up once; its parts do the
// memory accesses (lesson_global_access.h, lesson_shared_access.h) and the barriers
// (lesson_barriers.h). Each trick's comment says what it bought and the commit that measured
// it; sim/model/README.md says how, and how to measure again.
#pragma once
#include <cstdint>

#include "sim/model/lesson_step_part.h"

namespace sim {

class LessonStep : LessonStepPart {
 public:
  LessonStep(MachineCore& machine, const LessonTables& tables) : LessonStepPart(machine, tables) {}

  // Runs one scheduler unit; false when nothing is left to run.
  bool Run();
  // Starts a laid-out thread at its program's first instruction.
  void StartThread(Thread& thread, Block& block);
  // Fetches the lanes of the warp the scheduler will likely issue next.
  void PrefetchNext() const;

 private:
  // The parts of a step (ExecuteWarp, Execute, Fma, FmaReadingTiles, CountWarpInstruction) are
  // inline, defined in lesson_step.cpp, the only file that calls them (inlined into Run).
  inline void ExecuteWarp(int warp);
  // What Warp::next_lanes becomes after `lanes` ran the instruction at `pc`.
  std::uint32_t NextLanes(const Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) const {
    // A load's next instruction, and the next k of an inner product, are the same for every
    // thread (Program::Next tells them from the instruction alone): most steps, inline
    // (256³ TILE 16 under callgrind: NextLanes 23 → 8 M instructions, + 2 inline; e1b120d).
    const bool same_next = pc.op == Op::kLoadA || pc.op == Op::kLoadB ||
                           (pc.op == Op::kFma && (m_.geometry.naive || pc.j + 1 < m_.geometry.tk));
    return same_next ? lanes : NextLanesAsked(warp_lanes, lanes, pc);
  }
  // NextLanes where the lanes' next instructions may differ by thread.
  std::uint32_t NextLanesAsked(const Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) const;
  // Runs one instruction for `lanes` of a warp at the same instruction (a lockstep
  // warp-instruction, or one thread), bit l for the thread at warp_lanes[l]; true when any of
  // them read global memory.
  inline bool Execute(Thread* warp_lanes, std::uint32_t lanes, bool leads_warp_instruction);
  bool LeadsWarpInstruction(const Thread& thread) const;
  inline void Fma(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  // The tiled kernels' inner-product step; it moves its lanes to the next k when there is one.
  inline void FmaReadingTiles(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  inline void CountWarpInstruction(const Thread& leader);
  // Moves a thread past its instruction at `pc` (its own).
  void Advance(Thread& thread, const ProgramCounter& pc);
  // Advance for `lanes` of a warp, all at `pc`.
  void AdvanceLanes(Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc);
  void Prefetch(int warp) const;

  std::uint8_t l2_halves_ = 0;   // of the global load being executed, for the scheduler
  std::uint8_t wavefronts_ = 0;  // of the shared instruction being executed, for the scheduler
};

}  // namespace sim
