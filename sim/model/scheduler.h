// scheduler.h — who runs next. Deterministic: the same lesson and seed give the same run.
//
//  - realistic: a timing model of the H100 the race grid was measured on. Warps issue in
//    lockstep; blocks sit on SMs as occupancy allows (the rest wait for a slot); each SM's
//    four sub-partitions issue one warp-instruction a cycle, the oldest ready warp first;
//    a global load makes its warp wait a seeded latency; shared-memory accesses queue for
//    the SM's one shared-memory pipe, a wavefront a cycle; a released barrier lets its
//    warps go on a fixed latency later. A one-warp block therefore never reorders its
//    lanes, as on the GPU, while the warps of a larger block drift apart by as much as
//    their loads' latencies differ. Its constants are below, each with its source.
//  - thread order: one instruction per thread, threads in turn (for slow explanation).
//  - random: any runnable thread, chosen by the seeded generator.
//  - race-exposing ("run-ahead"): the lowest runnable thread runs until it blocks. Legal
//    (program order and every enabled barrier are kept; warp convergence is not assumed,
//    as since Volta), and it runs the writer of a tile far ahead of its readers, so every
//    switched-off barrier is crossed in the order opposite to the one it enforced.
// The scheduler owns only the runnable sets and its clock; the machine tells it when a
// thread blocks, wakes or exits.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/model/kernel_config.h"
#include "sim/model/random.h"
#include "sim/model/turn_queue.h"

namespace sim {

// What runs in one step: a whole warp-instruction (realistic) or one thread's instruction.
struct Unit {
  bool is_warp = false;
  std::int32_t index = 0;  // global warp or thread index
  bool operator==(const Unit& o) const { return is_warp == o.is_warp && index == o.index; }
};

// The realistic policy's machine, in cycles of the SM clock, calibrated against the H100
// race grid (docs/results/h100-race-grid-2026-11-23.txt; the model beside it in
// docs/results/model-race-grid-2026-11-25.txt); kernels.race_calibration keeps it honest.
// "Fitted" values were chosen by hand over a small grid of candidates on the grid's 32×32×64
// and 64³ cells; its 128³ and 256³ cells are held out. Only differences between warps
// decide a race, so the figures are what spreads the warps of a block apart, not speeds.
//
// SMs of the H100 SXM the grid ran on (its device line: cudaDeviceProp::multiProcessorCount).
constexpr int kSmCount = 132;
// Warp schedulers per SM, each issuing one warp-instruction a cycle (NVIDIA H100 whitepaper:
// four SM sub-partitions, each with its warp scheduler and a dispatch unit of 32 threads/clk).
constexpr int kSubPartitions = 4;
// A global load's latency before any queueing: about an L2 hit on the H100 as public
// microbenchmarks put it (a few hundred cycles). Chosen, not fitted: it only needs to
// exceed an inner-product loop, so that a warp that ran ahead cannot refill a tile that
// others still read (the H100 is never wrong without the 2nd barrier at lesson sizes).
constexpr int kGlobalLoadLatency = 260;
// The extra latency of a line in the L2 half far from the SM (fitted: 60).
constexpr int kFarHalfLatency = 60;
// The loads in flight come back in no fixed order, through the SM's share of the L2 return
// path and the whole L2's: a load waits a random share of the bytes queued ahead of it at
// these rates (fitted: 32 bytes a cycle per SM, 1024 for the whole L2; public figures for
// the H100's L2 bandwidth are a few TB/s, some 1500–3000 bytes a cycle at 1.98 GHz).
constexpr int kSmReturnBytesPerCycle = 32;
constexpr int kL2ReturnBytesPerCycle = 1024;
// Cycles from the last arrival at a barrier until its warps issue again (fitted: 20).
constexpr int kBarrierResumeLatency = 20;
// L2 lines are 128 bytes of four 32-byte sectors (CUDA C++ Best Practices Guide).
constexpr int kSectorsPerL2Line = 4;
// The H100's L2 is two halves, each near one half of the SMs; an address hashes to one
// (chipsandcheese.com, "Nvidia's H100: Funny L2, and Tons of Bandwidth", 2023: the far half
// answers with a higher latency). The model hashes (matrix, line) to a half.
inline int L2HalfOf(int matrix, std::int64_t line) {
  return static_cast<int>(Mix64((static_cast<std::uint64_t>(matrix) << 56) ^ static_cast<std::uint64_t>(line)) & 1);
}
// Shared-memory wavefronts the SM serves a cycle: 32 banks of 4 bytes each per clock (CUDA
// C++ Programming Guide, "Shared Memory" of compute capability 5.x and later); a warp's
// access takes one wavefront, plus one per extra way of a bank conflict.
constexpr int kSharedWavefrontsPerCycle = 1;

class Scheduler {
 public:
  Scheduler() = default;
  // `warps_per_block` and `blocks_per_sm` (resident at once, from sim/occupancy) place the
  // realistic policy's warps on SMs and sub-partitions; the other policies ignore them.
  Scheduler(SchedulerKind kind, std::uint64_t seed, int threads, int warps, int warps_per_block, int blocks_per_sm);

