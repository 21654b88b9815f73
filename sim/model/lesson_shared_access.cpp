#include "sim/model/lesson_shared_access.h"

#include <array>
#include "sim/model/bits.h"
#include "sim/model/hazard_tally.h"
#include "sim/model/warp_lanes.h"

namespace sim {

void LessonSharedAccess::StoreShared(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const auto n = static_cast<std::uint64_t>(CountBits(lanes));
  m_.state.counters.shared_writes += n;
  PhaseOf(first).shared_writes += n;
  const StoreWords words = StoreWordsAt(pc);
  // Every store is checked before any is written: no other lane of the instruction stores a
  // lane's cell (each thread stores its own), so the old values are those the stores find.
  // Nothing is kept around a call per lane: 256³ TILE 16 without the 1st barrier, StoreShared
  // 147 → 106 M instructions under callgrind (89f8287).
  if (m_.shared_accesses_can_race) CheckStores(warp_lanes, lanes, words);
  const std::optional<ProgramCounter> next = WarpNext(warp_lanes[0], pc);
  WriteCells(warp_lanes, lanes, start, words, next);
  if (m_.shared_accesses_can_race) CountLastStores(warp_lanes, lanes, next);
}

LessonSharedAccess::StoreWords LessonSharedAccess::StoreWordsAt(const ProgramCounter& pc) const {
  // A lane stores As[ty][AColumn] or Bs[BRow][tx], and a word is row · stride + column + base.
  const bool as = pc.op == Op::kStoreAs;
  const TileId tile = as ? TileId::kAs : TileId::kBs;
  const SharedMemory& shared = m_.state.shared;
  StoreWords words;
  words.row_stride = shared.Word(tile, 1, 0) - shared.Word(tile, 0, 0);
  words.offset = as ? shared.Word(tile, 0, m_.program.AColumnOffset(pc.j)) : shared.Word(tile, m_.program.BRowOffset(pc.j), 0);
  words.source = as ? &Registers::a : &Registers::b;
  return words;
}

void LessonSharedAccess::CheckStores(const Thread* warp_lanes, std::uint32_t lanes, const StoreWords& words) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const SharedCell* const cells = &m_.state.shared.Cell(first.block, 0);
  PhaseCounters& phase = PhaseOf(first);
  // What the lanes' stores share, as the hazard detector sees them, found once rather than by
  // CheckStore for each lane (256³ TILE 16 without the 1st barrier, callgrind: 4,563 → 4,505 M
  // instructions, best CPU 0.511 → 0.500 s; f7f216e).
  const Warp& warp = m_.state.warps[static_cast<std::size_t>(first.warp)];
  const int block_epoch = m_.state.blocks[static_cast<std::size_t>(first.block)].syncthreads.generation();
  SharedAccess write{first.block, 0, 0, warp.index_in_block, warp.syncwarp.generation(), pc.Stage(), pc.op, true, 0.0f, 0.0f};
  ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
    write.word = words.Of(thread);
    write.thread = thread.index_in_block;
    write.value = thread.regs.*words.source;
    write.old_value = cells[write.word].value;
    CheckStore(thread, write, block_epoch, phase);
  });
}

void LessonSharedAccess::WriteCells(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, const StoreWords& words,
                         const std::optional<ProgramCounter>& next) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int t = first.pc.t;
  SharedCell* const cells = &m_.state.shared.Cell(first.block, 0);
  float Registers::*const source = words.source;
  if (lanes != ~std::uint32_t{0} || !next) {
    const ProgramCounter pc = first.pc;
    ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
      start(thread);
      SharedCell& cell = cells[words.Of(thread)];
      cell.value = thread.regs.*source;
      cell.writer = thread.index_in_block;
      cell.phase = t;
      // A store's next instruction is never the end (Program::Next): no exit to look for.
      thread.pc = next ? *next : m_.program.Next(thread, pc);
    });
    return;
  }
  // A whole warp going on to one instruction, row by row: along a row's run tx, and with it
  // the word, grows by one a lane (256³ TILE 16 under callgrind: StoreShared 82 → 51 M
  // instructions; 44e1042).
  const ProgramCounter same_next = *next;
  const int first_thread = warp_lanes[0].index_in_block;
  ForEachRowRun(first_thread, m_.geometry.tn, [&](int, int begin, int end) {
    SharedCell* cell = &cells[words.Of(warp_lanes[begin])];
    for (int lane = begin; lane < end; ++lane, ++cell) {
      Thread& thread = warp_lanes[lane];
      start(thread);
      cell->value = thread.regs.*source;
      cell->writer = first_thread + lane;
      cell->phase = t;
      thread.pc = same_next;
    }
  });
}

