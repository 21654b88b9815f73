#include "sim/model/lesson_step.h"

#include <algorithm>
#include <optional>

#include "sim/model/bits.h"
#include "sim/model/fused_multiply_add.h"
#include "sim/model/lesson_barriers.h"
#include "sim/model/lesson_global_access.h"
#include "sim/model/lesson_shared_access.h"
#include "sim/model/warp_lanes.h"

// What one step runs, inlined into Run: each is called once a step, and their calls and
// saved registers cost as much as the lanes of an inner-product step (256³ TILE 16, bare,
// under callgrind: 1,497.1 → 1,441.8 M instructions; 799adc5).
#define TILESCOPE_STEP_INLINE __attribute__((always_inline)) inline

namespace sim {

void LessonStep::StartThread(Thread& thread, Block& block) {
  const Geometry& g = m_.geometry;
  thread.regs.row = block.by * g.tm + thread.ty;
  thread.regs.col = block.bx * g.tn + thread.tx;
  thread.pc = m_.program.First(thread);
  if (thread.pc.op == Op::kDone) {
    // The naive kernel's guard returns before the first instruction.
    thread.state = ThreadState::kDone;
    ++m_.state.exited_threads;
    ++m_.state.warps[static_cast<std::size_t>(thread.warp)].exited_lanes;
    ++block.exited_threads;
  } else {
    m_.SetRunnable(thread, true);
  }
}

bool LessonStep::Run() {
  Unit unit;
  if (!m_.state.scheduler.Next(unit)) return false;
  m_.CountStep(unit);
  StepRecord& record = m_.state.last_step;
  record.hazard_slots = 0;
  record.many_hazard_slots = 0;
  record.releases.clear();
  record.hazard_log_size = m_.state.hazard_log_size;
  record.out_of_bounds_log_size = m_.state.out_of_bounds_log_size;
  if (unit.is_warp) {
    ExecuteWarp(unit.index);
  } else {
    Thread& thread = m_.state.threads[static_cast<std::size_t>(unit.index)];
    Execute(&thread - thread.lane, 1u << thread.lane, LeadsWarpInstruction(thread));
  }
  return true;
}

void LessonStep::PrefetchNext() const {
  if (const int next = m_.state.scheduler.LikelyNextWarp(); next >= 0) Prefetch(next);
}

void LessonStep::Prefetch(int warp_index) const {
  // A large lesson's threads are far more than the caches hold, and the realistic scheduler
  // visits the warps in turn: fetching the next warp's lanes ahead overlaps their misses with
  // the scheduling of the next step instead of waiting for each in its loop. The queue's
  // front turn was the warp issued next in 97% of a 256³ run's steps; 256³ TILE 16 CPU
  // 0.399 → 0.358 s (load ~9, 65e3fa1).
  __builtin_prefetch(&m_.state.warps[static_cast<std::size_t>(warp_index)]);
  m_.state.scheduler.Prefetch(warp_index);
  // Where its lanes are, from the geometry: the Warp itself is still on its way.
  const Geometry& g = m_.geometry;
  const int first_lane = (warp_index % g.warps_per_block) * kWarpSize;
  const Thread* const lanes =
      &m_.state.threads[static_cast<std::size_t>(warp_index / g.warps_per_block) * g.block_threads + first_lane];
  const int lane_count = std::min(kWarpSize, g.block_threads - first_lane);
  if (lane_count == kWarpSize) {
    // A whole warp, the usual one: eight turns of four, a count the compiler lays out whole
    // (32 prefetches and nothing else), where a loop over any count cost some 20 more
    // instructions a step (Prefetch 56.6 → 38.9 M under callgrind at 256³ TILE 16; 9d1f833).
    // All 32 lanes, not every fourth: at 512³ TILE 16 every fourth took 2.95 s against 2.43
    // (median CPU, 923a01b), though it had won by 5-9% at 256³.
    for (int lane = 0; lane < kWarpSize; lane += 4) {
      __builtin_prefetch(lanes + lane);
      __builtin_prefetch(lanes + lane + 1);
      __builtin_prefetch(lanes + lane + 2);
      __builtin_prefetch(lanes + lane + 3);
    }
    return;
  }
  for (int lane = 0; lane < lane_count; ++lane) __builtin_prefetch(lanes + lane);
}

TILESCOPE_STEP_INLINE void LessonStep::ExecuteWarp(int warp_index) {
  Warp& warp = m_.state.warps[static_cast<std::size_t>(warp_index)];
  Thread* const warp_lanes = &m_.state.threads[static_cast<std::size_t>(warp.first_thread)];
  // The lanes that ran its last instruction, or that a barrier released together, run again
  // when they went on to one instruction and no other lane can run (Warp::next_lanes): the
  // scan would find exactly them (256³ TILE 16 under callgrind: 2,214 → 2,124 M instructions,
  // the scan's 203 M gone; 58778c5).
  std::uint32_t lanes = warp.next_lanes;
  if (lanes == 0 || CountBits(lanes) != warp.runnable_lanes) lanes = m_.EarliestLanes(warp);
  const ProgramCounter pc = warp_lanes[__builtin_ctz(lanes)].pc;
  l2_halves_ = 0;
  wavefronts_ = 0;
  const std::uint64_t sectors_before = m_.state.counters.global_sectors;
  warp.next_lanes = 0;  // lanes at a barrier wait: their release, even during this step, sets it
  const bool global_load = Execute(warp_lanes, lanes, true);
  if (!IsBarrier(pc.op)) warp.next_lanes = NextLanes(warp_lanes, lanes, pc);
  Scheduler::Issue issue;
  issue.l2_halves = global_load ? l2_halves_ : 0;
  issue.sectors = static_cast<int>(m_.state.counters.global_sectors - sectors_before);
  issue.wavefronts = wavefronts_;
  issue.stores_shared = pc.op == Op::kStoreAs || pc.op == Op::kStoreBs;
  m_.state.scheduler.OnIssued(warp_index, issue);
}

std::uint32_t LessonStep::NextLanesAsked(const Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) const {
  // Lanes that went on to one instruction, not the end, are all runnable there.
  const std::optional<ProgramCounter> next = WarpNext(warp_lanes[0], pc);
  if (next) return next->op != Op::kDone ? lanes : 0;
  return LanesAtOneInstruction(warp_lanes, lanes) ? lanes : 0;
}

bool LessonStep::LeadsWarpInstruction(const Thread& thread) const {
  // A warp-instruction is counted once, by its lowest participating lane, whenever that
  // lane runs: the figures do not depend on how the scheduler interleaves the lanes.
  const int first = m_.state.warps[static_cast<std::size_t>(thread.warp)].first_thread;
  for (int lane = 0; lane < thread.lane; ++lane) {
    if (m_.program.Contains(m_.state.threads[static_cast<std::size_t>(first + lane)], thread.pc)) return false;
  }
  return true;
}

TILESCOPE_STEP_INLINE bool LessonStep::Execute(Thread* warp_lanes, std::uint32_t lanes, bool leads_warp_instruction) {
  Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const Warp& warp = m_.state.warps[static_cast<std::size_t>(first.warp)];
  const bool all_lanes = lanes == (warp.lane_count == kWarpSize ? ~std::uint32_t{0} : (1u << warp.lane_count) - 1);
  const bool load_counts_sectors = leads_warp_instruction && all_lanes && (pc.op == Op::kLoadA || pc.op == Op::kLoadB);
  if (leads_warp_instruction && !load_counts_sectors) CountWarpInstruction(first);
  m_.state.counters.thread_instructions += static_cast<std::uint64_t>(CountBits(lanes));
  StepRecord& record = m_.state.last_step;
  record.pc = pc;
  record.first_thread = static_cast<std::int32_t>(warp_lanes - m_.state.threads.data());
  record.lanes = lanes;
  // One loop per op over its lanes, what they share looked up once, each starting its lanes
  // itself (with 43422d7's other changes, 256³ TILE 16 through Simulation under callgrind:
  // 6,054 → 4,021 M instructions).
  const LaneStart start{static_cast<std::int16_t>(tables_.lines[static_cast<std::size_t>(pc.op)]), pc.t, m_.geometry.naive};
  switch (pc.op) {
    case Op::kFma:
      Fma(warp_lanes, lanes, start);
      return false;
    case Op::kLoadA:
    case Op::kLoadB:
      {
      LessonGlobalAccess global(m_, tables_);
      const bool loaded = global.LoadGlobal(warp_lanes, lanes, start, load_counts_sectors);
      l2_halves_ |= global.l2_halves();
      return loaded;
    }
    case Op::kStoreAs:
    case Op::kStoreBs:
      LessonSharedAccess(m_, tables_).StoreShared(warp_lanes, lanes, start);
      return false;
    case Op::kBarrier1:
    case Op::kBarrier2:
      LessonBarriers(m_, tables_).Arrive(warp_lanes, lanes, start);  // the barrier's release moves the threads on
      return false;
    case Op::kStoreC: {
      LessonGlobalAccess global(m_, tables_);
      ForEachLane(warp_lanes, lanes, [this, &global, start, pc](Thread& thread) {
        start(thread);
        global.StoreC(thread);
        Advance(thread, pc);
      });
      return false;
    }
    case Op::kDone:
      return false;
  }
  return false;
}

TILESCOPE_STEP_INLINE void LessonStep::Fma(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  // The inner product is most of every run: its lanes go through one tight loop each.
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const auto n = static_cast<std::uint64_t>(CountBits(lanes));
  PhaseCounters& phase = PhaseOf(first);
  m_.state.counters.fma_executed += n;
  phase.fma += n;
  if (m_.geometry.naive) {
    WithFusedMultiplyAdd([&](auto fmaf) {
      ForEachLane(warp_lanes, lanes, [start, fmaf](Thread& thread) {
        start(thread);
        // fmaf, in the kernel's order: the GPU's result to the bit (a separate multiply and add is not).
        thread.regs.sum = fmaf(thread.regs.a, thread.regs.b, thread.regs.sum);
      });
    });
  } else {
    m_.state.counters.shared_reads += 2 * n;
    phase.shared_reads += 2 * n;
    if (m_.shared_accesses_can_race) LessonSharedAccess(m_, tables_).CheckTileReads(warp_lanes, lanes);
    FmaReadingTiles(warp_lanes, lanes, start);
  }
  if (m_.geometry.naive || pc.j + 1 == m_.geometry.tk) AdvanceLanes(warp_lanes, lanes, pc);
}

TILESCOPE_STEP_INLINE void LessonStep::FmaReadingTiles(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int k = first.pc.j;
  const int next_k = k + 1 < m_.geometry.tk ? k + 1 : k;  // else Fma moves the lanes past the loop
  const SharedCell* const cells = &m_.state.shared.Cell(first.block, 0);
  const int a_column = m_.state.shared.Word(TileId::kAs, 0, k);  // As[ty][k] = a_column + ty * TK
  const int b_row = m_.state.shared.Word(TileId::kBs, k, 0);     // Bs[k][tx] = b_row + tx
  const int a_stride = m_.state.shared.Word(TileId::kAs, 1, 0);
  WithFusedMultiplyAdd([&](auto fmaf) {
    // sum = fmaf(As[ty][k], Bs[k][tx], sum)
    const auto run = [start, fmaf, k, next_k](Thread& thread, float a, float b) {
      start(thread);
      thread.regs.k = k;
      thread.regs.sum = fmaf(a, b, thread.regs.sum);
      thread.pc.j = next_k;
    };
    if (lanes != ~std::uint32_t{0}) {
      ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
        run(thread, cells[a_column + thread.ty * a_stride].value, cells[b_row + thread.tx].value);
      });
      return;
    }
    // A whole warp, row by row: a row's lanes read one As cell and Bs along its row (256³ TILE
    // 16 under callgrind: 1,677 → 1,592 M instructions, CPU within noise; 2c27355).
    const int first_thread = first.index_in_block;
    const int tn = m_.geometry.tn;
    ForEachRowRun(first_thread, tn, [&](int row, int begin, int end) {
      const float a = cells[a_column + row * a_stride].value;
      const int b_lane0 = b_row + first_thread - row * tn;  // a lane's Bs[k][tx] is b_lane0 + lane
      for (int lane = begin; lane < end; ++lane) run(warp_lanes[lane], a, cells[b_lane0 + lane].value);
    });
  });
}