  SchedulerKind kind() const { return kind_; }
  bool IssuesWarps() const { return kind_ == SchedulerKind::kRealistic; }
  // The thread can (or can no longer) run: it reached a barrier, was released, or exited.
  // Only the policies that pick threads keep sets of threads; the realistic one picks warps.
  void SetThreadRunnable(int thread, bool runnable) {
    if (IssuesWarps()) return;
    SetBit(runnable_threads_, thread, runnable, thread_hint_);
    if (kind_ == SchedulerKind::kRandom) SetListed(thread, runnable);
  }
  // The warp has (or no longer has) a runnable lane.
  // `released`: by a barrier, whose release takes kBarrierResumeLatency.
  void SetWarpRunnable(int warp, bool runnable, bool released = false);
  // Realistic policy: what the warp the last Next() chose just issued, which sets when it
  // may issue again: a global load, `wavefronts` of shared memory, or neither.
  struct Issue {
    std::uint8_t l2_halves = 0;  // a global load: bit h set when it touches a line in L2 half h
    int sectors = 0;             // of that load
    int wavefronts = 0;          // shared-memory wavefronts
    bool stores_shared = false;
  };
  // OnIssued, Next, NextWarp, Queue and TurnQueue's usual Push and Pop are inline: a turn
  // without four calls, an optional<int> and OnIssued's spills (256³ TILE 16, bare, under
  // callgrind: 1,529.0 → 1,452.9 M instructions; 49b59ec).
  void OnIssued(int warp, const Issue& issue) {
    WarpTiming& timing = warps_[static_cast<std::size_t>(warp)];
    const std::int64_t ready =
        issue.l2_halves != 0 ? LoadReturn(timing, issue.l2_halves, issue.sectors) : OnChipReady(timing, issue);
    timing.ready = std::max(timing.ready, ready);
    if (timing.runnable) Queue(warp, timing.ready);
  }
  // Realistic policy: every thread of the block exited; a waiting block takes its SM slot.
  void OnBlockExit(int block);
  // Sets `unit` to the next unit to run, or answers false when nothing can run (`unit` then
  // means nothing). Advances the clock. Not an optional: returned as one, the unit went
  // through the stack every step (Step's own instructions 77.5 → 69.6 M over a 256³ TILE 16
  // run under callgrind; 13e0cd0).
  bool Next(Unit& unit) {
    if (!IssuesWarps()) return NextThread(unit);
    unit.is_warp = true;
    unit.index = NextWarp();
    return unit.index >= 0;
  }
  // Realistic policy: the warp likely to issue next, when the queue can tell at no cost (a
  // hint for fetching its data early: its turn may yet be stale or wait), else -1.
  int LikelyNextWarp() const { return IssuesWarps() ? queue_.PeekWarp() : -1; }
  // Starts fetching what the warp's next turn reads of the scheduler.
  void Prefetch(int warp) const { __builtin_prefetch(&warps_[static_cast<std::size_t>(warp)]); }
  std::int64_t cycle() const { return cycle_; }
  std::size_t Bytes() const;
  bool operator==(const Scheduler& o) const;

 private:
  bool NextThread(Unit& unit);
  std::optional<int> NextThreadInOrder();
  // The warp whose turn comes next, or -1 when none can issue.
  int NextWarp() {
    while (!queue_.Empty()) {
      const auto [cycle, warp] = queue_.Pop();
      WarpTiming& timing = warps_[static_cast<std::size_t>(warp)];
      if (timing.queued_at != cycle) continue;  // stale
      // One warp-instruction a cycle per sub-partition: a later turn if this one is taken.
      std::int64_t& issue = issue_free_[static_cast<std::size_t>(timing.sub_partition)];
      if (issue > cycle) {
        Queue(warp, issue);
        continue;
      }
      issue = cycle + 1;
      timing.queued_at = -1;
      cycle_ = cycle;
      return warp;
    }
    return -1;
  }
  int SmOf(int warp) const { return (warp / warps_per_block_) % kSmCount; }
  int SubPartitionOf(int warp) const;
  void Queue(int warp, std::int64_t cycle) {
    warps_[static_cast<std::size_t>(warp)].queued_at = cycle;
    queue_.Push(cycle, warp);
  }
  void Launch(int block, std::int64_t cycle);
  static std::optional<int> FindSet(const std::vector<std::uint64_t>& bits, int from, int& hint);
  static void SetBit(std::vector<std::uint64_t>& bits, int index, bool value, int& hint) {
    const std::uint64_t mask = std::uint64_t{1} << (index & 63);
    if (value) {
      bits[static_cast<std::size_t>(index >> 6)] |= mask;
      if ((index >> 6) < hint) hint = index >> 6;
    } else {
      bits[static_cast<std::size_t>(index >> 6)] &= ~mask;
    }
  }
  void SetListed(int thread, bool runnable);

