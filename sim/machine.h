// machine.h — the GPU a lesson runs on, one step at a time.
//
// Owns the grid (blocks → warps → threads), shared memory, the barriers, the scheduler,
// the hazard detector, C and every counter. Everything that changes while running lives in
// MachineState, a plain value, so history can checkpoint it and step back exactly; the
// append-only logs (readers of A and B, hazards, out-of-bounds accesses) are kept outside
// and cut back to the lengths a restored state recorded. A and B never change.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/block.h"
#include "sim/counters.h"
#include "sim/geometry.h"
#include "sim/global_memory.h"
#include "sim/hazard_detector.h"
#include "sim/lesson_config.h"
#include "sim/program.h"
#include "sim/scheduler.h"
#include "sim/shared_memory.h"
#include "sim/thread.h"
#include "sim/trace.h"
#include "sim/warp.h"

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
constexpr std::size_t kMaxLoggedHazards = std::size_t{1} << 16;
constexpr std::size_t kMaxLoggedOutOfBounds = std::size_t{1} << 16;

struct MachineLogs {
  std::vector<ReadRecord> reads;
  std::vector<Hazard> hazards;
  std::vector<OutOfBoundsAccess> out_of_bounds;
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
  std::vector<TraceEvent> last_step_events;
  std::size_t read_log_size = 0;
  std::size_t hazard_log_size = 0;
  std::size_t out_of_bounds_log_size = 0;

  // Approximate bytes, for history's budget.
  std::size_t Bytes() const;
  bool operator==(const MachineState& o) const;
};

class Machine {
 public:
  Machine(const LessonConfig& config, std::vector<float> a, std::vector<float> b);

  // Runs one scheduler unit; false when nothing is left to run.
  bool Step();
  bool Finished() const { return state_.exited_threads == geometry_.threads(); }
  void Restore(const MachineState& state);
  void SetSink(TraceSink* sink) { sink_ = sink; }

  const LessonConfig& config() const { return config_; }
  const Geometry& geometry() const { return geometry_; }
  const Program& program() const { return program_; }
  const GlobalMemory& memory() const { return memory_; }
  const MachineState& state() const { return state_; }
  const MachineLogs& logs() const { return logs_; }
  // Global reads the read log holds at most (reserved up front) for this launch.
  static std::size_t ReadLogBound(const Geometry& g);

 private:
  void InitThreads();
  void ExecuteWarp(int warp);
  // Shared-memory wavefronts of the warp-instruction at `pc` (the realistic scheduler's pipe).
  int SharedWavefronts(int warp_in_block, const ProgramCounter& pc) const;
  // Runs one instruction for `count` lanes of a warp at the same instruction (a lockstep
  // warp-instruction, or one thread); true when any of them read global memory.
  bool Execute(Thread* const* lanes, int count, bool leads_warp_instruction);
  bool LeadsWarpInstruction(const Thread& thread) const;
  // What the lanes of one global load share: the matrix, their phase's counters, their event.
  struct LoadContext {
    MatrixId matrix;
    PhaseCounters* phase;
    TraceEvent event;
  };
  bool LoadGlobal(Thread* const* lanes, int count);
  bool Load(Thread& thread, const LoadContext& context, long long row, long long col, float& reg);
  void StoreShared(Thread* const* lanes, int count);
  void Fma(Thread* const* lanes, int count);
  void FmaCheckingReads(Thread* const* lanes, int count, const TraceEvent& pattern);
  void StoreC(Thread& thread);
  void Arrive(Thread* const* lanes, int count);
  void TryReleaseBlock(int block);
  void TryReleaseWarp(int warp);
  void Wake(Thread& thread);
  void Advance(Thread& thread);
  void Exit(Thread& thread);
  // Inline: every barrier arrival and release changes it, thread by thread.
  // `released`: runnable again because a barrier released it (the scheduler's resume latency).
  void SetRunnable(Thread& thread, bool runnable, bool released = false) {
    const std::size_t global = static_cast<std::size_t>(&thread - state_.threads.data());
    state_.scheduler.SetThreadRunnable(static_cast<int>(global), runnable);
    Warp& warp = state_.warps[static_cast<std::size_t>(thread.warp)];
    const int before = warp.runnable_lanes;
    warp.runnable_lanes += runnable ? 1 : -1;
    if ((before > 0) != (warp.runnable_lanes > 0)) state_.scheduler.SetWarpRunnable(thread.warp, warp.runnable_lanes > 0, released);
  }
  void CountWarpInstruction(const Thread& leader);
  // Distinct 32-byte sectors the warp-instruction touches; ORs into `l2_halves` bit h for
  // every L2 line it touches in half h (L2HalfOf).
  std::uint64_t CountSectors(const Thread& leader, std::uint8_t& l2_halves) const;
  std::size_t ConflictSlot(int warp_in_block, const ProgramCounter& pc) const;
  void PrecomputeBankConflicts();
  // Checks a shared access of cell (row, col) for hazards, counts and logs them; each one's
  // event is a copy of `pattern`, HazardPattern() of the accessing thread and the cell's tile.
  void RecordHazards(const SharedAccess& access, int block_epoch, int row, int col, const TraceEvent& pattern);
  void LogHazard(const SharedAccess& access, const Conflict& conflict, TraceEvent& event);
  TraceEvent HazardPattern(const Thread& thread, TileId tile) const;
  void RecordOutOfBounds(const Thread& thread, MatrixId id, long long row, long long col, bool write, bool inside,
                         float value);
  void Emit(TraceEvent event);
  // The event of `kind` for this thread's current instruction, and the same appended to the step's events.
  TraceEvent EventOf(const Thread& thread, EventKind kind) const;
  TraceEvent& NewEvent(const Thread& thread, EventKind kind);
  std::size_t PhaseIndex(int phase) const {
    // Clamped into the phases the counters keep (a store of C runs at t = phases).
    const int last = static_cast<int>(state_.counters.phases.size()) - 1;
    return static_cast<std::size_t>(phase < 0 ? 0 : (phase > last ? last : phase));
  }
  PhaseCounters& PhaseOf(const Thread& thread) {
    return state_.counters.phases[PhaseIndex(geometry_.naive ? 0 : thread.pc.t)];
  }

  LessonConfig config_;
  Geometry geometry_;
  Program program_;
  GlobalMemory memory_;
  std::array<int, kOpCount> lines_{};
  MachineState state_;
  MachineLogs logs_;
  TraceSink* sink_ = nullptr;
  std::vector<std::uint8_t> bank_conflicts_;  // per warp of a block and shared instruction
  bool shared_reads_can_race_ = true;
  std::uint8_t last_l2_halves_ = 0;  // of the global load being executed (CountSectors); read at once
};

}  // namespace sim
