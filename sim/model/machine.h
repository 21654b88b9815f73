// machine.h — the GPU a lesson runs on, one step at a time.
//
// Owns the grid (blocks → warps → threads), shared memory, the barriers, the scheduler,
// the hazard detector, C and every counter. Everything that changes while running lives in
// MachineState, a plain value, so history can checkpoint it and step back exactly; the
// append-only logs (readers of A and B, hazards, out-of-bounds accesses) are kept outside
// and cut back to the lengths a restored state recorded. A and B never change.
// A step's events are not built while it runs: the state keeps a StepRecord of it, from
// which last_step_events() builds them when they are first asked for (step_events.cpp).
// The step is a micro-optimised hot path: each trick's comment says what it bought and the
// commit that measured it; sim/model/README.md says how, and how to measure again.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "sim/cuda/ir.h"
#include "sim/model/block.h"
#include "sim/model/counters.h"
#include "sim/model/geometry.h"
#include "sim/model/global_memory.h"
#include "sim/model/hazard_detector.h"
#include "sim/model/kernel_config.h"
#include "sim/model/program.h"
#include "sim/model/scheduler.h"
#include "sim/model/shared_memory.h"
#include "sim/model/thread.h"
#include "sim/model/trace.h"
#include "sim/model/warp.h"

namespace sim {

// A global access outside its matrix (only possible with the bounds guard off).
struct OutOfBoundsAccess {
  std::int64_t step = 0;
  std::int32_t block = 0;
  std::int32_t thread = 0;  // index_in_block
  MatrixId matrix = MatrixId::kA;
  Op op = Op::kDone;
  std::int32_t row = 0;     // the row and column the kernel computed
  std::int32_t col = 0;
  bool write = false;       // a store: flagged and dropped
  bool inside_allocation = false;  // a read that landed on another element of the matrix
  float value = 0.0f;       // what a read returned
  bool operator==(const OutOfBoundsAccess& o) const;
};

// Log limits: past them the counters go on counting and the logs stop growing.
constexpr std::size_t kMaxLoggedReads = std::size_t{1} << 22;
// A logged load has a logged read: their indices stay below the reads'.
static_assert(kMaxLoggedReads <= std::size_t{1} << (32 - ReadLog::kLaneBits), "the read log names every load");
constexpr std::size_t kMaxLoggedHazards = std::size_t{1} << 16;
constexpr std::size_t kMaxLoggedOutOfBounds = std::size_t{1} << 16;

// A student's compiled kernel and the launch it runs in (machine_kernel.cpp). Pointer
// parameters name the matrix they get: A (M×K) and B (K×N) are read, C (M×N) starts zeroed.
struct KernelLaunch {
  std::shared_ptr<const cuda::CompiledKernel> kernel;
  std::array<int, 3> grid{1, 1, 1};
  std::array<int, 3> block{1, 1, 1};
  int m = 0, n = 0, k = 0;
  // Per kernel parameter: an int's value, or a pointer's matrix (static_cast<int>(MatrixId)).
  std::vector<std::int32_t> arguments;
  SchedulerKind scheduler = SchedulerKind::kRealistic;
  std::uint64_t seed = 1;
  // Instructions a thread may run: past them it is stopped as not terminating.
  std::int32_t instruction_budget = 1 << 24;
};
// What is wrong with a launch the machine cannot run (sizes, threads, memory); nullopt when none.
std::optional<std::string> ValidateLaunch(const KernelLaunch& launch);

// Something a student's kernel did that the model names at its line.
struct KernelFinding {
  enum class Kind : std::uint8_t {
    kGlobalOutside,     // an access outside its matrix: a read gives 0, a store is dropped
    kSharedOutside,     // a shared index outside its declared extent (`array`: the shared array)
    kLocalOutside,      // a local array index outside the array
    kInputWritten,      // a store to A or B, which the model keeps unchanged (dropped)
    kDivergentBarrier,  // a __syncthreads() released without every thread of the block reaching it
    kBudget,            // the thread ran its instruction budget: it does not terminate
    kDeadlock,          // threads wait at barriers that can never release
    kUninitializedShared,  // a read of a shared element no thread of the block has written
    kGlobalRace,        // an element of C another thread wrote, read or written again (other_pc: that write)
  };
  Kind kind = Kind::kGlobalOutside;
  std::int64_t step = 0;
  std::int32_t block = 0;
  std::int32_t thread = 0;  // index_in_block
  std::int32_t pc = 0;      // the instruction (CompiledKernel::positions gives its line)
  std::int64_t element = 0;  // kGlobalOutside: the element; kSharedOutside: the index that is outside
  std::uint8_t array = 0;    // the matrix (MatrixId) or the shared array
  bool write = false;
  std::int32_t other_pc = -1;  // kGlobalRace: the other thread's write
  bool operator==(const KernelFinding& o) const;
};

struct MachineLogs {
  ReadLog reads;
  std::vector<Hazard> hazards;
  std::vector<OutOfBoundsAccess> out_of_bounds;
  std::vector<KernelFinding> kernel_findings;
};

// What the last step ran, kept in place of its events. A warp-instruction has an event per
// lane and a racing one an event per hazard as well, while most steps' events are never read
// (a run to the end, a replay for step back): the instruction, its lanes and what the state
// cannot tell afterwards (the hazards each access found, the barrier releases) give them all
// again, together with the state after the step (128³ TILE 16 run to the end under callgrind:
// 514.5 → 439.2 M instructions, 1,521.7 → 1,445.7 M without the 1st barrier; b7b46eb).
struct StepRecord {
  ProgramCounter pc{};             // the instruction its lanes ran
  std::int32_t first_thread = 0;   // global index of lane 0 of their warp
  std::uint32_t lanes = 0;         // bit l: lane l ran (0 before the first step)
  std::size_t hazard_log_size = 0;         // the logs' lengths before the step: the index
  std::size_t out_of_bounds_log_size = 0;  // its first logged hazard or access takes
  // Hazards each shared access of a lane found, by slot 2·lane + access (access 0: the lane's
  // store, or its read of As; 1: its read of Bs): bit s of hazard_slots set where slot s found
  // any, of many_hazard_slots where it found more than one, hazard_counts[s] then holding how
  // many (the other counts are left over from earlier steps). Most accesses that find any find
  // one, the one write of their cell: a bit says so, with no count to store (with
  // NoteOneHazardEach, 256³ TILE 16 without the 1st barrier: 5,172 → 4,702 M instructions; 671f965).
  static int HazardSlot(int lane, int access) { return 2 * lane + access; }
  std::uint64_t hazard_slots = 0;
  std::uint64_t many_hazard_slots = 0;
  std::array<std::uint32_t, 2 * kWarpSize> hazard_counts{};
  std::uint32_t HazardsAt(int slot) const {
    if ((hazard_slots >> slot & 1) == 0) return 0;
    return (many_hazard_slots >> slot & 1) != 0 ? hazard_counts[static_cast<std::size_t>(slot)] : 1;
  }
  // A barrier released by a lane's arrival or exit: its event follows that lane's.
  struct Release {
    std::uint8_t lane = 0;
    TraceEvent event;
    bool operator==(const Release& o) const { return lane == o.lane && event == o.event; }
  };
  std::vector<Release> releases;

