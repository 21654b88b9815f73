// machine_state.h — everything of a machine's run that changes, as plain values.
//
// MachineState is what history checkpoints and step back restores exactly. The append-only
// logs (readers of A and B, hazards, out-of-bounds accesses, a student kernel's findings) are
// kept outside it in MachineLogs and cut back to the lengths a restored state recorded.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/model/block.h"
#include "sim/model/counters.h"
#include "sim/model/global_memory.h"
#include "sim/model/hazard_detector.h"
#include "sim/model/warp_access_groups.h"
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

// Something a student's kernel did that the model names at its line.
struct KernelFinding {
  enum class Kind : std::uint8_t {
    kGlobalOutside,     // an access outside its matrix: a read gives 0, a store is dropped
    kSharedOutside,     // a shared index outside its declared extent (`array`: the shared array)
    kLocalOutside,      // a local array index outside the array (`array`: the dimension + 1 it leaves, 0: the whole)
    kInputWritten,      // a store to A or B, which the model keeps unchanged (dropped)
    kDivergentBarrier,  // a __syncthreads() released without every thread of the block reaching it
    kBudget,            // the thread ran its instruction budget: it does not terminate
    kDeadlock,          // threads wait at barriers that can never release
    kUninitializedShared,  // a read of a shared element no thread of the block has written
    kGlobalRace,        // an element of C another thread wrote, read or written again (other_pc: that write)
    kUninitializedLocal,  // a read of a local the thread has not written (`element`: its register)
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

// What a student's kernel did, counted by where: every finding, past its log's limit too (the
// log keeps the first for stepping; these keep each place's first and the exact count).
struct KernelFindingTally {
  KernelFinding first;  // the earliest of its place
  std::uint64_t count = 0;
  // One place: the same kind, instruction, array (or dimension), direction and other write.
  bool SamePlace(const KernelFinding& f) const {
    return f.kind == first.kind && f.pc == first.pc && f.array == first.array && f.write == first.write && f.other_pc == first.other_pc;
  }
  bool operator==(const KernelFindingTally& o) const { return first == o.first && count == o.count; }
};

// The shared-memory races of a student's kernel by the two instructions involved (in the order
// observed: `first` ran first), their kind and severity: every hazard the detector finds, where
// the hazard log keeps only the first kMaxLoggedHazards.
struct RaceTally {
  HazardKind kind = HazardKind::kRaw;
  Severity severity = Severity::kError;
  std::int32_t first_pc = -1;   // -1: past the range program order can name (no line)
  std::int32_t second_pc = -1;
  bool first_writes = false;
  std::uint64_t count = 0;
  bool SamePlace(const RaceTally& o) const {
    return kind == o.kind && severity == o.severity && first_pc == o.first_pc && second_pc == o.second_pc && first_writes == o.first_writes;
  }
  bool operator==(const RaceTally& o) const { return SamePlace(o) && count == o.count; }
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
// A student kernel's step, for its narration (a kernel's steps have no events): the lanes
// that ran, what their visible instruction did and at which line, and the first lane's access.
struct KernelStepRecord {
  enum class Did : std::uint8_t { kNothing, kLoadGlobal, kStoreGlobal, kLoadShared, kStoreShared, kSyncthreads, kSyncwarp, kExit };
  Did did = Did::kNothing;
  std::int32_t first_thread = 0;  // global index of lane 0 of their warp
  std::uint32_t lanes = 0;        // bit l: lane l ran
  std::int32_t line = 0;
  // The first lane's access: its matrix (MatrixId) or __shared__ array, the element (row-major
  // in the array; a shared index as declared), the value read or written, and whether the
  // element lay outside the array (a read then gives 0, a store is dropped).
  std::int32_t array = 0;
  std::int64_t element = 0;
  float value = 0.0f;
  bool outside = false;
  std::int32_t released = 0;  // threads a barrier let go on at this step
  bool operator==(const KernelStepRecord& o) const;
};

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
  KernelStepRecord kernel;  // a student's kernel's step (a lesson's leaves it empty)

  // Notes that an access of a lane (`access_slot`, as HazardSlot names it) found `found` hazards.
  void NoteHazards(int lane, int access_slot, std::uint32_t found) {
    if (found == 0) return;
    const int slot = HazardSlot(lane, access_slot);
    hazard_slots |= std::uint64_t{1} << slot;
    if (found == 1) return;
    many_hazard_slots |= std::uint64_t{1} << slot;
    hazard_counts[static_cast<std::size_t>(slot)] = found;
  }
  // Notes that an access of each of `lanes` found one hazard.
  void NoteOneHazardEach(std::uint32_t lanes, int access_slot) {
    // Lane l's bit to bit 2·l (HazardSlot), by halves, quarters, ... in turn.
    std::uint64_t slots = lanes;
    slots = (slots | slots << 16) & 0x0000ffff0000ffffu;
    slots = (slots | slots << 8) & 0x00ff00ff00ff00ffu;
    slots = (slots | slots << 4) & 0x0f0f0f0f0f0f0f0fu;
    slots = (slots | slots << 2) & 0x3333333333333333u;
    slots = (slots | slots << 1) & 0x5555555555555555u;
    hazard_slots |= slots << access_slot;
  }

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
  // Per register, as `registers`: 1 while a local declared without a value is unwritten
  // (KernelProgram::declared_unwritten; empty when the kernel declares none).
  std::vector<std::uint8_t> unwritten_locals;
  std::size_t kernel_finding_log_size = 0;
  std::vector<KernelFindingTally> kernel_findings;  // in the order their places were first met
  std::vector<RaceTally> kernel_races;
  // Per instruction of the kernel: bank conflicts (extra wavefronts) and the most ways seen.
  std::vector<std::uint64_t> kernel_conflicts;
  std::vector<std::uint8_t> kernel_ways;
  // Per warp: its warp-instructions some lanes have run and others may still (a scheduler of
  // threads), for counting sectors and bank conflicts by warp-instruction.
  std::vector<WarpAccessGroups> warp_access_groups;
  // Per element of C: the thread that last wrote it (global index + 1, 0: none) and where,
  // for races between threads of the grid, which nothing orders.
  std::vector<std::int32_t> c_writers;
  std::vector<std::int32_t> c_writer_pcs;

  // Approximate bytes, for history's budget.
  std::size_t Bytes() const;
  std::size_t WarpAccessGroupBytes() const;
  bool operator==(const MachineState& o) const;
};

}  // namespace sim
