#include "sim/model/machine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "sim/model/bank_conflicts.h"
#include "sim/model/bits.h"
#include "sim/model/fused_multiply_add.h"
#include "sim/model/kernel_source.h"
#include "sim/model/occupancy.h"

// What one step runs, inlined into Step: each is called once a step, and their calls and
// saved registers cost as much as the lanes of an inner-product step (256³ TILE 16, bare,
// under callgrind: 1,497.1 → 1,441.8 M instructions; 799adc5).
#define TILESCOPE_STEP_INLINE __attribute__((always_inline)) inline

namespace sim {
namespace {


// Runs `run(thread)` for each lane of `lanes` (bit l: lane l of the warp whose lane 0 is at
// `warp_lanes`), the lowest first. A whole warp, the common case, is a plain walk along its
// lanes, which spares each lane the bit arithmetic that finds it (256³ TILE 16 under
// callgrind: 2,018 → 1,869 M instructions, the inner-product loop 505 → 420 M; 4bd18b2).
template <typename LaneThread, typename Run>
void ForEachLane(LaneThread* warp_lanes, std::uint32_t lanes, Run&& run) {
  if (lanes == ~std::uint32_t{0}) {
    for (LaneThread* thread = warp_lanes; thread != warp_lanes + kWarpSize; ++thread) run(*thread);
    return;
  }
  for (; lanes != 0; lanes &= lanes - 1) run(warp_lanes[__builtin_ctz(lanes)]);
}

// Runs `run(row, begin, end)` for each row (ty) of the block a whole warp's lanes lie on, lanes
// begin to end − 1, in order: threads are numbered along the block's rows (ty · TN + tx), so a
// row's lanes are a run whose tx grows by one a lane. `first_thread`: lane 0's index in the block.
template <typename Run>
void ForEachRowRun(int first_thread, int tn, Run&& run) {
  for (int row = first_thread / tn; row * tn < first_thread + kWarpSize; ++row) {
    run(row, std::max(row * tn - first_thread, 0), std::min((row + 1) * tn - first_thread, kWarpSize));
  }
}

}  // namespace

Machine::Machine(const KernelConfig& config, std::vector<float> a, std::vector<float> b)
    : config_(config),
      geometry_(MakeGeometry(config)),
      program_(config, geometry_),
      memory_(config.m, config.n, config.k, std::move(a), std::move(b)) {
  for (int op = 0; op < kOpCount; ++op) lines_[static_cast<std::size_t>(op)] = LineOf(config.kernel, static_cast<Op>(op));
  const Geometry& g = geometry_;
  shared_accesses_can_race_ = SharedAccessesCanRace(config);
  state_.shared = SharedMemory(g.naive ? 0 : g.blocks, g.tm, g.tn, g.tk, config.bs_layout == SharedLayout::kTransposed);
  state_.hazard_detector = HazardDetector(g.blocks, shared_accesses_can_race_ ? state_.shared.CellsPerBlock() : 0);
  state_.scheduler = Scheduler(config.scheduler, config.seed, g.threads(), g.warps(), g.warps_per_block,
                               BlocksPerSm(KernelChoice::Of(config), *FindClassroomGpu("h100")));
  state_.reads = GlobalReadCounter(g.m * g.k, g.k * g.n, g.blocks);
  state_.c.assign(static_cast<std::size_t>(g.m) * g.n, 0.0f);
  state_.c_written.assign(state_.c.size(), 0);
  state_.counters.phases.assign(static_cast<std::size_t>(std::max(g.phases, 1)), PhaseCounters{});
  InitThreads();
  PrecomputeSharedCosts();
  for (int w = 0; w < g.warps_per_block; ++w) {
    warp_corners_.push_back(program_.CornersOf(w * kWarpSize, std::min((w + 1) * kWarpSize, g.block_threads) - 1));
  }
  const ReadLogBounds bounds = ReadLogBound(config_, geometry_);
  logs_.reads.Reserve(bounds.reads, bounds.loads);
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

void Machine::InitThreads() {
  const Geometry& g = geometry_;
  state_.threads.resize(static_cast<std::size_t>(g.threads()));
  state_.warps.resize(static_cast<std::size_t>(g.warps()));
  state_.blocks.resize(static_cast<std::size_t>(g.blocks));
  for (int b = 0; b < g.blocks; ++b) {
    Block& block = state_.blocks[static_cast<std::size_t>(b)];
    block.bx = b % g.grid_x;
    block.by = b / g.grid_x;
    block.first_thread = b * g.block_threads;
    block.thread_count = g.block_threads;
    block.first_warp = b * g.warps_per_block;
    block.warp_count = g.warps_per_block;
    for (int w = 0; w < g.warps_per_block; ++w) {
      Warp& warp = state_.warps[static_cast<std::size_t>(block.first_warp + w)];
      warp.block = b;
      warp.index_in_block = w;
      warp.first_thread = block.first_thread + w * kWarpSize;
      warp.lane_count = std::min(kWarpSize, g.block_threads - w * kWarpSize);
    }
    for (int i = 0; i < g.block_threads; ++i) {
      Thread& thread = state_.threads[static_cast<std::size_t>(block.first_thread + i)];
      thread.block = b;
      thread.tx = static_cast<std::int16_t>(i % g.tn);
      thread.ty = static_cast<std::int16_t>(i / g.tn);
      thread.index_in_block = static_cast<std::int16_t>(i);
      thread.warp = block.first_warp + i / kWarpSize;
      thread.lane = static_cast<std::int16_t>(i % kWarpSize);
      if (kernel_ != nullptr) {
        StartKernelThread(thread);  // machine_kernel.cpp
      } else {
        StartLessonThread(thread, block);
      }
    }
    if (kernel_ == nullptr && shared_accesses_can_race_) CountSharedWriters(block);
  }
}

void Machine::StartLessonThread(Thread& thread, Block& block) {
  const Geometry& g = geometry_;
  thread.regs.row = block.by * g.tm + thread.ty;
  thread.regs.col = block.bx * g.tn + thread.tx;
  thread.pc = program_.First(thread);
  if (thread.pc.op == Op::kDone) {
    // The naive kernel's guard returns before the first instruction.
    thread.state = ThreadState::kDone;
    ++state_.exited_threads;
    ++state_.warps[static_cast<std::size_t>(thread.warp)].exited_lanes;
    ++block.exited_threads;
  } else {
    SetRunnable(thread, true);
  }
}

void Machine::Restore(const MachineState& state) {
  state_ = state;
  step_events_built_ = false;
  logs_.reads.Resize(state.read_log_size);
  logs_.hazards.resize(state.hazard_log_size);
  logs_.out_of_bounds.resize(state.out_of_bounds_log_size);
  logs_.kernel_findings.resize(state.kernel_finding_log_size);
  deadlock_logged_ = !logs_.kernel_findings.empty() && logs_.kernel_findings.back().kind == KernelFinding::Kind::kDeadlock;
}

bool Machine::Step() {
  if (kernel_ != nullptr) return StepKernel();  // a student's kernel (machine_kernel.cpp)
  Unit unit;
  if (!state_.scheduler.Next(unit)) return false;
  ++state_.step;
  ++state_.counters.steps;
  state_.counters.barrier_stall_steps += static_cast<std::uint64_t>(state_.waiting_threads);
  state_.last_unit = unit;
  StepRecord& record = state_.last_step;
  record.hazard_slots = 0;
  record.many_hazard_slots = 0;
  record.releases.clear();
  record.hazard_log_size = state_.hazard_log_size;
  record.out_of_bounds_log_size = state_.out_of_bounds_log_size;
  step_events_built_ = false;
  if (unit.is_warp) {
    ExecuteWarp(unit.index);
  } else {
    Thread& thread = state_.threads[static_cast<std::size_t>(unit.index)];
    Execute(&thread - thread.lane, 1u << thread.lane, LeadsWarpInstruction(thread));
  }
  if (sink_ != nullptr) {
    for (const TraceEvent& event : last_step_events()) sink_->OnEvent(event);
  }
  if (const int next = state_.scheduler.LikelyNextWarp(); next >= 0) Prefetch(next);
  return true;
}

void Machine::Prefetch(int warp_index) const {
  // A large lesson's threads are far more than the caches hold, and the realistic scheduler
  // visits the warps in turn: fetching the next warp's lanes ahead overlaps their misses with
  // the scheduling of the next step instead of waiting for each in its loop. The queue's
  // front turn was the warp issued next in 97% of a 256³ run's steps; 256³ TILE 16 CPU
  // 0.399 → 0.358 s (load ~9, 65e3fa1).
  __builtin_prefetch(&state_.warps[static_cast<std::size_t>(warp_index)]);
  state_.scheduler.Prefetch(warp_index);
  // Where its lanes are, from the geometry: the Warp itself is still on its way.
  const Geometry& g = geometry_;
  const int first_lane = (warp_index % g.warps_per_block) * kWarpSize;
  const Thread* const lanes =
      &state_.threads[static_cast<std::size_t>(warp_index / g.warps_per_block) * g.block_threads + first_lane];
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

const std::vector<TraceEvent>& Machine::last_step_events() const {
  if (!step_events_built_) {
    BuildStepEvents(step_events_);
    step_events_built_ = true;
  }
  return step_events_;
}

TILESCOPE_STEP_INLINE void Machine::ExecuteWarp(int warp_index) {
  Warp& warp = state_.warps[static_cast<std::size_t>(warp_index)];
  Thread* const warp_lanes = &state_.threads[static_cast<std::size_t>(warp.first_thread)];
  // The lanes that ran its last instruction, or that a barrier released together, run again
  // when they went on to one instruction and no other lane can run (Warp::next_lanes): the
  // scan would find exactly them (256³ TILE 16 under callgrind: 2,214 → 2,124 M instructions,
  // the scan's 203 M gone; 58778c5).
  std::uint32_t lanes = warp.next_lanes;
  if (lanes == 0 || CountBits(lanes) != warp.runnable_lanes) lanes = EarliestLanes(warp);
  const ProgramCounter pc = warp_lanes[__builtin_ctz(lanes)].pc;
  last_l2_halves_ = 0;
  last_wavefronts_ = 0;
  const std::uint64_t sectors_before = state_.counters.global_sectors;
  warp.next_lanes = 0;  // lanes at a barrier wait: their release, even during this step, sets it
  const bool global_load = Execute(warp_lanes, lanes, true);
  if (!IsBarrier(pc.op)) warp.next_lanes = NextLanes(warp_lanes, lanes, pc);
  Scheduler::Issue issue;
  issue.l2_halves = global_load ? last_l2_halves_ : 0;
  issue.sectors = static_cast<int>(state_.counters.global_sectors - sectors_before);
  issue.wavefronts = last_wavefronts_;
  issue.stores_shared = pc.op == Op::kStoreAs || pc.op == Op::kStoreBs;
  state_.scheduler.OnIssued(warp_index, issue);
}

std::uint32_t Machine::NextLanesAsked(const Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) const {
  // Lanes that went on to one instruction, not the end, are all runnable there.
  const std::optional<ProgramCounter> next = WarpNext(warp_lanes[0], pc);
  if (next) return next->op != Op::kDone ? lanes : 0;
  return AtOneInstruction(warp_lanes, lanes) ? lanes : 0;
}

bool Machine::AtOneInstruction(const Thread* warp_lanes, std::uint32_t lanes) {
  if (lanes == 0) return false;
  const ProgramCounter pc = warp_lanes[__builtin_ctz(lanes)].pc;
  bool at_one = true;
  ForEachLane(warp_lanes, lanes, [&](const Thread& thread) { at_one &= thread.Runnable() && thread.pc == pc; });
  return at_one;
}

std::uint32_t Machine::EarliestLanes(const Warp& warp) const {
  // Lockstep with reconvergence: the lanes at the earliest point of the program issue
  // together; lanes that skipped ahead (a shorter strided loop) wait for them.
  const Thread* const warp_lanes = &state_.threads[static_cast<std::size_t>(warp.first_thread)];
  std::uint32_t lanes = 0;
  std::int64_t earliest_key = std::numeric_limits<std::int64_t>::max();
  ProgramCounter earliest{};
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = warp_lanes[lane];
    if (!thread.Runnable()) continue;
    // Keys are one-to-one with program counters: a converged warp compares its lanes'
    // counters and computes one key.
    if (lanes == 0 || thread.pc != earliest) {
      const std::int64_t key = thread.pc.Key();
      if (key > earliest_key) continue;
      earliest_key = key;
      earliest = thread.pc;
      lanes = 0;
    }
    lanes |= 1u << lane;
  }
  return lanes;
}

bool Machine::LeadsWarpInstruction(const Thread& thread) const {
  // A warp-instruction is counted once, by its lowest participating lane, whenever that
  // lane runs: the figures do not depend on how the scheduler interleaves the lanes.
  const int first = state_.warps[static_cast<std::size_t>(thread.warp)].first_thread;
  for (int lane = 0; lane < thread.lane; ++lane) {
    if (program_.Contains(state_.threads[static_cast<std::size_t>(first + lane)], thread.pc)) return false;
  }
  return true;
}

TILESCOPE_STEP_INLINE bool Machine::Execute(Thread* warp_lanes, std::uint32_t lanes, bool leads_warp_instruction) {
  Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const Warp& warp = state_.warps[static_cast<std::size_t>(first.warp)];
  const bool all_lanes = lanes == (warp.lane_count == kWarpSize ? ~std::uint32_t{0} : (1u << warp.lane_count) - 1);
  const bool load_counts_sectors = leads_warp_instruction && all_lanes && (pc.op == Op::kLoadA || pc.op == Op::kLoadB);
  if (leads_warp_instruction && !load_counts_sectors) CountWarpInstruction(first);
  state_.counters.thread_instructions += static_cast<std::uint64_t>(CountBits(lanes));
  StepRecord& record = state_.last_step;
  record.pc = pc;
  record.first_thread = static_cast<std::int32_t>(warp_lanes - state_.threads.data());
  record.lanes = lanes;
  // One loop per op over its lanes, what they share looked up once, each starting its lanes
  // itself (with 43422d7's other changes, 256³ TILE 16 through Simulation under callgrind:
  // 6,054 → 4,021 M instructions).
  const LaneStart start{static_cast<std::int16_t>(lines_[static_cast<std::size_t>(pc.op)]), pc.t, geometry_.naive};
  switch (pc.op) {
    case Op::kFma:
      Fma(warp_lanes, lanes, start);
      return false;
    case Op::kLoadA:
    case Op::kLoadB:
      return LoadGlobal(warp_lanes, lanes, start, load_counts_sectors);
    case Op::kStoreAs:
    case Op::kStoreBs:
      StoreShared(warp_lanes, lanes, start);
      return false;
    case Op::kBarrier1:
    case Op::kBarrier2:
      Arrive(warp_lanes, lanes, start);  // the barrier's release moves the threads on
      return false;
    case Op::kStoreC:
      ForEachLane(warp_lanes, lanes, [this, start, pc](Thread& thread) {
        start(thread);
        StoreC(thread);
        Advance(thread, pc);
      });
      return false;
    case Op::kDone:
      return false;
  }
  return false;
}

bool Machine::LoadGlobal(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, bool counts_sectors) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const MatrixId id = pc.op == Op::kLoadA ? MatrixId::kA : MatrixId::kB;
  const float* const values = (id == MatrixId::kA ? memory_.a() : memory_.b()).data();
  const long long cols = memory_.cols(id);
  const auto phase_index = static_cast<std::int16_t>(geometry_.naive ? 0 : pc.t);
  // A load's next instruction is the same for every thread (Program::Next), and never the end.
  const ProgramCounter next = program_.Next(first, pc);
  const GlobalPlaces places = GlobalPlacesAt(pc);
  // A guarded lane outside the matrix makes no access (SectorsOf).
  const bool sectors_outside = counts_sectors && !config_.guard;
  Sectors sectors;
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
      if (memory_.Inside(id, place.row, place.col)) {
        // Most loads: an element of the matrix, counted below for all such lanes at once.
        const long long element = place.row * cols + place.col;
        if (counts_sectors) sectors.Add(id, element);
        reg = values[element];
        state_.reads.CountElement(id, element);
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
  state_.reads.CountBlock(id, first.block, inside);
  PhaseCounters& phase = PhaseOf(first);
  (id == MatrixId::kA ? state_.counters.global_reads_a : state_.counters.global_reads_b) += inside;
  (id == MatrixId::kA ? phase.global_reads_a : phase.global_reads_b) += inside;
  return true;
}

bool Machine::WarpInside(const Thread* warp_lanes, const GlobalPlaces& places) const {
  // Along a row's run a lane's column grows (A's with tx by the places' step, B's as col does)
  // and its row stays: the run is inside where its ends are.
  bool inside = true;
  ForEachRowRun(warp_lanes[0].index_in_block, geometry_.tn, [&](int, int begin, int end) {
    const GlobalPlace low = places.Of(warp_lanes[begin]);
    const GlobalPlace high = places.Of(warp_lanes[end - 1]);
    inside = inside && memory_.Inside(places.matrix, low.row, low.col) && memory_.Inside(places.matrix, high.row, high.col);
  });
  return inside;
}

void Machine::LoadWarpInside(Thread* warp_lanes, LaneStart start, const GlobalPlaces& places, ProgramCounter next,
                             std::int16_t phase_index, Sectors* sectors) {
  const MatrixId id = places.matrix;
  const float* const values = (id == MatrixId::kA ? memory_.a() : memory_.b()).data();
  float Registers::*const reg = id == MatrixId::kA ? &Registers::a : &Registers::b;
  const long long cols = memory_.cols(id);
  // Along a row's run the element grows with tx: A's by the places' step (0 in the naive
  // kernel, whose lanes of a row read one element), B's by one.
  const long long lane_step = id == MatrixId::kA ? places.step : 1;
  std::array<std::int32_t, kWarpSize> elements;
  ForEachRowRun(warp_lanes[0].index_in_block, geometry_.tn, [&](int, int begin, int end) {
    const GlobalPlace place = places.Of(warp_lanes[begin]);
    long long element = place.row * cols + place.col;
    if (sectors != nullptr) sectors->AddRun(id, element, element + (end - 1 - begin) * lane_step);
    state_.reads.CountRun(id, element, end - begin, lane_step);
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

bool Machine::LoadOutside(Thread& thread, const GlobalPlace& place, std::int16_t phase_index, float& reg) {
  const MatrixId id = place.matrix;
  if (config_.guard) {
    // `cond ? A[...] : 0.0f` with a false condition: zero padding, no memory access.
    reg = 0.0f;
    ++state_.counters.select_zero;
    return false;
  }
  // No guard: the read lands where the address falls (GlobalMemory::Load), and is flagged.
  reg = memory_.Load(id, place.row, place.col);
  const long long element = memory_.ElementAt(id, place.row, place.col);
  state_.reads.CountElement(id, element);
  state_.reads.CountBlock(id, thread.block, 1);
  PhaseCounters& phase = PhaseOf(thread);
  ++(id == MatrixId::kA ? state_.counters.global_reads_a : state_.counters.global_reads_b);
  ++(id == MatrixId::kA ? phase.global_reads_a : phase.global_reads_b);
  if (element >= 0) LogRead(thread, id, element, phase_index);
  RecordOutOfBounds(thread, id, place.row, place.col, false, element >= 0, reg);
  return true;
}

void Machine::StoreShared(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const auto n = static_cast<std::uint64_t>(CountBits(lanes));
  state_.counters.shared_writes += n;
  PhaseOf(first).shared_writes += n;
  const StoreWords words = StoreWordsAt(pc);
  // Every store is checked before any is written: no other lane of the instruction stores a
  // lane's cell (each thread stores its own), so the old values are those the stores find.
  // Nothing is kept around a call per lane: 256³ TILE 16 without the 1st barrier, StoreShared
  // 147 → 106 M instructions under callgrind (89f8287).
  if (shared_accesses_can_race_) CheckStores(warp_lanes, lanes, words);
  const std::optional<ProgramCounter> next = WarpNext(warp_lanes[0], pc);
  WriteCells(warp_lanes, lanes, start, words, next);
  if (shared_accesses_can_race_) CountLastStores(warp_lanes, lanes, next);
}

Machine::StoreWords Machine::StoreWordsAt(const ProgramCounter& pc) const {
  // A lane stores As[ty][AColumn] or Bs[BRow][tx], and a word is row · stride + column + base.
  const bool as = pc.op == Op::kStoreAs;
  const TileId tile = as ? TileId::kAs : TileId::kBs;
  const SharedMemory& shared = state_.shared;
  StoreWords words;
  words.row_stride = shared.Word(tile, 1, 0) - shared.Word(tile, 0, 0);
  words.offset = as ? shared.Word(tile, 0, program_.AColumnOffset(pc.j)) : shared.Word(tile, program_.BRowOffset(pc.j), 0);
  words.source = as ? &Registers::a : &Registers::b;
  return words;
}

void Machine::CheckStores(const Thread* warp_lanes, std::uint32_t lanes, const StoreWords& words) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const SharedCell* const cells = &state_.shared.Cell(first.block, 0);
  PhaseCounters& phase = PhaseOf(first);
  // What the lanes' stores share, as the hazard detector sees them, found once rather than by
  // CheckStore for each lane (256³ TILE 16 without the 1st barrier, callgrind: 4,563 → 4,505 M
  // instructions, best CPU 0.511 → 0.500 s; f7f216e).
  const Warp& warp = state_.warps[static_cast<std::size_t>(first.warp)];
  const int block_epoch = state_.blocks[static_cast<std::size_t>(first.block)].syncthreads.generation();
  SharedAccess write{first.block, 0, 0, warp.index_in_block, warp.syncwarp.generation(), pc.Stage(), pc.op, true, 0.0f, 0.0f};
  ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
    write.word = words.Of(thread);
    write.thread = thread.index_in_block;
    write.value = thread.regs.*words.source;
    write.old_value = cells[write.word].value;
    CheckStore(thread, write, block_epoch, phase);
  });
}

void Machine::WriteCells(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, const StoreWords& words,
                         const std::optional<ProgramCounter>& next) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int t = first.pc.t;
  SharedCell* const cells = &state_.shared.Cell(first.block, 0);
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
      thread.pc = next ? *next : program_.Next(thread, pc);
    });
    return;
  }
  // A whole warp going on to one instruction, row by row: along a row's run tx, and with it
  // the word, grows by one a lane (256³ TILE 16 under callgrind: StoreShared 82 → 51 M
  // instructions; 44e1042).
  const ProgramCounter same_next = *next;
  const int first_thread = warp_lanes[0].index_in_block;
  ForEachRowRun(first_thread, geometry_.tn, [&](int, int begin, int end) {
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

void Machine::CountLastStores(const Thread* warp_lanes, std::uint32_t lanes, const std::optional<ProgramCounter>& next) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  int last_stores = 0;
  // Where every lane went on to `next` and the corners agree on whether it stores again
  // before the next __syncthreads(), so does every lane.
  const Program::Corners& corners = warp_corners_[static_cast<std::size_t>(first.index_in_block / kWarpSize)];
  const bool low_stores_again = next && program_.StoresSharedBeforeSyncthreads(corners.low, *next);
  if (next && low_stores_again == program_.StoresSharedBeforeSyncthreads(corners.high, *next)) {
    last_stores = low_stores_again ? 0 : CountBits(lanes);
  } else {
    ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
      if (!program_.StoresSharedBeforeSyncthreads(thread, thread.pc)) ++last_stores;
    });
  }
  state_.blocks[static_cast<std::size_t>(first.block)].shared_writers -= last_stores;
}

