#include "sim/model/simulation.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include "sim/model/program.h"
#include "sim/model/reference.h"

namespace sim {
namespace {

// Memory is not judged here: only the lesson layer knows what else runs beside this
// model (sim/lesson/validation.h), and it refuses a lesson before building one.
const KernelConfig& Checked(const KernelConfig& config) {
  if (auto error = ValidateKernel(config)) throw std::invalid_argument(error->message);
  return config;
}

bool Has(const std::vector<TraceEvent>& events, EventKind kind) {
  return std::any_of(events.begin(), events.end(), [kind](const TraceEvent& e) { return e.kind == kind; });
}

// Whether each phase has been seen: a flag per phase, looked up for every event of the
// whole run (a std::set cost more than the step that made the event: the 128³ TILE 32 pass
// 690 → 389 M instructions under callgrind, 512³ TILE 32 4.18 → 3.14 s CPU; d5cb5ad).
class PhaseFlags {
 public:
  bool Marked(int phase) const {
    return phase >= 0 && static_cast<std::size_t>(phase) < seen_.size() && seen_[static_cast<std::size_t>(phase)] != 0;
  }
  // True the first time `phase` is marked (events' phases are t or stage / 8: never negative).
  bool Mark(int phase) {
    if (phase < 0) return false;
    const auto index = static_cast<std::size_t>(phase);
    if (index >= seen_.size()) seen_.resize(index + 1, 0);
    if (seen_[index] != 0) return false;
    seen_[index] = 1;
    return true;
  }

 private:
  std::vector<std::uint8_t> seen_;
};

// Runs a fresh machine to the end and notes where the timeline's marks fall; nothing when
// `cancel` turns true first. `fraction` follows the thread-instructions run against the
// closed form's count (the steps of a run are only known at its end).
std::optional<Timeline> MakeTimeline(Machine& machine, const std::atomic<bool>* cancel, std::atomic<double>* fraction) {
  Timeline timeline;
  PhaseFlags phases_started;
  PhaseFlags phases_with_hazard;
  std::size_t releases = 0;
  // A student's kernel has no closed form: its threads that are done tell the progress instead.
  const bool student = machine.kernel() != nullptr;
  const double expected =
      std::max<double>(1.0, student ? double(machine.geometry().threads()) : double(ThreadInstructions(machine.config())));
  while (machine.Step()) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return std::nullopt;
    if (fraction) {
      const double done = student ? double(machine.state().exited_threads) : double(machine.state().counters.thread_instructions);
      fraction->store(done / expected, std::memory_order_relaxed);
    }
    const std::int64_t step = machine.state().step;
    // Most steps can add no mark: their phase has started and seen its first hazard, and no
    // barrier released. Only the others' events are built and read (with 65e3fa1's other
    // changes, the 256³ TILE 16 pass 0.585 → 0.295 s CPU).
    const Machine::StepOutline outline = machine.LastStepOutline();
    const bool may_start = outline.ran && outline.op != Op::kStoreC && !phases_started.Marked(outline.phase);
    const bool may_race = outline.hazards && !phases_with_hazard.Marked(outline.phase);
    if (!outline.releases && !may_start && !may_race) continue;
    for (const TraceEvent& event : machine.last_step_events()) {
      if (event.kind == EventKind::kBarrierRelease && releases++ < kMaxTimelineMarks) {
        timeline.marks.push_back({TimelineMark::Kind::kBarrierRelease, step, event.phase, event.block});
      } else if (event.kind == EventKind::kHazard && phases_with_hazard.Mark(event.phase)) {
        timeline.marks.push_back({TimelineMark::Kind::kFirstHazard, step, event.phase, event.block});
      } else if (event.thread >= 0 && event.op != Op::kStoreC && phases_started.Mark(event.phase)) {
        timeline.marks.push_back({TimelineMark::Kind::kPhaseStart, step, event.phase, event.block});
      }
    }
  }
  timeline.total_steps = machine.state().step;
  timeline.counters = machine.state().counters;
  return timeline;
}

}  // namespace

std::optional<Timeline> ComputeTimeline(const KernelConfig& config, const std::vector<float>& a,
                                        const std::vector<float>& b, const std::atomic<bool>* cancel,
                                        std::atomic<double>* fraction) {
  Machine machine(config, a, b);
  return MakeTimeline(machine, cancel, fraction);
}

std::optional<Timeline> ComputeTimeline(Machine fresh, const std::atomic<bool>* cancel, std::atomic<double>* fraction) {
  return MakeTimeline(fresh, cancel, fraction);
}

std::optional<FinishedRun> RunWholeRun(Machine fresh, const std::atomic<bool>* cancel, std::atomic<double>* fraction) {
  std::optional<Timeline> timeline = MakeTimeline(fresh, cancel, fraction);
  if (!timeline) return std::nullopt;
  const KernelConfig& lesson = fresh.config();
  std::vector<float> reference = ReferenceProduct(lesson.m, lesson.n, lesson.k, fresh.memory().a(), fresh.memory().b());
  return FinishedRun{std::move(*timeline), std::move(fresh), std::move(reference)};
}

