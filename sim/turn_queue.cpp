#include "sim/turn_queue.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace sim {

void TurnQueue::PushNowOrLater(std::int64_t cycle, std::int32_t warp) {
  if (cycle >= now_ + kWindow) {
    later_.emplace_back(cycle, warp);
    std::push_heap(later_.begin(), later_.end(), std::greater<>());
    return;
  }
  ++in_window_;
  std::vector<std::int32_t>& slot = slots_[Slot(cycle)];
  if (cycle == now_ && now_sorted_) {
    // The cycle being taken (the scheduler queues later ones; kept right all the same).
    slot.insert(std::upper_bound(slot.begin(), slot.end(), warp, std::greater<>()), warp);
  } else {
    slot.push_back(warp);
  }
}

void TurnQueue::Admit() {
  while (!later_.empty() && later_.front().first < now_ + kWindow) {
    const auto [cycle, warp] = later_.front();
    std::pop_heap(later_.begin(), later_.end(), std::greater<>());
    later_.pop_back();
    slots_[Slot(cycle)].push_back(warp);
    ++in_window_;
  }
}

TurnQueue::Turn TurnQueue::PopFromNextCycle() {
  while (slots_[Slot(now_)].empty()) {
    // The window is empty: jump to the heap's first turn.
    now_ = in_window_ == 0 ? later_.front().first : now_ + 1;
    now_sorted_ = false;
    Admit();
  }
  std::vector<std::int32_t>& now = slots_[Slot(now_)];
  std::sort(now.begin(), now.end(), std::greater<>());
  now_sorted_ = true;
  return Pop();
}

std::size_t TurnQueue::Bytes() const {
  std::size_t bytes = slots_.capacity() * sizeof(slots_[0]) + later_.capacity() * sizeof(later_[0]);
  for (const std::vector<std::int32_t>& slot : slots_) bytes += slot.capacity() * sizeof(std::int32_t);
  return bytes;
}

}  // namespace sim