void Machine::CheckStore(const Thread& thread, const SharedAccess& write, int block_epoch, PhaseCounters& phase) {
  HazardTally tally;
  state_.hazard_detector.OnAccess(write, block_epoch, [&](const Conflict& conflict) {
    tally.Add(conflict, static_cast<std::uint64_t>(CountBits(conflict.earlier_lanes)));
    // Past the log's limit hazards are counted and traced, not described.
    if (state_.hazard_log_size < kMaxLoggedHazards) LogHazards(write, conflict, StorePlace(thread, thread.pc));
  });
  if (tally.hazards == 0) return;
  CountHazards(tally, phase);
  NoteHazards(thread.lane, 0, static_cast<std::uint32_t>(tally.hazards));
}

TILESCOPE_STEP_INLINE void Machine::Fma(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  // The inner product is most of every run: its lanes go through one tight loop each.
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const ProgramCounter pc = first.pc;
  const auto n = static_cast<std::uint64_t>(CountBits(lanes));
  PhaseCounters& phase = PhaseOf(first);
  state_.counters.fma_executed += n;
  phase.fma += n;
  if (geometry_.naive) {
    WithFusedMultiplyAdd([&](auto fmaf) {
      ForEachLane(warp_lanes, lanes, [start, fmaf](Thread& thread) {
        start(thread);
        // fmaf, in the kernel's order: the GPU's result to the bit (a separate multiply and add is not).
        thread.regs.sum = fmaf(thread.regs.a, thread.regs.b, thread.regs.sum);
      });
    });
  } else {
    state_.counters.shared_reads += 2 * n;
    phase.shared_reads += 2 * n;
    if (shared_accesses_can_race_) CheckTileReads(warp_lanes, lanes);
    FmaReadingTiles(warp_lanes, lanes, start);
  }
  if (geometry_.naive || pc.j + 1 == geometry_.tk) AdvanceLanes(warp_lanes, lanes, pc);
}

