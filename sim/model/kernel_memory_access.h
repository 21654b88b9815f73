// kernel_memory_access.h — a student kernel's global and shared accesses for the lanes of one
// step: the elements and cells read and written, each checked against its array's bounds,
// shared accesses through the hazard detector, reads of never-written shared cells, races on
// C between threads nothing orders, sectors and bank conflicts counted.
#pragma once
#include <cstdint>

#include "sim/cuda/ir.h"
#include "sim/model/kernel_launch.h"
#include "sim/model/machine_core.h"

namespace sim {

class KernelMemoryAccess {
 public:
  KernelMemoryAccess(MachineCore& machine, const KernelProgram& kernel) : m_(machine), k_(kernel) {}

  void AccessGlobal(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue);
  void AccessShared(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue);

 private:
  std::uint32_t* Registers(const Thread& thread) {
    return k_.Registers(m_.state.registers, static_cast<int>(&thread - m_.state.threads.data()));
  }
  // A thread's access of C's `element`: a race where another thread wrote it.
  void CheckGlobalRace(const Thread& thread, long long element, bool write);

  MachineCore& m_;
  const KernelProgram& k_;
};

}  // namespace sim
