// warp_access_groups.h — which lanes' memory accesses of a student's kernel count as one
// warp-instruction, whatever the scheduler: the lanes of one warp at the same instruction after
// the same number of loop back-edges (the same program order), which a warp issuing in lockstep
// runs together. The warp scheduler issues them in one step; a scheduler of threads issues them
// one at a time, in any order and far apart. So a group stays open while a lane of its warp may
// still join it, and each lane that joins adds what it changes: a sector no lane of the group
// touched yet, or the extra wavefront its bank conflict costs. Global sectors and bank conflicts
// therefore count the same under every scheduler (bank_conflict_test.cpp and counts_test.cpp
// check them against formulas under each).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sim/model/warp.h"

namespace sim {

// The wavefronts a shared access of `lanes` takes, lane l at `words[l]`: the most distinct
// words one bank serves (32 banks of 4-byte words); 0 for no lane.
int SharedWavefronts(const std::array<std::int64_t, kWarpSize>& words, std::uint32_t lanes);

// One warp-instruction's accesses so far.
struct WarpAccessGroup {
  std::int64_t order = 0;     // back-edges · code size + instruction
  std::uint32_t joined = 0;   // lanes that ran it (bit l: lane l)
  std::uint32_t touched = 0;  // ... of those, lanes that touched memory (inside their array)
  std::array<std::int64_t, kWarpSize> places{};  // a touching lane's global sector or shared word
  bool operator==(const WarpAccessGroup& o) const;
};

// A warp's open groups, oldest first.
class WarpAccessGroups {
 public:
  // The group at `order`, opened if none is.
  WarpAccessGroup& At(std::int64_t order);
  // Closes the group at `order`: every lane of the warp has run it or exited.
  void Close(std::int64_t order);
  // Whether enough groups are open that those before the warp's slowest lane should go.
  bool WantsPruning() const { return groups_.size() >= prune_at_; }
  // Closes the groups before `oldest_needed`, which no lane can join any more.
  void Prune(std::int64_t oldest_needed);
  std::size_t size() const { return groups_.size(); }
  std::size_t Bytes() const { return groups_.capacity() * sizeof(WarpAccessGroup); }
  bool operator==(const WarpAccessGroups& o) const { return groups_ == o.groups_ && prune_at_ == o.prune_at_; }

 private:
  static constexpr std::size_t kMinPruneAt = 16;
  std::vector<WarpAccessGroup> groups_;  // by order
  std::size_t prune_at_ = kMinPruneAt;
};

}  // namespace sim
