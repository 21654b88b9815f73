// simulation.h — the steppable model a lesson runs on: step forward by instruction, warp,
// barrier or phase, run to a breakpoint or the end, step back exactly, scrub to any step.
//
// Simulation = Machine (the GPU model) + History (checkpoints for step back) + the sink
// that receives events of forward steps. Read the state through snapshot(); the model
// never prints. Every navigation is a count of scheduler steps, so step S of a lesson is
// the same state however it was reached.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sim/model/history.h"
#include "sim/model/kernel_config.h"
#include "sim/model/machine.h"
#include "sim/model/snapshot.h"
#include "sim/model/trace.h"

namespace sim {

// Where "run until" stops: after the step that matches.
struct Breakpoint {
  enum class Kind : std::uint8_t {
    kBarrierArrive,   // any thread arrives at a barrier
    kBarrierRelease,  // a barrier releases its threads
    kPhase,           // some thread runs its first instruction of `phase`
    kThread,          // thread `thread` of block `block` runs an instruction
    kHazard,          // a hazard is detected
  };
  Kind kind = Kind::kBarrierRelease;
  int phase = 0;
  int block = 0;
  int thread = 0;

  bool Matches(const std::vector<TraceEvent>& step_events) const;
};

// The whole run at a glance, for the timeline: "step N of M" and marks along it.
struct TimelineMark {
  enum class Kind : std::uint8_t { kPhaseStart, kBarrierRelease, kFirstHazard };
  Kind kind = Kind::kPhaseStart;
  std::int64_t step = 0;
  int phase = 0;
  int block = 0;
};

struct Timeline {
  std::int64_t total_steps = 0;
  Counters counters;  // everything the whole run counts: the figures "at the end"
  std::vector<TimelineMark> marks;  // phase starts, barrier releases (first kMaxMarks), first hazard per phase
};

constexpr std::size_t kMaxTimelineMarks = 4096;

// A whole run and the machine that ran it, standing at its end, with the correct product
// its C is judged by (RunWholeRun makes both on a worker: at 1024³ each takes seconds).
struct FinishedRun {
  Timeline timeline;
  Machine machine;
  std::vector<float> reference;
};

class Simulation {
 public:
  // Throws std::invalid_argument with ValidateKernel()'s message when the kernel cannot run;
  // whether a lesson fits in memory is judged before, by sim/lesson/validation.h.
  explicit Simulation(const KernelConfig& config, std::size_t history_budget = kDefaultHistoryBudget);
  // The same lesson on given A (M×K) and B (K×N), row-major: the GPU comparison tests use it.
  Simulation(const KernelConfig& config, std::vector<float> a, std::vector<float> b,
             std::size_t history_budget = kDefaultHistoryBudget);
  // A student's kernel (a launch ValidateLaunch accepts) on A and B, with the same stepping.
  Simulation(const KernelLaunch& launch, std::vector<float> a, std::vector<float> b,
             std::size_t history_budget = kDefaultHistoryBudget);

  const KernelConfig& config() const { return machine_.config(); }
  const Geometry& geometry() const { return machine_.geometry(); }
  // Events of forward steps go to `sink` (nullptr: none); replays for step back do not.
  void SetSink(TraceSink* sink);

  // Forward. Each returns the steps taken (0 at the end).
  std::int64_t Step();              // one unit: a warp-instruction (realistic) or one thread's instruction
  std::int64_t StepWarp();          // until every runnable lane of the next unit's warp ran once
  std::int64_t RunToBarrier();      // until a barrier releases
  std::int64_t RunToPhaseEnd();     // until the current block leaves its current phase
  std::int64_t RunToEnd();
  std::int64_t RunUntil(const Breakpoint& breakpoint);
  std::int64_t RunWhile(const std::function<bool(const Simulation&)>& keep_going);

  // Back and scrubbing: exact, through checkpoints and replay.
  bool StepBack();
  void JumpTo(std::int64_t step);
  void Reset() { JumpTo(0); }

