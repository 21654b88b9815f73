// kernel_step.cpp — one step of a student's compiled kernel (sim/cuda).
//
// The same state as a lesson's run: threads, warps and blocks, the scheduler, the barriers,
// shared memory with its hazard detector, C, the read and sector counters, the logs; so a
// snapshot, a checkpoint and step back work unchanged. What differs is what a thread runs:
// instead of the lesson's Program, a thread's registers and instructions (cuda::ir.h). A
// step is one visible instruction (a global or shared access, a barrier, the exit) of the
// lanes the scheduler picks; the register instructions after it run at once, up to the next
// visible one (RunAhead), so a thread always stands at the instruction its next step runs.
//
// Lanes of a warp at one instruction issue together; where they diverge, the lowest
// instruction runs first (reconvergence at the smallest program counter: a loop's body lies
// below its exit, a branch's two sides below the code after them), so divergence within a
// warp is real: each lane has its own control flow and its own registers.
#include "sim/model/kernel_step.h"

#include <algorithm>
#include <vector>

#include "sim/cuda/interpreter.h"
#include "sim/model/bits.h"
#include "sim/model/kernel_memory_access.h"
#include "sim/model/warp_lanes.h"

namespace sim {
namespace {

// The checking loop out of line, so that RunAhead inlines only the plain one, as it did
// before unwritten locals were checked.
[[gnu::noinline]] cuda::Stop RunTrackingUnwritten(const cuda::Instruction* code, std::uint32_t* r, std::int32_t& pc,
                                                 std::uint64_t budget, std::uint64_t& executed, std::uint8_t* unwritten) {
  return cuda::RunToVisible<true>(code, r, pc, budget, executed, unwritten);
}

}  // namespace

void KernelStep::StartThread(Thread& thread) {
  const cuda::CompiledKernel& k = *k_.kernel;
  std::uint32_t* r = Registers(thread);
  std::copy(k.initial_registers.begin(), k.initial_registers.end(), r);
  const int i = thread.index_in_block;
  const int bx = k_.launch.block[0];
  const int bxy = k_.launch.block[0] * k_.launch.block[1];
  const int grid_xy = k_.launch.grid[0] * k_.launch.grid[1];
  const int linear_block = thread.block;
  const std::array<int, 12> special{i % bx, i / bx % k_.launch.block[1], i / bxy,
                                    linear_block % k_.launch.grid[0], linear_block / k_.launch.grid[0] % k_.launch.grid[1],
                                    linear_block / grid_xy, k_.launch.block[0], k_.launch.block[1], k_.launch.block[2],
                                    k_.launch.grid[0], k_.launch.grid[1], k_.launch.grid[2]};
  for (std::size_t s = 0; s < special.size(); ++s) r[s] = static_cast<std::uint32_t>(special[s]);
  for (std::size_t p = 0; p < k.parameters.size(); ++p) {
    // A pointer's register is its offset into its matrix, 0 at the start; an int's is its value.
    if (!k.parameters[p].pointer) r[k.parameters[p].slot] = static_cast<std::uint32_t>(k_.launch.arguments[p]);
  }
  if (k_.TracksUnwritten()) std::copy(k_.declared_unwritten.begin(), k_.declared_unwritten.end(), Unwritten(thread));
  thread.pc = ProgramCounter{Op::kDone, 0, 0};
  thread.state = ThreadState::kRunning;
  m_.SetRunnable(thread, true);
  RunAhead(thread);
}

KernelStepRecord::Did KernelStep::DidOf(cuda::Opcode op) {
  using Did = KernelStepRecord::Did;
  switch (op) {
    case cuda::Opcode::kLoadGlobal: return Did::kLoadGlobal;
    case cuda::Opcode::kStoreGlobal: return Did::kStoreGlobal;
    case cuda::Opcode::kLoadShared: return Did::kLoadShared;
    case cuda::Opcode::kStoreShared: return Did::kStoreShared;
    case cuda::Opcode::kSyncthreads: return Did::kSyncthreads;
    case cuda::Opcode::kSyncwarp: return Did::kSyncwarp;
    default: return Did::kExit;
  }
}

Op KernelStep::OpLike(cuda::Opcode op) {
  switch (op) {
    case cuda::Opcode::kLoadGlobal: return Op::kLoadA;
    case cuda::Opcode::kStoreGlobal: return Op::kStoreC;
    case cuda::Opcode::kStoreShared: return Op::kStoreAs;
    case cuda::Opcode::kLoadShared: return Op::kFma;
    case cuda::Opcode::kSyncthreads:
    case cuda::Opcode::kSyncwarp: return Op::kBarrier1;
    case cuda::Opcode::kExit: return Op::kDone;
    default: return Op::kFma;
  }
}

void KernelStep::RunAhead(Thread& thread) {
  const cuda::CompiledKernel& k = *k_.kernel;
  std::uint32_t* r = Registers(thread);
  std::int32_t pc = thread.pc.t;
  while (true) {
    const std::int64_t left = std::int64_t{k_.launch.instruction_budget} - thread.instructions;
    if (left <= 0) {
      // Not terminating: stopped where it was, named by its line.
      thread.pc = ProgramCounter{Op::kDone, pc, 0};
      m_.LogFinding(thread, KernelFinding::Kind::kBudget);
      Exit(thread);
      return;
    }
    std::uint64_t executed = 0;
    std::uint8_t* const unwritten = k_.TracksUnwritten() ? Unwritten(thread) : nullptr;
    const cuda::Stop stop = unwritten != nullptr
                                ? RunTrackingUnwritten(k.code.data(), r, pc, static_cast<std::uint64_t>(left), executed, unwritten)
                                : cuda::RunToVisible<false>(k.code.data(), r, pc, static_cast<std::uint64_t>(left), executed, nullptr);
    thread.instructions += static_cast<std::int32_t>(executed);
    m_.state.counters.thread_instructions += executed;
    if (stop == cuda::Stop::kVisible) break;
    const cuda::Instruction& ins = k.code[static_cast<std::size_t>(pc)];
    thread.pc.t = pc;
    if (stop == cuda::Stop::kUnwritten) {
      // Reported once per thread and register, then run: the register holds what it held.
      const std::int32_t slot = cuda::UnwrittenRead(ins, r, unwritten);
      m_.LogFinding(thread, KernelFinding::Kind::kUninitializedLocal, slot);
      unwritten[slot] = 0;
      continue;
    }
    if (stop == cuda::Stop::kLocalOutside) {
      // Reported, then skipped: a read gives 0, a store is dropped; past an index outside its
      // dimension (`array`: the dimension + 1, 0 for the flat index) the access goes on.
      // One access is one finding: the first of its indices outside its extent names it, and
      // neither its later indices nor its flat index (outside only where an index is) add one.
      const bool check = ins.op == cuda::Opcode::kCheckLocalIndex;
      if (check || ins.array == 0) {
        m_.LogFinding(thread, KernelFinding::Kind::kLocalOutside, static_cast<std::int32_t>(r[ins.b]), check ? ins.array + 1 : 0,
                      ins.op == cuda::Opcode::kStoreLocal);
      }
      if (ins.op == cuda::Opcode::kLoadLocal) r[ins.dst] = 0;
      std::int32_t passed = 1;
      if (check) {
        // The access's later checks, emitted right after this one.
        for (const cuda::Instruction* next = &ins + 1; next->op == cuda::Opcode::kCheckLocalIndex && next->a == ins.a && next->array > ins.array;
             ++next) {
          ++passed;
        }
      }
      pc += passed;
      thread.instructions += passed;
      m_.state.counters.thread_instructions += static_cast<std::uint64_t>(passed);
    }
  }
  thread.pc = ProgramCounter{OpLike(k.code[static_cast<std::size_t>(pc)].op), pc, 0};
}

bool KernelStep::Run() {
  Unit unit;
  if (!m_.state.scheduler.Next(unit)) {
    const bool finished = m_.state.exited_threads == m_.geometry.threads();
    // Found once, also after a step back to it and past the findings log's limit.
    if (!finished && !m_.Found(KernelFinding::Kind::kDeadlock)) {
      // Nothing can run, yet threads wait: at a barrier no release can come to.
      for (const Thread& thread : m_.state.threads) {
        if (thread.state != ThreadState::kDone) {
          m_.LogFinding(thread, KernelFinding::Kind::kDeadlock);
          break;
        }
      }
    }
    return false;
  }
  m_.CountStep(unit);
  StepRecord& record = m_.state.last_step;
  record = StepRecord{};  // a kernel's steps are told by the state and the logs, not events
  record.hazard_log_size = m_.state.hazard_log_size;
  record.out_of_bounds_log_size = m_.state.out_of_bounds_log_size;
  if (unit.is_warp) {
    const Warp& warp = m_.state.warps[static_cast<std::size_t>(unit.index)];
    Thread* const warp_lanes = &m_.state.threads[static_cast<std::size_t>(warp.first_thread)];
    const Scheduler::Issue issue = ExecuteLanes(warp_lanes, m_.EarliestLanes(warp));
    m_.state.scheduler.OnIssued(unit.index, issue);
  } else {
    Thread& thread = m_.state.threads[static_cast<std::size_t>(unit.index)];
    ExecuteLanes(&thread - thread.lane, 1u << thread.lane);
  }
  return true;
}

Scheduler::Issue KernelStep::ExecuteLanes(Thread* warp_lanes, std::uint32_t lanes) {
  Scheduler::Issue issue;
  if (lanes == 0) return issue;
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const cuda::Instruction& ins = k_.kernel->code[static_cast<std::size_t>(first.pc.t)];
  const auto line = static_cast<std::int16_t>(std::min(k_.kernel->positions[static_cast<std::size_t>(first.pc.t)].line, 32767));
  ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
    thread.last_line = line;
    ++thread.instructions;
  });
  m_.state.counters.thread_instructions += static_cast<std::uint64_t>(CountBits(lanes));
  KernelStepRecord& told = m_.state.last_step.kernel;
  told.first_thread = static_cast<std::int32_t>(warp_lanes - m_.state.threads.data());
  told.lanes = lanes;
  told.line = line;
  told.did = DidOf(ins.op);
  switch (ins.op) {
    case cuda::Opcode::kLoadGlobal:
    case cuda::Opcode::kStoreGlobal:
      KernelMemoryAccess(m_, k_).AccessGlobal(warp_lanes, lanes, ins, issue);
      break;
    case cuda::Opcode::kLoadShared:
    case cuda::Opcode::kStoreShared:
      KernelMemoryAccess(m_, k_).AccessShared(warp_lanes, lanes, ins, issue);
      break;
    case cuda::Opcode::kSyncthreads:
    case cuda::Opcode::kSyncwarp:
      Arrive(warp_lanes, lanes, ins.op == cuda::Opcode::kSyncthreads);
      return issue;  // the release moves them on
    default:  // exit
      ForEachLane(warp_lanes, lanes, [&](Thread& thread) { Exit(thread); });
      return issue;
  }
  ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
    ++thread.pc.t;
    RunAhead(thread);
  });
  return issue;
}

