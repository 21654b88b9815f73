#include "sim/model/lesson_global_access.h"

#include <algorithm>
#include "sim/model/bits.h"
#include "sim/model/warp_lanes.h"

namespace sim {

bool LessonGlobalAccess::LoadGlobal(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, bool counts_sectors) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const MatrixId id = pc.op == Op::kLoadA ? MatrixId::kA : MatrixId::kB;
  const float* const values = (id == MatrixId::kA ? m_.memory.a() : m_.memory.b()).data();
  const long long cols = m_.memory.cols(id);
  const auto phase_index = static_cast<std::int16_t>(m_.geometry.naive ? 0 : pc.t);
  // A load's next instruction is the same for every thread (Program::Next), and never the end.
  const ProgramCounter next = m_.program.Next(first, pc);
  const GlobalPlaces places = GlobalPlacesAt(pc);
  // A guarded lane outside the matrix makes no access (SectorsOf).
  const bool sectors_outside = counts_sectors && !m_.config.guard;
  WarpSectors sectors;
  std::uint64_t inside = 0;
  bool loaded = false;
  if (lanes == ~std::uint32_t{0} && WarpInside(warp_lanes, places)) {
    LoadWarpInside(warp_lanes, start, places, next, phase_index, counts_sectors ? &sectors : nullptr);
    inside = kWarpSize;
  } else {
    ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
      start(thread);
      const GlobalPlace place = places.Of(thread);
      float& reg = id == MatrixId::kA ? thread.regs.a : thread.regs.b;
      if (m_.memory.Inside(id, place.row, place.col)) {
        // Most loads: an element of the matrix, counted below for all such lanes at once.
        const long long element = place.row * cols + place.col;
        if (counts_sectors) sectors.Add(id, element);
        reg = values[element];
        m_.state.reads.CountElement(id, element);
        LogRead(thread, id, element, phase_index);
        ++inside;
      } else {
        if (sectors_outside) sectors.Add(id, place.row * cols + place.col);
        loaded |= LoadOutside(thread, place, phase_index, reg);
      }
      thread.pc = next;
    });
  }
  if (counts_sectors) CountSectors(first, sectors);
  if (inside == 0) return loaded;
  m_.state.reads.CountBlock(id, first.block, inside);
  PhaseCounters& phase = PhaseOf(first);
  (id == MatrixId::kA ? m_.state.counters.global_reads_a : m_.state.counters.global_reads_b) += inside;
  (id == MatrixId::kA ? phase.global_reads_a : phase.global_reads_b) += inside;
  return true;
}

bool LessonGlobalAccess::WarpInside(const Thread* warp_lanes, const GlobalPlaces& places) const {
  // Along a row's run a lane's column grows (A's with tx by the places' step, B's as col does)
  // and its row stays: the run is inside where its ends are.
  bool inside = true;
  ForEachRowRun(warp_lanes[0].index_in_block, m_.geometry.tn, [&](int, int begin, int end) {
    const GlobalPlace low = places.Of(warp_lanes[begin]);
    const GlobalPlace high = places.Of(warp_lanes[end - 1]);
    inside = inside && m_.memory.Inside(places.matrix, low.row, low.col) && m_.memory.Inside(places.matrix, high.row, high.col);
  });
  return inside;
}

void LessonGlobalAccess::LoadWarpInside(Thread* warp_lanes, LaneStart start, const GlobalPlaces& places, ProgramCounter next,
                             std::int16_t phase_index, WarpSectors* sectors) {
  const MatrixId id = places.matrix;
  const float* const values = (id == MatrixId::kA ? m_.memory.a() : m_.memory.b()).data();
  float Registers::*const reg = id == MatrixId::kA ? &Registers::a : &Registers::b;
  const long long cols = m_.memory.cols(id);
  // Along a row's run the element grows with tx: A's by the places' step (0 in the naive
  // kernel, whose lanes of a row read one element), B's by one.
  const long long lane_step = id == MatrixId::kA ? places.step : 1;
  std::array<std::int32_t, kWarpSize> elements;
  ForEachRowRun(warp_lanes[0].index_in_block, m_.geometry.tn, [&](int, int begin, int end) {
    const GlobalPlace place = places.Of(warp_lanes[begin]);
    long long element = place.row * cols + place.col;
    if (sectors != nullptr) sectors->AddRun(id, element, element + (end - 1 - begin) * lane_step);
    m_.state.reads.CountRun(id, element, end - begin, lane_step);
    for (int lane = begin; lane < end; ++lane, element += lane_step) {
      Thread& thread = warp_lanes[lane];
      start(thread);
      thread.regs.*reg = values[element];
      thread.pc = next;
      elements[static_cast<std::size_t>(lane)] = static_cast<std::int32_t>(element);
    }
  });
  LogWarpReads(warp_lanes, id, elements, phase_index);
}

