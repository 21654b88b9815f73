// kernel_memory_access.h — a student kernel's global and shared accesses for the lanes of one
// step: the elements and cells read and written, each checked against its array's bounds,
// shared accesses through the hazard detector, reads of never-written shared cells, races on
// C between threads nothing orders, sectors and bank conflicts counted.
#pragma once
#include <array>
#include <cstdint>

#include "sim/cuda/ir.h"
#include "sim/model/kernel_launch.h"
#include "sim/model/machine_core.h"
#include "sim/model/warp_access_groups.h"

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
  // One step's lanes of a memory instruction, for counting by warp-instruction (WarpAccessGroups).
  struct StepLanes {
    std::uint32_t ran = 0;
    std::uint32_t touched = 0;  // inside their array
    std::array<std::int64_t, kWarpSize> places{};  // a touching lane's global sector or shared word
    std::array<std::uint32_t, kWarpSize> back_edges{};
    bool one_order = true;  // every lane after as many back-edges as the first
    void Ran(const Thread& thread, const std::uint32_t* r) {
      const std::uint32_t back = r[cuda::kBackEdgeSlot];
      if (ran != 0) one_order &= back == back_edges[static_cast<std::size_t>(__builtin_ctz(ran))];
      ran |= 1u << thread.lane;
      back_edges[static_cast<std::size_t>(thread.lane)] = back;
    }
    void Touched(const Thread& thread, std::int64_t place) {
      touched |= 1u << thread.lane;
      places[static_cast<std::size_t>(thread.lane)] = place;
    }
  };
  // Whether the step's lanes are all of the warp's warp-instruction: every lane that has not
  // exited, at one order, none of them met before (the warp scheduler's usual step).
  bool WholeWarpInstruction(const Warp& warp, const StepLanes& step) const;
  // Adds the step's lanes to their warp-instructions; what `measure(const WarpAccessGroup&)`
  // gives of them grows by the returned amount.
  template <typename Measure>
  std::int64_t Join(int warp_index, const StepLanes& step, Measure measure);
  // The order of the earliest instruction a lane of the warp has yet to run.
  std::int64_t OldestOrder(const Warp& warp) const;
  std::uint32_t ExitedLanes(const Warp& warp) const;
  // The instruction of an access's program order (ProgramOrder); -1 where it saturated.
  std::int32_t PcOf(std::int32_t stage) const;
  // A thread's access of C's `element`: a race where another thread wrote it.
  void CheckGlobalRace(const Thread& thread, long long element, bool write);

  MachineCore& m_;
  const KernelProgram& k_;
};

}  // namespace sim