bool Breakpoint::Matches(const std::vector<TraceEvent>& events) const {
  switch (kind) {
    case Kind::kBarrierArrive:
      return Has(events, EventKind::kBarrierArrive);
    case Kind::kBarrierRelease:
      return Has(events, EventKind::kBarrierRelease);
    case Kind::kHazard:
      return Has(events, EventKind::kHazard);
    case Kind::kPhase:
      return std::any_of(events.begin(), events.end(), [this](const TraceEvent& e) {
        return e.thread >= 0 && e.phase == phase && e.op != Op::kStoreC;
      });
    case Kind::kThread:
      return std::any_of(events.begin(), events.end(),
                         [this](const TraceEvent& e) { return e.block == block && e.thread == thread; });
  }
  return false;
}

Simulation::Simulation(const KernelConfig& config, std::size_t history_budget)
    : Simulation(config, FillMatrix(Checked(config).fill_a, config.m, config.k),
                 FillMatrix(config.fill_b, config.k, config.n), history_budget) {}

Simulation::Simulation(const KernelConfig& config, std::vector<float> a, std::vector<float> b,
                       std::size_t history_budget)
    : machine_(Checked(config), std::move(a), std::move(b)), history_(history_budget) {
  history_.Reset(machine_.state());
}

Simulation::Simulation(const KernelLaunch& launch, std::vector<float> a, std::vector<float> b,
                       std::size_t history_budget)
    : machine_(launch, std::move(a), std::move(b)), history_(history_budget) {
  history_.Reset(machine_.state());
}

Machine Simulation::FreshMachine() const {
  if (machine_.kernel() != nullptr) return Machine(machine_.launch(), machine_.memory().a(), machine_.memory().b());
  return Machine(machine_.config(), machine_.memory().a(), machine_.memory().b());
}

void Simulation::SetSink(TraceSink* sink) {
  sink_ = sink;
  machine_.SetSink(sink);
}

bool Simulation::Advance() {
  if (!machine_.Step()) return false;
  history_.OnStep(machine_.state());
  return true;
}

std::int64_t Simulation::Step() { return Advance() ? 1 : 0; }

std::int64_t Simulation::StepWarp() {
  const std::int64_t start = step();
  if (!Advance()) return 0;
  const Unit unit = machine_.state().last_unit;
  if (unit.is_warp) return 1;
  // The thread scheduler ran one lane: go on until each lane of its warp that can run has
  // run once (or blocked), so the whole warp-instruction is visible.
  const MachineState& state = machine_.state();
  const int warp_index = state.threads[static_cast<std::size_t>(unit.index)].warp;
  const Warp& warp = state.warps[static_cast<std::size_t>(warp_index)];
  std::vector<std::int64_t> before(static_cast<std::size_t>(warp.lane_count));
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const int global = warp.first_thread + lane;
    before[static_cast<std::size_t>(lane)] = state.threads[static_cast<std::size_t>(global)].instructions -
                                             (global == unit.index ? 1 : 0);
  }
  auto lane_pending = [&]() {
    for (int lane = 0; lane < warp.lane_count; ++lane) {
      const Thread& t = state.threads[static_cast<std::size_t>(warp.first_thread + lane)];
      if (t.Runnable() && t.instructions == before[static_cast<std::size_t>(lane)]) return true;
    }
    return false;
  };
  while (lane_pending() && Advance()) {
  }
  return step() - start;
}

std::int64_t Simulation::RunUntil(const Breakpoint& breakpoint) {
  if (kernel() != nullptr) return RunKernelUntil(breakpoint);
  return RunWhile([&breakpoint](const Simulation& sim) {
    return !breakpoint.Matches(sim.last_step_events());
  });
}

// A student's kernel's steps make no events (machine_kernel.cpp keeps them out of its hot path):
// what a breakpoint waits for is read from the counters and the thread it names instead. Such a
// kernel has one phase, so a phase breakpoint never comes.
std::int64_t Simulation::RunKernelUntil(const Breakpoint& breakpoint) {
  const Counters before = counters();
  const auto thread_instructions = [&breakpoint](const Simulation& sim) -> std::int64_t {
    const std::int64_t index = std::int64_t{breakpoint.block} * sim.geometry().block_threads + breakpoint.thread;
    const std::vector<Thread>& threads = sim.machine_.state().threads;
    return index >= 0 && index < static_cast<std::int64_t>(threads.size()) ? threads[static_cast<std::size_t>(index)].instructions : 0;
  };
  const std::int64_t ran = thread_instructions(*this);
  return RunWhile([&](const Simulation& sim) {
    const Counters& now = sim.counters();
    switch (breakpoint.kind) {
      case Breakpoint::Kind::kBarrierArrive: return now.barrier_arrivals == before.barrier_arrivals;
      case Breakpoint::Kind::kBarrierRelease: return now.barrier_releases == before.barrier_releases;
      case Breakpoint::Kind::kHazard: return now.hazards == before.hazards;
      case Breakpoint::Kind::kThread: return thread_instructions(sim) == ran;
      case Breakpoint::Kind::kPhase: return true;
    }
    return true;
  });
}