TILESCOPE_STEP_INLINE void Machine::FmaReadingTiles(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int k = first.pc.j;
  const int next_k = k + 1 < geometry_.tk ? k + 1 : k;  // else Fma moves the lanes past the loop
  const SharedCell* const cells = &state_.shared.Cell(first.block, 0);
  const int a_column = state_.shared.Word(TileId::kAs, 0, k);  // As[ty][k] = a_column + ty * TK
  const int b_row = state_.shared.Word(TileId::kBs, k, 0);     // Bs[k][tx] = b_row + tx
  const int a_stride = state_.shared.Word(TileId::kAs, 1, 0);
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
    const int tn = geometry_.tn;
    ForEachRowRun(first_thread, tn, [&](int row, int begin, int end) {
      const float a = cells[a_column + row * a_stride].value;
      const int b_lane0 = b_row + first_thread - row * tn;  // a lane's Bs[k][tx] is b_lane0 + lane
      for (int lane = begin; lane < end; ++lane) run(warp_lanes[lane], a, cells[b_lane0 + lane].value);
    });
  });
}

void Machine::CheckTileReads(Thread* warp_lanes, std::uint32_t lanes) {
  // Each lane's reads of As[ty][k] and Bs[k][tx], checked against this generation's writes of
  // their cells.
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const int k = first.pc.j;
  const SharedCell* const cells = &state_.shared.Cell(first.block, 0);
  const Warp& warp = state_.warps[static_cast<std::size_t>(first.warp)];
  const Block& block = state_.blocks[static_cast<std::size_t>(first.block)];
  HazardDetector::WarpReads reads(state_.hazard_detector,
                                  SharedAccess{first.block, 0, 0, warp.index_in_block, warp.syncwarp.generation(),
                                               first.pc.Stage(), Op::kFma, false, 0.0f, 0.0f},
                                  block.syncthreads.generation(), block.shared_writers > 0);
  PhaseCounters& phase = PhaseOf(first);
  const auto list = [&](const Thread& thread, const SharedPlace& cell, int access_slot) {
    const int word = state_.shared.Word(cell.tile, cell.row, cell.col);
    NoteHazards(thread.lane, access_slot, ListReadHazards(reads, thread, cell, word, cells[word].value, phase));
  };
  // While the hazard log has room, each read is listed, lane by lane as the lanes run.
  if (state_.hazard_log_size < kMaxLoggedHazards) {
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
  const int a_column = state_.shared.Word(TileId::kAs, 0, k);
  const int a_stride = state_.shared.Word(TileId::kAs, 1, 0);
  const int b_row = state_.shared.Word(TileId::kBs, k, 0);
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
      NoteHazards(__builtin_ctz(others), access_slot, found.each);
    }
    for (std::uint32_t own = found.own; own != 0; own &= own - 1) NoteHazards(__builtin_ctz(own), access_slot, found.each - 1);
  });
  NoteOneHazardEach(found_one[0], 0);
  NoteOneHazardEach(found_one[1], 1);
  CountHazards(tally, phase);
  if (reads.AnyListed()) {
    ForEachLane(warp_lanes, lanes, [&](const Thread& thread) {
      if (reads.Listed(0, thread.lane)) list(thread, SharedPlace{TileId::kAs, thread.ty, k}, 0);
      if (reads.Listed(1, thread.lane)) list(thread, SharedPlace{TileId::kBs, k, thread.tx}, 1);
    });
  }
}

