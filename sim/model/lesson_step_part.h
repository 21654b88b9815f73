// lesson_step_part.h — what the parts of a lesson's step share: the machine they step, the
// lesson's tables, and the look-ups every part makes (the phase a thread counts in, the next
// instruction of a whole warp, the places an instruction names).
#pragma once
#include <cstddef>
#include <optional>

#include "sim/model/lesson_places.h"
#include "sim/model/lesson_tables.h"
#include "sim/model/machine_core.h"

namespace sim {

class LessonStepPart {
 protected:
  LessonStepPart(MachineCore& machine, const LessonTables& tables) : m_(machine), tables_(tables) {}

  std::size_t PhaseIndex(int phase) const {
    // Clamped into the phases the counters keep (a store of C runs at t = phases).
    const int last = static_cast<int>(m_.state.counters.phases.size()) - 1;
    return static_cast<std::size_t>(phase < 0 ? 0 : (phase > last ? last : phase));
  }
  PhaseCounters& PhaseOf(const Thread& thread) {
    return m_.state.counters.phases[PhaseIndex(m_.geometry.naive ? 0 : thread.pc.t)];
  }
  std::optional<ProgramCounter> WarpNext(const Thread& lane0, const ProgramCounter& pc) const {
    return tables_.WarpNext(m_.program, lane0, pc);
  }
  GlobalPlaces GlobalPlacesAt(const ProgramCounter& pc) const { return sim::GlobalPlacesAt(m_.geometry, m_.program, pc); }
  SharedPlace StorePlace(const Thread& thread, const ProgramCounter& pc) const {
    return sim::StorePlace(m_.program, thread, pc);
  }

  MachineCore& m_;
  const LessonTables& tables_;
};

}  // namespace sim
