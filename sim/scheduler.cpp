#include "sim/scheduler.h"

#include <algorithm>
#include <functional>

namespace sim {
namespace {

int CountTrailingZeros(std::uint64_t word) { return __builtin_ctzll(word); }

}  // namespace

Scheduler::Scheduler(SchedulerKind kind, std::uint64_t seed, int threads, int warps)
    : kind_(kind),
      random_(seed),
      ready_warps_(static_cast<std::size_t>((warps + 63) / 64), 0),
      warp_runnable_(static_cast<std::size_t>(warps), 0),
      warp_loading_(static_cast<std::size_t>(warps), 0) {
  if (!IssuesWarps()) runnable_threads_.assign(static_cast<std::size_t>((threads + 63) / 64), 0);
  if (kind == SchedulerKind::kRandom) list_position_.assign(static_cast<std::size_t>(threads), -1);
}

std::optional<int> Scheduler::FindSet(const std::vector<std::uint64_t>& bits, int from, int& hint) {
  const int words = static_cast<int>(bits.size());
  int word = std::max(from >> 6, hint);
  std::uint64_t current = word < words ? bits[static_cast<std::size_t>(word)] : 0;
  if (word == (from >> 6)) current &= ~0ull << (from & 63);
  while (true) {
    if (current != 0) return word * 64 + CountTrailingZeros(current);
    // Words below `from` that are empty stay empty until SetBit lowers the hint again.
    if (from == 0 && word == hint) ++hint;
    if (++word >= words) return std::nullopt;
    current = bits[static_cast<std::size_t>(word)];
  }
}

void Scheduler::SetListed(int thread, bool runnable) {
  std::int32_t& position = list_position_[static_cast<std::size_t>(thread)];
  if (runnable && position < 0) {
    position = static_cast<std::int32_t>(runnable_list_.size());
    runnable_list_.push_back(thread);
  } else if (!runnable && position >= 0) {
    const std::int32_t moved = runnable_list_.back();
    runnable_list_[static_cast<std::size_t>(position)] = moved;
    list_position_[static_cast<std::size_t>(moved)] = position;
    runnable_list_.pop_back();
    position = -1;
  }
}

void Scheduler::SetWarpRunnable(int warp, bool runnable) {
  warp_runnable_[static_cast<std::size_t>(warp)] = runnable;
  SetBit(ready_warps_, warp, runnable && !warp_loading_[static_cast<std::size_t>(warp)], warp_hint_);
}

void Scheduler::OnGlobalLoad(int warp) {
  const std::int64_t latency =
      kMinLoadLatency + static_cast<std::int64_t>(random_.Below(kMaxLoadLatency - kMinLoadLatency + 1));
  warp_loading_[static_cast<std::size_t>(warp)] = 1;
  SetBit(ready_warps_, warp, false, warp_hint_);
  loads_.emplace_back(cycle_ + latency, warp);
  std::push_heap(loads_.begin(), loads_.end(), std::greater<>());
}

std::optional<int> Scheduler::NextWarp() {
  while (true) {
    // Loads that have returned make their warps ready again.
    while (!loads_.empty() && loads_.front().first <= cycle_) {
      const int warp = loads_.front().second;
      std::pop_heap(loads_.begin(), loads_.end(), std::greater<>());
      loads_.pop_back();
      warp_loading_[static_cast<std::size_t>(warp)] = 0;
      SetBit(ready_warps_, warp, warp_runnable_[static_cast<std::size_t>(warp)] != 0, warp_hint_);
    }
    if (auto warp = FindSet(ready_warps_, 0, warp_hint_)) return warp;
    if (loads_.empty()) return std::nullopt;
    cycle_ = loads_.front().first;  // every warp waits on memory: time passes, no step
  }
}

std::optional<int> Scheduler::NextThreadInOrder() {
  if (auto thread = FindSet(runnable_threads_, last_thread_ + 1, thread_hint_)) return thread;
  return FindSet(runnable_threads_, 0, thread_hint_);
}

std::optional<Unit> Scheduler::Next() {
  std::optional<int> index;
  switch (kind_) {
    case SchedulerKind::kRealistic:
      index = NextWarp();
      break;
    case SchedulerKind::kThreadOrder:
      index = NextThreadInOrder();
      break;
    case SchedulerKind::kRandom:
      if (!runnable_list_.empty()) index = runnable_list_[random_.Below(runnable_list_.size())];
      break;
    case SchedulerKind::kRaceExposing:
      index = FindSet(runnable_threads_, 0, thread_hint_);
      break;
  }
  if (!index) return std::nullopt;
  ++cycle_;
  if (!IssuesWarps()) last_thread_ = *index;
  return Unit{IssuesWarps(), *index};
}

std::size_t Scheduler::Bytes() const {
  return (runnable_threads_.capacity() + ready_warps_.capacity()) * sizeof(std::uint64_t) +
         (runnable_list_.capacity() + list_position_.capacity()) * sizeof(std::int32_t) +
         warp_runnable_.capacity() + warp_loading_.capacity() + loads_.capacity() * sizeof(loads_[0]);
}

bool Scheduler::operator==(const Scheduler& o) const {
  return kind_ == o.kind_ && random_ == o.random_ && cycle_ == o.cycle_ && last_thread_ == o.last_thread_ &&
         runnable_threads_ == o.runnable_threads_ && runnable_list_ == o.runnable_list_ &&
         ready_warps_ == o.ready_warps_ && warp_runnable_ == o.warp_runnable_ && warp_loading_ == o.warp_loading_ &&
         loads_ == o.loads_;
}

}  // namespace sim