  std::int64_t step() const { return machine_.state().step; }
  bool Finished() const { return machine_.Finished(); }
  // Steps of the whole run, computed once by running a copy of the lesson to the end (here,
  // on the caller's thread, unless a worker's result was adopted first).
  std::int64_t TotalSteps() const { return timeline().total_steps; }
  const Timeline& timeline() const;
  // The whole run if it is known, else nullptr: what a view that must not wait reads.
  const Timeline* KnownTimeline() const { return timeline_.get(); }
  // The correct product if it is made already, else nullptr: what a view that must not wait reads.
  const std::vector<float>* KnownReference() const { return reference_.get(); }
  // A whole-run pass made elsewhere (ComputeTimeline on a worker) for this lesson's A and B.
  void AdoptTimeline(Timeline timeline);
  // A whole run made elsewhere (RunWholeRun on a worker from FreshMachine()): this simulation
  // stands at its end, its C, counters and reference. A lesson too big for step back is shown so.
  void AdoptFinishedRun(FinishedRun run);

  Snapshot snapshot() const { return Snapshot(machine_); }
  // The machine as it stood at step 0, for a whole-run pass on a worker (ComputeTimeline).
  Machine FreshMachine() const;
  // The student's kernel this runs, or nullptr for a lesson's.
  const cuda::CompiledKernel* kernel() const { return machine_.kernel(); }
  const KernelLaunch* launch() const { return machine_.kernel() != nullptr ? &machine_.launch() : nullptr; }
  const std::vector<TraceEvent>& last_step_events() const { return machine_.last_step_events(); }
  const Counters& counters() const { return machine_.state().counters; }
  const std::vector<Hazard>& hazards() const { return machine_.logs().hazards; }
  const std::vector<OutOfBoundsAccess>& out_of_bounds() const { return machine_.logs().out_of_bounds; }
  const std::vector<float>& a() const { return machine_.memory().a(); }
  const std::vector<float>& b() const { return machine_.memory().b(); }
  const std::vector<float>& c() const { return machine_.state().c; }
  // The correct product of this lesson's A and B (sim/model/reference.h), computed on first use and
  // kept: A and B never change within a Simulation.
  const std::vector<float>& reference() const;

  // Bytes held: the state, its logs and the history.
  std::size_t MemoryBytes() const;

 private:
  bool Advance();
  std::int64_t RunQuietlyTo(std::int64_t step);
  std::int64_t RunKernelUntil(const Breakpoint& breakpoint);

  Machine machine_;
  History history_;
  TraceSink* sink_ = nullptr;
  mutable std::shared_ptr<const Timeline> timeline_;
  mutable std::shared_ptr<const std::vector<float>> reference_;
};

// The whole-run pass of a lesson on A and B, as Simulation::timeline() makes it, for a worker
// thread: nothing when `cancel` (may be null) turns true first; `fraction` (may be null)
// follows its progress from 0 to about 1.
std::optional<Timeline> ComputeTimeline(const KernelConfig& config, const std::vector<float>& a,
                                        const std::vector<float>& b, const std::atomic<bool>* cancel,
                                        std::atomic<double>* fraction);

// The same pass from a machine at step 0 (Simulation::FreshMachine), a lesson's or a student's kernel's.
std::optional<Timeline> ComputeTimeline(Machine fresh, const std::atomic<bool>* cancel, std::atomic<double>* fraction);

// The same pass keeping the machine it ran, at its end (Simulation::AdoptFinishedRun).
std::optional<FinishedRun> RunWholeRun(Machine fresh, const std::atomic<bool>* cancel, std::atomic<double>* fraction);

// C of a lesson (or of the lesson on given A and B) after a full run.
std::vector<float> ComputeC(const KernelConfig& config);
std::vector<float> ComputeC(const KernelConfig& config, const std::vector<float>& a, const std::vector<float>& b);
// The same, stoppable (`tilescope verify` on a large file, where Ctrl+C must not wait for the
// end): nothing when `cancel` turns true first; `fraction` (may be null) follows its progress.
std::optional<std::vector<float>> ComputeC(const KernelConfig& config, const std::vector<float>& a,
                                          const std::vector<float>& b, const std::atomic<bool>& cancel,
                                          std::atomic<double>* fraction);

}  // namespace sim