void KernelStep::Arrive(Thread* warp_lanes, std::uint32_t lanes, bool block_barrier) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int n = CountBits(lanes);
  m_.state.counters.barrier_arrivals += static_cast<std::uint64_t>(n);
  m_.state.counters.phases[0].barrier_arrivals += static_cast<std::uint64_t>(n);
  const ThreadState waiting = block_barrier ? ThreadState::kWaitingBarrier1 : ThreadState::kWaitingBarrier2;
  ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
    thread.state = waiting;
    m_.state.scheduler.SetThreadRunnable(static_cast<int>(&thread - m_.state.threads.data()), false);
  });
  m_.AddRunnableLanes(first.warp, -n);
  m_.state.waiting_threads += n;
  Barrier& barrier = block_barrier ? m_.state.blocks[static_cast<std::size_t>(first.block)].syncthreads
                                   : m_.state.warps[static_cast<std::size_t>(first.warp)].syncwarp;
  for (int i = 0; i < n; ++i) barrier.Arrive();
  if (block_barrier) {
    TryReleaseBlock(first.block);
  } else {
    TryReleaseWarp(first.warp);
  }
}

void KernelStep::TryReleaseBlock(int block_index) {
  Block& block = m_.state.blocks[static_cast<std::size_t>(block_index)];
  if (!block.syncthreads.CanRelease(block.LiveThreads())) return;
  // Every thread of the block must reach the same __syncthreads(): one that exited before it,
  // or waits at another, makes this release one CUDA leaves undefined.
  const Thread* reached = nullptr;
  bool divergent = block.syncthreads.arrived() < block.thread_count;
  for (int i = 0; i < block.thread_count; ++i) {
    const Thread& thread = m_.state.threads[static_cast<std::size_t>(block.first_thread + i)];
    if (thread.state != ThreadState::kWaitingBarrier1) continue;
    if (reached == nullptr) reached = &thread;
    divergent = divergent || thread.pc.t != reached->pc.t;
  }
  if (divergent && reached != nullptr) m_.LogFinding(*reached, KernelFinding::Kind::kDivergentBarrier);
  block.syncthreads.Release();
  m_.state.hazard_detector.OnBlockBarrier(block_index);
  ++m_.state.counters.barrier_releases;
  for (int w = 0; w < block.warp_count; ++w) Wake(block.first_warp + w, ThreadState::kWaitingBarrier1);
}

