#include "sim/model/history.h"

#include <algorithm>
#include <iterator>

namespace sim {
namespace {

// Replaying is cheap next to copying a state: space checkpoints so the copies cost a
// small fraction of the steps between them. A step of a large lesson takes 0.2-0.3 µs; a
// checkpoint's copy writes fresh memory at about 1-2 GB/s (faulting its pages in the
// first time): 128 bytes of state per step between checkpoints keeps the copies near a
// tenth of the run, and a step back within 50 ms for lessons up to 256³ (against 1 KiB: 256³
// TILE 16 CPU 0.358 → 0.323 s, a 128³ lesson's peak 185.3 → 132.8 MiB; 65e3fa1).
constexpr std::int64_t kMinInterval = 64;
constexpr std::size_t kBytesPerReplayedStep = 128;
constexpr std::size_t kMinCheckpoints = 4;

// Hazard arenas and events grow while running: a checkpoint is planned with room for them.
std::size_t PlannedStateBytes(std::size_t initial_bytes) { return std::max<std::size_t>(1, initial_bytes * 3 / 2); }
std::size_t MaxCheckpoints(std::size_t budget, std::size_t planned) { return std::max(kMinCheckpoints, budget / planned); }
std::int64_t FirstInterval(std::size_t planned) {
  return std::max<std::int64_t>(kMinInterval, static_cast<std::int64_t>(planned / kBytesPerReplayedStep));
}

}  // namespace

void History::Reset(const MachineState& initial) {
  checkpoints_.clear();
  spares_.clear();
  state_bytes_ = PlannedStateBytes(initial.Bytes());
  max_checkpoints_ = MaxCheckpoints(budget_, state_bytes_);
  interval_ = FirstInterval(state_bytes_);
  checkpoints_.emplace(0, initial);
}

std::uint64_t History::PeakBytes(std::uint64_t initial_bytes, std::uint64_t checkpoint_bytes, std::int64_t steps,
                                 std::size_t budget_bytes) {
  const std::size_t planned = PlannedStateBytes(static_cast<std::size_t>(initial_bytes));
  const std::uint64_t on_grid = static_cast<std::uint64_t>(std::max<std::int64_t>(steps, 0) / FirstInterval(planned)) + 1;
  const std::uint64_t by_budget = std::max<std::uint64_t>(kMinCheckpoints, budget_bytes / std::max<std::uint64_t>(checkpoint_bytes, 1));
  // Thinning keeps at most the cap, and its dropped states stay allocated as spares.
  const std::uint64_t cap = std::min<std::uint64_t>(MaxCheckpoints(budget_bytes, planned), by_budget) + 1;
  return std::min(on_grid, cap) * checkpoint_bytes;
}

void History::OnStep(const MachineState& state) {
  if (state.step % interval_ != 0 || checkpoints_.count(state.step) != 0) return;
  if (spares_.empty()) {
    checkpoints_.emplace(state.step, state);
  } else {
    auto node = std::move(spares_.back());
    spares_.pop_back();
    node.key() = state.step;
    node.mapped() = state;
    checkpoints_.insert(std::move(node));
  }
  // The count planned from the initial state, or the budget: the hazard arenas of a lesson
  // without a __syncthreads() grow far past the initial state's size as it runs.
  if (checkpoints_.size() > max_checkpoints_ || (checkpoints_.size() > kMinCheckpoints && Bytes() > budget_)) Thin();
}

void History::Thin() {
  interval_ *= 2;
  for (auto it = checkpoints_.begin(); it != checkpoints_.end();) {
    if (it->first % interval_ == 0) {
      ++it;
    } else {
      spares_.push_back(checkpoints_.extract(it++));
      // Its arena chunks are other states' too, and a copy into it replaces them anyway.
      spares_.back().mapped().hazard_detector.ReleaseArenas();
    }
  }
}

const MachineState& History::Nearest(std::int64_t step) const {
  auto it = checkpoints_.upper_bound(step);
  return std::prev(it)->second;
}

std::size_t History::Bytes() const {
  std::size_t bytes = 0;
  for (const auto& [step, state] : checkpoints_) bytes += state.Bytes();
  for (const auto& spare : spares_) bytes += spare.mapped().Bytes();
  return bytes;
}

}  // namespace sim