  bool operator==(const StepRecord& o) const;
};

struct MachineState {
  std::int64_t step = 0;
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  std::vector<Block> blocks;
  SharedMemory shared;
  HazardDetector hazard_detector;
  Scheduler scheduler;
  GlobalReadCounter reads;
  std::vector<float> c;
  std::vector<std::uint8_t> c_written;
  Counters counters;
  std::int32_t waiting_threads = 0;
  std::int32_t exited_threads = 0;
  Unit last_unit{};
  StepRecord last_step;
  std::size_t read_log_size = 0;
  std::size_t hazard_log_size = 0;
  std::size_t out_of_bounds_log_size = 0;
  // A student's kernel: each thread's registers (CompiledKernel::RegisterCount apiece, in
  // thread order; empty for a lesson's kernel) and the findings logged so far.
  std::vector<std::uint32_t> registers;
  std::size_t kernel_finding_log_size = 0;
  // Per instruction of the kernel: bank conflicts (extra wavefronts) and the most ways seen.
  std::vector<std::uint64_t> kernel_conflicts;
  std::vector<std::uint8_t> kernel_ways;
  // Per element of C: the thread that last wrote it (global index + 1, 0: none) and where,
  // for races between threads of the grid, which nothing orders.
  std::vector<std::int32_t> c_writers;
  std::vector<std::int32_t> c_writer_pcs;

