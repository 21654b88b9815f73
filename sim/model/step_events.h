// step_events.h — a lesson step's events, built from its StepRecord and the state after it
// (Machine::last_step_events), so that a step that nobody looks at builds none.
#pragma once
#include <cstddef>
#include <vector>

#include "sim/model/lesson_places.h"
#include "sim/model/lesson_tables.h"
#include "sim/model/machine_core.h"
#include "sim/model/trace.h"

namespace sim {

class StepEventBuilder {
 public:
  StepEventBuilder(const MachineCore& machine, const LessonTables& tables) : m_(machine), tables_(tables) {}

  // The last step's events, in the order its lanes ran, each barrier release after the lane
  // that completed it.
  void Build(std::vector<TraceEvent>& events) const;

 private:
  struct StepEventCursor {
    std::size_t hazard_index = 0;  // the next logged hazard's and out-of-bounds access's index
    std::size_t out_of_bounds_index = 0;
  };
  void AddLaneEvents(const Thread& thread, StepEventCursor& cursor, std::vector<TraceEvent>& events) const;
  void AddHazardEvents(const Thread& thread, int access, const SharedPlace& cell, float value,
                       StepEventCursor& cursor, std::vector<TraceEvent>& events) const;
  void AddOutOfBoundsEvent(const Thread& thread, Place place, float value, StepEventCursor& cursor,
                           std::vector<TraceEvent>& events) const;
  // The event of `kind` for this thread's instruction at `pc`.
  TraceEvent EventOf(const Thread& thread, const ProgramCounter& pc, EventKind kind) const;

  const MachineCore& m_;
  const LessonTables& tables_;
};

}  // namespace sim
