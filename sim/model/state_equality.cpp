// Exact comparison of model state (floats to the bit), which "step back, then forward,
// gives the same snapshot" rests on.
#include "sim/model/bits.h"
#include "sim/model/block.h"
#include "sim/model/counters.h"
#include "sim/model/global_memory.h"
#include "sim/model/machine.h"
#include "sim/model/shared_memory.h"
#include "sim/model/thread.h"
#include "sim/model/trace.h"
#include "sim/model/warp.h"

namespace sim {

bool Thread::operator==(const Thread& o) const {
  return block == o.block && tx == o.tx && ty == o.ty && index_in_block == o.index_in_block && warp == o.warp &&
         lane == o.lane && regs.row == o.regs.row && regs.col == o.regs.col && SameBits(regs.sum, o.regs.sum) &&
         regs.t == o.regs.t && regs.k == o.regs.k && SameBits(regs.a, o.regs.a) && SameBits(regs.b, o.regs.b) &&
         pc == o.pc && state == o.state && last_line == o.last_line && instructions == o.instructions;
}

bool Warp::operator==(const Warp& o) const {
  return block == o.block && index_in_block == o.index_in_block && first_thread == o.first_thread &&
         lane_count == o.lane_count && exited_lanes == o.exited_lanes && runnable_lanes == o.runnable_lanes &&
         next_lanes == o.next_lanes &&
         syncwarp == o.syncwarp;
}

bool Block::operator==(const Block& o) const {
  return bx == o.bx && by == o.by && first_thread == o.first_thread && thread_count == o.thread_count &&
         first_warp == o.first_warp && warp_count == o.warp_count && exited_threads == o.exited_threads &&
         shared_writers == o.shared_writers && syncthreads == o.syncthreads;
}

bool SharedCell::operator==(const SharedCell& o) const {
  return SameBits(value, o.value) && writer == o.writer && phase == o.phase;
}

bool ReadRecord::operator==(const ReadRecord& o) const {
  return step == o.step && element == o.element && block == o.block && thread == o.thread && phase == o.phase &&
         matrix == o.matrix;
}

bool GlobalReadCounter::operator==(const GlobalReadCounter& o) const {
  return reads_a_ == o.reads_a_ && reads_b_ == o.reads_b_ && block_reads_a_ == o.block_reads_a_ &&
         block_reads_b_ == o.block_reads_b_;
}

bool TraceEvent::operator==(const TraceEvent& o) const {
  return kind == o.kind && op == o.op && line == o.line && step == o.step && block == o.block && thread == o.thread &&
         phase == o.phase && from == o.from && from2 == o.from2 && to == o.to && SameBits(value, o.value) &&
         SameBits(operand_a, o.operand_a) && SameBits(operand_b, o.operand_b) && index == o.index;
}

bool PhaseCounters::operator==(const PhaseCounters& o) const {
  return global_reads_a == o.global_reads_a && global_reads_b == o.global_reads_b && shared_reads == o.shared_reads &&
         shared_writes == o.shared_writes && barrier_arrivals == o.barrier_arrivals && fma == o.fma &&
         global_sectors == o.global_sectors && bank_conflicts == o.bank_conflicts && hazards == o.hazards;
}

bool Counters::operator==(const Counters& o) const {
  return steps == o.steps && thread_instructions == o.thread_instructions && global_reads_a == o.global_reads_a &&
         global_reads_b == o.global_reads_b && select_zero == o.select_zero && global_writes == o.global_writes &&
         shared_reads == o.shared_reads && shared_writes == o.shared_writes && barrier_arrivals == o.barrier_arrivals &&
         barrier_releases == o.barrier_releases && barrier_stall_steps == o.barrier_stall_steps &&
         global_sectors == o.global_sectors && bank_conflicts == o.bank_conflicts && fma_executed == o.fma_executed &&
         hazards == o.hazards && hazard_warnings == o.hazard_warnings && hazard_errors == o.hazard_errors &&
         hazards_raw == o.hazards_raw && hazards_war == o.hazards_war && hazards_waw == o.hazards_waw &&
         hazards_witnessed == o.hazards_witnessed && hazards_corrupting == o.hazards_corrupting &&
         out_of_bounds == o.out_of_bounds && phases == o.phases;
}

bool OutOfBoundsAccess::operator==(const OutOfBoundsAccess& o) const {
  return step == o.step && block == o.block && thread == o.thread && matrix == o.matrix && op == o.op &&
         row == o.row && col == o.col && write == o.write && inside_allocation == o.inside_allocation &&
         SameBits(value, o.value);
}

bool KernelStepRecord::operator==(const KernelStepRecord& o) const {
  return did == o.did && first_thread == o.first_thread && lanes == o.lanes && line == o.line && array == o.array &&
         element == o.element && SameBits(value, o.value) && outside == o.outside && released == o.released;
}

bool StepRecord::operator==(const StepRecord& o) const {
  if (!(pc == o.pc && first_thread == o.first_thread && lanes == o.lanes && hazard_log_size == o.hazard_log_size &&
        out_of_bounds_log_size == o.out_of_bounds_log_size && hazard_slots == o.hazard_slots && releases == o.releases && kernel == o.kernel)) {
    return false;
  }
  for (int slot = 0; slot < 2 * kWarpSize; ++slot) {
    if (HazardsAt(slot) != o.HazardsAt(slot)) return false;
  }
  return true;
}

bool MachineState::operator==(const MachineState& o) const {
  auto same_floats = [](const std::vector<float>& x, const std::vector<float>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!SameBits(x[i], y[i])) return false;
    }
    return true;
  };
  return step == o.step && threads == o.threads && warps == o.warps && blocks == o.blocks && shared == o.shared &&
         hazard_detector == o.hazard_detector && scheduler == o.scheduler && reads == o.reads &&
         same_floats(c, o.c) && c_written == o.c_written && counters == o.counters &&
         waiting_threads == o.waiting_threads && exited_threads == o.exited_threads && last_unit == o.last_unit &&
         last_step == o.last_step && read_log_size == o.read_log_size &&
         hazard_log_size == o.hazard_log_size && out_of_bounds_log_size == o.out_of_bounds_log_size &&
         registers == o.registers && unwritten_locals == o.unwritten_locals && kernel_finding_log_size == o.kernel_finding_log_size &&
         kernel_findings == o.kernel_findings && kernel_races == o.kernel_races && warp_access_groups == o.warp_access_groups &&
         kernel_conflicts == o.kernel_conflicts && kernel_ways == o.kernel_ways && c_writers == o.c_writers &&
         c_writer_pcs == o.c_writer_pcs;
}