void Machine::GatherWarpReads(HazardDetector::WarpReads& reads, int first_thread, int a_column, int a_stride,
                              int b_row) const {
  // Threads are numbered along the block's rows (ty · TN + tx): a row's lanes, which read its
  // As cell, are a run; every TN-th lane reads the same Bs cell. Each cell goes once, with all
  // its lanes, in the order of their lowest lane: distinct rows and columns are distinct cells.
  // From the geometry, not lane by lane: 256³ TILE 16 without the 1st barrier 4,702 → 4,316 M
  // instructions under callgrind (de617b6).
  const int tn = geometry_.tn;
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

std::uint32_t Machine::ListReadHazards(HazardDetector::WarpReads& reads, const Thread& thread, SharedPlace cell,
                                       int word, float value, PhaseCounters& phase) {
  HazardTally tally;
  reads.Read(thread.index_in_block, word, value, [&](const Conflict& conflict) {
    tally.Add(conflict, static_cast<std::uint64_t>(CountBits(conflict.earlier_lanes)));
    LogHazards(reads.access(), conflict, cell);
  });
  CountHazards(tally, phase);
  return static_cast<std::uint32_t>(tally.hazards);
}

void Machine::StoreC(Thread& thread) {
  const int row = thread.regs.row;
  const int col = thread.regs.col;
  const bool inside = memory_.Inside(MatrixId::kC, row, col);
  if (config_.guard && !inside) return;  // the guard skips the store
  if (!inside) {
    RecordOutOfBounds(thread, MatrixId::kC, row, col, true, false, thread.regs.sum);
    return;
  }
  const std::size_t element = static_cast<std::size_t>(row) * geometry_.n + col;
  state_.c[element] = thread.regs.sum;
  state_.c_written[element] = 1;
  ++state_.counters.global_writes;
}

void Machine::Arrive(Thread* warp_lanes, std::uint32_t lanes, LaneStart start) {
  const Thread& first = warp_lanes[__builtin_ctz(lanes)];
  const Op op = first.pc.op;
  const int n = CountBits(lanes);
  state_.counters.barrier_arrivals += static_cast<std::uint64_t>(n);
  PhaseOf(first).barrier_arrivals += static_cast<std::uint64_t>(n);
  const ThreadState waiting = op == Op::kBarrier1 ? ThreadState::kWaitingBarrier1 : ThreadState::kWaitingBarrier2;
  const auto first_thread = static_cast<int>(warp_lanes - state_.threads.data());
  ForEachLane(warp_lanes, lanes, [&](Thread& thread) {
    start(thread);
    thread.state = waiting;
    state_.scheduler.SetThreadRunnable(first_thread + thread.lane, false);
  });
  AddRunnableLanes(first.warp, -n);
  state_.waiting_threads += n;
  // Only the last of the lanes can be the arrival that completes the barrier: the others
  // arrive before it, and it waits for them.
  const int last_lane = 31 - __builtin_clz(lanes);
  if (program_.BarrierKind(op) == SyncKind::kSyncthreads) {
    Barrier& barrier = state_.blocks[static_cast<std::size_t>(first.block)].syncthreads;
    for (int i = 0; i < n; ++i) barrier.Arrive();
    TryReleaseBlock(first.block, last_lane);
  } else {
    Barrier& barrier = state_.warps[static_cast<std::size_t>(first.warp)].syncwarp;
    for (int i = 0; i < n; ++i) barrier.Arrive();
    TryReleaseWarp(first.warp, last_lane);
  }
}

void Machine::TryReleaseBlock(int block_index, int lane) {
  Block& block = state_.blocks[static_cast<std::size_t>(block_index)];
  if (!block.syncthreads.CanRelease(block.LiveThreads())) return;
  TraceEvent event;
  event.kind = EventKind::kBarrierRelease;
  event.block = block_index;
  event.thread = -1;
  event.index = 0;
  for (int w = 0; w < block.warp_count; ++w) WakeWaiting(block.first_warp + w, SyncKind::kSyncthreads, event);
  block.syncthreads.Release();
  state_.hazard_detector.OnBlockBarrier(block_index);
  if (shared_accesses_can_race_) CountSharedWriters(block);
  ++state_.counters.barrier_releases;
  event.line = lines_[static_cast<std::size_t>(event.op)];
  Emit(event, lane);
}

void Machine::CountSharedWriters(Block& block) {
  block.shared_writers = 0;
  for (int i = 0; i < block.thread_count; ++i) {
    const Thread& thread = state_.threads[static_cast<std::size_t>(block.first_thread + i)];
    if (thread.state != ThreadState::kDone && program_.StoresSharedBeforeSyncthreads(thread, thread.pc)) ++block.shared_writers;
  }
}

void Machine::TryReleaseWarp(int warp_index, int lane) {
  Warp& warp = state_.warps[static_cast<std::size_t>(warp_index)];
  if (!warp.syncwarp.CanRelease(warp.lane_count - warp.exited_lanes)) return;
  TraceEvent event;
  event.kind = EventKind::kBarrierRelease;
  event.block = warp.block;
  event.thread = -1;
  event.index = 0;
  WakeWaiting(warp_index, SyncKind::kSyncwarp, event);
  warp.syncwarp.Release();
  ++state_.counters.barrier_releases;
  event.line = lines_[static_cast<std::size_t>(event.op)];
  Emit(event, lane);
}

void Machine::WakeWaiting(int warp_index, SyncKind kind, TraceEvent& release) {
  Warp& warp = state_.warps[static_cast<std::size_t>(warp_index)];
  Thread* const warp_lanes = &state_.threads[static_cast<std::size_t>(warp.first_thread)];
  // A lane waits at a barrier of `kind` when its state says it waits at barrier 1 or 2 (Arrive
  // sets it from the barrier it reached) and that barrier is of `kind`: bit s, state s. The
  // kinds looked at once, not per lane (256³ TILE 16 under callgrind: WakeWaiting 101 → 87 M
  // instructions; 44e1042).
  const unsigned woken_states =
      (program_.BarrierKind(Op::kBarrier1) == kind ? 1u << static_cast<int>(ThreadState::kWaitingBarrier1) : 0u) |
      (program_.BarrierKind(Op::kBarrier2) == kind ? 1u << static_cast<int>(ThreadState::kWaitingBarrier2) : 0u);
  std::uint32_t woken_lanes = 0;
  ProgramCounter pc{};  // the first woken lane's
  bool one_pc = true;   // all of them at pc
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = warp_lanes[lane];
    if ((woken_states >> static_cast<int>(thread.state) & 1u) == 0) continue;
    if (woken_lanes == 0) pc = thread.pc;
    one_pc = one_pc && thread.pc == pc;
    woken_lanes |= 1u << lane;
  }
  if (woken_lanes == 0) {
    warp.next_lanes = 0;
    return;
  }
  const int woken = CountBits(woken_lanes);
  const ProgramCounter last_pc = warp_lanes[31 - __builtin_clz(woken_lanes)].pc;
  release.op = last_pc.op;
  release.phase = last_pc.t;
  release.index += woken;
  const auto wake = [&](Thread& thread) {
    thread.state = ThreadState::kRunning;
    state_.scheduler.SetThreadRunnable(warp.first_thread + thread.lane, true);
  };
  // A barrier's next instruction is never the end (Program::Next): no lane exits. Released
  // together, the lanes issue together where they went on to one instruction. This pass only
  // writes, the one above only read (WakeWaiting 87 → 67 M instructions; e1b120d).
  if (const std::optional<ProgramCounter> next = one_pc ? WarpNext(warp_lanes[0], pc) : std::nullopt) {
    const ProgramCounter same_next = *next;
    ForEachLane(warp_lanes, woken_lanes, [&](Thread& thread) {
      wake(thread);
      thread.pc = same_next;
    });
    warp.next_lanes = woken_lanes;
  } else {
    ForEachLane(warp_lanes, woken_lanes, [&](Thread& thread) {
      wake(thread);
      thread.pc = program_.Next(thread, thread.pc);
    });
    warp.next_lanes = AtOneInstruction(warp_lanes, woken_lanes) ? woken_lanes : 0;
  }
  state_.waiting_threads -= woken;
  AddRunnableLanes(warp_index, woken, true);
}