void LessonSharedAccess::CountLastStores(const Thread* warp_lanes, std::uint32_t lanes, const std::optional<ProgramCounter>& next) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  int last_stores = 0;
  // Where every lane went on to `next` and the corners agree on whether it stores again
  // before the next __syncthreads(), so does every lane.
  const Program::Corners& corners = tables_.warp_corners[static_cast<std::size_t>(first.index_in_block / kWarpSize)];
  const bool low_stores_again = next && m_.program.StoresSharedBeforeSyncthreads(corners.low, *next);
  if (next && low_stores_again == m_.program.StoresSharedBeforeSyncthreads(corners.high, *next)) {
    last_stores = low_stores_again ? 0 : CountBits(lanes);
  } else {
    ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
      if (!m_.program.StoresSharedBeforeSyncthreads(thread, thread.pc)) ++last_stores;
    });
  }
  m_.state.blocks[static_cast<std::size_t>(first.block)].shared_writers -= last_stores;
}

void LessonSharedAccess::CheckStore(const Thread& thread, const SharedAccess& write, int block_epoch, PhaseCounters& phase) {
  HazardTally tally;
  m_.state.hazard_detector.OnAccess(write, block_epoch, [&](const Conflict& conflict) {
    tally.Add(conflict, static_cast<std::uint64_t>(CountBits(conflict.earlier_lanes)));
    // Past the log's limit hazards are counted and traced, not described.
    if (m_.state.hazard_log_size < kMaxLoggedHazards) m_.LogHazards(write, conflict, StorePlace(thread, thread.pc));
  });
  if (tally.hazards == 0) return;
  m_.CountHazards(tally, phase);
  m_.state.last_step.NoteHazards(thread.lane, 0, static_cast<std::uint32_t>(tally.hazards));
}

void LessonSharedAccess::CheckTileReads(Thread* warp_lanes, std::uint32_t lanes) {
  // Each lane's reads of As[ty][k] and Bs[k][tx], checked against this generation's writes of
  // their cells.
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int k = first.pc.j;
  const SharedCell* const cells = &m_.state.shared.Cell(first.block, 0);
  const Warp& warp = m_.state.warps[static_cast<std::size_t>(first.warp)];
  const Block& block = m_.state.blocks[static_cast<std::size_t>(first.block)];
  HazardDetector::WarpReads reads(m_.state.hazard_detector,
                                  SharedAccess{first.block, 0, 0, warp.index_in_block, warp.syncwarp.generation(),
                                               first.pc.Stage(), Op::kFma, false, 0.0f, 0.0f},
                                  block.syncthreads.generation(), block.shared_writers > 0);
  PhaseCounters& phase = PhaseOf(first);
  const auto list = [&](const Thread& thread, const SharedPlace& cell, int access_slot) {
    const int word = m_.state.shared.Word(cell.tile, cell.row, cell.col);
    m_.state.last_step.NoteHazards(thread.lane, access_slot, ListReadHazards(reads, thread, cell, word, cells[word].value, phase));
  };
  // While the hazard log has room, each read is listed, lane by lane as the lanes run.
  if (m_.state.hazard_log_size < kMaxLoggedHazards) {
    ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
      list(thread, SharedPlace{TileId::kAs, thread.ty, k}, 0);
      list(thread, SharedPlace{TileId::kBs, k, thread.tx}, 1);
    });
    return;
  }
  // Past it hazards are counted, not described: the detector judges each cell once for the
  // lanes that read it (WarpReads::Gather), As[ty][k] at a_column + ty · a_stride, Bs[k][tx]
  // at b_row + tx. Without the 1st barrier, under callgrind: 128³ 1,159.5 → 803.4 M
  // instructions (75ef6d8); in one pass, cell by cell, 256³ 4,305 → 3,312 M (141102d).
  const int a_column = m_.state.shared.Word(TileId::kAs, 0, k);
  const int a_stride = m_.state.shared.Word(TileId::kAs, 1, 0);
  const int b_row = m_.state.shared.Word(TileId::kBs, k, 0);
  if (lanes == ~std::uint32_t{0}) {
    GatherWarpReads(reads, first.index_in_block, a_column, a_stride, b_row);
  } else {
    ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
      reads.Gather(0, a_column + thread.ty * a_stride, thread.lane);
      reads.Gather(1, b_row + thread.tx, thread.lane);
    });
  }
  // The cells' hazards go into the counters and the step's record together, once.
  HazardTally tally;
  std::array<std::uint32_t, 2> found_one{};  // the lanes whose read of As, of Bs found one hazard
  reads.Judge(cells, [&](const Conflict& conflict, int access_slot, const HazardDetector::WarpReads::CellHazards& found) {
    tally.Add(conflict, found.total);
    // A cell's one write is one lane's store (HazardDetector::OnAccess): each is 1, and the
    // writer's own lane finds none.
    if (found.each == 1) {
      found_one[static_cast<std::size_t>(access_slot)] |= found.others;
      return;
    }
    for (std::uint32_t others = found.others; others != 0; others &= others - 1) {
      m_.state.last_step.NoteHazards(__builtin_ctz(others), access_slot, found.each);
    }
    for (std::uint32_t own = found.own; own != 0; own &= own - 1) m_.state.last_step.NoteHazards(__builtin_ctz(own), access_slot, found.each - 1);
  });
  m_.state.last_step.NoteOneHazardEach(found_one[0], 0);
  m_.state.last_step.NoteOneHazardEach(found_one[1], 1);
  m_.CountHazards(tally, phase);
  if (reads.AnyListed()) {
    ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
      if (reads.Listed(0, thread.lane)) list(thread, SharedPlace{TileId::kAs, thread.ty, k}, 0);
      if (reads.Listed(1, thread.lane)) list(thread, SharedPlace{TileId::kBs, k, thread.tx}, 1);
    });
  }
}