  SchedulerKind kind_ = SchedulerKind::kRealistic;
  SplitMix64 random_{};
  std::int64_t cycle_ = 0;
  std::int32_t last_thread_ = -1;
  std::vector<std::uint64_t> runnable_threads_;  // bitset (thread policies only)
  int thread_hint_ = 0;                          // no set bit in words below it
  std::vector<std::int32_t> runnable_list_;      // the same set, for O(1) random choice (random only)
  std::vector<std::int32_t> list_position_;      // -1: not in the list (random only)
  // Realistic policy only.
  int warps_per_block_ = 1;
  int blocks_per_sm_ = 1;
  // What the policy keeps per warp, together: a turn reads and writes all of it.
  struct WarpTiming {
    std::int64_t ready = 0;          // the first cycle the warp may issue again
    // When its current section of global loads (up to a use of the tiles) issued its latest
    // load, as the GPU would have; -1 outside a section.
    std::int64_t load_section = -1;
    std::int64_t queued_at = -1;     // the cycle of its live entry in queue_, or -1
    std::uint32_t sub_partition = 0;  // SubPartitionOf, kept; unsigned, so Sm() is a shift
    bool runnable = false;
    // SmOf the warp, from what is kept (a turn takes no division: 256³ TILE 16 best CPU
    // 0.171 → 0.168 s, edc07df; unsigned, a shift: 1,405.5 → 1,402.7 M instructions, 22d5752).
    int Sm() const { return static_cast<int>(sub_partition / kSubPartitions); }
    bool operator==(const WarpTiming& o) const;
  };
  // OnIssued's cycle from which the warp may issue again after a global load (when it
  // returns) or after any other instruction (its shared-memory accesses served).
  // LoadReturn takes the Issue's fields it reads, not the Issue: a reference to it would keep
  // the Issue in memory in every step that OnIssued is inlined into (ExecuteWarp's own
  // instructions 96.5 → 88.8 M over a 256³ TILE 16 run under callgrind; cf54a65).
  std::int64_t LoadReturn(WarpTiming& timing, std::uint8_t l2_halves, int sectors);
  std::int64_t OnChipReady(WarpTiming& timing, const Issue& issue) {
    if (!issue.stores_shared) timing.load_section = -1;  // a use of the loaded tiles: the next loads are a new section
    if (issue.wavefronts == 0) return cycle_ + 1;
    // The warp's shared accesses wait their turn at the SM's pipe; its next instruction
    // needs them served.
    std::int64_t& pipe = shared_free_[static_cast<std::size_t>(timing.Sm())];
    pipe = std::max(pipe, cycle_) + (issue.wavefronts + kSharedWavefrontsPerCycle - 1) / kSharedWavefrontsPerCycle;
    return std::max(cycle_ + 1, pipe);
  }
  std::vector<WarpTiming> warps_;
  std::vector<std::uint8_t> block_launched_;     // resident on its SM
  // A global load on its way back, until the cycle it returns.
  struct LoadInFlight {
    std::int64_t back;  // the cycle it returns
    std::int32_t bytes;
    std::int32_t sm;
    // Orders the heap, the earliest return on top.
    bool operator>(const LoadInFlight& o) const { return back > o.back; }
    bool operator==(const LoadInFlight& o) const { return back == o.back && bytes == o.bytes && sm == o.sm; }
  };
  // Every load in flight, a min-heap by return: those that returned leave it before a load
  // counts the bytes ahead of it, which the totals below keep, where each SM's list was summed
  // whole (256³ TILE 16 under callgrind: LoadReturn 39.4 → 25.4 M instructions; 4954680).
  std::vector<LoadInFlight> loads_in_flight_;
  std::int64_t device_bytes_ = 0;                // of loads_in_flight_
  std::vector<std::int64_t> sm_bytes_;           // per SM: of its loads in loads_in_flight_
  std::vector<std::int64_t> issue_free_;         // per SM sub-partition: its next free issue cycle
  std::vector<std::int64_t> shared_free_;        // per SM: the cycle its shared-memory pipe is free
  // Turns to issue; an entry whose cycle is not its warp's WarpTiming::queued_at is stale and skipped.
  TurnQueue queue_;
};

}  // namespace sim