void Machine::AdvanceLanes(Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) {
  const std::optional<ProgramCounter> next = WarpNext(warp_lanes[0], pc);
  if (next && next->op != Op::kDone) {
    ForEachLane(warp_lanes, lanes, [&](Thread& thread) { thread.pc = *next; });
    return;
  }
  ForEachLane(warp_lanes, lanes, [this, pc](Thread& thread) { Advance(thread, pc); });
}

void Machine::Exit(Thread& thread) {
  SetRunnable(thread, false);
  thread.state = ThreadState::kDone;
  ++state_.exited_threads;
  Warp& warp = state_.warps[static_cast<std::size_t>(thread.warp)];
  Block& block = state_.blocks[static_cast<std::size_t>(thread.block)];
  ++warp.exited_lanes;
  ++block.exited_threads;
  // An exited thread no longer counts at a barrier: the others may now be complete.
  if (block.syncthreads.arrived() > 0) TryReleaseBlock(thread.block, thread.lane);
  if (warp.syncwarp.arrived() > 0) TryReleaseWarp(thread.warp, thread.lane);
  if (block.LiveThreads() == 0) {
    state_.hazard_detector.OnBlockExit(thread.block);
    state_.scheduler.OnBlockExit(thread.block);
  }
}

TILESCOPE_STEP_INLINE void Machine::CountWarpInstruction(const Thread& leader) {
  const ProgramCounter pc = leader.pc;
  if (IsBarrier(pc.op) || (geometry_.naive && pc.op == Op::kFma)) return;  // no memory touched
  if (pc.op == Op::kLoadA || pc.op == Op::kLoadB || pc.op == Op::kStoreC) {
    CountSectors(leader, SectorsOf(leader));
    return;
  }
  const SharedCost& cost = SharedCostOf(state_.warps[static_cast<std::size_t>(leader.warp)].index_in_block, pc);
  state_.counters.bank_conflicts += cost.conflicts;
  PhaseOf(leader).bank_conflicts += cost.conflicts;
  last_wavefronts_ = cost.wavefronts;
}

