// kernel_step.h — one step of a student's compiled kernel: the visible instruction (a global
// or shared access, a barrier, the exit) that the scheduler's lanes stand at, then each lane's
// register instructions up to its next visible one. Barriers and exits are here; the memory
// accesses in kernel_memory_access.h.
#pragma once
#include <cstdint>

#include "sim/cuda/ir.h"
#include "sim/model/kernel_launch.h"
#include "sim/model/machine_core.h"

namespace sim {

class KernelStep {
 public:
  KernelStep(MachineCore& machine, const KernelProgram& kernel) : m_(machine), k_(kernel) {}

  // Runs one scheduler unit; false when nothing is left to run.
  bool Run();
  // Starts a laid-out thread: its registers, then up to its first visible instruction.
  void StartThread(Thread& thread);
  // Where a thread stands in the kernel, for the views: the lesson op its instruction is like.
  static Op OpLike(cuda::Opcode op);
  static KernelStepRecord::Did DidOf(cuda::Opcode op);

 private:
  std::uint32_t* Registers(const Thread& thread) {
    return k_.Registers(m_.state.registers, static_cast<int>(&thread - m_.state.threads.data()));
  }
  // Its flags of locals not yet written (MachineState::unwritten_locals), when the kernel has any.
  std::uint8_t* Unwritten(const Thread& thread) {
    return &m_.state.unwritten_locals[static_cast<std::size_t>(&thread - m_.state.threads.data()) * k_.register_count];
  }
  // Runs the thread's register instructions up to its next visible one (cuda::RunToVisible),
  // handling local indices outside their array, reads of unwritten locals and the budget on
  // the way.
  void RunAhead(Thread& thread);
  // Performs the visible instruction `lanes` of a warp share and moves each on; the scheduler's issue.
  Scheduler::Issue ExecuteLanes(Thread* warp_lanes, std::uint32_t lanes);
  void Arrive(Thread* warp_lanes, std::uint32_t lanes, bool block_barrier);
  void TryReleaseBlock(int block);
  void TryReleaseWarp(int warp);
  // Wakes the warp's lanes waiting in `waiting`, each moved past its barrier.
  int Wake(int warp, ThreadState waiting);
  void Exit(Thread& thread);

  MachineCore& m_;
  const KernelProgram& k_;
};

}  // namespace sim
