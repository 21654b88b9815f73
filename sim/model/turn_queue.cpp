#include "sim/model/turn_queue.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace sim {

void TurnQueue::PushNowOrLater(std::int64_t cycle, std::int32_t warp) {
  if (cycle == now_) {
    // The cycle being taken (the scheduler queues later ones; kept right all the same).
    now_warps_.Insert(warp);
  } else if (cycle >= now_ + kWindow) {
    later_.emplace_back(cycle, warp);
    std::push_heap(later_.begin(), later_.end(), std::greater<>());
  } else {
    slots_[Slot(cycle)].push_back(warp);
    ++in_window_;
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

void TurnQueue::TakeUpNextCycle() {
  do {
    // The window is empty: jump to the heap's first turn.
    now_ = in_window_ == 0 ? later_.front().first : now_ + 1;
    Admit();
  } while (slots_[Slot(now_)].empty());
  std::vector<std::int32_t>& now = slots_[Slot(now_)];
  for (const std::int32_t warp : now) now_warps_.Insert(warp);
  in_window_ -= now.size();
  now.clear();
}

std::size_t TurnQueue::Bytes() const {
  std::size_t bytes =
      slots_.capacity() * sizeof(slots_[0]) + later_.capacity() * sizeof(later_[0]) + now_warps_.Bytes();
  for (const std::vector<std::int32_t>& slot : slots_) bytes += slot.capacity() * sizeof(std::int32_t);
  return bytes;
}

}  // namespace sim