void Machine::CountSectors(const Thread& leader, const Sectors& sectors) {
  const auto added = static_cast<std::uint64_t>(sectors.distinct);
  state_.counters.global_sectors += added;
  if (leader.pc.op != Op::kStoreC) PhaseOf(leader).global_sectors += added;
  last_l2_halves_ |= sectors.l2_halves;
}

Machine::Sectors Machine::SectorsOf(const Thread& leader) const {
  const ProgramCounter pc = leader.pc;
  const GlobalPlaces places = GlobalPlacesAt(pc);
  const MatrixId id = places.matrix;
  const long long cols = memory_.cols(id);
  // Guarded lanes outside the matrix make no access; an unguarded store outside C is dropped.
  const bool outside_skipped = config_.guard || id == MatrixId::kC;
  const Warp& warp = state_.warps[static_cast<std::size_t>(leader.warp)];
  const Thread* const warp_lanes = &state_.threads[static_cast<std::size_t>(warp.first_thread)];
  Sectors sectors;
  for (int lane = 0; lane < warp.lane_count; ++lane) {
    const Thread& thread = warp_lanes[lane];
    if (!program_.Contains(thread, pc)) continue;
    const GlobalPlace place = places.Of(thread);
    if (outside_skipped && !memory_.Inside(id, place.row, place.col)) continue;
    sectors.Add(id, place.row * cols + place.col);
  }
  return sectors;
}