void LessonStep::AdvanceLanes(Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) {
  const std::optional<ProgramCounter> next = WarpNext(warp_lanes[0], pc);
  if (next && next->op != Op::kDone) {
    ForEachLane(warp_lanes, lanes, [&](Thread& thread) { thread.pc = *next; });
    return;
  }
  ForEachLane(warp_lanes, lanes, [this, pc](Thread& thread) { Advance(thread, pc); });
}

TILESCOPE_STEP_INLINE void LessonStep::CountWarpInstruction(const Thread& leader) {
  const ProgramCounter pc = leader.pc;
  if (IsBarrier(pc.op) || (m_.geometry.naive && pc.op == Op::kFma)) return;  // no memory touched
  if (pc.op == Op::kLoadA || pc.op == Op::kLoadB || pc.op == Op::kStoreC) {
    LessonGlobalAccess global(m_, tables_);
    global.CountSectors(leader, global.SectorsOf(leader));
    l2_halves_ |= global.l2_halves();
    return;
  }
  const SharedCost& cost = tables_.SharedCostOf(m_.state.warps[static_cast<std::size_t>(leader.warp)].index_in_block, pc);
  m_.state.counters.bank_conflicts += cost.conflicts;
  PhaseOf(leader).bank_conflicts += cost.conflicts;
  wavefronts_ = cost.wavefronts;
}

void LessonStep::Advance(Thread& thread, const ProgramCounter& pc) {
  thread.pc = m_.program.Next(thread, pc);
  if (thread.pc.op == Op::kDone) LessonBarriers(m_, tables_).Exit(thread);
}

}  // namespace sim
