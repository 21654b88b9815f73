// step_events.cpp — a step's events, built from its StepRecord and the state after the step.
//
// Every value an event shows is still in that state: a load's register holds what it loaded,
// a shared store's register what it stored, an inner product's cells what it read (an fma
// step writes no cell) and its sum the new one, a store of C the sum it stored. The record
// adds what the state cannot tell: the instruction, the lanes, the hazards each access found
// and the barriers released. The logs give hazards and out-of-bounds accesses their indices
// in order, from the lengths the record kept, while they have room.
#include <cstddef>
#include <vector>

#include "sim/model/step_events.h"

namespace sim {

void StepEventBuilder::Build(std::vector<TraceEvent>& events) const {
  events.clear();
  const StepRecord& record = m_.state.last_step;
  StepEventCursor cursor{record.hazard_log_size, record.out_of_bounds_log_size};
  std::size_t release = 0;
  // Lanes in the order they ran: a warp-instruction runs its lanes from the lowest up.
  for (std::uint32_t lanes = record.lanes; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctz(lanes);
    AddLaneEvents(m_.state.threads[static_cast<std::size_t>(record.first_thread + lane)], cursor, events);
    for (; release < record.releases.size() && record.releases[release].lane == lane; ++release) {
      events.push_back(record.releases[release].event);
    }
  }
}

void StepEventBuilder::AddLaneEvents(const Thread& thread, StepEventCursor& cursor, std::vector<TraceEvent>& events) const {
  const ProgramCounter pc = m_.state.last_step.pc;
  switch (pc.op) {
    case Op::kLoadA:
    case Op::kLoadB: {
      const GlobalPlace place = GlobalPlacesAt(m_.geometry, m_.program, pc).Of(thread);
      const bool inside = m_.memory.Inside(place.matrix, place.row, place.col);
      const bool padded = m_.config.guard && !inside;  // `cond ? A[...] : 0.0f`: no access
      TraceEvent& event = events.emplace_back(EventOf(thread, pc, padded ? EventKind::kSelectZero : EventKind::kGlobalLoad));
      event.from = Place::Global(place.matrix, static_cast<int>(place.row), static_cast<int>(place.col));
      event.value = padded ? 0.0f : (place.matrix == MatrixId::kA ? thread.regs.a : thread.regs.b);
      if (!inside && !padded) AddOutOfBoundsEvent(thread, event.from, event.value, cursor, events);
      return;
    }
    case Op::kStoreAs:
    case Op::kStoreBs: {
      const SharedPlace cell = StorePlace(m_.program, thread, pc);
      const float value = cell.tile == TileId::kAs ? thread.regs.a : thread.regs.b;
      AddHazardEvents(thread, 0, cell, value, cursor, events);
      TraceEvent& event = events.emplace_back(EventOf(thread, pc, EventKind::kSharedStore));
      event.to = Place::Shared(cell.tile, cell.row, cell.col);
      // Where the stored register came from: the element this thread's load named (zero
      // padding when the guard kept it from reading).
      const int first_k = pc.t * m_.geometry.tk;
      event.from = cell.tile == TileId::kAs ? Place::Global(MatrixId::kA, thread.regs.row, first_k + cell.col)
                                            : Place::Global(MatrixId::kB, first_k + cell.row, thread.regs.col);
      event.value = value;
      return;
    }
    case Op::kFma: {
      TraceEvent event = EventOf(thread, pc, EventKind::kFma);
      if (m_.geometry.naive) {
        event.operand_a = thread.regs.a;
        event.operand_b = thread.regs.b;
      } else {
        const SharedPlace a{TileId::kAs, thread.ty, pc.j};
        const SharedPlace b{TileId::kBs, pc.j, thread.tx};
        event.operand_a = m_.state.shared.Cell(thread.block, m_.state.shared.Word(a.tile, a.row, a.col)).value;
        event.operand_b = m_.state.shared.Cell(thread.block, m_.state.shared.Word(b.tile, b.row, b.col)).value;
        AddHazardEvents(thread, 0, a, event.operand_a, cursor, events);
        AddHazardEvents(thread, 1, b, event.operand_b, cursor, events);
        event.from = Place::Shared(a.tile, a.row, a.col);
        event.from2 = Place::Shared(b.tile, b.row, b.col);
      }
      event.value = thread.regs.sum;
      events.push_back(event);
      return;
    }
    case Op::kBarrier1:
    case Op::kBarrier2:
      events.push_back(EventOf(thread, pc, EventKind::kBarrierArrive));
      return;
    case Op::kStoreC: {
      const Place to = Place::Global(MatrixId::kC, thread.regs.row, thread.regs.col);
      const bool inside = m_.memory.Inside(MatrixId::kC, to.row, to.col);
      if (!inside && !m_.config.guard) {
        AddOutOfBoundsEvent(thread, to, thread.regs.sum, cursor, events);
        return;
      }
      TraceEvent& event = events.emplace_back(EventOf(thread, pc, inside ? EventKind::kStoreC : EventKind::kSkipStoreC));
      event.to = to;
      if (inside) event.value = thread.regs.sum;
      return;
    }
    case Op::kDone:
      return;
  }
}

void StepEventBuilder::AddHazardEvents(const Thread& thread, int access, const SharedPlace& cell, float value,
                              StepEventCursor& cursor, std::vector<TraceEvent>& events) const {
  const std::uint32_t found = m_.state.last_step.HazardsAt(StepRecord::HazardSlot(thread.lane, access));
  if (found == 0) return;
  const ProgramCounter pc = m_.state.last_step.pc;
  TraceEvent event = EventOf(thread, pc, EventKind::kHazard);
  event.phase = pc.Stage() / 8;  // a hazard is in the phase of its second access
  event.to = Place::Shared(cell.tile, cell.row, cell.col);
  event.value = value;
  for (std::uint32_t i = 0; i < found; ++i) {
    // Past the log's limit hazards are traced, not described.
    event.index = cursor.hazard_index < kMaxLoggedHazards ? static_cast<std::int32_t>(cursor.hazard_index++) : -1;
    events.push_back(event);
  }
}

void StepEventBuilder::AddOutOfBoundsEvent(const Thread& thread, Place place, float value, StepEventCursor& cursor,
                                  std::vector<TraceEvent>& events) const {
  const bool write = m_.state.last_step.pc.op == Op::kStoreC;
  TraceEvent& event = events.emplace_back(EventOf(thread, m_.state.last_step.pc, EventKind::kOutOfBounds));
  (write ? event.to : event.from) = place;
  event.value = value;
  if (cursor.out_of_bounds_index < kMaxLoggedOutOfBounds) {
    event.index = static_cast<std::int32_t>(cursor.out_of_bounds_index++);
  }
}

TraceEvent StepEventBuilder::EventOf(const Thread& thread, const ProgramCounter& pc, EventKind kind) const {
  TraceEvent event;
  event.step = m_.state.step;
  event.kind = kind;
  event.op = pc.op;
  event.line = tables_.lines[static_cast<std::size_t>(pc.op)];
  event.block = thread.block;
  event.thread = thread.index_in_block;
  event.phase = m_.geometry.naive ? 0 : pc.t;
  return event;
}

}  // namespace sim
