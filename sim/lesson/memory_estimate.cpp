#include "sim/lesson/memory_estimate.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "sim/lesson/comparison.h"
#include "sim/lesson/formulas.h"
#include "sim/model/geometry.h"
#include "sim/model/history.h"
#include "sim/model/machine.h"
#include "sim/model/reference.h"

namespace sim {
namespace {

using U64 = std::uint64_t;

constexpr U64 kTooMany = std::numeric_limits<U64>::max() / 8;
// Beyond this many threads a lesson is far past any memory limit, and int geometry would
// overflow: the estimate answers "too many" without building it.
constexpr U64 kMaxThreadsToEstimate = U64{1} << 28;
constexpr U64 kWarpSize = 32;

U64 CeilDiv(U64 a, U64 b) { return (a + b - 1) / b; }

U64 Threads(const KernelConfig& config) {
  const TileShape tiles = config.Tiles();
  return CeilDiv(U64(config.m), U64(tiles.tm)) * CeilDiv(U64(config.n), U64(tiles.tn)) * U64(tiles.tm) * U64(tiles.tn);
}

// Entries one block's hazard arena holds. A generation runs from one __syncthreads() of the
// block to the next, filling the arena from empty to its most. None are seen where both
// barriers order them (Machine::SharedAccessesCanRace). Without a
// __syncthreads() the generation is the block's whole run. The realistic scheduler runs the
// blocks side by side (one or more per SM), so their arenas are full together; the other
// policies finish blocks one after another, freeing theirs all along the run.
// `live`: what the running machine holds at its most. `checkpoint`: what a checkpoint holds
// of its own — states share the arena's full chunks (HazardDetector::Arena), so one of the
// same generation as the live machine adds only the last chunk of each block; one of an
// earlier generation holds that generation's arenas. Realistic without a barrier, every
// checkpoint is of the live machine's generation; with one, most are of earlier ones.
// The other policies' factors are model_memory's measurements (half a phase's and a quarter
// of the run's accesses), as before the chunks.
struct ArenaAccesses {
  U64 live = 0;
  U64 checkpoint = 0;
};
// Arena entries a block's inner product adds in a phase under a policy that runs whole warps:
// the lanes of a warp-instruction that read one cell share an entry, so a warp's step reads
// as many As cells as its lanes span rows and as many Bs cells as they span columns.
U64 WarpReadEntriesPerPhase(const Geometry& g) {
  U64 entries = 0;
  for (int first = 0; first < g.block_threads; first += int(kWarpSize)) {
    const int count = std::min(int(kWarpSize), g.block_threads - first);
    const int rows = (first + count - 1) / g.tn - first / g.tn + 1;
    const int columns = rows == 1 ? count : std::min(g.tn, count);
    entries += U64(g.tk) * U64(rows + columns);
  }
  return entries;
}

ArenaAccesses ArenaAccessesPerBlock(const KernelConfig& config, const Geometry& g) {
  if (!Machine::SharedAccessesCanRace(config)) return {};
  const U64 stores = U64(g.tm) * g.tk + U64(g.tk) * g.tn;  // one As and one Bs tile a phase
  const int barriers = (config.barrier1 == SyncKind::kSyncthreads) + (config.barrier2 == SyncKind::kSyncthreads);
  const bool side_by_side = config.scheduler == SchedulerKind::kRealistic;
  // As[ty][k] and Bs[k][tx] for every k: an entry a read where lanes run one at a time.
  const U64 reads = side_by_side ? WarpReadEntriesPerPhase(g) : U64(g.block_threads) * 2 * g.tk;
  const U64 tail = U64(HazardDetector::kArenaChunkEntries);
  // The realistic policy's warps of a block mostly finish a phase's stores before they read:
  // where the 2nd barrier ends the generation, its reads come after its stores and are kept
  // only while a store may yet come (Block::shared_writers), so few are.
  const U64 kept_reads = side_by_side && config.barrier2 == SyncKind::kSyncthreads ? 0 : reads;
  if (barriers == 1) return side_by_side ? ArenaAccesses{stores + kept_reads, stores + kept_reads} : ArenaAccesses{(stores + reads) / 2, (stores + reads) / 2};
  if (!side_by_side) return {(stores + reads) * U64(g.phases) / 4, (stores + reads) * U64(g.phases) / 4};
  return {(stores + reads) * U64(g.phases), tail};
}

// The machine's state (MachineState::Bytes) with `accesses` in each block's hazard arena.
U64 StateBytes(const KernelConfig& config, const Geometry& g, U64 accesses) {
  const U64 threads = U64(g.threads()), warps = U64(g.warps()), blocks = U64(g.blocks);
  const U64 cells = g.naive ? 0 : blocks * (U64(g.tm) * g.tk + U64(g.tk) * g.tn);
  const U64 shadows = Machine::SharedAccessesCanRace(config) ? cells : 0;  // the hazard detector's
  const U64 a_and_b = U64(g.m) * g.k + U64(g.k) * g.n, c = U64(g.m) * g.n;
  // The realistic policy keeps per warp a flag and three cycles, about two queue entries, a
  // bit of the queue's warp set and up to two loads in flight; per block a flag; per SM its
  // sub-partitions' and pipe's cycles and its bytes in flight. The others keep thread bitsets.
  const U64 sms = std::min<U64>(blocks, U64(kSmCount));
  const U64 scheduler =
      config.scheduler == SchedulerKind::kRealistic
          ? warps * (1 + 3 * 8 + 2 * 16 + 2 * 16) + CeilDiv(warps, 8) + blocks + sms * (kSubPartitions * 8 + 8 + 8)
          : CeilDiv(threads, 64) * 8 + (config.scheduler == SchedulerKind::kRandom ? threads * 8 : 0);
  // Whole chunks, each a pointer (shared_ptr and its control block) besides its entries.
  const U64 chunks = CeilDiv(accesses, HazardDetector::kArenaChunkEntries);
  const U64 arena_bytes = chunks * (HazardDetector::kArenaChunkEntries * HazardDetector::BytesPerAccess() + 48);
  return sizeof(MachineState) + threads * sizeof(Thread) + warps * sizeof(Warp) + blocks * sizeof(Block) +
         cells * sizeof(SharedCell) + shadows * HazardDetector::BytesPerCell() + blocks * (sizeof(std::vector<int>) + arena_bytes) +
         scheduler + a_and_b * sizeof(std::uint32_t) + blocks * 2 * sizeof(U64) + c * (sizeof(float) + 1) +
         U64(std::max(g.phases, 1)) * sizeof(PhaseCounters);
}

// A machine: its state, its read log (reserved whole), A and B.
U64 MachineBytes(const KernelConfig& config, const Geometry& g) {
  const U64 a_and_b = U64(g.m) * g.k + U64(g.k) * g.n;
  const Machine::ReadLogBounds read_log = Machine::ReadLogBound(config, g);
  return StateBytes(config, g, ArenaAccessesPerBlock(config, g).live) + ReadLog::Bytes(read_log.reads, read_log.loads) +
         a_and_b * sizeof(float);
}

// Steps of a whole run: warp-instructions where the scheduler issues warps, else
// thread-instructions (full blocks: edge threads that exit early make it an upper bound).
std::int64_t Steps(const KernelConfig& config, const Geometry& g) {
  const std::int64_t per_thread = StepsPerThread(config, 0, 0, 0, 0);
  const std::int64_t units = config.scheduler == SchedulerKind::kRealistic ? g.warps() : g.threads();
  return per_thread * units;
}

// The most a Simulation's history holds: it plans from the initial state (empty arenas) and
// thins by the checkpoints' own bytes.
U64 HistoryBytes(const KernelConfig& config, const Geometry& g, std::size_t budget) {
  return History::PeakBytes(StateBytes(config, g, 0), StateBytes(config, g, ArenaAccessesPerBlock(config, g).checkpoint),
                            Steps(config, g), budget);
}

// The comparison runs on a bare machine (CountKernel).
U64 ComparisonEstimate(const KernelConfig& config) {
  if (Threads(config) > kMaxThreadsToEstimate) return kTooMany;
  return MachineBytes(config, MakeGeometry(config));
}

}  // namespace

MemoryEstimate EstimateModelMemory(const KernelConfig& config) {
  if (Threads(config) > kMaxThreadsToEstimate) return {kTooMany, 0, 0, kTooMany};
  const Geometry g = MakeGeometry(config);
  MemoryEstimate estimate;
  const U64 reference_c = U64(g.m) * g.n * sizeof(float);
  estimate.lesson = MachineBytes(config, g) + reference_c + HistoryBytes(config, g, kDefaultHistoryBudget);
  // History::Reset keeps the initial state; a lesson without step back never steps past it.
  estimate.lesson_without_history = MachineBytes(config, g) + reference_c + StateBytes(config, g, 0);
  estimate.whole_run = MachineBytes(config, g);
  estimate.comparison = ComparisonEstimate(ComparisonKernel(config));
  return estimate;
}

}  // namespace sim