void KernelStep::TryReleaseWarp(int warp_index) {
  Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_index)];
  if (!warp.syncwarp.CanRelease(warp.lane_count - warp.exited_lanes)) return;
  warp.syncwarp.Release();
  ++m_.state.counters.barrier_releases;
  Wake(warp_index, ThreadState::kWaitingBarrier2);
}

int KernelStep::Wake(int warp_index, ThreadState waiting) {
  Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_index)];
  Thread* const warp_lanes = &m_.state.threads[static_cast<std::size_t>(warp.first_thread)];
  std::uint32_t woken = 0;
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    Thread& thread = warp_lanes[lane];
    if (thread.state != waiting) continue;
    thread.state = ThreadState::kRunning;
    m_.state.scheduler.SetThreadRunnable(warp.first_thread + lane, true);
    woken |= 1u << lane;
  }
  if (woken == 0) return 0;
  const int count = CountBits(woken);
  m_.state.last_step.kernel.released += count;
  m_.state.waiting_threads -= count;
  m_.AddRunnableLanes(warp_index, count, true);
  // Moved past the barrier once all of them are runnable again: one that runs out of budget on
  // the way exits, which may release another barrier.
  ForEachLane(warp_lanes, woken, [&](Thread& thread) {
    ++thread.pc.t;
    RunAhead(thread);
  });
  return count;
}

void KernelStep::Exit(Thread& thread) {
  if (thread.state == ThreadState::kDone) return;
  if (thread.state != ThreadState::kRunning) {
    --m_.state.waiting_threads;
  } else {
    m_.SetRunnable(thread, false);
  }
  thread.state = ThreadState::kDone;
  ++m_.state.exited_threads;
  Warp& warp = m_.state.warps[static_cast<std::size_t>(thread.warp)];
  Block& block = m_.state.blocks[static_cast<std::size_t>(thread.block)];
  ++warp.exited_lanes;
  ++block.exited_threads;
  // An exited thread no longer counts at a barrier: the others may now be complete.
  if (block.syncthreads.arrived() > 0) TryReleaseBlock(thread.block);
  if (warp.syncwarp.arrived() > 0) TryReleaseWarp(thread.warp);
  if (block.LiveThreads() == 0) {
    m_.state.hazard_detector.OnBlockExit(thread.block);
    m_.state.scheduler.OnBlockExit(thread.block);
  }
}

}  // namespace sim
