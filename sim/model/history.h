// history.h — exact step back in bounded memory: checkpoints of the machine's state every
// `interval` steps, and deterministic replay from the nearest one. When the checkpoints
// outgrow their budget, every other one is dropped and the interval doubles, so a long
// run keeps O(budget) bytes and a step back replays at most one interval. Dropped states
// are recycled as the next checkpoints.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/model/machine.h"

namespace sim {

constexpr std::size_t kDefaultHistoryBudget = std::size_t{128} << 20;

class History {
 public:
  explicit History(std::size_t budget_bytes = kDefaultHistoryBudget) : budget_(budget_bytes) {}

  // Starts over from the machine's initial state (step 0, always kept).
  void Reset(const MachineState& initial);
  // Called after every step; keeps the state when its step is on the checkpoint grid.
  void OnStep(const MachineState& state);
  // The latest checkpoint at or before `step`.
  const MachineState& Nearest(std::int64_t step) const;
  std::size_t Bytes() const;
  // The most its checkpoints take over a run of `steps`, for sim/memory_estimate: the grid
  // planned from the initial state's bytes, capped by the count planned and by the budget
  // over a checkpoint's own bytes, whichever thins first.
  static std::uint64_t PeakBytes(std::uint64_t initial_bytes, std::uint64_t checkpoint_bytes, std::int64_t steps,
                                 std::size_t budget_bytes = kDefaultHistoryBudget);
  std::int64_t interval() const { return interval_; }
  std::size_t size() const { return checkpoints_.size(); }

 private:
  void Thin();

  std::size_t budget_;
  std::size_t state_bytes_ = 1;
  std::size_t max_checkpoints_ = 4;
  std::int64_t interval_ = 64;
  std::map<std::int64_t, MachineState> checkpoints_;
  // Checkpoints Thin() dropped, kept to be overwritten by the next ones: a copy into a state
  // of the same lesson reuses its buffers, where a fresh one would allocate and fault in
  // every page again (256³ TILE 16, both barriers: page faults 53,400 → 37,800 a run;
  // 460dd6b). Never more states in all than before the thinning.
  std::vector<std::map<std::int64_t, MachineState>::node_type> spares_;
};

}  // namespace sim
