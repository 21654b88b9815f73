// turn_queue.h — the realistic scheduler's queue of warp turns: (cycle, warp), the earliest
// cycle first and, within a cycle, the lowest warp (the oldest, as the GPU's greedy-then-oldest
// issue picks).
//
// A calendar of one slot per cycle over a window of kWindow cycles from the cycle being taken,
// turns further ahead waiting in a heap until the window reaches them. Every turn is queued at
// or after the cycle being taken (a warp is queued at a cycle after the one it issued in), so
// a turn costs a push where a binary heap over all of them took O(log n) swaps for each; a
// cycle's turns are sorted by warp once, when it comes up.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sim {

class TurnQueue {
 public:
  // `cycle` must not be before the last turn taken.
  void Push(std::int64_t cycle, std::int32_t warp) {
    // The usual turn, of a later cycle in the window: its slot is sorted when it comes up.
    if (cycle > now_ && cycle < now_ + kWindow) {
      slots_[Slot(cycle)].push_back(warp);
      ++in_window_;
      return;
    }
    PushNowOrLater(cycle, warp);
  }
  bool Empty() const { return in_window_ == 0 && later_.empty(); }
  struct Turn {
    std::int64_t cycle;
    std::int32_t warp;
  };
  // Takes the earliest turn; the queue must not be empty.
  Turn Pop() {
    std::vector<std::int32_t>& now = slots_[Slot(now_)];
    if (!now_sorted_ || now.empty()) return PopFromNextCycle();
    const std::int32_t warp = now.back();
    now.pop_back();
    --in_window_;
    return Turn{now_, warp};
  }
  // The warp of the earliest turn when it is of the cycle being taken (it then costs nothing
  // to tell), else -1.
  std::int32_t PeekWarp() const {
    const std::vector<std::int32_t>& now = slots_[Slot(now_)];
    return now_sorted_ && !now.empty() ? now.back() : -1;
  }
  std::size_t Bytes() const;
  bool operator==(const TurnQueue& o) const {
    return now_ == o.now_ && now_sorted_ == o.now_sorted_ && in_window_ == o.in_window_ &&
           slots_ == o.slots_ && later_ == o.later_;
  }

 private:
  // Cycles the calendar spans: more than a global load's latency and its queueing, so that
  // few turns wait in the heap.
  static constexpr std::int64_t kWindow = 1024;
  static std::size_t Slot(std::int64_t cycle) { return static_cast<std::size_t>(cycle & (kWindow - 1)); }
  // Push's other cases: a turn of the cycle being taken, or one beyond the window.
  void PushNowOrLater(std::int64_t cycle, std::int32_t warp);
  // Pop's when the cycle being taken has no sorted turn left: sorts the cycle's turns when
  // they come up, else moves on to the next cycle that has turns.
  Turn PopFromNextCycle();
  // Moves the heap's turns that the window now reaches into their slots.
  void Admit();

  std::int64_t now_ = 0;     // the cycle being taken: its slot holds its turns
  bool now_sorted_ = false;  // its slot is in descending warp order, the next turn last
  std::size_t in_window_ = 0;                   // turns in the slots
  std::vector<std::vector<std::int32_t>> slots_ = std::vector<std::vector<std::int32_t>>(kWindow);  // by cycle mod kWindow
  // Turns at or past now_ + kWindow: a min-heap of (cycle, warp).
  std::vector<std::pair<std::int64_t, std::int32_t>> later_;
};

}  // namespace sim
