#include "sim/model/lesson_barriers.h"

#include "sim/model/bits.h"
#include "sim/model/warp_lanes.h"

namespace sim {

void LessonBarriers::Arrive(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const Op op = first.pc.op;
  const int n = CountBits(lanes);
  m_.state.counters.barrier_arrivals += static_cast<std::uint64_t>(n);
  PhaseOf(first).barrier_arrivals += static_cast<std::uint64_t>(n);
  const ThreadState waiting = op == Op::kBarrier1 ? ThreadState::kWaitingBarrier1 : ThreadState::kWaitingBarrier2;
  const auto first_thread = static_cast<int>(warp_lanes - m_.state.threads.data());
  ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
    start(thread);
    thread.state = waiting;
    m_.state.scheduler.SetThreadRunnable(first_thread + thread.lane, false);
  });
  m_.AddRunnableLanes(first.warp, -n);
  m_.state.waiting_threads += n;
  // Only the last of the lanes can be the arrival that completes the barrier: the others
  // arrive before it, and it waits for them.
  const int last_lane = 31 - __builtin_clz(lanes);
  if (m_.program.BarrierKind(op) == SyncKind::kSyncthreads) {
    Barrier& barrier = m_.state.blocks[static_cast<std::size_t>(first.block)].syncthreads;
    for (int i = 0; i < n; ++i) barrier.Arrive();
    TryReleaseBlock(first.block, last_lane);
  } else {
    Barrier& barrier = m_.state.warps[static_cast<std::size_t>(first.warp)].syncwarp;
    for (int i = 0; i < n; ++i) barrier.Arrive();
    TryReleaseWarp(first.warp, last_lane);
  }
}

void LessonBarriers::TryReleaseBlock(int block_index, int lane) {
  Block& block = m_.state.blocks[static_cast<std::size_t>(block_index)];
  if (!block.syncthreads.CanRelease(block.LiveThreads())) return;
  TraceEvent event;
  event.kind = EventKind::kBarrierRelease;
  event.block = block_index;
  event.thread = -1;
  event.index = 0;
  for (int w = 0; w < block.warp_count; ++w) WakeWaiting(block.first_warp + w, SyncKind::kSyncthreads, event);
  block.syncthreads.Release();
  m_.state.hazard_detector.OnBlockBarrier(block_index);
  if (m_.shared_accesses_can_race) CountSharedWriters(block);
  ++m_.state.counters.barrier_releases;
  event.line = tables_.lines[static_cast<std::size_t>(event.op)];
  Emit(event, lane);
}

void LessonBarriers::CountSharedWriters(Block& block) {
  block.shared_writers = 0;
  for (int i = 0; i < block.thread_count; ++i) {
    const Thread& thread = m_.state.threads[static_cast<std::size_t>(block.first_thread + i)];
    if (thread.state != ThreadState::kDone && m_.program.StoresSharedBeforeSyncthreads(thread, thread.pc)) ++block.shared_writers;
  }
}

void LessonBarriers::TryReleaseWarp(int warp_index, int lane) {
  Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_index)];
  if (!warp.syncwarp.CanRelease(warp.lane_count - warp.exited_lanes)) return;
  TraceEvent event;
  event.kind = EventKind::kBarrierRelease;
  event.block = warp.block;
  event.thread = -1;
  event.index = 0;
  WakeWaiting(warp_index, SyncKind::kSyncwarp, event);
  warp.syncwarp.Release();
  ++m_.state.counters.barrier_releases;
  event.line = tables_.lines[static_cast<std::size_t>(event.op)];
  Emit(event, lane);
}

void LessonBarriers::WakeWaiting(int warp_index, SyncKind kind, TraceEvent& release) {
  Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_index)];
  Thread* const warp_lanes = &m_.state.threads[static_cast<std::size_t>(warp.first_thread)];
  // A lane waits at a barrier of `kind` when its state says it waits at barrier 1 or 2 (Arrive
  // sets it from the barrier it reached) and that barrier is of `kind`: bit s, state s. The
  // kinds looked at once, not per lane (256³ TILE 16 under callgrind: WakeWaiting 101 → 87 M
  // instructions; 44e1042).
  const unsigned woken_states =
      (m_.program.BarrierKind(Op::kBarrier1) == kind ? 1u << static_cast<int>(ThreadState::kWaitingBarrier1) : 0u) |
      (m_.program.BarrierKind(Op::kBarrier2) == kind ? 1u << static_cast<int>(ThreadState::kWaitingBarrier2) : 0u);
  std::uint32_t woken_lanes = 0;
  ProgramCounter pc{};  // the first woken lane's
  bool one_pc = true;   // all of them at pc
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = warp_lanes[lane];
    if ((woken_states >> static_cast<int>(thread.state) & 1u) == 0) continue;
    if (woken_lanes == 0) pc = thread.pc;
    one_pc = one_pc && thread.pc == pc;
    woken_lanes |= 1u << lane;
  }
  if (woken_lanes == 0) {
    warp.next_lanes = 0;
    return;
  }
  const int woken = CountBits(woken_lanes);
  const ProgramCounter last_pc = warp_lanes[31 - __builtin_clz(woken_lanes)].pc;
  release.op = last_pc.op;
  release.phase = last_pc.t;
  release.index += woken;
  const auto wake = [&](Thread& thread) {
    thread.state = ThreadState::kRunning;
    m_.state.scheduler.SetThreadRunnable(warp.first_thread + thread.lane, true);
  };
  // A barrier's next instruction is never the end (Program::Next): no lane exits. Released
  // together, the lanes issue together where they went on to one instruction. This pass only
  // writes, the one above only read (WakeWaiting 87 → 67 M instructions; e1b120d).
  if (const std::optional<ProgramCounter> next = one_pc ? WarpNext(warp_lanes[0], pc) : std::nullopt) {
    const ProgramCounter same_next = *next;
    ForEachLane(warp_lanes, woken_lanes, [&](Thread& thread) {
      wake(thread);
      thread.pc = same_next;
    });
    warp.next_lanes = woken_lanes;
  } else {
    ForEachLane(warp_lanes, woken_lanes, [&](Thread& thread) {
      wake(thread);
      thread.pc = m_.program.Next(thread, thread.pc);
    });
    warp.next_lanes = LanesAtOneInstruction(warp_lanes, woken_lanes) ? woken_lanes : 0;
  }
  m_.state.waiting_threads -= woken;
  m_.AddRunnableLanes(warp_index, woken, true);
}

void LessonBarriers::Exit(Thread& thread) {
  m_.SetRunnable(thread, false);
  thread.state = ThreadState::kDone;
  ++m_.state.exited_threads;
  Warp& warp = m_.state.warps[static_cast<std::size_t>(thread.warp)];
  Block& block = m_.state.blocks[static_cast<std::size_t>(thread.block)];
  ++warp.exited_lanes;
  ++block.exited_threads;
  // An exited thread no longer counts at a barrier: the others may now be complete.
  if (block.syncthreads.arrived() > 0) TryReleaseBlock(thread.block, thread.lane);
  if (warp.syncwarp.arrived() > 0) TryReleaseWarp(thread.warp, thread.lane);
  if (block.LiveThreads() == 0) {
    m_.state.hazard_detector.OnBlockExit(thread.block);
    m_.state.scheduler.OnBlockExit(thread.block);
  }
}

void LessonBarriers::Emit(TraceEvent event, int lane) {
  event.step = m_.state.step;
  m_.state.last_step.releases.push_back({static_cast<std::uint8_t>(lane), event});
}

}  // namespace sim