void Machine::PrecomputeSharedCosts() {
  // Shared words depend only on (tx, ty) and the loop index, never on the block or the
  // phase: every block's warp w has the same conflicts, computed once here.
  if (geometry_.naive) return;
  const Geometry& g = geometry_;
  shared_costs_.assign(static_cast<std::size_t>(g.warps_per_block) * 3 * g.tk, SharedCost{});
  // An access of N ways takes N − 1 extra wavefronts.
  const auto extra = [this](int w, WarpAccess access, int j) { return std::max(0, BankWays(config_, w, access, j) - 1); };
  const auto set = [this](int w, Op op, int j, int accesses, int conflicts) {
    SharedCost& cost = shared_costs_[SharedCostSlot(w, {op, 0, j})];
    cost.conflicts = static_cast<std::uint8_t>(conflicts);
    cost.wavefronts = static_cast<std::uint8_t>(accesses + conflicts);
  };
  for (int w = 0; w < g.warps_per_block; ++w) {
    for (int j = 0; j < g.tk; ++j) {
      set(w, Op::kStoreAs, j, 1, extra(w, WarpAccess::kStoreAs, j));
      set(w, Op::kStoreBs, j, 1, extra(w, WarpAccess::kStoreBs, j));
      set(w, Op::kFma, j, 2, extra(w, WarpAccess::kReadAs, j) + extra(w, WarpAccess::kReadBs, j));
    }
  }
}