bool LessonGlobalAccess::LoadOutside(Thread& thread, const GlobalPlace& place, std::int16_t phase_index, float& reg) {
  const MatrixId id = place.matrix;
  if (m_.config.guard) {
    // `cond ? A[...] : 0.0f` with a false condition: zero padding, no memory access.
    reg = 0.0f;
    ++m_.state.counters.select_zero;
    return false;
  }
  // No guard: the read lands where the address falls (GlobalMemory::Load), and is flagged.
  reg = m_.memory.Load(id, place.row, place.col);
  const long long element = m_.memory.ElementAt(id, place.row, place.col);
  m_.state.reads.CountElement(id, element);
  m_.state.reads.CountBlock(id, thread.block, 1);
  PhaseCounters& phase = PhaseOf(thread);
  ++(id == MatrixId::kA ? m_.state.counters.global_reads_a : m_.state.counters.global_reads_b);
  ++(id == MatrixId::kA ? phase.global_reads_a : phase.global_reads_b);
  if (element >= 0) LogRead(thread, id, element, phase_index);
  RecordOutOfBounds(thread, id, place.row, place.col, false, element >= 0, reg);
  return true;
}

void LessonGlobalAccess::StoreC(Thread& thread) {
  const int row = thread.regs.row;
  const int col = thread.regs.col;
  const bool inside = m_.memory.Inside(MatrixId::kC, row, col);
  if (m_.config.guard && !inside) return;  // the guard skips the store
  if (!inside) {
    RecordOutOfBounds(thread, MatrixId::kC, row, col, true, false, thread.regs.sum);
    return;
  }
  const std::size_t element = static_cast<std::size_t>(row) * m_.geometry.n + col;
  m_.state.c[element] = thread.regs.sum;
  m_.state.c_written[element] = 1;
  ++m_.state.counters.global_writes;
}

void LessonGlobalAccess::CountSectors(const Thread& leader, const WarpSectors& sectors) {
  const auto added = static_cast<std::uint64_t>(sectors.distinct);
  m_.state.counters.global_sectors += added;
  if (leader.pc.op != Op::kStoreC) PhaseOf(leader).global_sectors += added;
  l2_halves_ |= sectors.l2_halves;
}

WarpSectors LessonGlobalAccess::SectorsOf(const Thread& leader) const {
  const ProgramCounter pc = leader.pc;
  const GlobalPlaces places = GlobalPlacesAt(pc);
  const MatrixId id = places.matrix;
  const long long cols = m_.memory.cols(id);
  // Guarded lanes outside the matrix make no access; an unguarded store outside C is dropped.
  const bool outside_skipped = m_.config.guard || id == MatrixId::kC;
  const Warp& warp = m_.state.warps[static_cast<std::size_t>(leader.warp)];
  const Thread* const warp_lanes = &m_.state.threads[static_cast<std::size_t>(warp.first_thread)];
  WarpSectors sectors;
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = warp_lanes[lane];
    if (!m_.program.Contains(thread, pc)) continue;
    const GlobalPlace place = places.Of(thread);
    if (outside_skipped && !m_.memory.Inside(id, place.row, place.col)) continue;
    sectors.Add(id, place.row * cols + place.col);
  }
  return sectors;
}

void LessonGlobalAccess::RecordOutOfBounds(const Thread& thread, MatrixId id, long long row, long long col, bool write,
                                bool inside, float value) {
  ++m_.state.counters.out_of_bounds;
  if (m_.logs.out_of_bounds.size() < kMaxLoggedOutOfBounds) {
    m_.logs.out_of_bounds.push_back(OutOfBoundsAccess{m_.state.step, thread.block, thread.index_in_block, id,
                                                    thread.pc.op, static_cast<std::int32_t>(row),
                                                    static_cast<std::int32_t>(col), write, inside, value});
    m_.state.out_of_bounds_log_size = m_.logs.out_of_bounds.size();
  }
}

}  // namespace sim