bool KernelFinding::operator==(const KernelFinding& o) const {
  return kind == o.kind && step == o.step && block == o.block && thread == o.thread && pc == o.pc &&
         element == o.element && array == o.array && write == o.write && other_pc == o.other_pc;
}

std::size_t MachineState::Bytes() const {
  return sizeof(MachineState) + threads.capacity() * sizeof(Thread) + warps.capacity() * sizeof(Warp) +
         blocks.capacity() * sizeof(Block) + shared.Bytes() + hazard_detector.Bytes() + scheduler.Bytes() +
         reads.Bytes() + c.capacity() * sizeof(float) + c_written.capacity() +
         counters.phases.capacity() * sizeof(PhaseCounters) +
         last_step.releases.capacity() * sizeof(StepRecord::Release) + registers.capacity() * sizeof(std::uint32_t) + unwritten_locals.capacity() +
         kernel_conflicts.capacity() * sizeof(std::uint64_t) + kernel_ways.capacity() +
         kernel_findings.capacity() * sizeof(KernelFindingTally) + kernel_races.capacity() * sizeof(RaceTally) +
         (c_writers.capacity() + c_writer_pcs.capacity()) * sizeof(std::int32_t) + WarpAccessGroupBytes();
}

std::size_t MachineState::WarpAccessGroupBytes() const {
  std::size_t bytes = warp_access_groups.capacity() * sizeof(WarpAccessGroups);
  for (const WarpAccessGroups& groups : warp_access_groups) bytes += groups.Bytes();
  return bytes;
}

}  // namespace sim