void Machine::LogHazards(const SharedAccess& access, const Conflict& conflict, const SharedPlace& cell) {
  // An entry's lanes came in order: the newest first, as its cell's list runs.
  for (std::uint32_t lanes = conflict.earlier_lanes; lanes != 0 && state_.hazard_log_size < kMaxLoggedHazards;) {
    const int lane = 31 - __builtin_clz(lanes);
    lanes &= ~(1u << lane);
    Hazard& hazard = logs_.hazards.emplace_back(state_.hazard_detector.Describe(access, conflict, lane));
    hazard.step = state_.step;
    hazard.tile = cell.tile;
    hazard.row = cell.row;
    hazard.col = cell.col;
    state_.hazard_log_size = logs_.hazards.size();
  }
}

void Machine::RecordOutOfBounds(const Thread& thread, MatrixId id, long long row, long long col, bool write,
                                bool inside, float value) {
  ++state_.counters.out_of_bounds;
  if (logs_.out_of_bounds.size() < kMaxLoggedOutOfBounds) {
    logs_.out_of_bounds.push_back(OutOfBoundsAccess{state_.step, thread.block, thread.index_in_block, id,
                                                    thread.pc.op, static_cast<std::int32_t>(row),
                                                    static_cast<std::int32_t>(col), write, inside, value});
    state_.out_of_bounds_log_size = logs_.out_of_bounds.size();
  }
}

TraceEvent Machine::EventOf(const Thread& thread, const ProgramCounter& pc, EventKind kind) const {
  TraceEvent event;
  event.step = state_.step;
  event.kind = kind;
  event.op = pc.op;
  event.line = lines_[static_cast<std::size_t>(pc.op)];
  event.block = thread.block;
  event.thread = thread.index_in_block;
  event.phase = geometry_.naive ? 0 : pc.t;
  return event;
}

void Machine::Emit(TraceEvent event, int lane) {
  event.step = state_.step;
  state_.last_step.releases.push_back({static_cast<std::uint8_t>(lane), event});
}

}  // namespace sim
