// scheduler.h — who runs next. Deterministic: the same lesson and seed give the same run.
//
//  - realistic: warps issue in lockstep; the oldest ready warp (lowest index) issues next,
//    and a warp that issued a global load waits a seeded latency before it is ready again.
//    A one-warp block therefore never reorders its lanes, as on the GPU, while the warps
//    of a larger block overtake each other.
//  - thread order: one instruction per thread, threads in turn (for slow explanation).
//  - random: any runnable thread, chosen by the seeded generator.
//  - race-exposing ("run-ahead"): the lowest runnable thread runs until it blocks. Legal
//    (program order and every enabled barrier are kept; warp convergence is not assumed,
//    as since Volta), and it runs the writer of a tile far ahead of its readers, so every
//    switched-off barrier is crossed in the order opposite to the one it enforced.
// The scheduler owns only the runnable sets and its clock; the machine tells it when a
// thread blocks, wakes or exits.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "sim/lesson_config.h"
#include "sim/random.h"

namespace sim {

// What runs in one step: a whole warp-instruction (realistic) or one thread's instruction.
struct Unit {
  bool is_warp = false;
  std::int32_t index = 0;  // global warp or thread index
  bool operator==(const Unit& o) const { return is_warp == o.is_warp && index == o.index; }
};

// Global-load latency of the realistic policy, in issue cycles: long enough that the other
// warps of a block issue in between, short enough that lessons stay short.
constexpr int kMinLoadLatency = 8;
constexpr int kMaxLoadLatency = 40;

class Scheduler {
 public:
  Scheduler() = default;
  Scheduler(SchedulerKind kind, std::uint64_t seed, int threads, int warps);

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
  void SetWarpRunnable(int warp, bool runnable);
  // Realistic policy: the warp issued a global load and waits for it.
  void OnGlobalLoad(int warp);
  // The next unit to run, or nullopt when nothing can run. Advances the clock.
  std::optional<Unit> Next();
  std::int64_t cycle() const { return cycle_; }
  std::size_t Bytes() const;
  bool operator==(const Scheduler& o) const;

 private:
  std::optional<int> NextThreadInOrder();
  std::optional<int> NextWarp();
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
  std::vector<std::uint64_t> ready_warps_;       // runnable and not waiting for a load
  int warp_hint_ = 0;
  std::vector<std::uint8_t> warp_runnable_;
  std::vector<std::uint8_t> warp_loading_;
  std::vector<std::pair<std::int64_t, std::int32_t>> loads_;  // min-heap of (ready cycle, warp)
};

}  // namespace sim