  // Approximate bytes, for history's budget.
  std::size_t Bytes() const;
  bool operator==(const MachineState& o) const;
};

class Machine {
 public:
  Machine(const KernelConfig& config, std::vector<float> a, std::vector<float> b);
  // Runs a student's kernel (a launch ValidateLaunch accepts) with the same parts.
  Machine(const KernelLaunch& launch, std::vector<float> a, std::vector<float> b);

  // Runs one scheduler unit; false when nothing is left to run.
  bool Step();
  bool Finished() const { return state_.exited_threads == geometry_.threads(); }
  void Restore(const MachineState& state);
  // Whether the logs hold every record `state` counts: always for a state of this run at or
  // before the current step; for a later one only where the logs were not cut since.
  bool LogsReach(const MachineState& state) const {
    return logs_.reads.size() >= state.read_log_size && logs_.hazards.size() >= state.hazard_log_size &&
           logs_.out_of_bounds.size() >= state.out_of_bounds_log_size &&
           logs_.kernel_findings.size() >= state.kernel_finding_log_size;
  }
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

  const KernelConfig& config() const { return config_; }
  // The student's kernel this machine runs; null for a lesson's.
  const cuda::CompiledKernel* kernel() const { return kernel_.get(); }
  const KernelLaunch& launch() const { return launch_; }
  // A thread's registers (a student's kernel only).
  const std::uint32_t* RegistersOf(int thread) const {
    return &state_.registers[static_cast<std::size_t>(thread) * static_cast<std::size_t>(kernel_->RegisterCount())];
  }
  const Geometry& geometry() const { return geometry_; }
  const Program& program() const { return program_; }
  const GlobalMemory& memory() const { return memory_; }
  const MachineState& state() const { return state_; }
  const MachineLogs& logs() const { return logs_; }
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
  // Lays out blocks, warps and threads, then starts each thread: the lesson's program or the
  // student's kernel.
  void InitThreads();
  void StartLessonThread(Thread& thread, Block& block);
  void Prefetch(int warp) const;
  // The parts of a step (ExecuteWarp, Execute, Fma, FmaReadingTiles, CountWarpInstruction) are
  // inline, defined in machine.cpp, the only file that calls them (inlined into Step).
  inline void ExecuteWarp(int warp);
  // The runnable lanes at the warp's earliest instruction (bit l: lane l).
  std::uint32_t EarliestLanes(const Warp& warp) const;
  // What Warp::next_lanes becomes after `lanes` ran the instruction at `pc`.
  std::uint32_t NextLanes(const Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) const {
    // A load's next instruction, and the next k of an inner product, are the same for every
    // thread (Program::Next tells them from the instruction alone): most steps, inline
    // (256³ TILE 16 under callgrind: NextLanes 23 → 8 M instructions, + 2 inline; e1b120d).
    const bool same_next = pc.op == Op::kLoadA || pc.op == Op::kLoadB ||
                           (pc.op == Op::kFma && (geometry_.naive || pc.j + 1 < geometry_.tk));
    return same_next ? lanes : NextLanesAsked(warp_lanes, lanes, pc);
  }
  // NextLanes where the lanes' next instructions may differ by thread.
  std::uint32_t NextLanesAsked(const Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc) const;
  // Whether `lanes` (not none) are all runnable and at one instruction.
  static bool AtOneInstruction(const Thread* warp_lanes, std::uint32_t lanes);
  // Runs one instruction for `lanes` of a warp at the same instruction (a lockstep
  // warp-instruction, or one thread), bit l for the thread at warp_lanes[l]; true when any of
  // them read global memory.
  inline bool Execute(Thread* warp_lanes, std::uint32_t lanes, bool leads_warp_instruction);
  bool LeadsWarpInstruction(const Thread& thread) const;
  // The element a thread's global access names (outside its matrix when the guard is off).
  struct GlobalPlace {
    MatrixId matrix;
    long long row;
    long long col;
  };
  // The elements the lanes of a global access at `pc` name, made once for all its lanes: a
  // lane's row and column follow from its own by one step and offset (the naive kernel's loop
  // index k, the tiled kernels' element t·TK + j of the phase along the tile). With the shared
  // words made alike and 8016dae's other changes: 256³ TILE 16 under callgrind 2,124 → 2,018 M
  // instructions.
  struct GlobalPlaces {
    MatrixId matrix;
    int step;          // per tx along A's columns, per ty down B's rows: 0 (naive) or 1
    long long offset;
    GlobalPlace Of(const Thread& thread) const {
      switch (matrix) {
        case MatrixId::kA:
          return {matrix, thread.regs.row, thread.tx * step + offset};
        case MatrixId::kB:
          return {matrix, thread.ty * step + offset, thread.regs.col};
        case MatrixId::kC:
          break;
      }
      return {matrix, thread.regs.row, thread.regs.col};
    }
  };
  GlobalPlaces GlobalPlacesAt(const ProgramCounter& pc) const {
    const bool naive = geometry_.naive;
    const long long tile_base = naive ? pc.t : static_cast<long long>(pc.t) * geometry_.tk;
    if (pc.op == Op::kLoadA) return {MatrixId::kA, naive ? 0 : 1, naive ? tile_base : tile_base + program_.AColumnOffset(pc.j)};
    if (pc.op == Op::kLoadB) return {MatrixId::kB, naive ? 0 : 1, naive ? tile_base : tile_base + program_.BRowOffset(pc.j)};
    return {MatrixId::kC, 0, 0};
  }
  // The cell a thread's shared store at `pc` writes.
  struct SharedPlace {
    TileId tile;
    int row;
    int col;
  };
  SharedPlace StorePlace(const Thread& thread, const ProgramCounter& pc) const {
    if (pc.op == Op::kStoreAs) return {TileId::kAs, thread.ty, program_.AColumn(thread, pc.j)};
    return {TileId::kBs, program_.BRow(thread, pc.j), thread.tx};
  }
  // What each lane of an instruction does first: note its line, count it, set its loop index
  // (the tiled kernels' t, the naive kernel's k). The same for all the lanes of a step, so
  // made once and passed by value (a copy the lanes' stores cannot alias).
  struct LaneStart {
    std::int16_t line;
    std::int32_t t;
    bool naive;
    void operator()(Thread& thread) const {
      thread.last_line = line;
      ++thread.instructions;
      (naive ? thread.regs.k : thread.regs.t) = t;
    }
  };
  // Each runs the instruction for its lanes, starting each, and moves them on.
  // `counts_sectors`: the lanes are all the warp's and lead their warp-instruction, so they
  // count its sectors as they run (CountWarpInstruction does not), not a second walk over them
  // (256³ TILE 16 under callgrind: 1,869 → 1,795 M instructions; 9759315).
  bool LoadGlobal(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, bool counts_sectors);
  // A load outside its matrix: zero padding under the guard, else a flagged read.
  bool LoadOutside(Thread& thread, const GlobalPlace& place, std::int16_t phase_index, float& reg);
  // Whether the read log takes `reads` more reads, all of this step.
  bool ReadLogTakes(std::size_t reads) const {
    return state_.read_log_size + reads <= kMaxLoggedReads && state_.step < ReadLog::kStepLimit;
  }
  // The load this step's reads by the warp whose lane 0 is `lane0` belong to.
  ReadLog::LoggedLoad LoadOf(const Thread& lane0, MatrixId id, std::int16_t phase_index) const {
    return ReadLog::Load(state_.step, phase_index, static_cast<std::int32_t>(&lane0 - state_.threads.data()), id);
  }
  void LogRead(const Thread& thread, MatrixId id, long long element, std::int16_t phase_index) {
    if (!ReadLogTakes(1)) return;
    const ReadLog::LoggedLoad load = LoadOf(*(&thread - thread.lane), id, phase_index);
    if (!logs_.reads.LastLoadIs(load)) logs_.reads.StartLoad(load);
    logs_.reads.Append(static_cast<std::int32_t>(element), thread.lane);
    ++state_.read_log_size;
  }
  // Logs a whole warp's reads, of `elements` by lane, as many as the log takes.
  void LogWarpReads(const Thread* warp_lanes, MatrixId id, const std::array<std::int32_t, kWarpSize>& elements,
                    std::int16_t phase_index) {
    if (!ReadLogTakes(kWarpSize)) {
      for (int lane = 0; lane < kWarpSize; ++lane) LogRead(warp_lanes[lane], id, elements[lane], phase_index);
      return;
    }
    logs_.reads.StartLoad(LoadOf(warp_lanes[0], id, phase_index));
    logs_.reads.AppendWarp(elements);
    state_.read_log_size += kWarpSize;
  }
  void StoreShared(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  // The words a shared store writes, a lane's ty · row_stride + tx + offset, and the register
  // it stores.
  struct StoreWords {
    int row_stride;
    int offset;
    float Registers::*source;
    int Of(const Thread& thread) const { return thread.ty * row_stride + thread.tx + offset; }
  };
  StoreWords StoreWordsAt(const ProgramCounter& pc) const;
  // StoreShared's parts: the hazard detector's look at each store, the stores (each lane
  // started and moved on to its next instruction, `next` where WarpNext gave one), and the
  // count of the block's threads that store before the next __syncthreads(), less the lanes'
  // last such stores.
  void CheckStores(const Thread* warp_lanes, std::uint32_t lanes, const StoreWords& words);
  void WriteCells(Thread* warp_lanes, std::uint32_t lanes, LaneStart start, const StoreWords& words,
                  const std::optional<ProgramCounter>& next);
  void CountLastStores(const Thread* warp_lanes, std::uint32_t lanes, const std::optional<ProgramCounter>& next);
  // A lane's store, `write` (as the detector sees it), checked for hazards where they can race.
  void CheckStore(const Thread& thread, const SharedAccess& write, int block_epoch, PhaseCounters& phase);
  inline void Fma(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  // The tiled kernels' inner-product step; it moves its lanes to the next k when there is one.
  inline void FmaReadingTiles(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  // Checks the step's reads of As and Bs for hazards (before FmaReadingTiles runs it).
  void CheckTileReads(Thread* warp_lanes, std::uint32_t lanes);
  // Gathers the inner-product step's reads of a whole warp whose lane 0 is `first_thread` of its
  // block (As[ty][k] at a_column + ty · a_stride, Bs[k][tx] at b_row + tx).
  void GatherWarpReads(HazardDetector::WarpReads& reads, int first_thread, int a_column, int a_stride, int b_row) const;
  // One read, its hazards listed, counted and logged; how many. Out of line: most reads are
  // only counted.
  std::uint32_t ListReadHazards(HazardDetector::WarpReads& reads, const Thread& thread, SharedPlace cell, int word,
                                float value, PhaseCounters& phase);
  void StoreC(Thread& thread);
  void Arrive(Thread* warp_lanes, std::uint32_t lanes, LaneStart start);
  // `lane`: the lane whose arrival or exit may release it (its event follows that lane's).
  void TryReleaseBlock(int block, int lane);
  void TryReleaseWarp(int warp, int lane);
  // Counts the block's threads that store to shared memory before its next __syncthreads() release.
  void CountSharedWriters(Block& block);
  // Wakes the warp's lanes waiting at a barrier of `kind`, counting them in `release`.
  void WakeWaiting(int warp, SyncKind kind, TraceEvent& release);
  // Moves a thread past its instruction at `pc` (its own).
  void Advance(Thread& thread, const ProgramCounter& pc) {
    thread.pc = program_.Next(thread, pc);
    if (thread.pc.op == Op::kDone) Exit(thread);
  }
  // Advance for `lanes` of a warp, all at `pc`.
  void AdvanceLanes(Thread* warp_lanes, std::uint32_t lanes, const ProgramCounter& pc);
  // The instruction after `pc` of every lane of the warp whose lane 0 is `lane0`, where
  // Program::Next gives them all the same one (its corners agree); else nullopt. Two asked
  // instead of 32 (256³ TILE 16 under callgrind: WakeWaiting with AtOneInstruction 172 → 101 M
  // instructions, StoreShared 112 → 82 M; d439ff6).
  std::optional<ProgramCounter> WarpNext(const Thread& lane0, const ProgramCounter& pc) const {
    const Program::Corners& corners = warp_corners_[static_cast<std::size_t>(lane0.index_in_block / kWarpSize)];
    const ProgramCounter next = program_.Next(corners.low, pc);
    if (next != program_.Next(corners.high, pc)) return std::nullopt;
    return next;
  }
  void Exit(Thread& thread);
  // `count` lanes of the warp became runnable (negative: stopped being). The scheduler hears
  // of the warp when it gains its first runnable lane or loses its last; `released`: by a
  // barrier (the scheduler's resume latency).
  void AddRunnableLanes(int warp_index, int count, bool released = false) {
    Warp& warp = state_.warps[static_cast<std::size_t>(warp_index)];
    const int before = warp.runnable_lanes;
    warp.runnable_lanes += count;
    if ((before > 0) != (warp.runnable_lanes > 0)) state_.scheduler.SetWarpRunnable(warp_index, warp.runnable_lanes > 0, released);
  }
  void SetRunnable(Thread& thread, bool runnable) {
    state_.scheduler.SetThreadRunnable(static_cast<int>(&thread - state_.threads.data()), runnable);
    AddRunnableLanes(thread.warp, runnable ? 1 : -1);
  }
  inline void CountWarpInstruction(const Thread& leader);
  static constexpr int kBytesPerFloat = 4;
  static constexpr int kSectorBytes = 32;
  // The distinct 32-byte sectors a warp-instruction's lanes touch in one matrix, and the L2
  // halves of their lines (bit h: a line in half h, L2HalfOf).
  struct Sectors {
    std::array<std::int64_t, kWarpSize> seen;
    int distinct = 0;
    std::int64_t highest = std::numeric_limits<std::int64_t>::min();  // of those seen
    std::uint8_t l2_halves = 0;
    void Add(MatrixId matrix, long long element) { AddSector(matrix, element * kBytesPerFloat / kSectorBytes); }
    // The sectors of the elements first..last, each touched (a run of lanes, one element apart or none).
    void AddRun(MatrixId matrix, long long first, long long last) {
      for (std::int64_t sector = first * kBytesPerFloat / kSectorBytes; sector <= last * kBytesPerFloat / kSectorBytes;
           ++sector) {
        AddSector(matrix, sector);
      }
    }
    void AddSector(MatrixId matrix, std::int64_t sector) {
      // Neighbouring lanes mostly share a sector, lanes mostly go up through memory, and a warp
      // touches few: the last one, then the highest (1,235 → 1,229 M instructions at 256³ TILE
      // 16, d7b53d6), then a linear look-up (never measured against sorting).
      if (distinct > 0 && seen[static_cast<std::size_t>(distinct - 1)] == sector) return;
      if (sector <= highest && std::find(seen.begin(), seen.begin() + distinct, sector) != seen.begin() + distinct) return;
      seen[static_cast<std::size_t>(distinct++)] = sector;
      highest = std::max(highest, sector);
      l2_halves |= static_cast<std::uint8_t>(1u << L2HalfOf(static_cast<int>(matrix), sector / kSectorsPerL2Line));
    }
  };
  // The sectors of the warp-instruction `leader` leads, over every lane whose program has it.
  Sectors SectorsOf(const Thread& leader) const;
  // Whether every lane of a whole warp's global access at `places` lies inside its matrix.
  bool WarpInside(const Thread* warp_lanes, const GlobalPlaces& places) const;
  // LoadGlobal for a whole warp whose lanes all load inside their matrix, row by row; adds the
  // sectors to `sectors` unless null. A run of lanes is a run of elements and of sectors (256³
  // TILE 16, bare, under callgrind: LoadGlobal 220 → 94 M instructions; d439ff6).
  void LoadWarpInside(Thread* warp_lanes, LaneStart start, const GlobalPlaces& places, ProgramCounter next,
                      std::int16_t phase_index, Sectors* sectors);
  // Counts a global access's sectors (leader: the lane that leads it) for the scheduler and the counters.
  void CountSectors(const Thread& leader, const Sectors& sectors);
  // What a warp's shared instruction costs: its bank conflicts' extra wavefronts, and all its
  // wavefronts at the SM's shared-memory pipe (an access each, As and Bs for an inner-product
  // step, plus the conflicts).
  struct SharedCost {
    std::uint8_t conflicts = 0;
    std::uint8_t wavefronts = 0;
  };
  // The cost of the shared instruction (a store or an inner-product step) at `pc` for warp
  // `warp_in_block` of any block: one look-up a step, where the conflicts and the wavefronts
  // were looked up apart (256³ TILE 16, bare: 1,529.0 → 1,497.1 M instructions; d3e75b2).
  const SharedCost& SharedCostOf(int warp_in_block, const ProgramCounter& pc) const {
    return shared_costs_[SharedCostSlot(warp_in_block, pc)];
  }
  std::size_t SharedCostSlot(int warp_in_block, const ProgramCounter& pc) const {
    // Per warp of a block: store_as by j, store_bs by j, then fma by k.
    constexpr std::array<int, kOpCount + 1> kSection{0, 0, 0, 1, 0, 2, 0, 0, 0};
    return static_cast<std::size_t>((warp_in_block * 3 + kSection[static_cast<std::size_t>(pc.op)]) * geometry_.tk + pc.j);
  }
  void PrecomputeSharedCosts();
  // Hazards found by the detector, added up by what the counters tell apart.
  struct HazardTally {
    std::uint64_t hazards = 0;
    std::uint64_t warnings = 0;
    std::array<std::uint64_t, kHazardKindCount> by_kind{};  // by HazardKind
    std::uint64_t witnessed = 0;
    std::uint64_t corrupting = 0;
    // Adds `count` hazards alike.
    void Add(const Conflict& conflict, std::uint64_t count) {
      hazards += count;
      if (conflict.severity == Severity::kWarning) warnings += count;
      by_kind[static_cast<std::size_t>(conflict.kind)] += count;
      if (!conflict.observed_in_program_order) witnessed += count;
      if (conflict.corrupted) corrupting += count;
    }
  };
  // Counts the hazards in the totals and in `phase` (their second accesses').
  void CountHazards(const HazardTally& tally, PhaseCounters& phase) {
    Counters& counters = state_.counters;
    counters.hazards += tally.hazards;
    phase.hazards += tally.hazards;
    counters.hazard_warnings += tally.warnings;
    counters.hazard_errors += tally.hazards - tally.warnings;
    counters.hazards_raw += tally.by_kind[static_cast<std::size_t>(HazardKind::kRaw)];
    counters.hazards_war += tally.by_kind[static_cast<std::size_t>(HazardKind::kWar)];
    counters.hazards_waw += tally.by_kind[static_cast<std::size_t>(HazardKind::kWaw)];
    counters.hazards_witnessed += tally.witnessed;
    counters.hazards_corrupting += tally.corrupting;
  }
  // Notes in the step's record that an access of a lane (`access_slot`, as StepRecord::Hazards
  // names it) found `found` hazards.
  void NoteHazards(int lane, int access_slot, std::uint32_t found) {
    if (found == 0) return;
    const int slot = StepRecord::HazardSlot(lane, access_slot);
    state_.last_step.hazard_slots |= std::uint64_t{1} << slot;
    if (found == 1) return;
    state_.last_step.many_hazard_slots |= std::uint64_t{1} << slot;
    state_.last_step.hazard_counts[static_cast<std::size_t>(slot)] = found;
  }
  // Notes that an access of each of `lanes` found one hazard.
  void NoteOneHazardEach(std::uint32_t lanes, int access_slot) {
    // Lane l's bit to bit 2·l (StepRecord::HazardSlot), by halves, quarters, ... in turn.
    std::uint64_t slots = lanes;
    slots = (slots | slots << 16) & 0x0000ffff0000ffffu;
    slots = (slots | slots << 8) & 0x00ff00ff00ff00ffu;
    slots = (slots | slots << 4) & 0x0f0f0f0f0f0f0f0fu;
    slots = (slots | slots << 2) & 0x3333333333333333u;
    slots = (slots | slots << 1) & 0x5555555555555555u;
    state_.last_step.hazard_slots |= slots << access_slot;
  }
  // Logs the hazards of `access` with each of the conflict's earlier lanes, while the log has room.
  void LogHazards(const SharedAccess& access, const Conflict& conflict, const SharedPlace& cell);
  void RecordOutOfBounds(const Thread& thread, MatrixId id, long long row, long long col, bool write, bool inside,
                         float value);
  void Emit(TraceEvent event, int lane);
  // step_events.cpp: the last step's events, from its record and the state after it.
  struct StepEventCursor {
    std::size_t hazard_index = 0;  // the next logged hazard's and out-of-bounds access's index
    std::size_t out_of_bounds_index = 0;
  };
  void BuildStepEvents(std::vector<TraceEvent>& events) const;
  void AddLaneEvents(const Thread& thread, StepEventCursor& cursor, std::vector<TraceEvent>& events) const;
  void AddHazardEvents(const Thread& thread, int access, const SharedPlace& cell, float value,
                       StepEventCursor& cursor, std::vector<TraceEvent>& events) const;
  void AddOutOfBoundsEvent(const Thread& thread, Place place, float value, StepEventCursor& cursor,
                           std::vector<TraceEvent>& events) const;
  // The event of `kind` for this thread's instruction at `pc`.
  TraceEvent EventOf(const Thread& thread, const ProgramCounter& pc, EventKind kind) const;
  std::size_t PhaseIndex(int phase) const {
    // Clamped into the phases the counters keep (a store of C runs at t = phases).
    const int last = static_cast<int>(state_.counters.phases.size()) - 1;
    return static_cast<std::size_t>(phase < 0 ? 0 : (phase > last ? last : phase));
  }
  PhaseCounters& PhaseOf(const Thread& thread) {
    return state_.counters.phases[PhaseIndex(geometry_.naive ? 0 : thread.pc.t)];
  }

  // ---- a student's kernel (machine_kernel.cpp): one step is one visible instruction ----
  bool StepKernel();
  void StartKernelThread(Thread& thread);
  std::uint32_t* KernelRegisters(const Thread& thread) {
    return &state_.registers[static_cast<std::size_t>(&thread - state_.threads.data()) * register_count_];
  }
  // Runs the thread's register instructions up to its next visible one (cuda::RunToVisible),
  // handling local indices outside their array and the budget on the way.
  void RunAhead(Thread& thread);
  // Performs the visible instruction `lanes` of a warp share and moves each on; the scheduler's issue.
  Scheduler::Issue ExecuteKernelLanes(Thread* warp_lanes, std::uint32_t lanes);
  void KernelGlobal(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue);
  void KernelShared(Thread* warp_lanes, std::uint32_t lanes, const cuda::Instruction& ins, Scheduler::Issue& issue);
  void KernelArrive(Thread* warp_lanes, std::uint32_t lanes, bool block_barrier);
  void KernelTryReleaseBlock(int block);
  void KernelTryReleaseWarp(int warp);
  // Wakes the warp's lanes waiting in `waiting`, each moved past its barrier.
  int KernelWake(int warp, ThreadState waiting);
  void KernelExit(Thread& thread);
  void LogFinding(const Thread& thread, KernelFinding::Kind kind, std::int64_t element = 0, int array = 0,
                  bool write = false, std::int32_t other_pc = -1);
  // A thread's access of C's `element`: a race where another thread wrote it.
  void CheckGlobalRace(const Thread& thread, long long element, bool write);
  // Where a thread stands in the kernel, for the views: the lesson op its instruction is like.
  static Op OpLike(cuda::Opcode op);

  KernelConfig config_;
  Geometry geometry_;
  Program program_;
  GlobalMemory memory_;
  std::array<int, kOpCount> lines_{};
  MachineState state_;
  MachineLogs logs_;
  TraceSink* sink_ = nullptr;
  // last_step_events(), built on demand: a cache of what the record gives.
  mutable std::vector<TraceEvent> step_events_;
  mutable bool step_events_built_ = true;
  std::vector<SharedCost> shared_costs_;  // per warp of a block and shared instruction (SharedCostOf)
  std::vector<Program::Corners> warp_corners_;  // of each warp of a block's lanes
  bool shared_accesses_can_race_ = true;  // else the hazard detector sees no access
  std::uint8_t last_l2_halves_ = 0;  // of the global load being executed (CountSectors); read at once
  std::uint8_t last_wavefronts_ = 0;  // of the shared instruction being executed (CountWarpInstruction); read at once
  std::shared_ptr<const cuda::CompiledKernel> kernel_;  // a student's kernel, or null
  KernelLaunch launch_;
  std::size_t register_count_ = 0;
  std::vector<int> shared_base_;  // first word of each __shared__ array in a block's words
  bool deadlock_logged_ = false;
};

}  // namespace sim
