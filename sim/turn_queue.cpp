#include "sim/turn_queue.h"

#include <algorithm>
#include <functional>

namespace sim {

TurnQueue::TurnQueue(int warps) {
  while ((std::int64_t{1} << warp_bits_) < warps) ++warp_bits_;
}

void TurnQueue::Push(std::int64_t cycle, std::int32_t warp) {
  const std::uint64_t turn = (static_cast<std::uint64_t>(cycle) << warp_bits_) | static_cast<std::uint32_t>(warp);
  std::vector<std::uint64_t>& bucket = buckets_[BucketOf(static_cast<std::uint64_t>(cycle))];
  if (&bucket == &buckets_[0]) {
    // The cycle being taken (the scheduler queues later ones; kept right all the same).
    bucket.insert(std::upper_bound(bucket.begin(), bucket.end(), turn, std::greater<>()), turn);
  } else {
    bucket.push_back(turn);
  }
  ++size_;
}

TurnQueue::Turn TurnQueue::Pop() {
  std::vector<std::uint64_t>& taken = buckets_[0];
  if (taken.empty()) {
    // The lowest non-empty bucket holds the next cycle: take it as the last one, and spread
    // the bucket over lower ones, measured from it.
    std::size_t lowest = 1;
    while (buckets_[lowest].empty()) ++lowest;
    std::vector<std::uint64_t>& spread = buckets_[lowest];
    last_cycle_ = CycleOf(*std::min_element(spread.begin(), spread.end()));
    for (const std::uint64_t turn : spread) buckets_[BucketOf(CycleOf(turn))].push_back(turn);
    spread.clear();
    std::sort(taken.begin(), taken.end(), std::greater<>());
  }
  const std::uint64_t turn = taken.back();
  taken.pop_back();
  --size_;
  const std::uint64_t warp_mask = (std::uint64_t{1} << warp_bits_) - 1;
  return Turn{static_cast<std::int64_t>(CycleOf(turn)), static_cast<std::int32_t>(turn & warp_mask)};
}

std::size_t TurnQueue::Bytes() const {
  std::size_t bytes = 0;
  for (const std::vector<std::uint64_t>& bucket : buckets_) bytes += bucket.capacity() * sizeof(std::uint64_t);
  return bytes;
}

}  // namespace sim