std::int64_t Simulation::RunToBarrier() { return RunUntil(Breakpoint{Breakpoint::Kind::kBarrierRelease}); }

std::int64_t Simulation::RunToPhaseEnd() {
  const Snapshot view = snapshot();
  const int block = step() == 0 ? 0 : view.current_block();
  const int phase = view.BlockPhase(block);
  if (phase < 0) return Step();
  return RunWhile([block, phase](const Simulation& sim) {
    const int now = sim.snapshot().BlockPhase(block);
    return now >= 0 && now <= phase;
  });
}

std::int64_t Simulation::RunToEnd() {
  // Not RunWhile: its call through std::function a step cost 0.4% (256³ TILE 16 under
  // callgrind: 1,504.4 → 1,497.9 M instructions; d5e2ee0).
  const std::int64_t start = step();
  while (Advance()) {
  }
  return step() - start;
}

std::int64_t Simulation::RunWhile(const std::function<bool(const Simulation&)>& keep_going) {
  const std::int64_t start = step();
  while (Advance()) {
    if (!keep_going(*this)) break;
  }
  return step() - start;
}

bool Simulation::StepBack() {
  if (step() == 0) return false;
  JumpTo(step() - 1);
  return true;
}

void Simulation::JumpTo(std::int64_t target) {
  target = std::max<std::int64_t>(target, 0);
  const MachineState& checkpoint = history_.Nearest(target);
  // Restore only when it saves work: going back, or a checkpoint beyond where we are whose
  // logs the machine still holds (a jump back cut them; the replay writes them again).
  if (target < step() || (checkpoint.step > step() && machine_.LogsReach(checkpoint))) machine_.Restore(checkpoint);
  RunQuietlyTo(target);
}

std::int64_t Simulation::RunQuietlyTo(std::int64_t target) {
  machine_.SetSink(nullptr);
  while (step() < target && Advance()) {
  }
  machine_.SetSink(sink_);
  return step();
}

const std::vector<float>& Simulation::reference() const {
  if (!reference_) {
    const KernelConfig& lesson = config();
    reference_ = std::make_shared<const std::vector<float>>(ReferenceProduct(lesson.m, lesson.n, lesson.k, a(), b()));
  }
  return *reference_;
}

const Timeline& Simulation::timeline() const {
  if (!timeline_) {
    Machine fresh = FreshMachine();
    timeline_ = std::make_shared<const Timeline>(*MakeTimeline(fresh, nullptr, nullptr));
  }
  return *timeline_;
}

void Simulation::AdoptTimeline(Timeline timeline) {
  timeline_ = std::make_shared<const Timeline>(std::move(timeline));
}

void Simulation::AdoptFinishedRun(FinishedRun run) {
  machine_ = std::move(run.machine);
  machine_.SetSink(sink_);
  AdoptTimeline(std::move(run.timeline));
  reference_ = std::make_shared<const std::vector<float>>(std::move(run.reference));
}

std::size_t Simulation::MemoryBytes() const {
  const MachineLogs& logs = machine_.logs();
  return machine_.state().Bytes() + history_.Bytes() + logs.reads.Bytes() +
         logs.hazards.capacity() * sizeof(Hazard) + logs.out_of_bounds.capacity() * sizeof(OutOfBoundsAccess) +
         (machine_.memory().a().capacity() + machine_.memory().b().capacity()) * sizeof(float);
}

std::vector<float> ComputeC(const KernelConfig& config) {
  return ComputeC(Checked(config), FillMatrix(config.fill_a, config.m, config.k),
                  FillMatrix(config.fill_b, config.k, config.n));
}

std::vector<float> ComputeC(const KernelConfig& config, const std::vector<float>& a, const std::vector<float>& b) {
  Machine machine(Checked(config), a, b);
  while (machine.Step()) {
  }
  return machine.state().c;
}

std::optional<std::vector<float>> ComputeC(const KernelConfig& config, const std::vector<float>& a,
                                          const std::vector<float>& b, const std::atomic<bool>& cancel,
                                          std::atomic<double>* fraction) {
  Machine machine(Checked(config), a, b);
  const double expected = std::max<double>(1.0, double(ThreadInstructions(machine.config())));
  while (machine.Step()) {
    if (cancel.load(std::memory_order_relaxed)) return std::nullopt;
    if (fraction) fraction->store(double(machine.state().counters.thread_instructions) / expected, std::memory_order_relaxed);
  }
  return machine.state().c;
}

}  // namespace sim
