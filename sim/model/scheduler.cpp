#include "sim/model/scheduler.h"

#include <algorithm>
#include <functional>

namespace sim {
namespace {

int CountTrailingZeros(std::uint64_t word) { return __builtin_ctzll(word); }

}  // namespace

Scheduler::Scheduler(SchedulerKind kind, std::uint64_t seed, int threads, int warps, int warps_per_block,
                     int blocks_per_sm)
    : kind_(kind), random_(seed) {
  if (!IssuesWarps()) {
    runnable_threads_.assign(static_cast<std::size_t>((threads + 63) / 64), 0);
    if (kind == SchedulerKind::kRandom) list_position_.assign(static_cast<std::size_t>(threads), -1);
    return;
  }
  warps_per_block_ = std::max(warps_per_block, 1);
  blocks_per_sm_ = std::max(blocks_per_sm, 1);
  const int blocks = (warps + warps_per_block_ - 1) / warps_per_block_;
  warps_.resize(static_cast<std::size_t>(warps));
  queue_ = TurnQueue(warps);
  for (int w = 0; w < warps; ++w) {
    warps_[static_cast<std::size_t>(w)].sub_partition = static_cast<std::uint32_t>(SubPartitionOf(w));
  }
  const int sms = std::min(blocks, kSmCount);
  issue_free_.assign(static_cast<std::size_t>(sms) * kSubPartitions, 0);
  shared_free_.assign(static_cast<std::size_t>(sms), 0);
  sm_bytes_.assign(static_cast<std::size_t>(sms), 0);
  // The first blocks_per_sm blocks of every SM start at once; the others wait for a slot.
  block_launched_.assign(static_cast<std::size_t>(blocks), 0);
  const int resident = std::min(blocks, kSmCount * blocks_per_sm_);
  for (int b = 0; b < resident; ++b) block_launched_[static_cast<std::size_t>(b)] = 1;
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

int Scheduler::SubPartitionOf(int warp) const {
  // Block b takes SM b mod kSmCount and, there, slot (b / kSmCount) mod blocks_per_sm,
  // which a later block reuses when it frees it (Launch); the SM deals its warp slots to
  // the sub-partitions in turn, so the warps of one block spread over all four.
  const int block = warp / warps_per_block_;
  const int slot = (block / kSmCount) % blocks_per_sm_;
  const int sub = (slot * warps_per_block_ + warp % warps_per_block_) % kSubPartitions;
  return SmOf(warp) * kSubPartitions + sub;
}

void Scheduler::SetWarpRunnable(int warp, bool runnable, bool released) {
  if (!IssuesWarps()) return;  // the other policies pick threads
  WarpTiming& timing = warps_[static_cast<std::size_t>(warp)];
  timing.runnable = runnable;
  if (!runnable) {
    timing.queued_at = -1;
    return;
  }
  if (released) timing.ready = std::max(timing.ready, cycle_ + kBarrierResumeLatency);
  if (block_launched_[static_cast<std::size_t>(warp / warps_per_block_)]) Queue(warp, timing.ready);
}

std::int64_t Scheduler::LoadReturn(WarpTiming& timing, std::uint8_t l2_halves, int sectors) {
  // A phase's loads of A and B do not wait for each other, so the GPU has them in flight
  // together, ahead of the shared stores that use them; the model runs each store right
  // after its load, so its later loads of one section count as issued a cycle after the
  // section's previous one.
  std::int64_t& section = timing.load_section;
  const std::int64_t issued = section < 0 ? cycle_ : section + 1;
  section = issued;
  // The load returns when its slowest line does: one in the half far from this SM's.
  const int sm = timing.Sm();
  const bool far = (l2_halves & (1u << (1 - sm % 2))) != 0;
  // It waits a random share of the bytes in flight from its SM and from the whole GPU.
  while (!loads_in_flight_.empty() && loads_in_flight_.front().back <= cycle_) {
    const LoadInFlight& returned = loads_in_flight_.front();
    device_bytes_ -= returned.bytes;
    sm_bytes_[static_cast<std::size_t>(returned.sm)] -= returned.bytes;
    std::pop_heap(loads_in_flight_.begin(), loads_in_flight_.end(), std::greater<>());
    loads_in_flight_.pop_back();
  }
  const std::int32_t bytes = sectors * 32;
  std::int64_t& sm_bytes = sm_bytes_[static_cast<std::size_t>(sm)];
  const std::int64_t queue =
      (sm_bytes + bytes) / kSmReturnBytesPerCycle + (device_bytes_ + bytes) / kL2ReturnBytesPerCycle;
  const std::int64_t back = issued + kGlobalLoadLatency + (far ? kFarHalfLatency : 0) +
                            static_cast<std::int64_t>(random_.Below(static_cast<std::uint64_t>(queue) + 1));
  loads_in_flight_.push_back(LoadInFlight{back, bytes, sm});
  std::push_heap(loads_in_flight_.begin(), loads_in_flight_.end(), std::greater<>());
  device_bytes_ += bytes;
  sm_bytes += bytes;
  return std::max(cycle_ + 1, back);
}

void Scheduler::Launch(int block, std::int64_t cycle) {
  block_launched_[static_cast<std::size_t>(block)] = 1;
  for (int warp = block * warps_per_block_; warp < (block + 1) * warps_per_block_; ++warp) {
    const auto w = static_cast<std::size_t>(warp);
    if (w >= warps_.size()) break;
    WarpTiming& timing = warps_[w];
    timing.ready = std::max(timing.ready, cycle);
    if (timing.runnable) Queue(warp, timing.ready);
  }
}

void Scheduler::OnBlockExit(int block) {
  if (!IssuesWarps()) return;
  const int next = block + kSmCount * blocks_per_sm_;
  if (next < static_cast<int>(block_launched_.size())) Launch(next, cycle_ + 1);
}

std::optional<int> Scheduler::NextThreadInOrder() {
  if (auto thread = FindSet(runnable_threads_, last_thread_ + 1, thread_hint_)) return thread;
  return FindSet(runnable_threads_, 0, thread_hint_);
}

bool Scheduler::NextThread(Unit& unit) {
  std::optional<int> thread;
  switch (kind_) {
    case SchedulerKind::kRealistic:
      break;  // it issues warps (Next)
    case SchedulerKind::kThreadOrder:
      thread = NextThreadInOrder();
      break;
    case SchedulerKind::kRandom:
      if (!runnable_list_.empty()) thread = runnable_list_[random_.Below(runnable_list_.size())];
      break;
    case SchedulerKind::kRaceExposing:
      thread = FindSet(runnable_threads_, 0, thread_hint_);
      break;
  }
  if (!thread) return false;
  ++cycle_;  // the realistic policy's clock is set by NextWarp
  last_thread_ = *thread;
  unit = Unit{false, *thread};
  return true;
}

std::size_t Scheduler::Bytes() const {
  return runnable_threads_.capacity() * sizeof(std::uint64_t) +
         (runnable_list_.capacity() + list_position_.capacity()) * sizeof(std::int32_t) +
         warps_.capacity() * sizeof(WarpTiming) + block_launched_.capacity() +
         (issue_free_.capacity() + shared_free_.capacity() + sm_bytes_.capacity()) * sizeof(std::int64_t) +
         loads_in_flight_.capacity() * sizeof(LoadInFlight) + queue_.Bytes();
}

bool Scheduler::WarpTiming::operator==(const WarpTiming& o) const {
  return ready == o.ready && load_section == o.load_section && queued_at == o.queued_at &&
         sub_partition == o.sub_partition && runnable == o.runnable;
}

bool Scheduler::operator==(const Scheduler& o) const {
  return kind_ == o.kind_ && random_ == o.random_ && cycle_ == o.cycle_ && last_thread_ == o.last_thread_ &&
         runnable_threads_ == o.runnable_threads_ && runnable_list_ == o.runnable_list_ && warps_ == o.warps_ &&
         block_launched_ == o.block_launched_ && loads_in_flight_ == o.loads_in_flight_ &&
         device_bytes_ == o.device_bytes_ && sm_bytes_ == o.sm_bytes_ && issue_free_ == o.issue_free_ &&
         shared_free_ == o.shared_free_ && queue_ == o.queue_;
}

}  // namespace sim
