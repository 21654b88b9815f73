// machine.h — the GPU a lesson runs on, one step at a time.
//
// Owns the grid (blocks → warps → threads), shared memory, the barriers, the scheduler,
// the hazard detector, C and every counter (MachineCore). It runs either a lesson's Program
// (lesson_step.h) or a student's compiled kernel (kernel_step.h) with the same parts.
// Everything that changes while running lives in MachineState (machine_state.h), a plain
// value, so history can checkpoint it and step back exactly; the append-only logs are kept
// outside and cut back to the lengths a restored state recorded. A and B never change.
// A step's events are not built while it runs: the state keeps a StepRecord of it, from
// which last_step_events() builds them when they are first asked for (step_events.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/cuda/ir.h"
#include "sim/model/kernel_launch.h"
#include "sim/model/lesson_tables.h"
#include "sim/model/machine_core.h"
#include "sim/model/trace.h"

namespace sim {

class Machine {
 public:
  Machine(const KernelConfig& config, std::vector<float> a, std::vector<float> b);
  // Runs a student's kernel (a launch ValidateLaunch accepts) with the same parts.
  Machine(const KernelLaunch& launch, std::vector<float> a, std::vector<float> b);

  // Runs one scheduler unit; false when nothing is left to run.
  bool Step();
  bool Finished() const { return core_.state.exited_threads == core_.geometry.threads(); }
  void Restore(const MachineState& state);
  // Whether the logs hold every record `state` counts: always for a state of this run at or
  // before the current step; for a later one only where the logs were not cut since.
  bool LogsReach(const MachineState& state) const { return core_.LogsReach(state); }
  void SetSink(TraceSink* sink) { sink_ = sink; }
  // The events of the last step, built from its record on the first call after it. Like
  // every read of a machine, on the thread that steps it.
  const std::vector<TraceEvent>& last_step_events() const;
  // What the last step's events share but its barrier releases, told without building them
  // (the whole-run pass looks at every step): whether any lane ran, the instruction and phase
  // of every other event, and whether hazards and releases are among them.
  struct StepOutline {
    bool ran = false;
    Op op = Op::kDone;
    int phase = 0;
    bool hazards = false;
    bool releases = false;
  };
  StepOutline LastStepOutline() const;

  const KernelConfig& config() const { return core_.config; }
  // The student's kernel this machine runs; null for a lesson's.
  const cuda::CompiledKernel* kernel() const { return kernel_.kernel.get(); }
  const KernelLaunch& launch() const { return kernel_.launch; }
  // A thread's registers (a student's kernel only).
  const std::uint32_t* RegistersOf(int thread) const { return kernel_.Registers(core_.state.registers, thread); }
  const Geometry& geometry() const { return core_.geometry; }
  const Program& program() const { return core_.program; }
  const GlobalMemory& memory() const { return core_.memory; }
  const MachineState& state() const { return core_.state; }
  const MachineLogs& logs() const { return core_.logs; }
  // What the read log holds at most (reserved up front) for this launch: reads, and the loads
  // (steps) they are part of.
  struct ReadLogBounds {
    std::size_t reads;
    std::size_t loads;
  };
  static ReadLogBounds ReadLogBound(const KernelConfig& config, const Geometry& g);
  // Whether two threads' accesses of a shared cell can race in this lesson: only then does the
  // hazard detector see them and keep a shadow of each cell.
  static bool SharedAccessesCanRace(const KernelConfig& config);

 private:
  MachineCore core_;
  LessonTables lesson_;     // a lesson's (empty for a student's kernel)
  KernelProgram kernel_;    // a student's kernel (kernel null for a lesson)
  TraceSink* sink_ = nullptr;
  // last_step_events(), built on demand: a cache of what the record gives.
  mutable std::vector<TraceEvent> step_events_;
  mutable bool step_events_built_ = true;
};

}  // namespace sim
