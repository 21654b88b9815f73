// turn_queue.h — the realistic scheduler's queue of warp turns: (cycle, warp), the earliest
// cycle first and, within a cycle, the lowest warp (the oldest, as the GPU's greedy-then-oldest
// issue picks).
//
// A calendar of one slot per cycle over a window of kWindow cycles from the cycle being taken,
// turns further ahead waiting in a heap until the window reaches them. Every turn is queued at
// or after the cycle being taken (a warp is queued at a cycle after the one it issued in), so
// a turn costs a push where a binary heap over all of them took O(log n) swaps for each; when
// a cycle comes up, its turns go into a set of warps that yields the lowest first (sorting
// them instead cost some 50 instructions a turn).
// Measured under callgrind: the binary heap's share of a 128³ TILE 16 run 36.5 M instructions,
// a radix heap's 17.3 M (63acd35); the calendar, with LessonStep::Prefetch's lanes from the
// geometry, then took the run 275.7 → 270.1 M (cfa54d1).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sim {

// Warps, the lowest first: a bit a warp, and a bit a word of them that has any, so that the
// next lowest costs a bit scan or two however many warps the lesson has; the lowest is kept.
// In place of sorting a cycle's turns: 256³ TILE 16, bare, 1,452.9 → 1,427.7 M instructions (fdc69ab).
class WarpSet {
 public:
  static constexpr std::int32_t kNone = -1;
  explicit WarpSet(int warps = 0)
      : words_(static_cast<std::size_t>((warps + 63) / 64)), groups_((words_.size() + 63) / 64) {}
  bool Empty() const { return lowest_ == kNone; }
  // The lowest warp, or kNone.
  std::int32_t Lowest() const { return lowest_; }
  void Insert(std::int32_t warp) {
    const auto word = static_cast<std::size_t>(warp) / 64;
    words_[word] |= std::uint64_t{1} << (warp % 64);
    groups_[word / 64] |= std::uint64_t{1} << (word % 64);
    // As unsigned, kNone (-1) is above every warp.
    if (static_cast<std::uint32_t>(warp) < static_cast<std::uint32_t>(lowest_)) lowest_ = warp;
  }
  // The set must not be empty.
  std::int32_t TakeLowest() {
    const std::int32_t warp = lowest_;
    const auto word = static_cast<std::size_t>(warp) / 64;
    std::uint64_t& bits = words_[word];
    bits &= bits - 1;  // the lowest warp is the lowest bit of its word
    lowest_ = bits != 0 ? WarpOf(word) : LowestAfterEmptied(word);
    return warp;
  }
  std::size_t Bytes() const { return (words_.capacity() + groups_.capacity()) * sizeof(std::uint64_t); }
  bool operator==(const WarpSet& o) const { return lowest_ == o.lowest_ && words_ == o.words_ && groups_ == o.groups_; }

 private:
  std::int32_t WarpOf(std::size_t word) const {
    return static_cast<std::int32_t>(word * 64 + static_cast<std::size_t>(__builtin_ctzll(words_[word])));
  }
  // TakeLowest's when it emptied `word`, the lowest with a warp.
  std::int32_t LowestAfterEmptied(std::size_t word) {
    std::size_t group = word / 64;
    groups_[group] &= groups_[group] - 1;  // so `word` is its group's lowest bit too
    while (groups_[group] == 0) {
      if (++group == groups_.size()) return kNone;
    }
    return WarpOf(group * 64 + static_cast<std::size_t>(__builtin_ctzll(groups_[group])));
  }

  std::vector<std::uint64_t> words_;   // bit w % 64 of word w / 64: warp w is in
  std::vector<std::uint64_t> groups_;  // bit i % 64 of group i / 64: word i has a warp
  std::int32_t lowest_ = kNone;
};

class TurnQueue {
 public:
  // For warps 0 to `warps` - 1.
  explicit TurnQueue(int warps = 0) : now_warps_(warps) {}
  // `cycle` must not be before the last turn taken. A turn already queued is queued once.
  void Push(std::int64_t cycle, std::int32_t warp) {
    // The usual turn, of a later cycle in the window.
    if (cycle > now_ && cycle < now_ + kWindow) {
      slots_[Slot(cycle)].push_back(warp);
      ++in_window_;
      return;
    }
    PushNowOrLater(cycle, warp);
  }
  bool Empty() const { return now_warps_.Empty() && in_window_ == 0 && later_.empty(); }
  struct Turn {
    std::int64_t cycle;
    std::int32_t warp;
  };
  // Takes the earliest turn; the queue must not be empty.
  Turn Pop() {
    if (now_warps_.Empty()) TakeUpNextCycle();
    return Turn{now_, now_warps_.TakeLowest()};
  }
  // The warp of the earliest turn when it is of the cycle being taken (it then costs nothing
  // to tell), else -1 (WarpSet::kNone).
  std::int32_t PeekWarp() const { return now_warps_.Lowest(); }
  std::size_t Bytes() const;
  bool operator==(const TurnQueue& o) const {
    return now_ == o.now_ && now_warps_ == o.now_warps_ && in_window_ == o.in_window_ && slots_ == o.slots_ &&
           later_ == o.later_;
  }

 private:
  // Cycles the calendar spans: more than a global load's latency and its queueing, so that
  // few turns wait in the heap.
  static constexpr std::int64_t kWindow = 1024;
  static std::size_t Slot(std::int64_t cycle) { return static_cast<std::size_t>(cycle & (kWindow - 1)); }
  // Push's other cases: a turn of the cycle being taken, or one beyond the window.
  void PushNowOrLater(std::int64_t cycle, std::int32_t warp);
  // Pop's when the cycle being taken has no turn left: moves on to the next cycle that has
  // turns and takes them up into now_warps_.
  void TakeUpNextCycle();
  // Moves the heap's turns that the window now reaches into their slots.
  void Admit();

  std::int64_t now_ = 0;  // the cycle being taken: its turns are in now_warps_, its slot empty
  WarpSet now_warps_;
  std::size_t in_window_ = 0;  // turns in the slots
  std::vector<std::vector<std::int32_t>> slots_ = std::vector<std::vector<std::int32_t>>(kWindow);  // by cycle mod kWindow
  // Turns at or past now_ + kWindow: a min-heap of (cycle, warp).
  std::vector<std::pair<std::int64_t, std::int32_t>> later_;
};

}  // namespace sim