void LessonSharedAccess::GatherWarpReads(HazardDetector::WarpReads& reads, int first_thread, int a_column, int a_stride,
                              int b_row) const {
  // Threads are numbered along the block's rows (ty · TN + tx): a row's lanes, which read its
  // As cell, are a run; every TN-th lane reads the same Bs cell. Each cell goes once, with all
  // its lanes, in the order of their lowest lane: distinct rows and columns are distinct cells.
  // From the geometry, not lane by lane: 256³ TILE 16 without the 1st barrier 4,702 → 4,316 M
  // instructions under callgrind (de617b6).
  const int tn = m_.geometry.tn;
  ForEachRowRun(first_thread, tn, [&](int row, int begin, int end) {
    const std::uint32_t run = end - begin == kWarpSize ? ~std::uint32_t{0} : ((1u << (end - begin)) - 1) << begin;
    reads.GatherDistinct(0, a_column + row * a_stride, run, end - begin);
  });
  std::uint32_t every_tn = 0;  // lanes 0, TN, 2·TN, ...: `readers` of them
  int readers = 0;
  for (int lane = 0; lane < kWarpSize; lane += tn, ++readers) every_tn |= 1u << lane;
  // Lane l's cell is read by lanes l, l + TN, ... below the warp's 32: one fewer from lane
  // 32 - (readers - 1) · TN on (never below TN, where TN divides 32), not a division per cell
  // (GatherWarpReads 280 → 245 M instructions under callgrind; 8573dc0).
  const int fewer_from = kWarpSize - (readers - 1) * tn;
  int tx = first_thread % tn;
  for (int lane = 0; lane < std::min(tn, kWarpSize); ++lane) {
    reads.GatherDistinct(1, b_row + tx, every_tn << lane, lane < fewer_from ? readers : readers - 1);
    if (++tx == tn) tx = 0;
  }
}

std::uint32_t LessonSharedAccess::ListReadHazards(HazardDetector::WarpReads& reads, const Thread& thread, SharedPlace cell,
                                       int word, float value, PhaseCounters& phase) {
  HazardTally tally;
  reads.Read(thread.index_in_block, word, value, [&](const Conflict& conflict) {
    tally.Add(conflict, static_cast<std::uint64_t>(CountBits(conflict.earlier_lanes)));
    m_.LogHazards(reads.access(), conflict, cell);
  });
  m_.CountHazards(tally, phase);
  return static_cast<std::uint32_t>(tally.hazards);
}

}  // namespace sim
