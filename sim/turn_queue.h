// turn_queue.h — the realistic scheduler's queue of warp turns: (cycle, warp), the earliest
// cycle first and, within a cycle, the lowest warp (the oldest, as the GPU's greedy-then-oldest
// issue picks).
//
// A radix heap on the cycle: every turn queued is later than the last cycle taken (a warp is
// queued at a cycle after the one it issued in), so a turn waits in the bucket of the highest
// bit in which its cycle differs from the last cycle taken, and moves to a lower bucket only
// when its bucket is the lowest left — a few moves in its life, where a binary heap took
// O(log n) swaps for each turn. Bucket 0 holds the turns of the cycle being taken, sorted once
// by warp when that cycle comes up.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sim {

class TurnQueue {
 public:
  TurnQueue() = default;
  explicit TurnQueue(int warps);

  void Push(std::int64_t cycle, std::int32_t warp);
  bool Empty() const { return size_ == 0; }
  struct Turn {
    std::int64_t cycle;
    std::int32_t warp;
  };
  // Takes the earliest turn; the queue must not be empty.
  Turn Pop();
  // The warp of the earliest turn when it is of the cycle being taken (it then costs nothing
  // to tell), else -1.
  std::int32_t PeekWarp() const {
    if (buckets_[0].empty()) return -1;
    return static_cast<std::int32_t>(buckets_[0].back() & ((std::uint64_t{1} << warp_bits_) - 1));
  }
  std::size_t Bytes() const;
  bool operator==(const TurnQueue& o) const {
    return warp_bits_ == o.warp_bits_ && last_cycle_ == o.last_cycle_ && size_ == o.size_ && buckets_ == o.buckets_;
  }

 private:
  // Bucket 0 holds turns of the last cycle taken; bucket b, those whose cycle differs from it
  // first in bit b − 1 (from the top).
  std::size_t BucketOf(std::uint64_t cycle) const {
    return cycle == last_cycle_ ? 0 : static_cast<std::size_t>(64 - __builtin_clzll(cycle ^ last_cycle_));
  }
  std::uint64_t CycleOf(std::uint64_t turn) const { return turn >> warp_bits_; }

  int warp_bits_ = 0;  // a turn is kept as cycle << warp_bits_ | warp
  std::uint64_t last_cycle_ = ~std::uint64_t{0};  // none yet: every cycle differs from it
  std::size_t size_ = 0;
  std::array<std::vector<std::uint64_t>, 65> buckets_;  // bucket 0 in descending order
};

}  // namespace sim
