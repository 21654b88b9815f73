#include "sim/model/machine.h"

#include <algorithm>
#include <utility>

#include "sim/model/kernel_step.h"
#include "sim/model/lesson_barriers.h"
#include "sim/model/lesson_step.h"
#include "sim/model/occupancy.h"
#include "sim/model/step_events.h"

namespace sim {

Machine::Machine(const KernelConfig& config, std::vector<float> a, std::vector<float> b) {
  MachineCore& m = core_;
  m.config = config;
  m.geometry = MakeGeometry(config);
  m.program = Program(config, m.geometry);
  m.memory = GlobalMemory(config.m, config.n, config.k, std::move(a), std::move(b));
  const Geometry& g = m.geometry;
  m.shared_accesses_can_race = SharedAccessesCanRace(config);
  MachineState& state = m.state;
  state.shared = SharedMemory(g.naive ? 0 : g.blocks, g.tm, g.tn, g.tk, config.bs_layout == SharedLayout::kTransposed);
  state.hazard_detector = HazardDetector(g.blocks, m.shared_accesses_can_race ? state.shared.CellsPerBlock() : 0);
  state.scheduler = Scheduler(config.scheduler, config.seed, g.threads(), g.warps(), g.warps_per_block,
                              BlocksPerSm(KernelChoice::Of(config), *FindClassroomGpu("h100")));
  state.reads = GlobalReadCounter(g.m * g.k, g.k * g.n, g.blocks);
  state.c.assign(static_cast<std::size_t>(g.m) * g.n, 0.0f);
  state.c_written.assign(state.c.size(), 0);
  state.counters.phases.assign(static_cast<std::size_t>(std::max(g.phases, 1)), PhaseCounters{});
  lesson_ = LessonTables::For(config, g, m.program);
  m.LayOutThreads();
  LessonStep start(m, lesson_);
  for (Block& block : state.blocks) {
    for (int i = 0; i < block.thread_count; ++i) start.StartThread(state.threads[static_cast<std::size_t>(block.first_thread + i)], block);
    if (m.shared_accesses_can_race) LessonBarriers(m, lesson_).CountSharedWriters(block);
  }
  const ReadLogBounds bounds = ReadLogBound(config, g);
  m.logs.reads.Reserve(bounds.reads, bounds.loads);
}

Machine::Machine(const KernelLaunch& launch, std::vector<float> a, std::vector<float> b)
    : kernel_(KernelProgram::For(launch)) {
  MachineCore& m = core_;
  m.memory = GlobalMemory(launch.m, launch.n, launch.k, std::move(a), std::move(b));
  m.config.m = launch.m;
  m.config.n = launch.n;
  m.config.k = launch.k;
  m.config.scheduler = launch.scheduler;
  m.config.seed = launch.seed;
  m.geometry = GeometryOf(launch);
  const Geometry& g = m.geometry;
  const int words = kernel_.shared_words;
  m.shared_accesses_can_race = words > 0;
  MachineState& state = m.state;
  state.shared = SharedMemory::Words(g.blocks, words);
  state.hazard_detector = HazardDetector(g.blocks, words);
  state.scheduler = Scheduler(launch.scheduler, launch.seed, g.threads(), g.warps(), g.warps_per_block,
                              KernelBlocksPerSm(g, words));
  state.reads = GlobalReadCounter(g.m * g.k, g.k * g.n, g.blocks);
  state.c.assign(static_cast<std::size_t>(g.m) * g.n, 0.0f);
  state.c_written.assign(state.c.size(), 0);
  state.counters.phases.assign(1, PhaseCounters{});
  const std::size_t code_size = launch.kernel->code.size();
  state.registers.assign(static_cast<std::size_t>(g.threads()) * kernel_.register_count, 0u);
  if (kernel_.TracksUnwritten()) state.unwritten_locals.assign(state.registers.size(), 0);
  state.kernel_conflicts.assign(code_size, 0);
  state.kernel_ways.assign(code_size, 0);
  state.warp_access_groups.assign(static_cast<std::size_t>(g.warps()), WarpAccessGroups{});
  state.c_writers.assign(state.c.size(), 0);
  state.c_writer_pcs.assign(state.c.size(), 0);
  m.LayOutThreads();
  KernelStep start(m, kernel_);
  for (Thread& thread : state.threads) start.StartThread(thread);
}

bool Machine::SharedAccessesCanRace(const KernelConfig& config) {
  // With both barriers __syncthreads(), an access of As/Bs shares its block generation with
  // no other thread's access of its cell: a phase's stores (each thread its own cells) come
  // before the first barrier, its reads after it, and the next phase's stores after the
  // second. The naive kernel has no shared memory.
  return config.kernel != KernelKind::kNaive &&
         (config.barrier1 != SyncKind::kSyncthreads || config.barrier2 != SyncKind::kSyncthreads);
}

Machine::ReadLogBounds Machine::ReadLogBound(const KernelConfig& config, const Geometry& g) {
  // Every block loads its As and Bs tiles once a phase (the naive kernel: an element of A
  // and of B per k): at most that many reads are logged. Reserving it spares the log its
  // doublings, each a copy and, for a moment, the old and the new buffer together.
  using U64 = std::uint64_t;
  const U64 reads = std::min<U64>(g.naive ? U64{2} * U64(g.threads()) * U64(g.k)
                                          : U64(g.blocks) * U64(g.phases) * U64(g.tm * g.tk + g.tk * g.tn),
                                  kMaxLoggedReads);
  // A step's reads are one load. A scheduler of threads takes a step for each read; one of
  // warps, a step for each load instruction of a warp: per phase the A loop's iterations
  // (TK / TN, rounded up) and the B loop's (TK / TM), the naive kernel's two per k.
  const U64 warp_loads = g.naive ? U64{2} * U64(g.warps()) * U64(g.k)
                                 : U64(g.warps()) * U64(g.phases) * U64((g.tk + g.tn - 1) / g.tn + (g.tk + g.tm - 1) / g.tm);
  const U64 loads = config.scheduler == SchedulerKind::kRealistic ? std::min(warp_loads, reads) : reads;
  return {static_cast<std::size_t>(reads), static_cast<std::size_t>(loads)};
}

void Machine::Restore(const MachineState& state) {
  core_.Restore(state);
  step_events_built_ = false;
}

bool Machine::Step() {
  if (kernel_.kernel != nullptr) {
    // A student's kernel: its steps are told by the state and the logs, not events.
    if (!KernelStep(core_, kernel_).Run()) return false;
    step_events_built_ = false;
    return true;
  }
  LessonStep step(core_, lesson_);
  if (!step.Run()) return false;
  step_events_built_ = false;
  if (sink_ != nullptr) {
    for (const TraceEvent& event : last_step_events()) sink_->OnEvent(event);
  }
  step.PrefetchNext();
  return true;
}

const std::vector<TraceEvent>& Machine::last_step_events() const {
  if (!step_events_built_) {
    StepEventBuilder(core_, lesson_).Build(step_events_);
    step_events_built_ = true;
  }
  return step_events_;
}

Machine::StepOutline Machine::LastStepOutline() const {
  const StepRecord& record = core_.state.last_step;
  // As StepEventBuilder gives them: a hazard's phase (stage / 8) is t as well.
  return StepOutline{record.lanes != 0, record.pc.op, core_.geometry.naive ? 0 : record.pc.t, record.hazard_slots != 0,
                     !record.releases.empty()};
}

}  // namespace sim
